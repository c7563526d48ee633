//! Runs every test (`cargo test` over the workspace) and tallies them.

use crate::checks::cargo;
use crate::step::Outcome;
use crate::tally::Tally;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;

/// Where a test that could not run leaves its note: one file per test.
pub const SKIPS: &str = "FNN_TEST_SKIPS";
/// The release binary the tests run where a user would run it.
pub const RELEASE: &str = "FNN_TUI_RELEASE_BIN";
/// Tests at once in each test binary, unless `RUST_TEST_THREADS` says:
/// most of them wait (on child processes, namespaces, Slurm, a PTY)
/// far more than they compute, so twice the cores keeps both busy. The
/// measured tests take turns by themselves whatever this says.
const THREADS_PER_CORE: usize = 2;

/// `cargo test --workspace` with `args`, its output passed through and
/// read for the tally, which lands in `tally` pass or fail.
pub fn run(release: Option<&Path>, args: &[String], tally: &mut Option<Tally>) -> Outcome {
    // A folder of its own, made exclusively and removed when dropped.
    let notes = match tempfile::Builder::new().prefix("fnn-test-skips-").tempdir() {
        Ok(d) => d,
        Err(e) => return Outcome::Failed(format!("a folder for the skipped tests' notes: {e}")),
    };
    let notes = notes.path();
    let mut c = cargo();
    c.args(["test", "--workspace", "--locked", "--no-fail-fast"]).args(args);
    c.env(SKIPS, notes).stdout(Stdio::piped());
    if std::env::var_os("RUST_TEST_THREADS").is_none() {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        c.env("RUST_TEST_THREADS", (cores * THREADS_PER_CORE).to_string());
    }
    if let Some(bin) = release {
        c.env(RELEASE, bin);
    }
    let mut t = Tally::default();
    let status = match c.spawn() {
        Ok(mut child) => {
            let out = child.stdout.take().expect("piped");
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                println!("{line}");
                t.read(&line);
            }
            child.wait()
        }
        Err(e) => Err(e),
    };
    t.skip(read_notes(notes));
    let verdict = match status {
        Ok(s) if s.success() && t.failed == 0 => Outcome::Passed,
        Ok(s) => Outcome::Failed(format!("cargo test ended with {s}; {} failed", t.failed)),
        Err(e) => Outcome::Failed(format!("cargo test did not start: {e}")),
    };
    *tally = Some(t);
    verdict
}

/// Each note the tests left: "TEST: needs WHAT".
fn read_notes(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .map(|n| n.trim().to_string())
        .collect()
}
