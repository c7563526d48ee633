//! `fnn-tui check` says what a user needs to act on: where the pairs it
//! leaves out are listed, which PCs no switch names (and whether the
//! table's highest number looks like a typo), and pair-file errors as
//! `file:line: what is wrong, what is allowed`.

use assert_cmd::Command;
use std::path::Path;

fn check(dir: &Path, table: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let t = dir.join("t.txt");
    std::fs::write(&t, table).unwrap();
    let out = Command::cargo_bin("fnn-tui")
        .unwrap()
        .current_dir(dir)
        .arg("check")
        .args(args)
        .arg("--table")
        .arg(&t)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_typed_pc_number_past_the_others_is_named_as_a_likely_typo() {
    let dir = tempfile::tempdir().unwrap();
    // PC 3 typed as 9: without a spec the cluster becomes 10 PCs.
    let (code, stdout, _) = check(dir.path(), "0: 0 1 2 9\n", &[]);
    assert_eq!(code, Some(1), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].contains("NOT VALID"), "{stdout}");
    // Right under the verdict, before the uncovered pairs.
    assert!(
        lines[1].contains("PCs 3-8 (n3 to n8, 6 PCs) are on no switch"),
        "{stdout}"
    );
    assert!(lines[1].contains("is PC 9 a typo?"), "{stdout}");
    assert!(
        lines[1].contains("0 uncovered pairs between PCs on switches"),
        "{stdout}"
    );
    // With the JSON on stdout, the note goes to stderr.
    let (_, json, stderr) = check(dir.path(), "0: 0 1 2 9\n", &["--json"]);
    assert!(serde_json::from_str::<serde_json::Value>(&json).is_ok(), "{json}");
    assert!(stderr.contains("is PC 9 a typo?"), "{stderr}");
    // Against a spec, the missing PCs are named without the guess.
    let (_, stdout, _) = check(
        dir.path(),
        "0: 0 1 2\n",
        &["--pcs", "5", "--nics", "1", "--switches", "5"],
    );
    assert!(
        stdout.contains("PCs 3-4 (n3 to n4, 2 PCs) are on no switch: add them"),
        "{stdout}"
    );
    assert!(!stdout.contains("typo"), "{stdout}");
}

#[test]
fn the_summary_points_at_where_the_other_uncovered_pairs_are_listed() {
    let dir = tempfile::tempdir().unwrap();
    // 39 uncovered pairs: 10 named, 29 more.
    let (_, stdout, _) = check(dir.path(), "0: 0 1 2 9\n", &[]);
    assert!(stdout.contains("... 29 more in the --json report"), "{stdout}");
    assert!(!stdout.contains("report.json"), "check writes no report.json: {stdout}");
    assert!(!dir.path().join("report.json").exists());
    let (_, json, _) = check(dir.path(), "0: 0 1 2 9\n", &["--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["metrics"]["uncovered"].as_array().map(Vec::len), Some(39), "{json}");
    // Past the 1000 the report lists, the summary says so.
    let (_, stdout, _) = check(dir.path(), "0: 0 1 2 99\n", &[]);
    assert!(
        stdout.contains("... 4934 more (the --json report lists the first 1000)"),
        "{stdout}"
    );
}

#[test]
fn pair_file_errors_read_file_colon_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "0 1\n0 x\n",
            "garbage.pairs:2: \"0 x\" is not a pair: a line is `a b [weight]`",
        ),
        (
            "0 1 2 3\n",
            "garbage.pairs:1: 4 numbers is not a pair: a line is `a b [weight]`",
        ),
        ("# c\n\n0 7\n", "garbage.pairs:3: 7 is not a PC: PCs are 0 to 3"),
        (
            "0 1 -3\n",
            "garbage.pairs:1: weight -3 is not allowed: use a number from 0 to",
        ),
    ];
    for (text, expect) in cases {
        std::fs::write(dir.path().join("garbage.pairs"), text).unwrap();
        let (code, _, stderr) = check(dir.path(), "0: 0 1 2 3\n", &["--pairs", "garbage.pairs", "--sparse"]);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.starts_with(&format!("error: {expect}")), "{text:?}: {stderr}");
        assert!(!stderr.contains("field"), "{stderr}");
    }
}
