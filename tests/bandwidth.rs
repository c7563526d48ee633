//! The bandwidth rehearsal through the real binary, as root: links given
//! a rate with tbf, flows from fnn-tui's own generator, measured against
//! the model. Seed 000's eight PCs.

mod common;

use common::{Need, Source};

const NETWORK: &[Need] = &[
    Need::Root,
    Need::Program("ip", Source::Apt("iproute2")),
    Need::Program("ping", Source::Apt("iputils-ping")),
    Need::Program("tc", Source::Apt("iproute2")),
];

const EIGHT: &str = "0: 0 1 2 3\n1: 0 1 4 5\n2: 0 1 6 7\n3: 2 3 4 5\n4: 2 3 6 7\n5: 4 5 6 7\n";

/// The measurements share two cores: one rehearsal at a time, or each
/// would measure the other.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// `emulate` on the eight PCs at 20mbit a link, 3 s a run, with `args`,
/// in a folder of its own: the JSON summary, and the folder.
fn emulate(args: &[&str]) -> (serde_json::Value, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("eight.txt"), EIGHT).unwrap();
    let out = assert_cmd::Command::cargo_bin("fnn-tui")
        .unwrap()
        .current_dir(dir.path())
        .args([
            "emulate",
            "--pcs",
            "8",
            "--nics",
            "3",
            "--switches",
            "4x6",
            "--table",
            "eight.txt",
        ])
        .args(["--link-rate", "20mbit", "--traffic-seconds", "3", "--json"])
        .args(args)
        .assert()
        .success();
    (serde_json::from_slice(&out.get_output().stdout).unwrap(), dir)
}

/// `emulate --traffic PATTERN` on the eight PCs: the JSON traffic report.
fn traffic(pattern: &str) -> serde_json::Value {
    emulate(&["--traffic", pattern]).0["traffic"].clone()
}

/// The aggregate of the run over `transport`: (measured, predicted).
fn aggregate(t: &serde_json::Value, transport: &str) -> (f64, f64) {
    let run = t["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["transport"] == transport)
        .unwrap_or_else(|| panic!("no {transport} run: {t}"));
    (
        run["measured_bps"].as_f64().unwrap(),
        run["predicted_bps"].as_f64().unwrap(),
    )
}

/// A pair sharing several switches gets a link's rate per shared switch
/// with MPTCP on, and one link's with plain TCP: set against a pair that
/// shares one switch, at least 1.8x with MPTCP and about 1x without.
#[test]
fn mptcp_gives_a_pair_a_link_per_shared_switch() {
    if !common::machine_has("bandwidth::mptcp_gives_a_pair_a_link_per_shared_switch", NETWORK) {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let d = fnn_tui::design::parse_table(EIGHT, "seed 000", 8, 6).unwrap();
    let pairs: Vec<(usize, usize)> = (0..8)
        .flat_map(|a| (0..8).filter(move |&b| b != a).map(move |b| (a, b)))
        .collect();
    let many = *pairs.iter().max_by_key(|&&(a, b)| d.links(a, b)).unwrap();
    let one = *pairs.iter().find(|&&(a, b)| d.links(a, b) == 1).unwrap();
    assert!(d.links(many.0, many.1) >= 2);
    let many = traffic(&format!("pair:n{}:n{}", many.0, many.1));
    let one = traffic(&format!("pair:n{}:n{}", one.0, one.1));
    let (tcp_many, tcp_one) = (aggregate(&many, "tcp").0, aggregate(&one, "tcp").0);
    let (mptcp_many, mptcp_one) = (aggregate(&many, "mptcp").0, aggregate(&one, "mptcp").0);
    assert!(
        mptcp_many >= 1.8 * mptcp_one,
        "MPTCP: {mptcp_many} against {mptcp_one}\n{many}\n{one}"
    );
    let ratio = tcp_many / tcp_one;
    assert!((0.9..=1.1).contains(&ratio), "TCP: {tcp_many} against {tcp_one}");
}

/// A random permutation's aggregate over plain TCP is within 15% of the
/// model's, for two seeds. Over MPTCP it is short of the model (the
/// kernel's scheduler does not fill every subflow; BENCHMARKS.md has the
/// figures), but at least three quarters of it, and above TCP's.
#[test]
fn a_permutations_aggregate_is_what_the_model_predicts() {
    if !common::machine_has(
        "bandwidth::a_permutations_aggregate_is_what_the_model_predicts",
        NETWORK,
    ) {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for seed in [1, 2] {
        let t = traffic(&format!("permutation:{seed}"));
        let (tcp, tcp_model) = aggregate(&t, "tcp");
        assert!(
            (tcp - tcp_model).abs() <= 0.15 * tcp_model,
            "seed {seed} TCP: {tcp} against {tcp_model}\n{t}"
        );
        let (mptcp, mptcp_model) = aggregate(&t, "mptcp");
        assert!(
            mptcp >= 0.75 * mptcp_model && mptcp > tcp,
            "seed {seed} MPTCP: {mptcp} against {mptcp_model}\n{t}"
        );
    }
}

/// The same permutation on the tree a builder would buy instead (two
/// leaves under one root, one NIC a PC) is measured beside the FNN's: it
/// is what its own model predicts, within 15%, and below the FNN.
#[test]
fn the_tree_is_measured_beside_the_fnn() {
    if !common::machine_has("bandwidth::the_tree_is_measured_beside_the_fnn", NETWORK) {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (v, dir) = emulate(&["--traffic", "permutation:1", "--against-tree", "--plot", "plot.svg"]);
    let (fnn, tree) = (&v["traffic"], &v["traffic_tree"]);
    assert_eq!(tree["network"], "tree", "{v}");
    for transport in ["tcp", "mptcp"] {
        let (measured, predicted) = aggregate(tree, transport);
        assert!(
            (measured - predicted).abs() <= 0.15 * predicted,
            "tree {transport}: {tree}"
        );
        assert!(
            aggregate(fnn, transport).0 > measured,
            "the FNN beats the tree over {transport}: {v}"
        );
    }
    let plot = std::fs::read_to_string(dir.path().join("plot.svg")).unwrap();
    assert!(
        plot.starts_with("<svg") && plot.contains("tree TCP") && plot.contains("FNN MPTCP"),
        "{plot}"
    );
}
