//! A design made from the quick flags alone (no spec file) is named by its
//! hardware in every message, and a refusal says "impossible" once.

use assert_cmd::Command;

fn design(args: &[&str]) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("fnn-tui")
        .unwrap()
        .arg("design")
        .args(args)
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_quick_flag_design_is_named_by_its_hardware() {
    let (code, stdout, _) = design(&[
        "--pcs",
        "8",
        "--nics",
        "3",
        "--switches",
        "6x5,4",
        "--generations",
        "50",
    ]);
    assert_eq!(code, Some(0), "{stdout}");
    let first = stdout.lines().next().unwrap_or_default();
    assert!(first.starts_with("8 PCs, 3 NICs, 6x5,4: VALID"), "{stdout}");
    assert!(!stdout.contains("command line"), "{stdout}");
}

#[test]
fn an_impossible_quick_flag_design_says_impossible_once_and_names_it() {
    let flags = ["--pcs", "64", "--nics", "2", "--switches", "4x8"];
    let (code, _, stderr) = design(&flags);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.starts_with("error: 64 PCs, 2 NICs, 4x8: impossible: n00 must reach 63 others"),
        "{stderr}"
    );
    let (code, stdout, _) = design(&[&flags[..], &["--exact"]].concat());
    assert_eq!(code, Some(2), "{stdout}");
    assert!(
        stdout.starts_with("exact: impossible: n00 must reach 63 others"),
        "{stdout}"
    );
    for text in [&stdout, &stderr] {
        assert!(text.matches("impossible").count() <= 1, "{text}");
        assert!(!text.contains("command line"), "{text}");
    }
}
