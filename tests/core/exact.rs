//! The exact mode: designs found are valid, impossibilities are proved,
//! and every proof written is accepted by an independent DRAT checker
//! (`rate`, a crate that the README's test command, scripts/setup-tests, builds).

use crate::common;

use assert_cmd::Command;
use fnn_tui::deadline::Deadline;
use fnn_tui::exact::{Model, Options, Outcome, Verdict, estimates, solve, solve_until};
use fnn_tui::metrics::Metrics;
use fnn_tui::spec::{Cluster, Coverage, PatternSpec};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn exact(c: &Cluster) -> fnn_tui::exact::Outcome {
    solve(c, &Options::default()).expect("the solver runs")
}

/// One model on its own (the race would hide a wrong one behind the other).
fn with_model(c: &Cluster, m: Model) -> fnn_tui::exact::Outcome {
    let opts = Options {
        only: Some(m),
        ..Options::default()
    };
    let out = solve(c, &opts).expect("the solver runs");
    assert!(
        out.model == m || out.model == Model::Bounds,
        "{:?} ran, not {m:?}",
        out.model
    );
    out
}

fn assert_valid(c: &Cluster, v: &Verdict) {
    let Verdict::Found(d) = v else {
        panic!("expected a design, got {v:?}")
    };
    let m = Metrics::compute(d, c);
    assert!(m.violations.is_empty(), "{:?}", m.violations);
    assert_eq!(m.uncovered_pairs, 0);
}

/// The `rate` DRAT checker (a crate, which scripts/setup-tests builds), when here.
fn rate(test: &str) -> Option<PathBuf> {
    common::machine_has(test, &[common::Need::Program("rate", common::Source::Crate("rate"))])
        .then(|| common::program("rate"))
        .flatten()
}

/// Runs the independent checker on a CNF and its proof.
fn checker_accepts(rate: &Path, cnf: &Path, proof: &Path) -> bool {
    let out = std::process::Command::new(rate)
        .arg(cnf)
        .arg(proof)
        .output()
        .expect("rate runs");
    String::from_utf8_lossy(&out.stdout).contains("s VERIFIED") && out.status.success()
}

/// `narrow` is proved impossible, by the race and by each model on its
/// own, and not by the counting bounds alone; `wide` gets a valid design
/// from the race and from each model.
/// Returns how the race refuted `narrow`.
fn narrowest_is(narrow: &Cluster, wide: &Cluster) -> Outcome {
    let out = exact(narrow);
    assert!(matches!(out.verdict, Verdict::Impossible(_)), "{:?}", out.verdict);
    assert_valid(wide, &exact(wide).verdict);
    for m in [Model::Types, Model::PerPc] {
        assert!(matches!(with_model(narrow, m).verdict, Verdict::Impossible(_)), "{m:?}");
        assert_valid(wide, &with_model(wide, m).verdict);
    }
    out
}

/// Seed 000's eight PCs with three NICs on 4-port switches: five switches
/// cannot do it (each SAT model proves it on its own), six can. The race
/// answers at once by counting: each PC needs all 3 NICs to reach 7
/// others, and 24 NICs do not fit 20 ports.
#[test]
fn the_papers_eight_pcs_need_six_four_port_switches() {
    let out = narrowest_is(&common::quick(8, 3, "4x5"), &common::quick(8, 3, "4x6"));
    assert_eq!(out.model, Model::Bounds);
    let Verdict::Impossible(why) = out.verdict else {
        unreachable!()
    };
    assert!(
        why.contains("at least 24 NICs") && why.contains("only 20 usable ports"),
        "{why}"
    );
}

/// 100 PCs with 3 NICs cannot be served by seven
/// 43-port switches (300 NIC ends on 301 ports, and no intersecting family
/// of triples spreads them that evenly), but seven 44-port switches can.
/// Füredi's structure theorem says so at once (more than 2 x 43 PCs must
/// sit on the Fano plane's lines, which hold at most 99), and each SAT
/// model, run alone, proves it independently of the theorem.
/// (The per-PC model alone is the slower one here.)
#[test]
fn a_hundred_pcs_with_three_nics_need_44_ports_on_seven_switches() {
    let out = narrowest_is(&common::quick(100, 3, "43x7"), &common::quick(100, 3, "44x7"));
    assert_eq!(out.model, Model::Bounds);
    let Verdict::Impossible(why) = out.verdict else {
        unreachable!()
    };
    assert!(why.contains("whose lines hold at most 99 PCs"), "{why}");
}

/// 15 PCs with 4 NICs on 5-port switches: the second-moment bound refuses
/// them at once (a pair on three common switches would crowd the PCs both
/// fourth switches hold, so pairs repeat at most once, and then the
/// switch pairs share more PCs than that allows), and the per-PC SAT
/// model, run alone, proves it independently on the 14 switches no design
/// can exceed; ten 6-port switches work.
#[test]
fn fifteen_pcs_with_four_nics_need_six_ports_by_the_bound_and_by_sat() {
    let narrow = common::quick(15, 4, "5x14");
    let out = exact(&narrow);
    assert_eq!(out.model, Model::Bounds);
    let Verdict::Impossible(why) = out.verdict else {
        panic!("{:?}", out.verdict)
    };
    assert!(why.contains("counting the PCs two switches share"), "{why}");
    let alone = with_model(&narrow, Model::PerPc);
    assert!(matches!(alone.verdict, Verdict::Impossible(_)), "{:?}", alone.verdict);
    let wide = common::quick(15, 4, "6x10");
    assert_valid(&wide, &exact(&wide).verdict);
}

/// 7 PCs, 3 NICs, seven 3-port switches: only the Fano plane fits, and the
/// exact mode finds it with no construction.
#[test]
fn finds_the_fano_plane() {
    let c = common::quick(7, 3, "3x7");
    for m in [Model::Types, Model::PerPc] {
        assert_valid(&c, &with_model(&c, m).verdict);
    }
    let out = exact(&c);
    assert_valid(&c, &out.verdict);
    let Verdict::Found(d) = out.verdict else { unreachable!() };
    // Every switch full and every two PCs sharing exactly one switch.
    assert!(d.ports_used().iter().all(|&u| u == 3));
    for a in 0..7 {
        for b in a + 1..7 {
            assert_eq!(d.links(a, b), 1, "PCs {a} and {b}");
        }
    }
}

/// A ring of eight PCs (sparse) on 2-port switches: each switch serves one
/// ring pair, so eight switches are needed; seven are proved impossible.
/// With a pin, the general per-PC model is used and obeys it.
#[test]
fn sparse_and_pinned_designs_use_the_per_pc_model() {
    let ring = |switches: &str| {
        common::quick_with(8, 2, switches, |s| {
            s.coverage = Coverage::Sparse;
            s.patterns = vec![PatternSpec::Ring { k: 1, weight: 1.0 }];
        })
    };
    // Counting refutes it at once (16 NICs needed, 14 ports); the per-PC
    // model, the one that takes sparse patterns, proves it on its own.
    let out = exact(&ring("2x7"));
    assert!(matches!(out.verdict, Verdict::Impossible(_)), "{:?}", out.verdict);
    assert_eq!(out.model, Model::Bounds);
    let out = with_model(&ring("2x7"), Model::PerPc);
    assert!(matches!(out.verdict, Verdict::Impossible(_)), "{:?}", out.verdict);
    assert_eq!(out.model, Model::PerPc);
    let mut c = ring("2x8");
    c.pins.set_must(0, 5);
    c.pins.set_forbid(1, 0);
    let out = exact(&c);
    assert_valid(&c, &out.verdict);
    let Verdict::Found(d) = out.verdict else { unreachable!() };
    assert!(d.has(0, 5) && !d.has(1, 0), "pins obeyed");
}

/// A proof of impossibility is written beside its CNF and accepted by
/// `rate`; a corrupted proof is rejected (so the check can fail).
#[test]
fn proofs_are_accepted_by_an_independent_drat_checker() {
    let Some(rate) = rate("exact::proofs_are_accepted_by_an_independent_drat_checker") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (name, c) in [
        ("eight", common::quick(8, 3, "4x5")),
        ("hundred", common::quick(100, 3, "43x7")),
        (
            "ring",
            common::quick_with(8, 2, "2x7", |s| {
                s.coverage = Coverage::Sparse;
                s.patterns = vec![PatternSpec::Ring { k: 1, weight: 1.0 }];
            }),
        ),
    ] {
        let proof = dir.path().join(format!("{name}.drat"));
        let kept = in_memory_proof(&c);
        let cnf = fnn_tui::exact::cnf_path_of(&proof);
        fnn_tui::fs::atomic::write_atomic(&cnf, &kept.cnf).unwrap();
        fnn_tui::fs::atomic::write_atomic(&proof, &kept.drat).unwrap();
        assert!(checker_accepts(&rate, &cnf, &proof), "{name}: rate rejected the proof");
        // An empty proof proves nothing: the checker must say so (except
        // for the eight PCs, whose NIC and port counts alone clash once
        // each PC must cable all three NICs to reach the other seven).
        if name == "eight" {
            continue;
        }
        let empty = dir.path().join(format!("{name}-empty.drat"));
        std::fs::write(&empty, "").unwrap();
        assert!(
            !checker_accepts(&rate, &cnf, &empty),
            "{name}: rate accepted an empty proof"
        );
    }
}

/// The exact mode's proof of impossibility: kept in memory, the CNF and
/// its DRAT refutation; the solver writes no file.
fn in_memory_proof(c: &fnn_tui::spec::Cluster) -> fnn_tui::exact::Proof {
    let opts = Options {
        proof: true,
        ..Options::default()
    };
    let out = solve(c, &opts).unwrap();
    assert!(matches!(out.verdict, Verdict::Impossible(_)), "{:?}", out.verdict);
    out.proof.expect("a proof kept")
}

/// The exact mode hands its proof back in memory (it wrote FILE and
/// FILE.cnf itself, beside a path it was given): the front end writes it
/// where the user asked, through the one writer.
#[test]
fn the_proof_comes_back_in_memory() {
    let kept = in_memory_proof(&common::quick(100, 3, "43x7"));
    let cnf = String::from_utf8(kept.cnf).expect("DIMACS is text");
    assert!(cnf.lines().any(|l| l.starts_with("p cnf ")), "{cnf:.200}");
    let drat = String::from_utf8(kept.drat).expect("text DRAT");
    assert!(
        drat.lines().last().is_some_and(|l| l.trim() == "0"),
        "ends with the empty clause"
    );
}

/// A limit that runs out gives "unknown", never a wrong answer.
#[test]
fn a_time_limit_gives_an_honest_unknown() {
    // Open after minutes: 21 PCs, 7 NICs on thirty-seven 4-port switches
    // (the sweep left it unknown after 240 s; 23 PCs with 5 NICs on 6
    // ports, used here before, are now refused by the bounds at once).
    let c = common::quick(21, 7, "4x37");
    let opts = Options {
        deadline: Deadline::from_now(Some(Duration::from_millis(300))),
        ..Options::default()
    };
    assert_eq!(solve(&c, &opts).unwrap().verdict, Verdict::Unknown);
}

/// Ctrl-C (the interrupt flag) stops the solver at once with "unknown",
/// long before its time limit (a sweep's Ctrl-C no longer waits out the
/// budget).
#[test]
fn an_interrupt_gives_an_honest_unknown_at_once() {
    let c = common::quick(21, 7, "4x37");
    let opts = Options {
        deadline: Deadline::from_now(Some(Duration::from_secs(300))),
        ..Options::default()
    };
    let out = solve_until(&c, &opts, &std::sync::atomic::AtomicBool::new(true)).unwrap();
    assert_eq!(out.verdict, Verdict::Unknown);
    assert!(out.seconds < 100.0, "ran {} s of its 300", out.seconds);
}

fn fnn() -> Command {
    Command::cargo_bin("fnn-tui").unwrap()
}

/// `fnn-tui design --exact` for PCs with 3 NICs on `switches`, into `out`.
fn design_exact(pcs: &str, switches: &str, out: &Path) -> Command {
    let mut cmd = fnn();
    cmd.args([
        "design",
        "--exact",
        "--pcs",
        pcs,
        "--nics",
        "3",
        "--switches",
        switches,
        "-o",
    ])
    .arg(out);
    cmd
}

/// `design --exact` exits as every search does: 0 with the table and
/// report, 2 with what was proved impossible (and the proof files), 1 when
/// the time runs out without an answer.
#[test]
fn the_command_exits_by_what_it_settled() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("six");
    design_exact("8", "4x6", &out)
        .assert()
        .code(0)
        .stdout(predicates::str::contains("exact: found a design"));
    fnn()
        .args(["check", "--pcs", "8", "--nics", "3", "--switches", "4x6", "--table"])
        .arg(out.join("switches.txt"))
        .assert()
        .code(0);
    let proof = dir.path().join("five.drat");
    design_exact("8", "4x5", &dir.path().join("five"))
        .arg("--proof")
        .arg(&proof)
        .assert()
        .code(2)
        .stdout(predicates::str::contains(
            "impossible: no wiring of 8 PCs (24 NICs in all) to 5 switches of 4 usable ports",
        ));
    if let Some(rate) = rate("exact::the_command_exits_by_what_it_settled (its proof check)") {
        assert!(checker_accepts(&rate, &dir.path().join("five.drat.cnf"), &proof));
    }
    // Refuted by Füredi's bound before any search.
    design_exact("12", "5x7", &dir.path().join("bound"))
        .assert()
        .code(2)
        .stdout(predicates::str::contains("Füredi"));
    // Refuted by Füredi's structure theorem: more than 3 x 9 PCs with 4
    // NICs on 9-port switches must sit on the lines of a plane of order 3.
    fnn()
        .args([
            "design",
            "--exact",
            "--pcs",
            "28",
            "--nics",
            "4",
            "--switches",
            "9x14",
            "-o",
        ])
        .arg(dir.path().join("plane"))
        .assert()
        .code(2)
        .stdout(predicates::str::contains(
            "projective plane of order 3 (Füredi 1981), whose lines hold at most 27 PCs",
        ));
    fnn()
        .args([
            "design",
            "--exact",
            "--pcs",
            "21",
            "--nics",
            "7",
            "--switches",
            "4x37",
            "-o",
        ])
        .arg(dir.path().join("hard"))
        .args(["--time-limit", "0.3"])
        .assert()
        .code(1)
        .stdout(predicates::str::contains("exact: unknown"));
}

/// The estimate the memory budget is checked against follows the model
/// as built: the per-PC model's variables and clauses within a few
/// percent, the by-set one never under what it builds (it counts every
/// cut and a pessimistic size for each pseudo-Boolean sum).
#[test]
fn model_estimates_follow_what_is_built() {
    let ring = common::quick_with(40, 2, "3x30", |s| {
        s.coverage = Coverage::Sparse;
        s.patterns = vec![PatternSpec::Ring { k: 1, weight: 1.0 }];
    });
    let mut mixed = common::quick(20, 3, "8x9");
    mixed.nics[3] = 2;
    for c in [
        common::quick(64, 4, "31x8,8"),
        common::quick(100, 4, "40x12"),
        ring,
        mixed,
    ] {
        for (model, est) in estimates(&c) {
            let opts = Options {
                only: Some(model),
                // Counted once built and encoded, then stopped: no time
                // limit, so a slow machine cannot cut the building short.
                count_only: true,
                ..Options::default()
            };
            let out = solve(&c, &opts).expect("the solver runs");
            assert_eq!(out.model, model);
            let why = out.unknown_because.unwrap_or_default();
            assert_eq!(why, "only counted, not solved");
            let (vars, clauses) = (out.variables as f64, out.clauses as f64);
            let (ev, ec) = (est.variables as f64, est.clauses as f64);
            let (low, high) = match model {
                Model::PerPc => (0.9, 1.4),
                _ => (1.0, 6.0),
            };
            assert!(
                ec >= low * clauses && ec <= high * clauses,
                "{model:?} on {} PCs: {clauses} clauses built, {ec} estimated",
                c.pcs()
            );
            if model == Model::PerPc {
                assert!(
                    ev >= 0.9 * vars && ev <= 1.4 * vars,
                    "{vars} variables built, {ev} estimated"
                );
            }
        }
    }
}

/// Stopped while the model is still being built (here: before it is
/// begun), the answer is an honest unknown that says so, not a wait for
/// the build to finish.
#[test]
fn a_stop_during_the_build_is_an_unknown_that_says_so() {
    let c = common::quick(256, 6, "60x32");
    let out = solve_until(&c, &Options::default(), &std::sync::atomic::AtomicBool::new(true)).expect("runs");
    assert_eq!(out.verdict, Verdict::Unknown);
    let why = out.unknown_because.expect("a reason");
    assert!(why.contains("while the model was being built"), "{why}");
}

/// The `exact-first` portfolio asks the solver before the GA's first
/// generation: a ring of eight PCs on eight 2-port switches with PCs 0 and
/// 2 (not ring partners) pinned to one switch passes every counting bound,
/// yet the solver proves it impossible and the run stops there. On the
/// Fano plane's hardware, with no construction, the solver's design ends
/// the scaled-down phase and is the run's at generation 1.
#[test]
fn the_exact_first_portfolio_stops_on_a_proof_and_starts_from_a_design() {
    use fnn_tui::run::Limits;
    use fnn_tui::run::StopReason;
    use fnn_tui::spec::Preset;
    let mut pinned = common::quick_with(8, 2, "2x8", |s| {
        s.coverage = Coverage::Sparse;
        s.patterns = vec![PatternSpec::Ring { k: 1, weight: 1.0 }];
        s.ga.portfolio = Preset::ExactFirst;
        s.ga.constructions = false;
    });
    pinned.pins.set_must(0, 0);
    pinned.pins.set_must(2, 0);
    let run = |c: Cluster| {
        let mut r = fnn_tui::run::Run::of_cluster(fnn_tui::spec::Spec::default(), c).with_limits(Limits {
            generations: 50,
            time_limit_s: 0.0,
        });
        let stop = r.run(&std::sync::atomic::AtomicBool::new(false), |_| {});
        (stop, r)
    };
    fnn_tui::spec::check_feasible(&pinned).expect("no bound refutes it");
    let (stop, r) = run(pinned);
    assert_eq!((stop, r.engine().generation()), (StopReason::Impossible, 1));
    assert!(matches!(r.engine().verdict(), fnn_tui::ga::Verdict::Impossible(_)));
    assert!(
        r.said()
            .iter()
            .any(|(name, said)| *name == "exact" && said.starts_with("impossible")),
        "{:?}",
        r.said()
    );
    let mut fano = common::quick(7, 3, "3x7");
    fano.ga.portfolio = Preset::ExactFirst;
    fano.ga.constructions = false;
    let (_, r) = run(fano);
    assert_eq!(
        r.engine().first_valid(),
        Some(1),
        "the solver's design is valid at once"
    );
    let exact = &r.engine().strategy_stats()[0];
    assert_eq!((exact.name, exact.runs, exact.finds), ("exact", 1, 1));
}
