//! The comparison of the KLAT2 paper §6.1: eight PCs with four-port switches.

use assert_cmd::Command;
use serde_json::Value;

#[test]
fn eight_pcs_on_four_port_switches_as_in_seed_000() {
    let out = Command::cargo_bin("fnn-tui")
        .unwrap()
        .args([
            "compare",
            "--pcs",
            "8",
            "--nics",
            "3",
            "--switches",
            "4x6",
            "--format",
            "json",
        ])
        .assert()
        .success();
    let v: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let systems = v["systems"].as_array().unwrap();
    let row = |name: &str| {
        systems
            .iter()
            .find(|r| r["system"] == name)
            .unwrap_or_else(|| panic!("no {name}: {v}"))
            .clone()
    };
    let f = |r: &Value, k: &str| r[k].as_f64().unwrap();
    // FNN: 1.2857 links a pair, one switch hop, bisection 10.29 (8 x 1.2857), 24 at best.
    let fnn = row("FNN");
    assert!((f(&fnn, "avg_pairwise_links") - 72.0 / 56.0).abs() < 1e-9);
    assert_eq!(f(&fnn, "avg_switch_hops"), 1.0);
    assert!((f(&fnn, "bisection_links") - 8.0 * 72.0 / 56.0).abs() < 1e-9);
    assert_eq!(f(&fnn, "bisection_best_links"), 24.0);
    // Fat tree: 1.0 links a pair, bisection 8.0, (1.0 + 3.0 * 6) / 7 = 2.7 switch hops.
    let ft = row("fat-tree");
    assert_eq!(f(&ft, "avg_pairwise_links"), 1.0);
    assert_eq!(f(&ft, "bisection_links"), 8.0);
    assert!((f(&ft, "avg_switch_hops") - 19.0 / 7.0).abs() < 1e-9);
    assert_eq!(ft["switches"], 6);
    // Tree: about the same latency, about half the fat tree's bisection.
    let tree = row("tree");
    assert!((f(&tree, "avg_switch_hops") - 19.0 / 7.0).abs() < 1e-9);
    assert_eq!(f(&tree, "bisection_links"), 4.0);
    assert!(row("Stack-Ring")["software_forwarding"].as_u64().is_some());
}

#[test]
fn compare_prints_a_table_for_klat2() {
    let out = Command::cargo_bin("fnn-tui").unwrap().arg("compare").assert().success();
    let s = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for name in [
        "FNN",
        "fat-tree",
        "tree",
        "Stack-Ring",
        "Stack-Mesh",
        "3D torus",
        "CLEX",
    ] {
        assert!(s.lines().any(|l| l.starts_with(name)), "{name} missing:\n{s}");
    }
    let csv = Command::cargo_bin("fnn-tui")
        .unwrap()
        .args(["compare", "--format", "csv", "--generations", "50"])
        .assert()
        .success();
    assert_eq!(
        String::from_utf8(csv.get_output().stdout.clone())
            .unwrap()
            .lines()
            .count(),
        8
    );
}

#[test]
fn compare_writes_each_systems_artifacts() {
    let dir = tempfile::tempdir().unwrap();
    Command::cargo_bin("fnn-tui")
        .unwrap()
        .args(["compare", "--generations", "30", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let d = dir.path();
    let wiring = std::fs::read_to_string(d.join("fat-tree/wiring.txt")).unwrap();
    // KLAT2 with 32-port switches: 4 edge switches of 16 nodes, 2 core, bundles of 8.
    assert_eq!(wiring.lines().filter(|l| l.contains("-> edge")).count(), 64);
    assert_eq!(wiring.lines().filter(|l| l.contains("-> core")).count(), 4 * 16);
    assert!(wiring.contains("k63 -> edge 3 port 16"));
    let bom = std::fs::read_to_string(d.join("fat-tree/bom.csv")).unwrap();
    let rows: Vec<csv::StringRecord> = csv::Reader::from_reader(bom.as_bytes())
        .records()
        .map(Result::unwrap)
        .collect();
    let count = |suffix: &str| rows.iter().find(|r| r[0].ends_with(suffix)).map(|r| r[1].to_string());
    assert_eq!(
        (count("(edge)"), count("(core)")),
        (Some("4".into()), Some("2".into())),
        "{bom}"
    );
    let ring = std::fs::read_to_string(d.join("stack-ring/forwarding.txt")).unwrap();
    assert!(ring.contains("# stage 1"));
    let plan = std::fs::read_to_string(d.join("stack-ring/ip-plan.txt")).unwrap();
    assert!(
        plan.contains("k16 stage 1 node 1: E 10.10.1.1  W 10.10.0.128"),
        "{plan}"
    );
    assert!(d.join("stack-mesh/forwarding.txt").exists() && d.join("compare.csv").exists());
    let clex = std::fs::read_to_string(d.join("clex/stats.txt")).unwrap();
    assert!(
        clex.contains("CLEX: 64 nodes, cliques of 8") && clex.contains("3D torus 4x4x4"),
        "{clex}"
    );
    let racks = std::fs::read_to_string(d.join("fat-tree/racks.txt")).unwrap();
    assert!(racks.contains("building blocks whole"), "{racks}");
    assert!(
        std::fs::read_to_string(d.join("fat-tree/racks.svg"))
            .unwrap()
            .starts_with("<svg")
    );
}
