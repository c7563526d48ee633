//! The command line's conventions, one test each: one exit-status table,
//! 130 on Ctrl-C, `--json` on every reporting command, completions and a
//! man page generated from the parser, numbers in reports that agree.

use assert_cmd::Command;
use serde_json::Value;

fn fnn() -> Command {
    Command::cargo_bin("fnn-tui").unwrap()
}

fn json(out: &assert_cmd::assert::Assert) -> Value {
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
}

/// `--json` existed only on check, emulate and verify: every command that
/// reports prints one JSON document on stdout and nothing else there.
#[test]
fn every_reporting_command_speaks_json() {
    let d = tempfile::tempdir().unwrap();
    let p = |rel: &str| d.path().join(rel).display().to_string();
    let design = fnn().args(["design", "--json", "-o", &p("d")]).assert().success();
    let r = json(&design);
    assert_eq!(r["valid"], true);
    // The first valid design is timed on the search's own clock.
    assert!(
        r["first_valid_s"].as_f64().unwrap() <= r["elapsed_s"].as_f64().unwrap(),
        "{r}"
    );
    let table = p("d/switches.txt");
    let check = fnn().args(["check", "--json", "--table", &table]).assert().success();
    assert_eq!(json(&check)["valid"], true);
    let export = fnn()
        .args(["export", "--json", "assets/specs/klat2.toml"])
        .args(["--table", &table, "--only", "table,csv", "-o", &p("e")])
        .assert()
        .success();
    let e = json(&export);
    assert_eq!(e["valid"], true);
    assert!(
        e["files"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f.as_str().unwrap().ends_with("cables.csv"))
    );
    let compare = fnn()
        .args(["compare", "--json", "--time-limit", "5"])
        .assert()
        .success();
    assert_eq!(json(&compare)["systems"][0]["system"], "FNN");
    let sweep = fnn()
        .args(["sweep", "--json", "--pcs", "3..6", "--nics", "2", "-o", &p("s")])
        .assert()
        .success();
    assert_eq!(json(&sweep).as_array().unwrap().len(), 4);
    let cheapest = fnn().args(["cheapest", "--json", "-o", &p("c")]).assert().success();
    let c = json(&cheapest);
    assert!(c["cost"]["total"].as_f64().unwrap() > 0.0);
    assert!(!c["candidates"].as_array().unwrap().is_empty());
    let csv = std::fs::read_to_string(d.path().join("c/candidates.csv")).unwrap();
    assert!(
        !csv.contains("NaN"),
        "a candidate with no count has no bound, not NaN:\n{csv}"
    );
}

/// The same impossible spec exited 2 from `design` but 1 from `design
/// --exact`: one table, and it is under every command's help.
#[test]
fn one_exit_status_table_for_every_command() {
    let impossible = ["--pcs", "20", "--nics", "2", "--switches", "8x3"];
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o").display().to_string();
    fnn().arg("design").args(impossible).args(["-o", &out]).assert().code(2);
    fnn()
        .args(["design", "--exact"])
        .args(impossible)
        .args(["-o", &out])
        .assert()
        .code(2);
    let exact = fnn()
        .args(["design", "--exact", "--json"])
        .args(impossible)
        .args(["-o", &out])
        .assert()
        .code(2);
    assert_eq!(json(&exact)["exact"]["verdict"], "impossible");
    for cmd in [
        "design", "check", "export", "compare", "sweep", "cheapest", "emulate", "verify",
    ] {
        let help = fnn().args([cmd, "--help"]).assert().success();
        let text = String::from_utf8(help.get_output().stdout.clone()).unwrap();
        assert!(
            text.contains("Exit status:") && text.contains("130"),
            "{cmd} --help:\n{text}"
        );
    }
    let export = fnn().args(["export", "--help"]).assert().success();
    assert!(String::from_utf8_lossy(&export.get_output().stdout).contains("racks"));
}

/// Ctrl-C on `design` exited 0: now 130, after writing the best so far.
#[test]
fn ctrl_c_exits_130_after_writing_what_it_has() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o");
    // A search that would go on for the whole minute: the shipped spec
    // stops after 500 generations or a stall of 500, which a fast machine
    // reaches before the signal.
    let spec = std::fs::read_to_string("assets/specs/cluster-1024.toml").unwrap();
    let endless = spec.replace(
        "generations = 500\n",
        "generations = 100000000\nstall_generations = 100000000\n",
    );
    assert_ne!(spec, endless, "the spec's [ga] generations line moved");
    std::fs::write(d.path().join("endless.toml"), endless).unwrap();
    let mut design = std::process::Command::new(assert_cmd::cargo::cargo_bin("fnn-tui"));
    design.arg("design").arg(d.path().join("endless.toml"));
    design.args(["--time-limit", "60", "-o"]).arg(&out);
    // SIGINT at its default, as a terminal's Ctrl-C finds it, even when
    // this test inherited it ignored (a script's background job).
    let mut child = crate::signals::spawn(design, false);
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: kill has no memory preconditions; the pid is our child's.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) }, 0);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert!(out.join("switches.txt").exists(), "the best design so far is written");
}

/// No completions and no man page: both are generated from the parser,
/// and bash accepts the script.
#[test]
fn completions_and_man_pages_come_from_the_parser() {
    let bash = fnn().args(["completions", "bash"]).assert().success();
    let script = String::from_utf8(bash.get_output().stdout.clone()).unwrap();
    assert!(script.contains("fnn-tui") && script.contains("cheapest"));
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("c.bash");
    std::fs::write(&file, &script).unwrap();
    let sourced = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("source {} && complete -p fnn-tui", file.display()))
        .output()
        .unwrap();
    assert!(sourced.status.success(), "{}", String::from_utf8_lossy(&sourced.stderr));
    let man = fnn().arg("man").assert().success();
    let page = String::from_utf8(man.get_output().stdout.clone()).unwrap();
    assert!(page.starts_with(".ie") || page.contains(".TH fnn-tui 1"), "{page}");
    assert!(page.contains(".SH \"EXIT STATUS\""), "{page}");
    fnn().args(["man", "-o"]).arg(d.path().join("man")).assert().success();
    for cmd in ["fnn-tui", "fnn-tui-design", "fnn-tui-export", "fnn-tui-verify"] {
        let p = d.path().join("man").join(format!("{cmd}.1"));
        assert!(std::fs::read_to_string(&p).unwrap().contains(".TH"), "{}", p.display());
    }
    fnn().args(["completions", "nosh"]).assert().code(2);
}

/// The examples (the benchmarks and tools the README and BENCHMARKS.md
/// run) parse their arguments as the binary does: `--help` explains them
/// and an unknown option is refused with status 2, never taken as data or
/// ignored. `cargo test` builds the examples beside the test binaries.
#[test]
fn examples_parse_their_arguments_with_help() {
    let here = std::env::current_exe().expect("the test binary's path");
    let dir = here
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps")
        .join("examples");
    let names: Vec<String> = std::fs::read_dir("examples")
        .expect("examples/")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".rs").map(str::to_string))
        .collect();
    assert!(names.len() >= 5, "examples found: {names:?}");
    for name in names {
        let exe = dir.join(&name);
        assert!(
            exe.exists(),
            "{} is not built: run the whole `cargo test` (it builds the examples) or `cargo build --examples`",
            exe.display()
        );
        let help = Command::new(&exe).arg("--help").assert().success();
        let text = String::from_utf8_lossy(&help.get_output().stdout).to_string();
        assert!(text.contains("Usage:"), "{name} --help:\n{text}");
        Command::new(&exe)
            .arg("--no-such-option")
            .assert()
            .code(2)
            .stderr(predicates::str::contains("--no-such-option"));
    }
}
