//! The headless commands as a user runs them: exit codes, files written,
//! messages for bad input.

use crate::common;
use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;
use std::path::Path;

fn fnn() -> Command {
    Command::cargo_bin("fnn-tui").unwrap()
}

fn report(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap()
}

#[test]
fn klat2_quick_flags_design_and_check_agree() {
    let dir = tempfile::tempdir().unwrap();
    fnn()
        .args(["design", "--pcs", "64", "--nics", "4", "--switches", "31x8,8", "--out"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("VALID"));
    let r = report(dir.path());
    for key in [
        "valid",
        "uncovered_pairs",
        "switches_used",
        "nics_used",
        "avg_pairwise_links",
        "min_pairwise_links",
        "cost",
        "generations",
        "evaluations",
        "elapsed_s",
    ] {
        assert!(r.get(key).is_some(), "report.json lacks {key}");
    }
    assert_eq!(r["valid"], true);
    assert_eq!(r["uncovered_pairs"], 0);
    assert_eq!(r["nics_used"], 256);
    let avg = r["avg_pairwise_links"].as_f64().unwrap();
    assert!((avg - 7496.0 / 4032.0).abs() < 1e-9, "{avg}");
    let table = dir.path().join("switches.txt");
    let text = std::fs::read_to_string(&table).unwrap();
    assert_eq!(text.lines().count(), 9);
    fnn()
        .args(["check", "--pcs", "64", "--nics", "4", "--switches", "31x8,8", "--table"])
        .arg(&table)
        .assert()
        .success()
        .stdout(predicate::str::contains("VALID").and(predicate::str::contains("avg 1.8591")));
    // Without a spec the hardware is inferred from the table.
    fnn().args(["check", "--table"]).arg(&table).assert().success();
}

#[test]
fn sparse_design_requires_only_the_given_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let pairs = dir.path().join("ring.pairs");
    let ring: String = (0..32).map(|i| format!("{i} {}\n", (i + 1) % 32)).collect();
    std::fs::write(&pairs, ring).unwrap();
    // Universal is impossible: 2 NICs x (8-1) = 14 < 31.
    fnn()
        .args(["design", "--pcs", "32", "--nics", "2", "--switches", "8x*", "--out"])
        .arg(dir.path().join("u"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("impossible").and(predicate::str::contains("2 x (8-1) = 14")));
    let out = dir.path().join("s");
    fnn()
        .args([
            "design",
            "--pcs",
            "32",
            "--nics",
            "2",
            "--switches",
            "8x*",
            "--sparse",
            "--pairs",
        ])
        .arg(&pairs)
        .arg("--out")
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains("sparse"));
    let r = report(&out);
    assert_eq!(r["valid"], true);
    assert_eq!(r["coverage"], "sparse");
    assert_eq!(r["required_pairs"], 32);
    fnn()
        .args([
            "check",
            "--pcs",
            "32",
            "--nics",
            "2",
            "--switches",
            "8x*",
            "--sparse",
            "--pairs",
        ])
        .arg(&pairs)
        .arg("--table")
        .arg(out.join("switches.txt"))
        .assert()
        .success();
}

#[test]
fn search_without_a_valid_design_exits_1_and_lists_what_is_uncovered() {
    let dir = tempfile::tempdir().unwrap();
    fnn()
        .args([
            "design",
            "--pcs",
            "100",
            "--nics",
            "4",
            "--switches",
            "32x13",
            "--generations",
            "1",
            // The papers' GA alone, one generation: feasible hardware (a
            // plane of order 3 over groups fits), not yet a valid design.
            "--no-constructions",
            "--local-search",
            "0",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("NOT VALID"));
    let r = report(dir.path());
    assert_eq!(r["valid"], false);
    assert!(r["uncovered_pairs"].as_u64().unwrap() > 0);
    assert!(!r["metrics"]["uncovered"].as_array().unwrap().is_empty());
    assert!(
        dir.path().join("switches.txt").exists(),
        "the best design is still written"
    );
}

#[test]
fn malformed_and_impossible_specs_exit_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("[pcs]\ncount = 10\nnicss = 3\n", "unknown field `nicss`"),
        ("[ga]\nkeep = 500\n", "field `ga.keep`"),
        ("[pcs]\ncount = 0\n", "field `pcs.count`"),
        ("[[switches]]\nports = 1\n", "switches[0].ports"),
        ("[[patterns]]\nkind = \"lines\"\ndims = [9, 9]\n", "patterns[0].dims"),
        ("[[patterns]]\nkind = \"spiral\"\n", "unknown variant `spiral`"),
        ("[[pins]]\npc = 99\nswitch = 0\nkind = \"must\"\n", "pins[0].pc"),
        (
            "[pcs]\ncount = 64\nnics = 2\n[[switches]]\nports = 9\n[uplink]\nmode = \"none\"\n",
            "impossible: n00 must reach 63 others but it has 2 NICs",
        ),
        ("[pcs]\ncount = 64\n[[switches]]\nports = 9\n", "uplink switch"),
        // Every PC reaches 4 x 17 = 68 >= 63 others, but Füredi's bound
        // needs a switch of 4 x 64 / 13 -> 20 ports.
        (
            "[pcs]\ncount = 64\nnics = 4\n[[switches]]\nports = 18\ncount = 15\n[uplink]\nmode = \"none\"\n",
            "some switch holds at least 64 x 4 / 13 -> 20 PCs",
        ),
        // 28 PCs with 4 NICs on 9-port switches pass every counting bound,
        // but more than 3 x 9 of them must sit on a plane of order 3.
        (
            "[pcs]\ncount = 28\nnics = 4\n[[switches]]\nports = 9\ncount = 14\n[uplink]\nmode = \"none\"\n",
            "whose lines hold at most 27 PCs",
        ),
        ("coverage = \"sparse\"\n", "needs at least one pattern"),
        ("[pcs]\ncount = 64\n[uplink]\nmodel = \"nope\"\n", "uplink.model"),
    ];
    for (i, (text, expect)) in cases.iter().enumerate() {
        let spec = dir.path().join(format!("bad{i}.toml"));
        std::fs::write(&spec, text).unwrap();
        let out = fnn()
            .arg("design")
            .arg(&spec)
            .arg("--out")
            .arg(dir.path().join("o"))
            .assert()
            .code(2);
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(stderr.contains(expect), "case {i}: {stderr}");
        assert!(
            stderr.contains(&format!("bad{i}.toml")),
            "case {i} does not name the file: {stderr}"
        );
        assert_eq!(
            stderr.trim_end().lines().count(),
            1,
            "case {i} is not one line: {stderr}"
        );
    }
    fnn()
        .args(["design", "/no/such/spec.toml", "--out"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/no/such/spec.toml"));
}

/// `fnn-tui check ARGS --table T` on a table with this text.
fn check_table(dir: &Path, text: &str, args: &[&str]) -> assert_cmd::assert::Assert {
    let t = dir.join("t.txt");
    std::fs::write(&t, text).unwrap();
    fnn().arg("check").args(args).arg("--table").arg(&t).assert()
}

#[test]
fn check_reports_malformed_broken_and_uncovered_tables() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    check_table(d, "0: 0 1\n1: 1 x\n", &[])
        .code(2)
        .stderr(predicate::str::contains("t.txt:2:"));
    // PC 0 on three switches with 2 NICs breaks a limit.
    let six = ["--pcs", "6", "--nics", "2", "--switches", "4x4"];
    check_table(d, "0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n3: 0\n", &six)
        .code(2)
        .stdout(predicate::str::contains("n0 is on 3 switches but has 2 NICs"));
    // Within the limits but A and C share nothing.
    let four = ["--pcs", "4", "--nics", "2", "--switches", "4x2"];
    check_table(d, "0: 0 1\n1: 2 3\n", &four)
        .code(1)
        .stdout(predicate::str::contains("uncovered: n0 - n2"));
    let json = [&four[..], &["--json"]].concat();
    check_table(d, "0: 0 1\n1: 2 3\n", &json)
        .code(1)
        .stdout(predicate::function(|s: &str| {
            serde_json::from_str::<Value>(s)
                .map(|v| v["uncovered_pairs"] == 4)
                .unwrap_or(false)
        }));
}

#[test]
fn spec_file_with_patterns_runs_to_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("grid.toml");
    std::fs::write(
        &spec,
        "name = \"grid\"\n[pcs]\ncount = 16\nnics = 3\n[[switches]]\nports = 8\n[uplink]\nmode = \"none\"\n\
         [[patterns]]\nkind = \"grid\"\ndims = [4, 4]\ntorus = true\n[ga]\ngenerations = 30\n",
    )
    .unwrap();
    let out = dir.path().join("o");
    fnn().arg("design").arg(&spec).arg("--out").arg(&out).assert().success();
    let r = report(&out);
    assert_eq!(
        r["generations"], 30,
        "a secondary objective runs to the generation limit"
    );
    assert_eq!(r["name"], "grid");
    assert!(r["metrics"]["pattern_avg_links"].as_f64().unwrap() >= 1.0);
}

#[test]
fn export_from_a_session_and_from_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let session = Path::new(env!("CARGO_MANIFEST_DIR")).join("saves/klat2.toml");
    fnn()
        .args(["export", "--session"])
        .arg(&session)
        .args(["--only", "labels,advanced", "--out"])
        .arg(d.join("a"))
        .assert()
        .success();
    assert!(d.join("a/labels.html").exists() && d.join("a/advanced/fnn_routes.h").exists());
    assert!(!d.join("a/switches.txt").exists(), "--only limits the artifacts");

    // A table under quick flags, with a MAC file (one NIC missing, one extra)
    // in the kernel's probe order, and a rewire plan from another table.
    let table = d.join("t.txt");
    std::fs::write(&table, "0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n").unwrap();
    let old = d.join("old.txt");
    std::fs::write(&old, "0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n3: 0\n").unwrap();
    let macs = d.join("macs.txt");
    let mut m = String::new();
    for pc in 0..6 {
        for nic in 0..2 {
            if (pc, nic) != (5, 1) {
                m.push_str(&format!("n{pc} eth{nic} 00:00:00:00:0{pc}:0{nic}\n"));
            }
        }
    }
    m.push_str("n0 eth2 00:00:00:00:00:99\n");
    std::fs::write(&macs, m).unwrap();
    fnn()
        .args([
            "export",
            "--pcs",
            "6",
            "--nics",
            "3",
            "--switches",
            "4x4",
            "--probe-order",
            "2,1,3",
            "--table",
        ])
        .arg(&table)
        .arg("--macs")
        .arg(&macs)
        .arg("--from")
        .arg(&old)
        .arg("--out")
        .arg(d.join("b"))
        .assert()
        .success();
    let check = std::fs::read_to_string(d.join("b/routing/macs-check.txt")).unwrap();
    // Probe order 2,1,3: eth0 is slot 2 (NIC 1), eth1 slot 1 (NIC 0), eth2 slot 3.
    assert!(
        check.contains("n5 NIC 0 is cabled but has no discovered MAC"),
        "{check}"
    );
    assert!(check.contains("n0 NIC 2 has a MAC but no cable"), "{check}");
    let script = std::fs::read_to_string(d.join("b/routing/scripts/fnn-setup-n0.sh")).unwrap();
    // Probe order 2,1,3: NIC 0 (slot 1) is eth1, found by its MAC.
    assert!(
        script.contains("n0=$(nic 00:00:00:00:00:01 eth1) || exit 1"),
        "{script}"
    );
    assert!(script.contains("dev \"$n0\"   # switch 0"), "{script}");
    let to_n1 = script
        .lines()
        .find(|l| l.ends_with("# n1"))
        .expect("a neighbour entry for n1");
    assert!(
        to_n1.contains(" 00:00:00:00:01:0"),
        "n1's discovered MAC is used: {to_n1}"
    );
    let plan = std::fs::read_to_string(d.join("b/rewire.txt")).unwrap();
    assert!(plan.starts_with("# Rewire plan: 1 cable moves"), "{plan}");
    fnn()
        .args(["export", "--only", "nonsense", "--table"])
        .arg(&table)
        .arg("--out")
        .arg(d.join("c"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("'nonsense'").and(predicate::str::contains("racks")));
}

#[test]
fn a_sparse_design_exports_every_artifact() {
    let dir = tempfile::tempdir().unwrap();
    let session = Path::new(env!("CARGO_MANIFEST_DIR")).join("saves/kasy0-sparse.toml");
    fnn()
        .args(["export", "--session"])
        .arg(&session)
        .arg("--out")
        .arg(dir.path())
        .assert()
        .success();
    for f in [
        "switches.txt",
        "report.json",
        "labels.html",
        "labels.txt",
        "routing/subnet-matrix.txt",
        "routing/ip-plan.txt",
        "routing/scripts/fnn-setup-k000.sh",
        "routing/hosts/hosts.k127",
        "advanced/fnn_routes.h",
        "racks/racks.svg",
        "design.dot",
        "cables.csv",
        "design.json",
    ] {
        assert!(dir.path().join(f).exists(), "{f} missing");
    }
    let r = report(dir.path());
    assert_eq!(r["coverage"], "sparse");
    assert_eq!(r["valid"], true);
    // Pairs outside the pattern may share no switch: with no uplink they
    // are marked, not routed.
    let matrix = std::fs::read_to_string(dir.path().join("routing/subnet-matrix.txt")).unwrap();
    assert!(matrix.contains('U'));
    let script = std::fs::read_to_string(dir.path().join("routing/scripts/fnn-setup-k000.sh")).unwrap();
    // One line says how many: a line per PC would be a megabyte a script
    // at thousands of PCs.
    assert_eq!(script.matches("unreachable in one hop").count(), 1, "{script}");
    let routes = std::fs::read_to_string(dir.path().join("routing/routes.txt")).unwrap();
    assert!(!routes.contains(" uplink "), "a route through an uplink there is not");
    assert!(routes.contains("unreachable in one hop"));
}

#[test]
fn sweep_writes_csv_and_svg_resumes_and_refuses_bad_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let out = fnn()
        .args([
            "sweep",
            "--pcs",
            "3..40:3",
            "--nics",
            "3..4",
            "--generations",
            "50",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("28 sizes"), "{stdout}");
    let csv = std::fs::read_to_string(dir.path().join("sweep.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 28);
    for r in &rows {
        let (pcs, nics, bound, width): (u64, u64, u64, u64) = (
            r[0].parse().unwrap(),
            r[1].parse().unwrap(),
            r[2].parse().unwrap(),
            r[3].parse().unwrap(),
        );
        assert!(width >= bound && width <= bound + 1, "{r:?}");
        // Every PC reaches the others on its NICs, so the width is at least
        // ceil((P - 1) / n) + 1; the switch count is at least the covering bound.
        assert!(width > (pcs - 1).div_ceil(nics));
        assert!(r[5].parse::<u64>().unwrap() >= r[6].parse::<u64>().unwrap());
    }
    // 40 PCs with 4 NICs: Füredi's 160/13 -> 13 ports.
    assert!(rows.iter().any(|r| r[0] == "40" && r[1] == "4" && r[2] == "13"));
    let svg = std::fs::read_to_string(dir.path().join("sweep.svg")).unwrap();
    assert_eq!(svg.matches("<polyline").count(), 4);
    // A second run finds everything done and adds the new NIC count only.
    let again = fnn()
        .args([
            "sweep",
            "--pcs",
            "3..40:3",
            "--nics",
            "3..5",
            "--generations",
            "0",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let stderr = String::from_utf8(again.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("resuming: 28 sizes"), "{stderr}");
    let csv2 = std::fs::read_to_string(dir.path().join("sweep.csv")).unwrap();
    assert_eq!(csv2.lines().count(), 1 + 42);
    // The rows already there are kept as they were (times included).
    for line in csv.lines() {
        assert!(csv2.lines().any(|l| l == line), "{line} was lost");
    }
    fnn()
        .args(["sweep", "--pcs", "1..9", "--out"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--pcs").and(predicate::str::contains("at least 3")));
    std::fs::write(dir.path().join("sweep.csv"), "pcs,nics\n").unwrap();
    fnn()
        .args(["sweep", "--pcs", "3..9", "--out"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("sweep.csv: line 1"));
}

/// `--exact-budget` settles the cells over the bound. 9 and 16
/// PCs with 3 NICs, once one over, are at the plane bound and say why;
/// 15 PCs with 4 NICs, once proved optimal over the bound by SAT, are at
/// the second-moment bound (5 ports refused before any model runs); 21
/// PCs with 7 NICs stay one over and open when the budget is too short to
/// settle them; the CSV and SVG carry the marks and a resumed sweep keeps
/// them.
#[test]
fn sweep_exact_budget_marks_the_cells() {
    let dir = tempfile::tempdir().unwrap();
    let sweep = |pcs: &str, nics: &str| {
        let mut cmd = fnn();
        cmd.args(["sweep", "--pcs", pcs, "--nics", nics, "--generations", "0"])
            .args(["--exact-budget", "1", "--out"])
            .arg(dir.path());
        cmd
    };
    sweep("7,9,15,16", "3,4").assert().success();
    let out = sweep("21", "7").assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("open"), "{stdout}");
    let text = std::fs::read_to_string(dir.path().join("sweep.csv")).unwrap();
    let pts = fnn_tui::sweep::parse_csv(&text, "sweep.csv").unwrap();
    let cell = |pcs: usize, nics: u32| pts.iter().find(|p| p.pcs == pcs && p.nics == nics).unwrap();
    use fnn_tui::sweep::Mark;
    assert_eq!(pts.len(), 9, "{pts:?}");
    assert!(
        pts.iter().filter(|p| p.nics != 7).all(|p| p.mark == Mark::Optimal),
        "{pts:?}"
    );
    assert_eq!(
        cell(7, 3).proof,
        "at the lower bound: 2 ports ruled out, each PC reaches at most 3 x 1 = 3 others"
    );
    for (pcs, ruled_out) in [(9, "4 ports ruled out"), (16, "7 ports ruled out")] {
        let p = cell(pcs, 3);
        assert_eq!(p.gap(), 0, "{p:?}");
        assert!(
            p.proof.contains(ruled_out) && p.proof.contains("projective plane of order 2"),
            "{p:?}"
        );
    }
    let p = cell(15, 4);
    assert_eq!(p.gap(), 0, "{p:?}");
    assert!(
        p.proof
            .starts_with("at the lower bound: 5 ports ruled out, counting the PCs two switches share"),
        "{p:?}"
    );
    let p = cell(21, 7);
    assert_eq!((p.gap(), p.mark), (1, Mark::Open), "{p:?}");
    let svg = std::fs::read_to_string(dir.path().join("sweep.svg")).unwrap();
    assert!(
        svg.contains("4 NICs/PC (4 sizes, 0 over the bound, 0 of them proved optimal)"),
        "{svg}"
    );
    assert!(
        svg.contains("7 NICs/PC (1 sizes, 1 over the bound, 0 of them proved optimal)"),
        "{svg}"
    );
    // Resumed: the marks and proofs read back unchanged.
    sweep("7,9,15,16", "3,4").assert().success();
    let again = std::fs::read_to_string(dir.path().join("sweep.csv")).unwrap();
    assert_eq!(fnn_tui::sweep::parse_csv(&again, "sweep.csv").unwrap(), pts);
}

/// The eight-PC case's verdict on cheaper hardware: every candidate below
/// the answer is proved impossible, by counting or by the exact search.
fn nothing_cheaper(stdout: &str) {
    assert!(
        stdout.contains("none exists: every cheaper candidate was proved impossible"),
        "{stdout}"
    );
    assert!(
        stdout.contains("proved impossible  1 NICs, any number of four; 2 NICs, any number of four; 3 NICs, 5 x four"),
        "{stdout}"
    );
}

#[test]
fn cheapest_finds_the_papers_eight_pc_hardware_and_the_result_checks() {
    // 8 PCs with up to 3 NICs: one 8-port switch costs 100 + 8 NICs = 108;
    // 2 NICs cannot work on 4-port switches (Füredi: 16/3 -> 6 ports), but 3
    // NICs on six 4-port switches (the FNN compiler paper's example, the covering bound)
    // cost 6 x 10 + 24 = 84, and five are too few.
    let dir = tempfile::tempdir().unwrap();
    let (spec, prices) = common::eight_pcs_priced(dir.path(), "");
    let out_dir = dir.path().join("out");
    let out = fnn()
        .arg("cheapest")
        .arg(&spec)
        .arg("--prices")
        .arg(&prices)
        .arg("--out")
        .arg(&out_dir)
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("6 x four"), "{stdout}");
    assert!(stdout.contains("cost                 84.00"), "{stdout}");
    // What the atlas knows of 8 PCs with 3 NICs, the answer's size.
    assert!(
        stdout.contains("  narrowest known      4 ports: at the degree bound (atlas)"),
        "{stdout}"
    );
    let r = report(&out_dir);
    assert_eq!(r["valid"], true);
    assert_eq!(r["switches_used"], 6);
    let candidates = std::fs::read_to_string(out_dir.join("candidates.csv")).unwrap();
    assert!(candidates.contains("2,four,0,,true,impossible"), "{candidates}");
    // Five 4-port switches have 20 ports for the 24 NICs the PCs need to
    // reach 7 others each: counting rules them out, and nothing cheaper
    // is left, without any exact search.
    assert!(
        candidates.contains("3,four,5,74.00,true,impossible: ") && candidates.contains("at least 24 NICs"),
        "{candidates}"
    );
    nothing_cheaper(&stdout);
    // With the exact search too, no cheaper hardware exists.
    let exact = fnn()
        .arg("cheapest")
        .arg(&spec)
        .arg("--prices")
        .arg(&prices)
        .args(["--exact-budget", "60", "--out"])
        .arg(&out_dir)
        .assert()
        .success();
    let stdout = String::from_utf8(exact.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("cost                 84.00"), "{stdout}");
    nothing_cheaper(&stdout);
    let candidates = std::fs::read_to_string(out_dir.join("candidates.csv")).unwrap();
    assert!(candidates.contains("3,four,5,74.00,true,impossible"), "{candidates}");
    // The chosen hardware is a spec the other commands accept.
    fnn()
        .arg("check")
        .arg(out_dir.join("spec.toml"))
        .arg("--table")
        .arg(out_dir.join("switches.txt"))
        .assert()
        .success();
    std::fs::write(&prices, "[[switches]]\nmodel = \"x\"\nports = 1\nprice = 1.0\n").unwrap();
    fnn()
        .arg("cheapest")
        .arg(&spec)
        .arg("--prices")
        .arg(&prices)
        .arg("--out")
        .arg(&out_dir)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("prices.toml").and(predicate::str::contains("switches[0]")));
}

#[test]
fn no_constructions_makes_the_ga_search_and_the_report_says_when_it_was_valid() {
    let run = |extra: &[&str]| {
        let dir = tempfile::tempdir().unwrap();
        let mut args = vec![
            "design",
            "--pcs",
            "64",
            "--nics",
            "4",
            "--switches",
            "20x13",
            "--seed",
            "2",
            "-q",
            "-o",
        ];
        let out = dir.path().to_str().unwrap().to_string();
        args.push(&out);
        args.extend_from_slice(extra);
        fnn().args(&args).assert().code(0);
        report(dir.path())
    };
    // PG(2,3) over groups is valid at once on thirteen 20-port switches...
    let built = run(&[]);
    assert_eq!(built["first_valid_generation"], 0);
    assert!(built["first_valid_s"].as_f64().is_some());
    // ...the GA alone has to find it, and the report shows it did.
    let searched = run(&["--no-constructions"]);
    assert_eq!(searched["valid"], true);
    assert!(searched["first_valid_generation"].as_u64().unwrap() > 0, "{searched}");
    assert!(searched["first_valid_s"].as_f64().unwrap() > 0.0);
}

#[test]
fn a_spec_without_a_generation_limit_stops_when_it_stalls() {
    // A ring on 4 PCs is valid at once and can never reach a bandwidth
    // bound; without `ga.generations` only the stall rule ends it (the
    // time limit is a backstop: a broken rule stops there and fails).
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("ring.toml");
    std::fs::write(
        &spec,
        "[pcs]\ncount = 4\nnics = 2\n[[switches]]\nports = 4\ncount = 2\n[uplink]\nmode = \"none\"\n[[patterns]]\nkind = \"ring\"\n[ga]\nstall_generations = 40\ntime_limit_s = 20\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    fnn()
        .args(["design", spec.to_str().unwrap(), "-q", "-o", out.to_str().unwrap()])
        .assert()
        .code(0);
    let r = report(&out);
    assert_eq!(r["stop_reason"], "Stalled");
    assert!(r["generations"].as_u64().unwrap() <= 50, "{r}");
}

/// There was no log file.
#[test]
fn log_records_the_run_and_errors() {
    let d = tempfile::tempdir().unwrap();
    let log = d.path().join("fnn.log");
    Command::cargo_bin("fnn-tui")
        .unwrap()
        .args(["design", "--pcs", "16", "--nics", "3", "--generations", "5", "-q", "-o"])
        .arg(d.path().join("out"))
        .arg("--log")
        .arg(&log)
        .assert()
        .success();
    Command::cargo_bin("fnn-tui")
        .unwrap()
        .args(["check", "--table", "missing.txt", "--log"])
        .arg(&log)
        .assert()
        .code(2);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("run started") && text.contains("run stopped"), "{text}");
    assert!(text.contains("ERROR") && text.contains("missing.txt"), "{text}");
}

/// `--session klat2` works from any directory
/// (the examples are built in), and reports give stop reasons in words.
#[test]
fn examples_from_anywhere_and_stop_reasons_in_words() {
    let d = tempfile::tempdir().unwrap();
    Command::cargo_bin("fnn-tui")
        .unwrap()
        .current_dir(d.path())
        .args(["export", "--session", "klat2", "--only", "table", "-o", "out"])
        .assert()
        .success();
    assert!(d.path().join("out/switches.txt").exists());
    Command::cargo_bin("fnn-tui")
        .unwrap()
        .current_dir(d.path())
        .args([
            "design",
            "--pcs",
            "24",
            "--nics",
            "3",
            "--switches",
            "12x8",
            "--generations",
            "3",
            "--no-constructions",
            "-o",
            "o2",
        ])
        .assert()
        .stdout(predicate::str::contains("stopped: generation limit reached"));
}

/// One file is "1 file", not "1 files".
#[test]
fn a_one_file_export_says_file() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("t.txt"),
        "0: 0 1 2 3\n1: 0 4 5 6\n2: 1 4 7\n3: 2 5 7\n4: 3 6\n5: 1 2 3 4 5 6 7\n",
    )
    .unwrap();
    Command::cargo_bin("fnn-tui")
        .unwrap()
        .current_dir(d.path())
        .args("export --pcs 8 --nics 3 --switches 4x6 --table t.txt --only report -o w".split(' '))
        .assert()
        .success()
        .stdout(predicate::str::contains("wrote 1 file into w"));
}

/// A design that is not valid: labels and boot scripts are refused
/// without `--allow-invalid`; with it every file says so first (after a
/// script's `#!` line), and a script with placeholder MACs refuses to run.
#[test]
fn an_invalid_design_is_refused_or_marked_and_placeholder_scripts_refuse_to_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let t = d.join("t.txt");
    std::fs::write(&t, "0: 0 1\n1: 2 3\n").unwrap();
    let export = |extra: &[&str]| {
        let mut c = fnn();
        c.current_dir(d)
            .args([
                "export",
                "--pcs",
                "4",
                "--nics",
                "2",
                "--switches",
                "4x2",
                "--table",
                "t.txt",
                "-o",
                "e",
            ])
            .args(extra);
        c.assert()
    };
    export(&[])
        .failure()
        .stderr(predicate::str::contains("not valid (4 required pair(s)"))
        .stderr(predicate::str::contains("--allow-invalid"));
    assert!(!d.join("e").exists(), "nothing is written");
    export(&["--only", "table,csv"]).success();
    export(&["--allow-invalid"]).success();
    let first_lines = |rel: &str| -> Vec<String> {
        std::fs::read_to_string(d.join("e").join(rel))
            .unwrap()
            .lines()
            .take(2)
            .map(str::to_string)
            .collect()
    };
    for rel in [
        "labels.txt",
        "routing/routes.txt",
        "routing/ip-plan.txt",
        "cables.csv",
        "design.dot",
        "racks/racks.svg",
    ] {
        let first = &first_lines(rel)[0];
        assert!(first.contains("NOT VALID: 4 required pair"), "{rel}: {first}");
    }
    for rel in ["routing/scripts/fnn-setup-n0.sh", "labels.html"] {
        assert!(
            first_lines(rel)[1].contains("NOT VALID"),
            "{rel}: {:?}",
            first_lines(rel)
        );
    }
    assert_eq!(first_lines("routing/scripts/fnn-setup-n0.sh")[0], "#!/bin/sh");
    let report = std::fs::read_to_string(d.join("e/report.json")).unwrap();
    assert!(report.contains("\"valid\": false"), "{report}");
    // No discovery file: the script stops before its first command.
    let run = std::process::Command::new("/bin/sh")
        .arg(d.join("e/routing/scripts/fnn-setup-n0.sh"))
        .env_remove("FNN_ALLOW_PLACEHOLDER_MACS")
        .env("PATH", d)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(3), "{run:?}");
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(
        said.contains("placeholder MAC") && said.contains("FNN_ALLOW_PLACEHOLDER_MACS=1"),
        "{said}"
    );
}

/// 8 PCs, 3 NICs, six 5-port switches, n0 pinned to switches 0, 1, 2 and
/// n1 to 3, 4, 5: every count allows it, but n0 and n1 can share no
/// switch. `design` searched to its time limit and exited 1; `check`
/// blamed the table. Both refuse the spec up front, naming the pair.
#[test]
fn pins_that_strand_a_pair_are_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let mut spec =
        String::from("[pcs]\ncount = 8\nnics = 3\n[[switches]]\nports = 5\ncount = 6\n[uplink]\nmode = \"none\"\n");
    for (pc, switch) in [(0, 0), (0, 1), (0, 2), (1, 3), (1, 4), (1, 5)] {
        spec.push_str(&format!("[[pins]]\npc = {pc}\nswitch = {switch}\nkind = \"must\"\n"));
    }
    let spec_path = dir.path().join("pinned.toml");
    std::fs::write(&spec_path, spec).unwrap();
    let said = "impossible: n0 and n1 must share a switch, but the pins leave them none";
    fnn()
        .args(["design", "--time-limit", "5"])
        .arg(&spec_path)
        .arg("--out")
        .arg(dir.path().join("out"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(said).and(predicate::str::contains("switches 0, 1, 2")));
    assert!(!dir.path().join("out").exists(), "nothing searched, nothing written");
    let free = dir.path().join("free");
    fnn()
        .args(["design", "--pcs", "8", "--nics", "3", "--switches", "5x6", "--out"])
        .arg(&free)
        .assert()
        .success();
    fnn()
        .arg("check")
        .arg(&spec_path)
        .arg("--table")
        .arg(free.join("switches.txt"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(said));
}

/// A sweep's rows without their times, which differ from run to run.
fn sweep_rows(path: &Path) -> Vec<fnn_tui::sweep::Point> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut pts = fnn_tui::sweep::parse_csv(&text, "sweep.csv").unwrap();
    pts.iter_mut().for_each(|p| p.seconds = 0.0);
    pts
}

const SHARDED: [&str; 6] = ["--pcs", "3..12", "--nics", "2..3", "--generations", "50"];

/// The single run of the `SHARDED` sweep into `out`, which shards and
/// merges are compared with.
fn sweep_single(out: &std::path::Path) {
    fnn()
        .arg("sweep")
        .args(SHARDED)
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

/// Shards 1/4..4/4 merged in a shuffled order are the single run's rows;
/// merging them again changes nothing; a shard of other settings, or a
/// file that is not a shard, is refused naming the file and the difference.
#[test]
fn sweep_shards_merge_to_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let (one, parts) = (dir.path().join("one"), dir.path().join("parts"));
    sweep_single(&one);
    for i in 1..=4 {
        let shard = format!("{i}/4");
        fnn()
            .arg("sweep")
            .args(SHARDED)
            .args(["--shard", &shard, "--out"])
            .arg(&parts)
            .assert()
            .success();
    }
    let sizes: Vec<usize> = (1..=4)
        .map(|i| sweep_rows_of_shard(&parts.join(format!("shard-{i}-of-4.csv"))))
        .collect();
    assert_eq!(sizes.iter().sum::<usize>(), 20);
    assert!(sizes.iter().all(|&n| n == 5), "{sizes:?}");
    let shuffled: Vec<_> = [3, 1, 4, 2].map(|i| parts.join(format!("shard-{i}-of-4.csv"))).to_vec();
    let merge = || {
        let mut c = fnn();
        c.arg("sweep")
            .args(SHARDED)
            .arg("--merge")
            .args(&shuffled)
            .arg("--out")
            .arg(&parts);
        c
    };
    merge().assert().success();
    assert_eq!(sweep_rows(&parts.join("sweep.csv")), sweep_rows(&one.join("sweep.csv")));
    let first = std::fs::read(parts.join("sweep.csv")).unwrap();
    merge().assert().success();
    assert_eq!(
        std::fs::read(parts.join("sweep.csv")).unwrap(),
        first,
        "a second merge changed the CSV"
    );

    let foreign = dir.path().join("foreign");
    fnn()
        .arg("sweep")
        .args(SHARDED)
        .args(["--seed", "2", "--shard", "1/4", "--out"])
        .arg(&foreign)
        .assert()
        .success();
    let shard = foreign.join("shard-1-of-4.csv");
    fnn()
        .arg("sweep")
        .args(SHARDED)
        .arg("--merge")
        .arg(&shard)
        .arg("--out")
        .arg(&parts)
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!(
            "{}: refused: --seed 2 there, 1 here",
            shard.display()
        )));
    fnn()
        .arg("sweep")
        .args(["--pcs", "3..13", "--nics", "2..3", "--generations", "50", "--merge"])
        .arg(parts.join("shard-1-of-4.csv"))
        .arg("--out")
        .arg(&parts)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "--pcs 3,4,5,6,7,8,9,10,11,12 there, 3,4,5,6,7,8,9,10,11,12,13 here",
        ));
    fnn()
        .arg("sweep")
        .args(SHARDED)
        .arg("--merge")
        .arg(one.join("sweep.csv"))
        .arg("--out")
        .arg(&parts)
        .assert()
        .failure()
        .stderr(predicate::str::contains("not a shard file"));
    fnn()
        .arg("sweep")
        .args(SHARDED)
        .args(["--shard", "5/4", "--out"])
        .arg(&parts)
        .assert()
        .failure()
        .stderr(predicate::str::contains("`5/4` is not a shard: use I/N"));
}

fn sweep_rows_of_shard(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let (line, csv) = fnn_tui::sweep::shards::split(&text);
    assert!(line.starts_with("# fnn-tui sweep shard: "), "{line}");
    fnn_tui::sweep::parse_csv(csv, "shard").unwrap().len()
}

/// `--slurm 4` writes a script that bash accepts, whose `local` mode runs
/// the four shards here and merges them into the single run's rows.
#[test]
fn sweep_slurm_script_parses_and_runs_locally() {
    let dir = tempfile::tempdir().unwrap();
    let (one, odd) = (dir.path().join("one"), dir.path().join("it's $(odd)"));
    sweep_single(&one);
    fnn()
        .arg("sweep")
        .args(SHARDED)
        .args(["--slurm", "4", "--out"])
        .arg(&odd)
        .assert()
        .success();
    let script = odd.join("sweep-slurm.sh");
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.contains("--array=\"1-$shards\""), "{text}");
    assert!(text.contains("--dependency=\"afterok:$array\""), "{text}");
    assert!(
        text.contains("sweep=(--pcs 3..12 --nics 2..3 --generations 50 "),
        "{text}"
    );
    let syntax = std::process::Command::new("bash")
        .arg("-n")
        .arg(&script)
        .status()
        .unwrap();
    assert!(syntax.success(), "bash -n refused {text}");
    let local = std::process::Command::new("bash")
        .arg(&script)
        .arg("local")
        .output()
        .unwrap();
    assert!(local.status.success(), "{}", String::from_utf8_lossy(&local.stderr));
    assert_eq!(sweep_rows(&odd.join("sweep.csv")), sweep_rows(&one.join("sweep.csv")));
}

/// The sweep flags of an atlas row's command, `--out` pointed at `out`.
fn atlas_command(reproduce: &str, out: &Path) -> Vec<String> {
    let words: Vec<&str> = reproduce.split(' ').collect();
    assert_eq!(&words[..2], ["fnn-tui", "sweep"], "{reproduce}");
    assert_eq!(words.last(), Some(&"DIR"), "{reproduce}");
    let mut args: Vec<String> = words[1..words.len() - 1].iter().map(|w| w.to_string()).collect();
    args.push(out.display().to_string());
    args
}

/// Sampled rows of the shipped atlas come out the same when their own
/// command runs again: a construction at Füredi's bound, the GA closing a
/// gap, a plane over groups whose sizes leave some groups under the rest
/// (106 PCs with 6 NICs), a cell at a case proof's bound (44 PCs with 5
/// NICs), open cells one over the bound with 7 and 8 NICs, and cells the exact mode or the annealing search narrowed, if the
/// atlas has them cheap enough.
#[test]
fn sampled_atlas_rows_reproduce_with_their_own_command() {
    let mut sample: Vec<&fnn_tui::atlas::Cell> = [(1024, 5), (10, 5), (44, 5), (106, 6), (500, 7), (37, 8), (200, 3)]
        .iter()
        .map(|&(p, n)| fnn_tui::atlas::lookup(p, n).expect("a shipped row"))
        .collect();
    sample.extend(
        fnn_tui::atlas::shipped()
            .into_iter()
            .filter(|c| c.method.starts_with("exact") && c.pcs <= 20)
            .take(1),
    );
    sample.extend(
        fnn_tui::atlas::shipped()
            .into_iter()
            .filter(|c| c.method.starts_with("annealing") && c.pcs <= 64)
            .take(1),
    );
    assert!(sample.iter().any(|c| c.method.starts_with("GA")), "no GA row sampled");
    assert!(sample.iter().any(|c| c.status == fnn_tui::atlas::Status::Open));
    for cell in sample {
        let dir = tempfile::tempdir().unwrap();
        let mut args = atlas_command(&cell.reproduce, dir.path());
        // The exact mode's budget is time: on a loaded machine the 10 s a
        // row was made with ran out before the proof (18 x 6 came out at 5
        // ports, not 4). A longer budget changes when it answers, not what.
        if let Some(k) = args.iter().position(|a| a == "--exact-budget") {
            args[k + 1] = "600".into();
        }
        fnn().args(args).arg("--quiet").assert().success();
        let rows = sweep_rows(&dir.path().join("sweep.csv"));
        assert_eq!(rows.len(), 1, "{}", cell.reproduce);
        let p = &rows[0];
        let again = (p.width, p.switches, p.bound);
        assert_eq!(again, (cell.width, cell.switches, cell.bound), "{}", cell.reproduce);
        let searched = ["GA", "exact", "annealing"];
        let method = if searched.iter().any(|m| cell.method.starts_with(m)) {
            cell.method.split([',', ' ']).next().unwrap().to_string()
        } else {
            cell.method.clone()
        };
        assert!(p.method.starts_with(&method), "{}: {} now", cell.reproduce, p.method);
    }
}

/// `sweep --atlas FILE` folds a sweep into an atlas: new sizes are added,
/// a narrower or more settled row replaces a weaker one, a weaker run
/// never undoes a stronger, and one graph per NIC count is written beside
/// the file. The sweep's summary says how it stands against the shipped atlas.
#[test]
fn sweep_atlas_folds_the_sweep_into_the_atlas_file() {
    use fnn_tui::atlas::Status;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("atlas.csv");
    let sweep = |generations: &str, out: &str| {
        let mut c = fnn();
        c.args([
            "sweep",
            "--pcs",
            "8..10",
            "--nics",
            "5",
            "--generations",
            generations,
            "--out",
        ])
        .arg(dir.path().join(out))
        .arg("--atlas")
        .arg(&file);
        c
    };
    // Constructions only: 10 PCs with 5 NICs stay one over the bound.
    let run = sweep("0", "constructions").assert().success();
    let stdout = String::from_utf8(run.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains("atlas: 3 of these sizes in the shipped atlas; 0 narrower here, 1 narrower in the atlas"),
        "{stdout}"
    );
    assert!(stdout.contains("10x5 (3 ports: at the"), "{stdout}");
    let read = || fnn_tui::atlas::parse(&std::fs::read_to_string(&file).unwrap(), "atlas.csv").unwrap();
    let first = read();
    assert_eq!(first.len(), 3);
    let ten = |cells: &[fnn_tui::atlas::Cell]| cells.iter().find(|c| c.pcs == 10).unwrap().clone();
    assert_eq!((ten(&first).width, ten(&first).status), (4, Status::Open));
    assert!(ten(&first).reproduce.contains("--generations 0"), "{:?}", ten(&first));
    // The GA narrows it to the bound, and its row replaces the open one.
    sweep("300", "ga").assert().success();
    let second = read();
    assert_eq!((ten(&second).width, ten(&second).status), (3, Status::AtBound));
    assert_eq!(ten(&second).method, "GA, seed 1, 300 generations");
    // A constructions-only run again leaves the better row in place.
    sweep("0", "constructions").assert().success();
    assert_eq!(read(), second);
    let svg = std::fs::read_to_string(dir.path().join("atlas-5-nics.svg")).unwrap();
    roxmltree::Document::parse(&svg).expect("the atlas graph is well-formed XML");
    assert!(svg.contains("FNN atlas, 5 NICs per PC"), "{svg}");
}

/// `design` says what the shipped atlas knows of the size (and
/// `cheapest`: `cheapest_finds_the_papers_eight_pc_hardware_and_the_result_checks`).
#[test]
fn design_and_cheapest_say_what_the_atlas_knows() {
    let dir = tempfile::tempdir().unwrap();
    let open = fnn_tui::atlas::lookup(21, 7).unwrap();
    assert_eq!(
        open.status,
        fnn_tui::atlas::Status::Open,
        "21 PCs with 7 NICs settled: pick another open size"
    );
    let run = fnn()
        .args([
            "design",
            "--pcs",
            "21",
            "--nics",
            "7",
            "--switches",
            "5x*",
            "--generations",
            "20",
            "-o",
        ])
        .arg(dir.path().join("d"))
        .assert();
    let stdout = String::from_utf8(run.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains(&format!(
            "narrowest known      {} ports: best known, one over the bound, not proved (atlas)",
            open.width
        )),
        "{stdout}"
    );
    let report = report(&dir.path().join("d"));
    assert_eq!(report["atlas"], open.words());
    let run = fnn()
        .args([
            "design",
            "--pcs",
            "1024",
            "--nics",
            "5",
            "--switches",
            "244x*",
            "--generations",
            "1",
            "-o",
        ])
        .arg(dir.path().join("big"))
        .assert();
    let stdout = String::from_utf8(run.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains("narrowest known      244 ports: at Füredi's bound (atlas)"),
        "{stdout}"
    );
}
