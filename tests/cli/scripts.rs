//! Every boot, announcement and probe script an export writes is shell that `sh -n` and
//! `dash -n` accept, whatever the design: random designs (valid or not,
//! NICs alone on their switch included) and the case that once broke the
//! probe script (a NIC with no neighbour gave an empty subshell). Each
//! takes its programs from root's own folders, whatever the caller's
//! `PATH`, and stops at its top, naming the package, when one is missing.

use crate::common;

use crate::common::{Need, Source};
use fnn_tui::design::{Design, parse_table};
use fnn_tui::export::{Options, write_all};
use fnn_tui::metrics::Metrics;
use fnn_tui::report::{Report, RunInfo};
use fnn_tui::spec::Cluster;
use proptest::prelude::*;
use std::path::Path;

/// The shells a PC may run the scripts with.
const SHELLS: [&str; 2] = ["sh", "dash"];

/// The routing export's scripts, each checked by every shell; the first
/// complaint, if any.
fn scripts_complaint(c: &Cluster, d: &Design) -> Option<String> {
    let (_dir, scripts) = exported(c, d);
    scripts.iter().find_map(|s| complaint(s))
}

/// Every script the routing export writes (setup, probe and announcement,
/// one each per PC), in the folder that holds them.
fn exported(c: &Cluster, d: &Design) -> (tempfile::TempDir, Vec<std::path::PathBuf>) {
    let dir = tempfile::tempdir().unwrap();
    let report = Report::new(c, Metrics::compute(d, c), RunInfo::default());
    // Random designs are often not valid: their scripts (with the
    // not-valid banner) must parse too.
    let only = Options {
        only: vec!["routing".into()],
        allow_invalid: true,
        ..Options::default()
    };
    write_all(dir.path(), c, d, &report, &only).unwrap();
    let mut scripts = Vec::new();
    for sub in ["routing/scripts", "routing/probe"] {
        for e in std::fs::read_dir(dir.path().join(sub)).unwrap() {
            scripts.push(e.unwrap().path());
        }
    }
    // The networkd path's announcement script, one per PC's folder.
    for pc in std::fs::read_dir(dir.path().join("routing/networkd")).unwrap() {
        scripts.push(pc.unwrap().path().join("fnn-announce.sh"));
    }
    assert!(!scripts.is_empty(), "scripts written");
    (dir, scripts)
}

fn complaint(script: &Path) -> Option<String> {
    SHELLS.iter().find_map(|shell| {
        let out = std::process::Command::new(shell)
            .arg("-n")
            .arg(script)
            .output()
            .unwrap();
        (!out.status.success()).then(|| {
            format!(
                "{shell} -n {}: {}\n{}",
                script.display(),
                String::from_utf8_lossy(&out.stderr),
                std::fs::read_to_string(script).unwrap_or_default()
            )
        })
    })
}

fn shells_here(test: &str) -> bool {
    common::machine_has(test, &[Need::Program("dash", Source::Apt("dash"))])
}

#[test]
fn a_nic_alone_on_its_switch_still_gets_a_valid_probe_script() {
    if !shells_here("scripts::a_nic_alone_on_its_switch_still_gets_a_valid_probe_script") {
        return;
    }
    // Valid (every pair meets on switch 0), and PC 0's second NIC is alone.
    let c = common::quick(4, 2, "4x2");
    let d = parse_table("0: 0 1 2 3\n1: 0\n", "lone", 4, 2).unwrap();
    assert!(Metrics::compute(&d, &c).valid);
    if let Some(why) = scripts_complaint(&c, &d) {
        panic!("{why}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_script_is_valid_shell(
        nics in 1u32..4,
        switches in 1usize..6,
        rows in prop::collection::vec(prop::collection::btree_set(0usize..6, 0..4), 2..9),
    ) {
        if !shells_here("scripts::every_script_is_valid_shell") {
            return Ok(());
        }
        let pcs = rows.len();
        let c = common::quick(pcs, nics, &format!("{pcs}x{switches}"));
        let mut d = Design::new(pcs, switches);
        for (pc, row) in rows.iter().enumerate() {
            for &sw in row.iter().filter(|&&s| s < switches).take(nics as usize) {
                d.connect(pc, sw);
            }
        }
        if let Some(why) = scripts_complaint(&c, &d) {
            prop_assert!(false, "{}", why);
        }
    }
}

/// Four PCs on two switches: the setup, probe and announcement scripts
/// of the two on both.
fn some_scripts() -> (tempfile::TempDir, Vec<std::path::PathBuf>) {
    let c = common::quick(4, 2, "4x2");
    let d = parse_table("0: 0 1 2 3\n1: 0 1\n", "four", 4, 2).unwrap();
    let (dir, all) = exported(&c, &d);
    let mine: Vec<_> = all
        .into_iter()
        .filter(|p| {
            let s = p.display().to_string();
            s.contains("-n0") || s.contains("/n0/") || s.contains("-n1") || s.contains("/n1/")
        })
        .collect();
    assert_eq!(mine.len(), 6, "setup, probe and announcement of n0 and n1");
    (dir, mine)
}

/// Runs `script` with nothing but `path` as its caller's PATH (and the
/// placeholder MACs allowed), as on a machine without `missing`, in
/// network and mount namespaces of its own, so whatever it configures
/// touches nothing here.
fn run_script(script: &Path, path: &Path, missing: &[&str]) -> std::process::Output {
    let args = [
        "-i".to_string(),
        format!("PATH={}", path.display()),
        "FNN_ALLOW_PLACEHOLDER_MACS=1".to_string(),
        "/bin/sh".to_string(),
        script.display().to_string(),
    ];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut w = common::without(missing, true, Path::new("/usr/bin/env"), &args);
    w.command.output().unwrap()
}

#[test]
fn a_script_without_ip_stops_at_its_top_naming_ip_and_iproute2() {
    let test = "scripts::a_script_without_ip_stops_at_its_top_naming_ip_and_iproute2";
    if !common::machine_has(test, common::MASKING) {
        return;
    }
    let (_dir, scripts) = some_scripts();
    let empty = tempfile::tempdir().unwrap();
    for script in &scripts {
        let out = run_script(script, empty.path(), &["ip"]);
        let err = String::from_utf8_lossy(&out.stderr);
        let shown = script.display();
        assert_eq!(out.status.code(), Some(127), "{shown}: {err}");
        assert!(err.contains(" ip (Debian package iproute2)"), "{shown}: {err}");
        // One line, the check's: nothing after it ran.
        assert_eq!(err.lines().count(), 1, "{shown} stops at its top: {err}");
        assert!(
            out.stdout.is_empty(),
            "{shown}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

#[test]
fn the_scripts_take_programs_from_roots_folders_not_the_callers_path() {
    let test = "scripts::the_scripts_take_programs_from_roots_folders_not_the_callers_path";
    if !common::machine_has(test, common::MASKING) {
        return;
    }
    let (_dir, scripts) = some_scripts();
    // Every program the scripts run, planted first on the caller's PATH:
    // each that runs leaves its name in `ran`.
    let planted = tempfile::tempdir().unwrap();
    let ran = planted.path().join("ran");
    for p in ["ip", "ping", "cat", "sleep", "grep", "mktemp", "rm"] {
        let fake = planted.path().join(p);
        std::fs::write(&fake, format!("#!/bin/sh\necho {p} >> '{}'\n", ran.display())).unwrap();
        std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }
    for script in &scripts {
        let text = std::fs::read_to_string(script).unwrap();
        let first = text
            .lines()
            .find(|l| !l.starts_with('#') && !l.is_empty() && *l != "set -e")
            .unwrap_or_default();
        assert_eq!(
            first,
            format!("PATH={}", common::ROOTS_PATH),
            "{}: PATH is set before anything runs",
            script.display()
        );
        run_script(script, planted.path(), &[]);
        let planted_ran = std::fs::read_to_string(&ran).unwrap_or_default();
        assert!(
            planted_ran.is_empty(),
            "{} ran the caller's {planted_ran}",
            script.display()
        );
    }
}
