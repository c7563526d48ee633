//! The engine's step API: determinism per seed whatever the thread count,
//! the two phases, live weights and pins.

use crate::common;

use fnn_tui::ga::{Deadline, Engine, Phase, presets};
use fnn_tui::spec::{Cluster, PatternSpec, Pins};

fn with_threads(mut c: Cluster, threads: usize) -> Cluster {
    c.ga.threads = threads;
    c
}

#[test]
fn same_seed_gives_the_same_run_on_one_or_two_threads() {
    let base = common::quick_with(48, 3, "24x6", |s| {
        s.patterns.push(PatternSpec::Ring { k: 2, weight: 1.0 })
    });
    let run = |threads| {
        let mut e = Engine::new(with_threads(base.clone(), threads));
        for _ in 0..40 {
            e.step();
        }
        (e.history().to_vec(), e.best_design(), e.evaluations())
    };
    let (h1, d1, n1) = run(1);
    let (h2, d2, n2) = run(2);
    assert_eq!(h1, h2);
    assert_eq!(d1, d2);
    assert_eq!(n1, n2);
    let mut other = base.clone();
    other.ga.seed += 1;
    let mut e = Engine::new(other);
    for _ in 0..40 {
        e.step();
    }
    assert_ne!(e.history().to_vec(), h1, "a different seed should give a different run");
}

#[test]
fn the_scaled_phase_comes_first_and_is_marked() {
    // KLAT2's hardware starts valid from a construction; on eleven 25-port
    // switches none fits, so the GA begins scaled down.
    let e = Engine::new(common::quick(64, 4, "25x11"));
    assert_eq!(e.phase(), Phase::Scaled { width: 3, pcs: 8 });
    let e = common::run(e, 500);
    assert_eq!(e.phase(), Phase::Full);
    assert_eq!(e.phase_changes().len(), 1);
    let change = e.phase_changes()[0];
    assert!(e.history().iter().all(|g| g.full == (g.generation >= change)));
    assert!(e.is_valid());
}

#[test]
fn without_scaling_the_full_problem_is_solved_directly() {
    let mut c = common::quick(64, 4, "31x8,8");
    c.ga.scale_down = false;
    common::papers_ga(&mut c);
    let e = Engine::new(c);
    assert_eq!(e.phase(), Phase::Full);
    assert!(
        !e.is_valid(),
        "no construction: the GA starts from the straightforward wiring"
    );
    let e = common::run(e, 3000);
    assert!(e.is_valid(), "uncovered {}", e.best().terms().uncovered);
}

#[test]
fn new_weights_reorder_the_population_without_changing_terms() {
    let c = common::quick_with(32, 3, "16x6", |s| {
        s.patterns.push(PatternSpec::Ring { k: 1, weight: 1.0 })
    });
    let mut e = Engine::new(c);
    for _ in 0..20 {
        e.step();
    }
    let terms: Vec<_> = e.population().iter().map(|m| *m.terms()).collect();
    let mut w = e.cluster().weights.clone();
    w.bandwidth = 0.0;
    w.weakest = 0.0;
    w.redundancy = 7.0;
    e.set_weights(w.clone());
    let mut after: Vec<_> = e.population().iter().map(|m| *m.terms()).collect();
    for m in e.population() {
        assert!((m.fitness() - m.terms().total(&w)).abs() < 1e-9);
    }
    let fits: Vec<f64> = e.population().iter().map(|m| m.fitness()).collect();
    assert!(
        fits.windows(2).all(|p| p[0] >= p[1]),
        "population not sorted after reweighting"
    );
    let key = |t: &fnn_tui::ga::Terms| format!("{t:?}");
    let mut before = terms;
    before.sort_by_key(key);
    after.sort_by_key(key);
    assert_eq!(before, after, "reweighting must not change any member's terms");
}

#[test]
fn pins_set_live_are_obeyed_by_every_member() {
    let e = Engine::new(common::quick(24, 3, "12x6"));
    let mut e = common::run(e, 300);
    let mut pins = Pins::new(24, 6);
    pins.set_must(0, 5);
    pins.set_must(1, 5);
    pins.set_forbid(2, 0);
    e.set_pins(pins).unwrap();
    for _ in 0..30 {
        e.step();
    }
    for m in e.population() {
        let g = &m.genome;
        assert!(g.has(e.problem(), 0, 5) && g.has(e.problem(), 1, 5));
        assert!(!g.has(e.problem(), 2, 0));
    }
}

/// Pins the population cannot be repaired to obey are refused whole: the
/// pins, every member, the best design and the random stream are as they
/// were (a refused pin used to repair the population and drop the best).
#[test]
fn pins_no_member_can_obey_change_nothing() {
    let mut x: u64 = 12345;
    let mut draw = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n) as usize
    };
    let mut refused = 0;
    for _ in 0..200 {
        let e = Engine::new(common::quick(8, 3, "4x6"));
        let mut e = common::run(e, 3);
        let mut pins = Pins::new(8, 6);
        for _ in 0..draw(12) {
            let (pc, s) = (draw(8), draw(6));
            if draw(2) == 0 {
                pins.set_must(pc, s)
            } else {
                pins.set_forbid(pc, s)
            }
        }
        let mut c = e.cluster().clone();
        c.pins = pins.clone();
        if fnn_tui::spec::check_feasible(&c).is_err() {
            continue;
        }
        let before = (e.state(), e.best_design(), e.cluster().pins.clone());
        if let Err(cells) = e.set_pins(pins) {
            assert!(!cells.is_empty());
            assert_eq!(before, (e.state(), e.best_design(), e.cluster().pins.clone()));
            refused += 1;
        }
    }
    assert!(
        refused >= 3,
        "only {refused} pin sets were refused: the test proves little"
    );
}

#[test]
fn the_rack_crossings_weight_keeps_cables_in_their_rack() {
    let run = |weight: f64| {
        let mut c = common::quick_with(48, 3, "24x6", |s| {
            s.racks.count = 3;
            s.weights.rack_crossings = weight;
        });
        c.ga.generations = 300;
        let e = Engine::new(c);
        let e = common::run(e, 300);
        assert!(e.is_valid());
        e.best().terms().crossings
    };
    let (free, steered) = (run(0.0), run(50.0));
    assert!(steered < free, "crossings {steered} with the weight, {free} without");
}

/// Past its deadline the first population is not copied out to its full
/// size (thousands of copies took seconds at 16384 PCs, after the limit):
/// it holds what was made, and the next generation fills it up again.
#[test]
fn a_population_cut_short_by_the_deadline_is_filled_by_the_next_generation() {
    let mut c = common::quick(24, 3, "12x8");
    c.ga.population = 60;
    c.ga.scale_down = false;
    let passed = std::time::Instant::now();
    let mut e = Engine::with_portfolio(
        c.clone(),
        presets::of_params(&c.ga),
        Deadline::at(passed),
        Deadline::NONE,
        fnn_tui::run::thread_pool(c.ga.threads),
    );
    assert_eq!(
        e.population().len(),
        1,
        "only the first member is made after the deadline"
    );
    e.step();
    assert_eq!(e.population().len(), 60, "the next generation is full size");
    let whole = Engine::new(c);
    assert_eq!(whole.population().len(), 60);
}

/// The report's pass over every pair, spread over the cores, counts the
/// same as pair by pair: histogram, required and uncovered pairs (the
/// first ones, in order), hops.
#[test]
fn the_report_counts_every_pair_as_one_by_one() {
    use fnn_tui::design::Design;
    use fnn_tui::metrics::Metrics;
    use fnn_tui::spec::Coverage;
    for sparse in [false, true] {
        let c = common::quick_with(300, 2, "40x15", |s| {
            if sparse {
                s.coverage = Coverage::Sparse;
                s.patterns = vec![PatternSpec::Ring { k: 7, weight: 1.0 }];
            }
        });
        // A deliberately poor wiring: PC i on switches i % 15 and (i / 20) % 15.
        let mut d = Design::new(300, 15);
        for pc in 0..300 {
            d.connect(pc, pc % 15);
            d.connect(pc, (pc / 20) % 15);
        }
        let m = Metrics::compute(&d, &c);
        let (mut hist, mut required, mut uncovered) = (vec![0u64; 3], 0u64, Vec::new());
        for a in 0..300 {
            for b in a + 1..300 {
                let l = d.links(a, b) as usize;
                hist[l] += 1;
                if c.is_required(a, b) {
                    required += 1;
                    if l == 0 {
                        uncovered.push((a, b));
                    }
                }
            }
        }
        while hist.last() == Some(&0) {
            hist.pop();
        }
        assert_eq!(m.link_histogram, hist, "sparse {sparse}");
        assert_eq!(m.required_pairs, required);
        assert_eq!(m.uncovered_pairs, uncovered.len() as u64);
        uncovered.truncate(1000);
        assert_eq!(m.uncovered, uncovered, "the first uncovered pairs, in order");
        let l = &m.latency;
        assert_eq!(
            l.single_switch_pairs + l.via_uplink_pairs + l.via_pc_pairs + l.unreachable_pairs,
            300 * 299 / 2
        );
    }
}
