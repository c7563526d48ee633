//! The bandwidth rehearsal through the real binary, as root: links given
//! a rate with tbf, flows from fnn-tui's own generator, measured against
//! the model. Seed 000's eight PCs.

use crate::common;

use crate::common::{Need, Source};

const NETWORK: &[Need] = &[
    Need::Root,
    Need::Program("ip", Source::Apt("iproute2")),
    Need::Program("ping", Source::Apt("iputils-ping")),
    Need::Program("tc", Source::Apt("iproute2")),
];

const EIGHT: &str = "0: 0 1 2 3\n1: 0 1 4 5\n2: 0 1 6 7\n3: 2 3 4 5\n4: 2 3 6 7\n5: 4 5 6 7\n";

/// The same eight PCs wired another valid way (three NICs each, six
/// 4-port switches), in which pairs share one, two or three switches: the
/// paper's wiring has no pair sharing exactly two.
const EIGHT_MIXED: &str = "0: 0 3 4 5\n1: 1 3 6 7\n2: 0 2 4 7\n3: 1 2 3 5\n4: 2 5 6 7\n5: 0 1 4 6\n";

use crate::ONE_AT_A_TIME;

/// `emulate` on the eight PCs at 20mbit a link, 3 s a run, with `args`,
/// in a folder of its own: the JSON summary, and the folder.
fn emulate(args: &[&str]) -> (serde_json::Value, tempfile::TempDir) {
    emulate_table(EIGHT, args)
}

/// [`emulate`] on the eight PCs wired as `table` says.
fn emulate_table(table: &str, args: &[&str]) -> (serde_json::Value, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("eight.txt"), table).unwrap();
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
    traffic_on(EIGHT, pattern)
}

/// `emulate --traffic PATTERN` on the eight PCs wired as `table` says.
fn traffic_on(table: &str, pattern: &str) -> serde_json::Value {
    emulate_table(table, &["--traffic", pattern]).0["traffic"].clone()
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

/// Pairs sharing two and three switches get a link's rate per shared
/// switch with MPTCP on, and one link's with plain TCP: set against a pair
/// that shares one switch, at least 1.8x with MPTCP and about 1x without.
/// Plain TCP connections to the multipath address get the same 1.8x, and
/// 1x between PCs sharing one switch. Three switches on the paper's
/// wiring; two on another of the same PCs.
#[test]
fn mptcp_gives_a_pair_a_link_per_shared_switch() {
    if !common::machine_has("bandwidth::mptcp_gives_a_pair_a_link_per_shared_switch", NETWORK) {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for (table, shared) in [(EIGHT, 3), (EIGHT_MIXED, 2)] {
        let d = fnn_tui::design::parse_table(table, "eight", 8, 6).unwrap();
        let pairs: Vec<(usize, usize)> = (0..8)
            .flat_map(|a| (0..8).filter(move |&b| b != a).map(move |b| (a, b)))
            .collect();
        let many = *pairs.iter().find(|&&(a, b)| d.links(a, b) == shared).unwrap();
        let one = *pairs.iter().find(|&&(a, b)| d.links(a, b) == 1).unwrap();
        let run = |(a, b): (usize, usize)| {
            emulate_table(table, &["--traffic", &format!("pair:n{a}:n{b}"), "--transport", "all"]).0["traffic"].clone()
        };
        let (many, one) = (run(many), run(one));
        let (tcp_many, tcp_one) = (aggregate(&many, "tcp").0, aggregate(&one, "tcp").0);
        let (mptcp_many, mptcp_one) = (aggregate(&many, "mptcp").0, aggregate(&one, "mptcp").0);
        assert!(
            mptcp_many >= 1.8 * mptcp_one,
            "MPTCP, {shared} shared: {mptcp_many} against {mptcp_one}\n{many}\n{one}"
        );
        // Plain TCP to the multipath address: sixteen connections hashed
        // over the shared switches (all on one of two: 1 in 32,768).
        let (multi_many, multi_one) = (aggregate(&many, "tcp-multipath").0, aggregate(&one, "tcp-multipath").0);
        assert!(
            multi_many >= 1.8 * tcp_one && (0.9..=1.1).contains(&(multi_one / tcp_one)),
            "multipath TCP, {shared} shared: {multi_many} and {multi_one} against {tcp_one}\n{many}\n{one}"
        );
        let ratio = tcp_many / tcp_one;
        assert!(
            (0.9..=1.1).contains(&ratio),
            "TCP, {shared} shared: {tcp_many} against {tcp_one}"
        );
    }
}

/// A random permutation's aggregate is within 15% of the model's, for two
/// seeds, over plain TCP and over MPTCP (whose is also above TCP's).
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
        assert_eq!(t["congestion"], "cubic", "{t}");
        let (tcp, tcp_model) = aggregate(&t, "tcp");
        assert!(
            (tcp - tcp_model).abs() <= 0.15 * tcp_model,
            "seed {seed} TCP: {tcp} against {tcp_model}\n{t}"
        );
        let (mptcp, mptcp_model) = aggregate(&t, "mptcp");
        assert!(
            (mptcp - mptcp_model).abs() <= 0.15 * mptcp_model && mptcp > tcp,
            "seed {seed} MPTCP: {mptcp} against {mptcp_model}\n{t}"
        );
    }
}

/// The same permutation on the networks a builder would buy instead — the
/// tree (two leaves under one root, one NIC a PC) and the fat-tree of
/// `compare` (edges under cores, routed by destination) — is measured
/// beside the FNN's: each is what its own model predicts, within 15%, and
/// below the FNN with MPTCP; the tree is below the FNN over TCP too.
#[test]
fn the_tree_and_fat_tree_are_measured_beside_the_fnn() {
    if !common::machine_has("bandwidth::the_tree_and_fat_tree_are_measured_beside_the_fnn", NETWORK) {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (v, dir) = emulate(&[
        "--traffic",
        "permutation:1",
        "--against-tree",
        "--against-fat-tree",
        "--plot",
        "plot.svg",
    ]);
    let fnn = &v["traffic"];
    assert_eq!(v["traffic_tree"]["network"], "tree", "{v}");
    assert_eq!(v["traffic_fat_tree"]["network"], "fat-tree", "{v}");
    for other in ["traffic_tree", "traffic_fat_tree"] {
        for transport in ["tcp", "mptcp"] {
            let (measured, predicted) = aggregate(&v[other], transport);
            assert!(
                (measured - predicted).abs() <= 0.15 * predicted,
                "{other} {transport}: {}",
                v[other]
            );
            assert!(
                aggregate(fnn, "mptcp").0 > measured,
                "the FNN with MPTCP beats {other} over {transport}: {v}"
            );
        }
    }
    assert!(aggregate(fnn, "tcp").0 > aggregate(&v["traffic_tree"], "tcp").0, "{v}");
    let plot = std::fs::read_to_string(dir.path().join("plot.svg")).unwrap();
    assert!(
        plot.starts_with("<svg")
            && plot.contains(">tree TCP")
            && plot.contains("fat-tree TCP")
            && plot.contains("FNN MPTCP"),
        "{plot}"
    );
}

/// Every socket of the rehearsal, TCP and MPTCP, uses the congestion
/// control asked for (cubic by default), as the kernel reports it for the
/// senders' sockets, whatever this kernel lets a namespace default to: a
/// machine whose `tcp_allowed_congestion_control` lacks cubic (Debian's
/// `reno bbr` with cubic available, say) runs it too.
#[test]
fn every_socket_uses_the_congestion_control_asked_for() {
    if !common::machine_has("bandwidth::every_socket_uses_the_congestion_control_asked_for", NETWORK) {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let allowed = std::fs::read_to_string("/proc/sys/net/ipv4/tcp_allowed_congestion_control").unwrap_or_default();
    for (args, want) in [(&[][..], "cubic"), (&["--congestion", "reno"][..], "reno")] {
        let (v, _dir) = emulate(&[&["--traffic", "pair:n0:n1", "--transport", "both"], args].concat());
        let t = &v["traffic"];
        assert_eq!(t["congestion"], want, "{t}");
        for run in t["runs"].as_array().unwrap() {
            assert_eq!(run["congestion"], want, "allowed here: {allowed}\n{t}");
        }
    }
}

/// What cannot run, with what it says: each is refused before anything
/// is built, naming the option.
const REFUSED: &[(&[&str], &str)] = &[
    (
        &["--traffic", "permutation:1"],
        "share no switch, and the cluster has no uplink",
    ),
    (
        &["--traffic", "spec", "--congestion", "Cu bic"],
        "--congestion: `Cu bic`",
    ),
    (
        &["--traffic", "spec", "--congestion", "nosuchcc"],
        "no congestion control `nosuchcc`",
    ),
    (
        &["--traffic", "spec", "--congestion", "nosuchcc"],
        "modprobe tcp_nosuchcc",
    ),
    (
        &["--traffic", "spec", "--against-fat-tree"],
        "--against-fat-tree: compare designs no fat-tree",
    ),
    (
        &["--traffic", "spec", "--link-rate", "1bit"],
        "--link-rate: `1bit` is not a link rate from 1kbit to 100gbit",
    ),
    (
        &["--traffic", "spec", "--link-rate", "101gbit"],
        "--link-rate: `101gbit` is not a link rate",
    ),
    // 1,536 flows of 16 connections each.
    (
        &["--traffic", "spec", "--transport", "all"],
        "at most 16384 connections run at once",
    ),
];

/// The sparse torus designed in a folder of its own: the folder, and
/// `fnn-tui` run in it. Designing 256 PCs keeps both cores busy, so not
/// while a rehearsal measures.
fn torus() -> (tempfile::TempDir, impl Fn() -> assert_cmd::Command) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_path_buf();
    let fnn = move || {
        let mut c = assert_cmd::Command::cargo_bin("fnn-tui").unwrap();
        c.current_dir(&path);
        c
    };
    fnn()
        .args(["design", TORUS, "--seed", "1", "-o", "torus"])
        .assert()
        .success();
    (dir, fnn)
}

const TORUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/specs/torus-sparse.toml");

/// What cannot run is refused with exit 2, naming the option: a
/// permutation on a sparse design whose PCs share no switch and have no
/// uplink, a congestion control's bad name or one the kernel lacks (with
/// how to load it), a fat-tree `compare` cannot design, a link rate tbf
/// cannot keep, more connections than run at once.
#[test]
fn traffic_that_cannot_run_is_refused_before_anything_is_built() {
    let (_dir, fnn) = torus();
    for (args, says) in REFUSED {
        let out = fnn()
            .args(["emulate", TORUS, "--table", "torus/switches.txt"])
            .args(*args)
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// Each refusal comes before anything is built: with `/run` read-only
/// (in a mount namespace of the test's own), where emulate records and
/// builds its testbed, the option's message still arrives, and not the
/// failure to write there.
#[test]
fn options_are_refused_before_the_testbed_is_begun() {
    let needs = [Need::Root, Need::Program("unshare", Source::Apt("util-linux"))];
    if !common::machine_has("bandwidth::options_are_refused_before_the_testbed_is_begun", &needs) {
        return;
    }
    let (dir, _) = torus();
    let bin = assert_cmd::cargo::cargo_bin("fnn-tui");
    for (args, says) in REFUSED {
        let out = assert_cmd::Command::new("unshare")
            .current_dir(dir.path())
            .args(["--mount", "--propagation", "private", "sh", "-c"])
            .arg(r#"mount -t tmpfs -o ro none /run && exec "$0" "$@""#)
            .arg(&bin)
            .args(["emulate", TORUS, "--table", "torus/switches.txt"])
            .args(*args)
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(err.contains(says) && !err.contains("/run"), "{args:?}: {err}");
    }
}
