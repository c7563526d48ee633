//! Pipes and signals, one policy for every command: a reader that goes
//! away is no error (no panic, files whole, the command's own status).

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const KLAT2_QUICK: [&str; 6] = ["--pcs", "8", "--nics", "3", "--switches", "4x6"];

fn fnn() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("fnn-tui"))
}

/// A pipe whose reader is already gone, as under `| true`.
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    writer.into()
}

/// `fnn-tui ARGS` with stdout into a pipe nobody reads.
fn into_closed_pipe(args: &[&str]) -> Output {
    fnn()
        .args(args)
        .stdout(closed_pipe())
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// Exited by itself with `code`, and said nothing of a panic.
fn exited_quietly(what: &str, out: &Output, code: i32) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    assert_eq!(out.status.code(), Some(code), "{what}: {}\n{stderr}", out.status);
}

fn json_file(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON ({e})", path.display()))
}

/// `check --json` of the table under `spec_args`: the table parses, and
/// its metrics are those the report written beside it gives.
fn table_matches_report(dir: &Path, spec_args: &[&str]) -> Value {
    let out = fnn()
        .args(["check", "--json"])
        .args(spec_args)
        .arg("--table")
        .arg(dir.join("switches.txt"))
        .output()
        .unwrap();
    assert_ne!(
        out.status.code(),
        Some(2),
        "the table does not parse: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let checked: Value = serde_json::from_slice(&out.stdout).unwrap();
    let report = json_file(&dir.join("report.json"));
    assert_eq!(checked["metrics"], report["metrics"], "the table is the one reported");
    report
}

/// A folder of probe results from one of KLAT2_QUICK's PCs.
fn probe_results(dir: &Path) -> String {
    let results = dir.join("probes");
    std::fs::create_dir_all(&results).unwrap();
    let header = format!("fnn-probe {} n0\n", fnn_tui::routing::probe::VERSION);
    std::fs::write(results.join("fnn-probe-n0.txt"), header).unwrap();
    results.display().to_string()
}

/// `design | true` and `compare | head -1` panicked with exit 101
/// ("failed printing to stdout: Broken pipe"): now they finish their work,
/// write whole files and exit with their own status, as every command.
#[test]
fn a_reader_gone_is_no_error() {
    let d = tempfile::tempdir().unwrap();
    let p = |rel: &str| d.path().join(rel).display().to_string();
    let design = into_closed_pipe(&[&["design", "-o", &p("d")][..], &KLAT2_QUICK].concat());
    exited_quietly("design", &design, 0);
    table_matches_report(&d.path().join("d"), &KLAT2_QUICK);
    let table = p("d/switches.txt");
    let (e, s, probes) = (p("e"), p("s"), probe_results(d.path()));
    let compare = into_closed_pipe(&[&["compare", "--time-limit", "2"][..], &KLAT2_QUICK].concat());
    exited_quietly("compare", &compare, 0);
    let runs: [(&str, Vec<&str>); 6] = [
        (
            "compare --format csv",
            [&["compare", "--format", "csv"][..], &KLAT2_QUICK].concat(),
        ),
        ("check", [&["check", "--table", &table][..], &KLAT2_QUICK].concat()),
        ("check --json", vec!["check", "--json", "--table", &table]),
        (
            "export --json",
            [&["export", "--json", "--table", &table, "-o", &e][..], &KLAT2_QUICK].concat(),
        ),
        ("sweep", vec!["sweep", "--pcs", "3..6", "--nics", "2", "-o", &s]),
        (
            "verify",
            [&["verify", "--table", &table, "--results", &probes][..], &KLAT2_QUICK].concat(),
        ),
    ];
    for (what, args) in runs {
        let out = into_closed_pipe(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
        assert_ne!(out.status.code(), Some(101), "{what}: {stderr}");
    }
    assert!(d.path().join("e/cables.csv").is_file() && d.path().join("s/sweep.svg").is_file());
    // With stderr gone too (`2>&1 | head`), the work is still done.
    let both = fnn()
        .args(["design", "-o", &p("both")])
        .args(KLAT2_QUICK)
        .stdout(closed_pipe())
        .stderr(closed_pipe())
        .status()
        .unwrap();
    assert_eq!(both.code(), Some(0));
    table_matches_report(&d.path().join("both"), &KLAT2_QUICK);
}
