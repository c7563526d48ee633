//! Every boot, announcement and probe script an export writes is shell that `sh -n` and
//! `dash -n` accept, whatever the design: random designs (valid or not,
//! NICs alone on their switch included) and the case that once broke the
//! probe script (a NIC with no neighbour gave an empty subshell).

mod common;

use common::{Need, Source};
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
    scripts.iter().find_map(|s| complaint(s))
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
