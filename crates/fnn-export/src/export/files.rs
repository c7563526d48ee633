//! Why an export was not written, and writing a set of finished texts as
//! one output (the designer's comparison); see [`fnn_core::output`].

use fnn_core::output::{OutputError, Staged};
use std::path::{Path, PathBuf};

/// Why an export (or a set of files) was not written.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum ExportError {
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error("routing: the IP plan covers at most {0} FNN switches")]
    TooManySwitches(usize),
    #[error(transparent)]
    Racks(#[from] super::racks::PlacementError),
    #[error(transparent)]
    Rewire(#[from] super::rewire::RewireError),
    #[error(
        "the design is not valid ({0} required pair(s) share no switch): labels and boot scripts would build a network that does not connect them; export a valid design, or give --allow-invalid to write them anyway (every file then says it is not valid)"
    )]
    Invalid(u64),
    #[error(
        "the export would write {} or more, more than the {} allowed: give --max-size {} (or more) to write it anyway, or fewer artifacts with --only",
        fnn_core::budget::human(*.estimate),
        fnn_core::budget::human(*.limit),
        size_arg(*.estimate)
    )]
    TooBig { estimate: u64, limit: u64 },
}

/// A `--max-size` value (whole GiB, or MiB) at least `bytes`.
fn size_arg(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{}G", bytes.div_ceil(1 << 30))
    } else {
        format!("{}M", bytes.div_ceil(1 << 20).max(1))
    }
}

/// Writes `files` (paths relative to `dir`, and their text) as one output
/// of `kind` into `dir`.
pub fn write_files(dir: &Path, kind: &str, files: &[(String, String)]) -> Result<Vec<PathBuf>, ExportError> {
    let mut out = Staged::new(dir, kind)?;
    for (rel, text) in files {
        out.write(rel, text.as_bytes())?;
    }
    Ok(out.commit()?)
}

/// `design`'s output: the switch table and the report, as one output
/// (both or neither); returns their paths.
pub fn write_design(
    dir: &Path,
    design: &fnn_core::design::Design,
    report: &fnn_core::report::Report,
) -> Result<(PathBuf, PathBuf), ExportError> {
    let files = [
        ("switches.txt".to_string(), fnn_core::design::format_table(design)),
        ("report.json".to_string(), report.to_json()),
    ];
    write_files(dir, "design", &files)?;
    Ok((dir.join("switches.txt"), dir.join("report.json")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_written_outside_and_a_failed_output_leaves_the_old_one() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        write_files(&out, "t", &[("a.txt".into(), "old".into())]).unwrap();
        let e = write_files(
            &out,
            "t",
            &[("a.txt".into(), "a".into()), ("../x.txt".into(), "x".into())],
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("../x.txt"), "{e}");
        assert!(!d.path().join("x.txt").exists());
        assert_eq!(std::fs::read_to_string(out.join("a.txt")).unwrap(), "old");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1, "no staging left");
    }
}
