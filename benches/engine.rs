//! The engine's speed: evaluation throughput, full and
//! incremental, one generation, and time to a valid design.
//!
//!     cargo bench --bench engine
//!
//! Figures and the machine are recorded in BENCHMARKS.md.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fnn_tui::ga::{Engine, Eval, Genome, Problem, Rng, operators};
use fnn_tui::run::Limits;
use fnn_tui::spec::{Cluster, QuickFlags, Spec};
use rand::{RngExt, SeedableRng};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn quick(pcs: usize, nics: u32, switches: &str) -> Cluster {
    let flags = QuickFlags {
        pcs: Some(pcs),
        nics: Some(nics),
        switches: Some(switches.into()),
        ..Default::default()
    };
    let mut c = flags
        .apply(Spec::default())
        .and_then(|s| s.resolve())
        .expect("bench spec resolves");
    c.ga.threads = 1;
    c
}

/// (label, PCs, NICs, switches): 64 = KLAT2, 1024 x 128 switches needs two mask words.
const SIZES: &[(&str, usize, u32, &str)] = &[
    ("64", 64, 4, "31x8,8"),
    ("256", 256, 4, "80x13"),
    ("1024", 1024, 5, "256x20"),
    ("1024x128sw", 1024, 5, "40x128"),
];

/// A wiring that is not the tidy initial one: the straightforward
/// construction shuffled by many random exchanges.
fn shuffled(problem: &Problem, seed: u64) -> Genome {
    let mut rng = Rng::seed_from_u64(seed);
    let mut g = Genome::straightforward(problem);
    let mut e = Eval::full(problem, &g);
    for _ in 0..problem.pcs() * 4 {
        operators::swap_connection(problem, &mut g, &mut e, &mut rng, 0.0);
    }
    g
}

/// A group of one benchmark per size in [`SIZES`], on the shuffled
/// genome, its throughput counted in PC pairs.
fn over_sizes(c: &mut Criterion, name: &str, run: impl Fn(&Problem, &Genome)) {
    let mut group = c.benchmark_group(name);
    for &(label, pcs, nics, sw) in SIZES {
        let problem = Problem::new(quick(pcs, nics, sw));
        let g = shuffled(&problem, 1);
        group.throughput(Throughput::Elements((pcs * (pcs - 1) / 2) as u64));
        group.bench_with_input(BenchmarkId::from_parameter(label), &g, |b, g| {
            b.iter(|| run(&problem, g))
        });
    }
    group.finish();
}

fn eval_full(c: &mut Criterion) {
    over_sizes(c, "eval_full", |problem, g| {
        black_box(Eval::full(problem, black_box(g)));
    });
}

/// The limit a full evaluation is held to: the same pairs' AND and
/// popcount, summed, and nothing else, compiled for the same CPU levels.
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vl+avx512vpopcntdq+avx2+bmi1+bmi2+lzcnt+popcnt",
    "x86_64+avx2+bmi1+bmi2+lzcnt+popcnt",
    "x86_64+popcnt"
))]
fn and_popcount(masks: &[u64], words: usize) -> u64 {
    let mut sum = 0u64;
    for (a, ma) in masks.chunks_exact(words).enumerate() {
        let after = &masks[(a + 1) * words..];
        sum += if words == 1 {
            after
                .iter()
                .map(|&mb| u64::from((ma[0] & mb).count_ones()))
                .sum::<u64>()
        } else if words == 2 {
            after
                .chunks_exact(2)
                .map(|mb| u64::from((ma[0] & mb[0]).count_ones() + (ma[1] & mb[1]).count_ones()))
                .sum::<u64>()
        } else {
            after
                .chunks_exact(words)
                .map(|mb| {
                    ma.iter()
                        .zip(mb)
                        .map(|(x, y)| u64::from((x & y).count_ones()))
                        .sum::<u64>()
                })
                .sum::<u64>()
        };
    }
    sum
}

/// [`and_popcount`] on the genomes `eval_full` evaluates, for the ratio.
fn eval_limit(c: &mut Criterion) {
    over_sizes(c, "eval_limit", |problem, g| {
        black_box(and_popcount(black_box(g.masks()), problem.words));
    });
}

/// One incremental exchange of two NIC connections (and its undo), the
/// unit of mutation: 4 PC rows re-evaluated per exchange.
fn eval_incremental(c: &mut Criterion) {
    let mut group = c.benchmark_group("eval_incremental_swap");
    for &(label, pcs, nics, sw) in SIZES {
        let problem = Problem::new(quick(pcs, nics, sw));
        let mut g = shuffled(&problem, 2);
        let mut e = Eval::full(&problem, &g);
        let mut rng = Rng::seed_from_u64(3);
        let swaps: Vec<(usize, usize)> = std::iter::from_fn(|| {
            let (i, j) = (rng.random_range(0..g.len()), rng.random_range(0..g.len()));
            Some((i, j))
        })
        .filter(|&(i, j)| g.can_swap(&problem, i, j))
        .take(256)
        .collect();
        // Each iteration does an exchange and its undo: 2 x 4 rows of P pairs.
        group.throughput(Throughput::Elements(2 * 4 * pcs as u64));
        let mut k = 0;
        group.bench_function(BenchmarkId::from_parameter(label), |b| {
            b.iter(|| {
                let (i, j) = swaps[k % swaps.len()];
                k += 1;
                e.swap(&problem, &mut g, i, j);
                e.swap(&problem, &mut g, i, j);
                black_box(e.total)
            })
        });
    }
    group.finish();
}

fn generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("generation");
    group.sample_size(10);
    for &(label, pcs, nics, sw) in SIZES {
        let mut cluster = quick(pcs, nics, sw);
        cluster.ga.scale_down = false;
        let mut engine = Engine::new(cluster);
        group.bench_function(BenchmarkId::from_parameter(label), |b| b.iter(|| engine.step()));
    }
    group.finish();
}

fn time_to_valid(c: &mut Criterion) {
    let mut group = c.benchmark_group("time_to_valid");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    let mut torus = Spec::load(std::path::Path::new("assets/specs/torus-sparse.toml"))
        .and_then(|s| s.resolve())
        .expect("torus spec");
    torus.ga.threads = 1;
    let cases = [
        ("klat2_64pc_31x8+8", quick(64, 4, "31x8,8")),
        ("narrow_64pc_20x13", quick(64, 4, "20x13")),
        ("large_256pc_80x13", quick(256, 4, "80x13")),
        ("sparse_torus_256pc_8port", torus),
    ];
    for (label, cluster) in cases {
        group.bench_function(label, |b| {
            b.iter(|| {
                let mut e = Engine::new(cluster.clone());
                let limits = Limits {
                    generations: 20_000,
                    time_limit_s: 0.0,
                };
                // Stop at the first valid design, whatever else is weighted.
                while !e.is_valid() && e.generation() < limits.generations {
                    e.step();
                }
                assert!(e.is_valid(), "{label} found no valid design");
                black_box(e.generation())
            })
        });
    }
    group.finish();
    let _ = AtomicBool::new(false);
}

criterion_group!(
    benches,
    eval_full,
    eval_limit,
    eval_incremental,
    generation,
    time_to_valid
);
criterion_main!(benches);
