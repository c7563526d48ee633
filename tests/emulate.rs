//! Issue 13 (first part): the design rehearsed on real Linux networking.
//! These tests need root or CAP_NET_ADMIN (CI runs as root on these
//! machines); without them they fail, saying why, rather than pass.
//! Every test checks that nothing it created is left behind.

mod common;

use fnn_tui::design::parse_table;
use fnn_tui::emulate::{emulate, run_prefix};
use fnn_tui::routing::Interfaces;
use fnn_tui::spec::{Coverage, PatternSpec, UplinkMode};

/// Namespaces and links whose names start with `prefix`.
fn leftovers(prefix: &str) -> Vec<String> {
    let out = |args: &[&str]| {
        String::from_utf8_lossy(&std::process::Command::new("ip").args(args).output().unwrap().stdout).into_owned()
    };
    let mut v: Vec<String> = out(&["netns", "list"])
        .lines()
        .filter(|l| l.starts_with(prefix))
        .map(String::from)
        .collect();
    v.extend(
        out(&["-o", "link", "show"])
            .lines()
            .filter_map(|l| l.split(": ").nth(1))
            .map(|n| n.split('@').next().unwrap_or(n).to_string())
            .filter(|n| n.starts_with(prefix)),
    );
    if std::path::Path::new("/etc/netns").exists() {
        v.extend(
            std::fs::read_dir("/etc/netns")
                .unwrap()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(prefix)),
        );
    }
    v
}

/// Seed 000's six PCs on three switches: every pair answers.
#[test]
fn the_six_pc_example_answers_every_pair_and_leaves_nothing() {
    let c = common::quick(6, 2, "4x3");
    let d = parse_table("0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n", "seed 000", 6, 3).unwrap();
    let prefix = run_prefix();
    let ifaces = Interfaces {
        probe_order: vec![1, 2],
    };
    let result = emulate(&c, &d, &ifaces, &prefix, false);
    let (summary, testbed) = result.unwrap_or_else(|e| panic!("emulate could not build the network: {e}"));
    assert!(!leftovers(&prefix).is_empty(), "the testbed exists while held");
    drop(testbed);
    assert_eq!((summary.pairs, summary.answered), (30, 30), "{}", summary.text());
    assert!(summary.wrong_nic.is_empty(), "{}", summary.text());
    assert!(leftovers(&prefix).is_empty(), "left behind: {:?}", leftovers(&prefix));
}

/// A sparse design with a separate uplink switch and the FIC SD11's probe
/// order (slots 1-2-4-3): the scripts name the interfaces by that order.
#[test]
fn a_sparse_design_with_an_uplink_and_a_probe_order_answers_its_pairs() {
    let mut c = common::quick_with(16, 4, "9x8", |s| {
        // A separate uplink switch takes one port of every FNN switch.
        s.uplink.mode = UplinkMode::Separate;
        s.uplink.ports = 1;
        s.coverage = Coverage::Sparse;
        s.patterns = vec![PatternSpec::Grid {
            dims: vec![4, 4],
            torus: true,
            weight: 1.0,
        }];
    });
    assert_eq!(c.uplink.mode, UplinkMode::Separate);
    c.ga.threads = 1;
    let mut e = fnn_tui::ga::Engine::new(c.clone());
    common::run(&mut e, 200);
    assert!(e.is_valid());
    let prefix = run_prefix();
    let ifaces = Interfaces::parse("1,2,4,3").unwrap();
    let (summary, testbed) = emulate(&c, &e.best_design(), &ifaces, &prefix, false)
        .unwrap_or_else(|e| panic!("emulate could not build the network: {e}"));
    drop(testbed);
    assert!(summary.ok(), "{}", summary.text());
    assert!(
        summary.wrong_nic.is_empty(),
        "every pair leaves by the NIC its route names"
    );
    assert_eq!(summary.pairs, 2 * c.pattern.pair_count());
    assert!(leftovers(&prefix).is_empty(), "left behind: {:?}", leftovers(&prefix));
}

/// A kept testbed says how to remove itself, and those commands do.
#[test]
fn a_kept_testbed_is_removed_by_the_commands_it_prints() {
    let c = common::quick(6, 2, "4x3");
    let d = parse_table("0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n", "seed 000", 6, 3).unwrap();
    let prefix = run_prefix();
    let (_, testbed) = emulate(
        &c,
        &d,
        &Interfaces {
            probe_order: vec![1, 2],
        },
        &prefix,
        true,
    )
    .unwrap_or_else(|e| panic!("emulate could not build the network: {e}"));
    let commands = testbed.removal_commands();
    drop(testbed);
    assert!(!leftovers(&prefix).is_empty(), "--keep keeps them");
    for cmd in commands {
        let parts: Vec<&str> = cmd.split(' ').collect();
        std::process::Command::new(parts[0]).args(&parts[1..]).status().unwrap();
    }
    assert!(leftovers(&prefix).is_empty(), "left behind: {:?}", leftovers(&prefix));
}

/// The command as a user runs it: a table, JSON out, exit 0, nothing left.
#[test]
fn the_emulate_command_reports_json_and_cleans_up() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("six.txt"), "0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n").unwrap();
    let out = assert_cmd::Command::cargo_bin("fnn-tui")
        .unwrap()
        .current_dir(d.path())
        .args(["emulate", "--table", "six.txt", "--json"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(
        (v["pairs"].as_u64(), v["answered"].as_u64()),
        (Some(30), Some(30)),
        "{v}"
    );
}
