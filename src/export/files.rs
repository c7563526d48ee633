//! Writing a set of files into an output directory: never
//! outside it, each file atomically, and the directory marked incomplete
//! until the last file is in place, so a crash midway cannot pass for a
//! finished export.

use crate::atomic::{clean_stale_temps, sync_dir, write_atomic};
use std::path::{Path, PathBuf};

/// Present while an export is being written; left behind by a crash.
pub const INCOMPLETE_MARKER: &str = "EXPORT-INCOMPLETE.txt";

/// Whether `rel` is a relative path of plain components: letters, digits,
/// `-`, `_` and `.`, none empty, none starting with a dot (so no `..`).
pub fn is_plain_relative(rel: &str) -> bool {
    !rel.is_empty()
        && rel.split('/').all(|c| {
            !c.is_empty() && !c.starts_with('.') && c.chars().all(|ch| ch.is_ascii_alphanumeric() || "-_.".contains(ch))
        })
}

/// Why an export (or a set of files) was not written.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum ExportError {
    #[error("refusing to write {0:?}: not a plain file name inside the output directory")]
    NotPlain(String),
    #[error("refusing to write {path}: {via} leads outside the output directory")]
    Outside { path: String, via: String },
    #[error("cannot write {path}: {reason}")]
    Io { path: String, reason: String },
    #[error("routing: the IP plan covers at most {0} FNN switches")]
    TooManySwitches(usize),
    #[error(transparent)]
    Racks(#[from] super::racks::PlacementError),
    #[error(transparent)]
    Rewire(#[from] super::rewire::RewireError),
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> ExportError + '_ {
    move |e| ExportError::Io {
        path: path.display().to_string(),
        reason: e.to_string(),
    }
}

/// Writes `files` (paths relative to `dir`, and their text) into `dir`.
/// Every path is checked before anything is written; a directory inside
/// `dir` that resolves elsewhere (a symlink) is refused.
pub fn write_files(dir: &Path, files: &[(String, String)]) -> Result<Vec<PathBuf>, ExportError> {
    if let Some((bad, _)) = files.iter().find(|(rel, _)| !is_plain_relative(rel)) {
        return Err(ExportError::NotPlain(bad.clone()));
    }
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let root = dir.canonicalize().map_err(io(dir))?;
    let marker = dir.join(INCOMPLETE_MARKER);
    let note = format!(
        "fnn-tui was writing {} files here and did not finish: this export is incomplete.\nRun the export again; this file goes away when it succeeds.\n",
        files.len()
    );
    write_atomic(&marker, note.as_bytes()).map_err(io(&marker))?;
    let mut synced: Vec<PathBuf> = Vec::new();
    for (rel, text) in files {
        let path = dir.join(rel);
        let parent = path.parent().unwrap_or(dir);
        std::fs::create_dir_all(parent).map_err(io(parent))?;
        let real = parent.canonicalize().map_err(io(parent))?;
        if !real.starts_with(&root) {
            return Err(ExportError::Outside {
                path: path.display().to_string(),
                via: parent.display().to_string(),
            });
        }
        if !synced.contains(&real) {
            clean_stale_temps(&real);
            synced.push(real);
        }
        write_atomic(&path, text.as_bytes()).map_err(io(&path))?;
    }
    std::fs::remove_file(&marker).map_err(io(&marker))?;
    sync_dir(dir).map_err(io(dir))?;
    Ok(files.iter().map(|(rel, _)| dir.join(rel)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_relative_paths_only() {
        for ok in ["switches.txt", "routing/scripts/fnn-setup-k00.sh", "fat-tree/bom.csv"] {
            assert!(is_plain_relative(ok), "{ok}");
        }
        for bad in [
            "",
            "/etc/passwd",
            "../x",
            "a/../../x",
            "a//b",
            ".hidden",
            "a/b c",
            "routing/hosts/hosts.k\n",
        ] {
            assert!(!is_plain_relative(bad), "{bad:?}");
        }
    }

    #[test]
    fn nothing_is_written_outside_and_the_marker_goes_when_done() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("out");
        let e = write_files(&out, &[("a.txt".into(), "a".into()), ("../x.txt".into(), "x".into())])
            .unwrap_err()
            .to_string();
        assert!(e.contains("refusing"), "{e}");
        assert!(!root.path().join("x.txt").exists() && !out.join("a.txt").exists());
        // A symlinked directory inside the output leading out is refused.
        std::fs::create_dir_all(&out).unwrap();
        let elsewhere = root.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, out.join("routing")).unwrap();
        let e = write_files(&out, &[("routing/hosts.txt".into(), "h".into())])
            .unwrap_err()
            .to_string();
        assert!(e.contains("outside the output directory"), "{e}");
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
        assert!(out.join(INCOMPLETE_MARKER).exists(), "a failed export stays marked");
        std::fs::remove_file(out.join("routing")).unwrap();
        let written = write_files(&out, &[("routing/hosts.txt".into(), "h".into())]).unwrap();
        assert_eq!(written, vec![out.join("routing/hosts.txt")]);
        assert!(!out.join(INCOMPLETE_MARKER).exists());
    }
}
