//! Pipes and signals, one policy for every command: a reader that goes
//! away is no error (no panic, files whole, the command's own status);
//! SIGINT, SIGTERM and SIGHUP stop a command after it wrote what it
//! finished, with the status 128 + the signal; a signal ignored at start
//! (nohup) stays ignored.

use serde_json::Value;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

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

/// Starts `cmd` with SIGINT, SIGTERM and SIGHUP at their defaults
/// whatever this test inherited (as an interactive shell starts it), or
/// with SIGHUP and SIGINT ignored, as `nohup` in a script's background
/// job starts it.
pub(crate) fn spawn(mut cmd: Command, nohup: bool) -> Child {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    // SAFETY: signal() is async-signal-safe, so it may run between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            for s in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::signal(s, libc::SIG_DFL);
            }
            if nohup {
                libc::signal(libc::SIGHUP, libc::SIG_IGN);
                libc::signal(libc::SIGINT, libc::SIG_IGN);
            }
            Ok(())
        });
    }
    cmd.spawn().unwrap()
}

/// `design` on 1024 PCs for up to `seconds`, into `dir`/o with a log in
/// `dir`/log; it returns once the log says the search started.
fn design_1024(dir: &Path, seconds: &str, nohup: bool) -> Child {
    let mut cmd = fnn();
    cmd.args(["design", SPEC_1024, "--time-limit", seconds, "-o"])
        .arg(dir.join("o"))
        .arg("--log")
        .arg(dir.join("log"));
    let mut child = spawn(cmd, nohup);
    wait_until(&mut child, "the search's start in the log", || {
        std::fs::read_to_string(dir.join("log")).is_ok_and(|l| l.contains("run started"))
    });
    child
}

/// Waits until `ready` holds: a hang check, never a speed test.
fn wait_until(child: &mut Child, what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("exited ({status}) before {what}");
        }
        if start.elapsed() > Duration::from_secs(600) {
            child.kill().unwrap();
            panic!("no {what} in ten minutes");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Sends `signal`, waits for the exit (ten minutes at most: a hang check)
/// and returns the status and stderr.
fn stop(child: &mut Child, signal: libc::c_int) -> (ExitStatus, String) {
    // SAFETY: kill has no memory preconditions; the pid is our child's.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(600) {
            child.kill().unwrap();
            panic!("still running ten minutes after signal {signal}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(!err.contains("panicked"), "{err}");
    (status, err)
}

const SIGNALS: [(libc::c_int, &str, i32); 3] = [
    (libc::SIGINT, "INT", 130),
    (libc::SIGTERM, "TERM", 143),
    (libc::SIGHUP, "HUP", 129),
];

const SPEC_1024: &str = "assets/specs/cluster-1024.toml";

/// `design` under SIGTERM or SIGHUP (timeout, a batch scheduler, a closed
/// ssh) was killed with nothing written: now it writes the best design
/// so far, as on Ctrl-C, and exits 143 or 129.
#[test]
fn design_writes_its_best_then_exits_with_the_signal() {
    for (signal, name, code) in SIGNALS {
        let d = tempfile::tempdir().unwrap();
        let mut child = design_1024(d.path(), "600", false);
        let (status, err) = stop(&mut child, signal);
        assert_eq!(status.code(), Some(code), "SIG{name}: {status}\n{err}");
        let report = table_matches_report(&d.path().join("o"), &[SPEC_1024]);
        assert_eq!(report["stop_reason"], "Interrupted", "SIG{name}");
    }
}

/// `design --exact` on an instance its solver does not settle soon: the
/// solver gives up at the signal instead of holding the command until
/// its time limit (an hour here), says so, and the status is the signal's.
#[test]
fn the_exact_mode_stops_at_the_signal() {
    for (signal, name, code) in SIGNALS {
        let d = tempfile::tempdir().unwrap();
        let mut cmd = fnn();
        cmd.args(["design", "--exact", "--pcs", "64", "--nics", "4", "--switches", "22x*"])
            .args(["--time-limit", "3600", "-o"])
            .arg(d.path().join("o"))
            .arg("--log")
            .arg(d.path().join("log"));
        let mut child = spawn(cmd, false);
        wait_until(&mut child, "the solver's start in the log", || {
            std::fs::read_to_string(d.path().join("log")).is_ok_and(|l| l.contains("exact: solving"))
        });
        let (status, _) = stop(&mut child, signal);
        let mut said = String::new();
        std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut said).unwrap();
        assert_eq!(status.code(), Some(code), "SIG{name}: {status}\n{said}");
        assert!(said.contains("exact: unknown: interrupted"), "SIG{name}: {said}");
        assert!(
            !d.path().join("o").exists(),
            "SIG{name}: nothing found, nothing written"
        );
    }
}

/// Under `nohup` SIGHUP is ignored, and in a script's background job
/// SIGINT, and they stay so: the search runs to its own end (a stall or
/// the time limit) and writes its design.
#[test]
fn a_signal_ignored_at_start_stays_ignored() {
    let d = tempfile::tempdir().unwrap();
    let mut child = design_1024(d.path(), "8", true);
    // SAFETY: kill has no memory preconditions; the pid is our child's.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) }, 0);
    let (status, err) = stop(&mut child, libc::SIGHUP);
    assert_eq!(status.code(), Some(0), "{status}\n{err}");
    let report = json_file(&d.path().join("o/report.json"));
    assert_ne!(report["stop_reason"], "Interrupted", "{report}");
}

/// `sweep` under SIGTERM left the CSV it saves every few seconds beside
/// a stale SVG (or none): now both are written from the same sizes.
#[test]
fn sweep_writes_its_csv_and_svg_then_exits_with_the_signal() {
    for (signal, name, code) in SIGNALS {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("s");
        let csv = out.join("sweep.csv");
        let mut cmd = fnn();
        // With 7 NICs most sizes are over the bound, where the GA
        // searches narrower switches for seconds.
        cmd.args([
            "sweep",
            "--pcs",
            "3..400",
            "--nics",
            "7",
            "--ga-pcs",
            "400",
            "--threads",
            "1",
            "-o",
        ])
        .arg(&out);
        let mut child = spawn(cmd, false);
        wait_until(&mut child, "a first save of sweep.csv", || csv.exists());
        let (status, err) = stop(&mut child, signal);
        assert_eq!(status.code(), Some(code), "SIG{name}: {status}\n{err}");
        let text = std::fs::read_to_string(&csv).unwrap();
        let points = fnn_tui::sweep::parse_csv(&text, "sweep.csv").unwrap();
        assert!(!points.is_empty() && points.len() < 398, "SIG{name}: cut short");
        let svg = std::fs::read_to_string(out.join("sweep.svg")).unwrap_or_else(|e| panic!("SIG{name}: {e}"));
        let title = svg
            .split("<title>")
            .nth(1)
            .and_then(|t| t.split("</title>").next())
            .unwrap();
        assert_eq!(
            svg,
            fnn_tui::sweep::svg(&points, title),
            "SIG{name}: the SVG is not the CSV's"
        );
    }
}

/// `cmd` started with `signal` already sent and waiting (blocked, as a
/// parent can leave it): it arrives as soon as fnn-tui watches for it,
/// whichever command runs.
fn with_pending(mut cmd: Command, signal: libc::c_int) -> Output {
    // SAFETY: signal, sigprocmask and kill are async-signal-safe, so they
    // may run between fork and exec; the set is initialised before use.
    unsafe {
        cmd.pre_exec(move || {
            libc::signal(signal, libc::SIG_DFL);
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, signal);
            libc::sigprocmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            libc::kill(libc::getpid(), signal);
            Ok(())
        });
    }
    cmd.output().unwrap()
}

/// Every command under the policy: a signal stops it after it wrote
/// what it finished (a search its best so far), with 128 + the signal.
#[test]
fn every_command_finishes_what_it_can_then_exits_with_the_signal() {
    let d = tempfile::tempdir().unwrap();
    let p = |rel: &str| d.path().join(rel);
    let run = |args: &[&str], signal: libc::c_int, code: i32| {
        let mut cmd = fnn();
        cmd.current_dir(d.path()).args(args);
        let out = with_pending(cmd, signal);
        exited_quietly(&args.join(" "), &out, code);
        String::from_utf8(out.stdout).unwrap()
    };
    for (signal, name, code) in SIGNALS {
        let design = run(&[&["design", "-o", "d"][..], &KLAT2_QUICK].concat(), signal, code);
        assert!(design.contains("wrote d/switches.txt"), "SIG{name}: {design}");
        let report = table_matches_report(&p("d"), &KLAT2_QUICK);
        assert_eq!(report["stop_reason"], "Interrupted");
        let check = run(
            &[&["check", "--table", "d/switches.txt"][..], &KLAT2_QUICK].concat(),
            signal,
            code,
        );
        assert!(
            check.contains("VALID") || check.contains("INVALID"),
            "SIG{name}: {check}"
        );
        let compare = run(&["compare", "--format", "csv"], signal, code);
        assert!(compare.lines().any(|l| l.starts_with("FNN")), "SIG{name}: {compare}");
        // Stopped before any hardware was found valid: nothing to write, and it says so.
        let mut cheapest = fnn();
        cheapest.current_dir(d.path()).args(["cheapest", "-o", "c"]);
        let cheapest = with_pending(cheapest, signal);
        exited_quietly("cheapest", &cheapest, code);
        let said = String::from_utf8_lossy(&cheapest.stderr);
        assert!(
            said.contains("interrupted") && said.contains("nothing written"),
            "{said}"
        );
        assert!(!p("c").exists(), "SIG{name}");
        let export = [
            &["export", "--table", "d/switches.txt", "-o", "e", "--force"][..],
            &KLAT2_QUICK,
        ]
        .concat();
        run(&export, signal, code);
        assert!(p("e/cables.csv").is_file() && p("e/routing").is_dir(), "SIG{name}");
        run(&["sweep", "--pcs", "3..9", "--nics", "2", "-o", "s"], signal, code);
        assert!(p("s/sweep.csv").is_file() && p("s/sweep.svg").is_file(), "SIG{name}");
        let probes = probe_results(d.path());
        let verify = [
            &["verify", "--table", "d/switches.txt", "--results", &probes][..],
            &KLAT2_QUICK,
        ]
        .concat();
        let verified = run(&verify, signal, code);
        assert!(!verified.is_empty(), "SIG{name}: verify said nothing");
        assert!(run(&["completions", "bash"], signal, code).contains("fnn-tui"));
        assert!(run(&["man"], signal, code).contains(".TH"));
        for made in ["d", "e", "s"] {
            std::fs::remove_dir_all(p(made)).unwrap();
        }
    }
}

/// Every file under `dir`, with its size.
fn files(dir: &Path) -> Vec<(PathBuf, u64)> {
    let mut all = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                todo.push(e.path());
            } else {
                let rel = e.path().strip_prefix(dir).unwrap().to_path_buf();
                all.push((rel, e.metadata().unwrap().len()));
            }
        }
    }
    all.sort();
    all
}

/// Whether `parent` holds a staging folder (an export being written).
fn staging_in(parent: &Path) -> bool {
    std::fs::read_dir(parent)
        .unwrap()
        .any(|e| e.unwrap().file_name().to_string_lossy().contains(".staging-"))
}

/// `export` was killed by SIGINT, SIGTERM or SIGHUP mid-write (staging
/// left, nothing exported): now it finishes the folder, leaves no staging,
/// and exits with the signal's status.
#[test]
fn export_is_whole_then_exits_with_the_signal() {
    let d = tempfile::tempdir().unwrap();
    let quick = ["--pcs", "384", "--nics", "5", "--switches", "128x*"];
    let design = d.path().join("d");
    let designed = fnn()
        .args(["design", "-q", "--generations", "1", "-o"])
        .arg(&design)
        .args(quick)
        .status()
        .unwrap();
    assert_eq!(designed.code(), Some(0));
    let table = design.join("switches.txt").display().to_string();
    let export = |out: &Path| {
        let mut cmd = fnn();
        cmd.args(["export", "--table", &table]).args(quick).arg("-o").arg(out);
        cmd
    };
    let whole = d.path().join("whole");
    assert!(export(&whole).status().unwrap().success());
    let expected = files(&whole);
    std::fs::remove_dir_all(&whole).unwrap();
    for (signal, name, code) in SIGNALS {
        let parent = d.path().join(name);
        std::fs::create_dir(&parent).unwrap();
        let out = parent.join("e");
        let mut child = spawn(export(&out), false);
        wait_until(&mut child, "a staging folder", || staging_in(&parent));
        assert!(!out.exists(), "SIG{name}: sent before the export was done");
        let (status, err) = stop(&mut child, signal);
        assert_eq!(status.code(), Some(code), "SIG{name}: {status}\n{err}");
        assert!(!staging_in(&parent), "SIG{name}: staging left");
        assert_eq!(files(&out), expected, "SIG{name}: the export is not whole");
        std::fs::remove_dir_all(&parent).unwrap();
    }
}

/// The exit-status table, under every command's help and in the man
/// page, says what each signal does.
#[test]
fn the_help_and_the_man_page_list_every_signal_status() {
    let statuses = ["129", "130", "143", "SIGHUP", "SIGINT", "SIGTERM"];
    let text = |args: &[&str]| {
        let out = fnn().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    for cmd in [
        "design",
        "check",
        "export",
        "compare",
        "sweep",
        "cheapest",
        "emulate",
        "verify",
        "completions",
        "man",
    ] {
        let help = text(&[cmd, "--help"]);
        for s in statuses {
            assert!(help.contains(s), "{cmd} --help has no {s}:\n{help}");
        }
    }
    let top = text(&["--help"]);
    let man = text(&["man"]);
    for s in statuses {
        assert!(top.contains(s) && man.contains(s), "--help or man has no {s}");
    }
}
