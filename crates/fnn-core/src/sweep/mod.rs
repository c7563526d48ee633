//! The scalability sweep (the KLAT2 paper §7): for each number of PCs
//! and NICs per PC, the narrowest switches a universal FNN needs and how
//! many, beside the lower bound.
//!
//! Each point starts from the best design-theory construction (exact
//! widths, instant); when that is over the bound, the GA tries each
//! narrower width in turn with a fixed generation budget, so results are
//! deterministic and the GA only works where there is something to win.

pub mod anneal;
mod csv;
mod settle;
mod shard;
mod slurm;
mod svg;

pub use csv::{HEADER, parse_csv, to_csv};
pub mod shards {
    //! Reading and merging shard files.
    pub use super::shard::{merge, read, split};
}
pub use settle::{Mark, Settled, settle};
pub use shard::{Settings, Shard};
pub use slurm::{SlurmJob, slurm_script};
pub use svg::svg;

use crate::design::{bounds, constructions};
use crate::metrics::Metrics;
use crate::run::Run;
use crate::spec::{Preset, quick_cluster, quick_spec};
use serde::Serialize;
use std::sync::atomic::AtomicBool;

/// One size of the sweep.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Point {
    pub pcs: usize,
    pub nics: u32,
    /// The lower bound on switch width (`bounds::width_bound`).
    pub bound: u64,
    /// The narrowest width found.
    pub width: u32,
    /// Switches of that design.
    pub switches: usize,
    /// The covering bound on switches at that width.
    pub switch_bound: u64,
    /// "construction: ...", "GA" or "exact".
    pub method: String,
    pub seconds: f64,
    /// Whether a narrower width is ruled out.
    pub mark: Mark,
    /// What rules it out, in words ("" for an open cell).
    pub proof: String,
}

impl Point {
    pub fn gap(&self) -> i64 {
        self.width as i64 - self.bound as i64
    }
}

/// How hard the GA tries below the construction's width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Generations per width tried (0: constructions only).
    pub generations: u64,
    /// The GA is tried up to this many PCs; above it, tight covering
    /// designs are beyond a short GA run and constructions decide.
    pub max_pcs: usize,
    pub seed: u64,
    /// Seconds of the exact search per narrower width tried on a cell
    /// still over the bound (0: no exact search). Up to `max_pcs` too.
    pub exact_s: f64,
    /// Moves of the annealing search ([`anneal`]) per narrower width tried
    /// on a cell the constructions and the GA leave over the bound, at any
    /// number of PCs (0: none).
    pub anneal: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            generations: 300,
            max_pcs: 64,
            seed: 1,
            exact_s: 0.0,
            anneal: 0,
        }
    }
}

/// A cell's mark when no exact search ran: optimal at the bound, else open.
pub(crate) fn unproved(p: &Point) -> (Mark, String) {
    if p.gap() <= 0 {
        (Mark::Optimal, at_bound(p.pcs, p.nics, p.bound))
    } else {
        (Mark::Open, String::new())
    }
}

/// The proof of a cell at the lower bound: the bound that rules out one
/// port fewer, in words.
pub(crate) fn at_bound(pcs: usize, nics: u32, bound: u64) -> String {
    let narrower = bound.saturating_sub(1);
    match bounds::width_refutation(pcs as u64, nics as u64, narrower) {
        Some(why) if narrower > 0 => format!("at the lower bound: {narrower} ports ruled out, {why}"),
        _ => "at the lower bound".into(),
    }
}

impl Point {
    /// Applies today's lower bound to a cell read back from a CSV: a
    /// stronger bound can put a cell an older sweep left open at the bound.
    pub(crate) fn rebound(&mut self) {
        let now = bounds::width_bound(self.pcs as u64, self.nics as u64);
        if now > self.bound {
            self.bound = now;
            if self.mark != Mark::Optimal && self.gap() <= 0 {
                (self.mark, self.proof) = unproved(self);
            }
        }
    }
}

/// The narrowest universal FNN found for `pcs` PCs of `nics` NICs.
/// `interrupted` cuts a GA attempt short (the construction's width stands).
pub fn point(pcs: usize, nics: u32, budget: Budget, interrupted: &AtomicBool) -> Point {
    let start = std::time::Instant::now();
    let bound = bounds::width_bound(pcs as u64, nics as u64);
    let built = constructions::best(pcs, nics as usize).expect("at least one PC and one NIC");
    // Every construction is checked by the spec's own validator.
    let verified = quick_cluster(
        pcs,
        nics,
        &format!("{}x{}", built.width.max(2), built.switches().max(1)),
    )
    .is_ok_and(|c| Metrics::compute(&built.design, &c).valid);
    let label = if verified {
        "construction"
    } else {
        "construction (NOT VALID)"
    };
    let mut found = (built.width, built.switches(), format!("{label}: {}", built.name));
    for width in bound..built.width as u64 {
        if budget.generations == 0 || pcs > budget.max_pcs {
            break;
        }
        if let Some(switches) = ga_at(pcs, nics, width as u32, budget, interrupted) {
            found = (width as u32, switches, "GA".to_string());
            break;
        }
    }
    if budget.anneal > 0 {
        for width in bound..found.0 as u64 {
            if let Some(switches) = anneal_at(pcs, nics, width as u32, budget, interrupted) {
                found = (width as u32, switches, "annealing".to_string());
                break;
            }
        }
    }
    let (width, switches, method) = found;
    let mut p = Point {
        pcs,
        nics,
        bound,
        width,
        switches,
        switch_bound: bounds::min_switches(pcs as u64, width as u64),
        method,
        seconds: 0.0,
        mark: Mark::Open,
        proof: String::new(),
    };
    (p.mark, p.proof) = unproved(&p);
    let exact = budget.exact_s > 0.0 && pcs <= budget.max_pcs;
    if p.mark == Mark::Open && exact && !interrupted.load(std::sync::atomic::Ordering::Relaxed) {
        let budget = std::time::Duration::from_secs_f64(budget.exact_s);
        let s = settle(pcs, nics, bound, width, switches, budget, interrupted);
        if s.width < p.width {
            (p.width, p.switches, p.method) = (s.width, s.switches, "exact".into());
            p.switch_bound = bounds::min_switches(pcs as u64, s.width as u64);
        }
        (p.mark, p.proof) = (s.mark, s.proof);
    }
    p.seconds = start.elapsed().as_secs_f64();
    p
}

/// Runs the annealing search on as few `width`-port switches as hold
/// every PC's NICs (and the covering bound asks), then on one more, then
/// for one PC more (its design, less that PC, serves these), a third of
/// the moves each: the spare ports of one more switch can free a walk the
/// tight count freezes, and a tighter cell can be easier to walk into
/// (43 PCs with 6 NICs on 9 ports: two pairs short on 29 and on 30
/// switches; 44 PCs found on 30). The switches a valid design uses, or `None`.
fn anneal_at(pcs: usize, nics: u32, width: u32, budget: Budget, interrupted: &AtomicBool) -> Option<usize> {
    let tight = |pcs: usize| {
        (pcs * nics as usize)
            .div_ceil(width as usize)
            .max(bounds::min_switches(pcs as u64, width as u64) as usize)
    };
    let tries = [(pcs, tight(pcs)), (pcs, tight(pcs) + 1), (pcs + 1, tight(pcs + 1))];
    tries.into_iter().find_map(|(walked, switches)| {
        let cell = anneal::Cell {
            pcs: walked,
            nics: nics as usize,
            width: width as usize,
            switches,
        };
        let design = anneal::anneal(cell, budget.anneal / 3, budget.seed, interrupted)?.first_pcs(pcs);
        // Checked by the spec's own validator, as the constructions are.
        let cluster = quick_cluster(pcs, nics, &format!("{width}x{switches}")).ok()?;
        let used = design.ports_used().iter().filter(|&&u| u > 0).count();
        Metrics::compute(&design, &cluster).valid.then_some(used)
    })
}

/// Runs the GA on as many `width`-port switches as the NICs need; the
/// switches a valid design uses, or `None`.
fn ga_at(pcs: usize, nics: u32, width: u32, budget: Budget, interrupted: &AtomicBool) -> Option<usize> {
    // A width the counting bounds refuse cannot be searched; none is
    // below `bound`, but the flag `x*` count may still be too small.
    let mut spec = quick_spec(pcs, nics, &format!("{width}x*")).ok()?;
    spec.ga.threads = 1;
    spec.ga.seed = budget.seed;
    // The generation budget was set for generations that cost the same at
    // any width: the walks can cost far more at widths that are impossible.
    spec.ga.portfolio = Preset::Quick;
    spec.ga.generations = budget.generations;
    spec.ga.time_limit_s = 0.0;
    let cluster = spec.resolve().ok()?;
    crate::spec::check_feasible(&cluster).ok()?;
    let mut run = Run::of_cluster(spec, cluster);
    run.run(interrupted, |_| {});
    let report = run.report();
    report.valid.then_some(report.switches_used)
}

/// Sweeps the sizes `todo` (pairs of PCs and NICs) on `threads` worker
/// threads (0: all cores), largest first so the long points start early;
/// `on_point` sees each as it finishes. Sizes not started when
/// `interrupted` is set are skipped, and one cut short is not reported, so
/// whatever was reported is final and a resumed sweep redoes the rest.
pub fn run(
    todo: &[(usize, u32)],
    budget: Budget,
    threads: usize,
    interrupted: &AtomicBool,
    on_point: impl Fn(Point) + Sync,
) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let mut order = todo.to_vec();
    order.sort_by_key(|&(p, n)| (std::cmp::Reverse(p), n));
    let threads = crate::spec::threads_for(threads);
    // Plain threads, not rayon: each GA has its own one-thread pool, and a
    // rayon worker waiting on another pool steals more points meanwhile,
    // which would blur the per-point times.
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for i in 0..threads.min(order.len()).max(1) {
            // Named for `top -H` and panic messages.
            let builder = std::thread::Builder::new().name(format!("ga-worker-sweep-{i}"));
            let _ = builder.spawn_scoped(scope, || {
                while let Some(&(pcs, nics)) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if interrupted.load(Ordering::Relaxed) {
                        return;
                    }
                    let p = point(pcs, nics, budget, interrupted);
                    if !interrupted.load(Ordering::Relaxed) {
                        on_point(p);
                    }
                }
            });
        }
    });
}

/// Per NIC count: sizes, how many at the bound, the largest gap, time.
/// Per NIC count: how the sizes stand against the bound, as a table
/// wrapped to `width` columns when given. Seconds are each size's own,
/// summed: sizes run in parallel, so the sum can exceed the wall time.
pub fn summary(points: &[Point], width: Option<u16>) -> String {
    let header = [
        "NICs",
        "sizes",
        "at bound",
        "over by 1",
        "over by more",
        "proved optimal over",
        "open",
        "max gap",
        "CPU s",
    ];
    let mut nics: Vec<u32> = points.iter().map(|p| p.nics).collect();
    nics.sort_unstable();
    nics.dedup();
    let rows: Vec<Vec<String>> = nics
        .into_iter()
        .map(|n| {
            let pts: Vec<&Point> = points.iter().filter(|p| p.nics == n).collect();
            let count = |f: &dyn Fn(i64) -> bool| pts.iter().filter(|p| f(p.gap())).count().to_string();
            let proved = pts.iter().filter(|p| p.gap() > 0 && p.mark == Mark::Optimal).count();
            let open = pts.iter().filter(|p| p.mark != Mark::Optimal).count();
            vec![
                n.to_string(),
                pts.len().to_string(),
                count(&|g| g <= 0),
                count(&|g| g == 1),
                count(&|g| g > 1),
                proved.to_string(),
                open.to_string(),
                pts.iter().map(|p| p.gap()).max().unwrap_or(0).to_string(),
                format!("{:.1}", pts.iter().map(|p| p.seconds).sum::<f64>()),
            ]
        })
        .collect();
    let mut out = crate::table::fitted(&header, &rows, width);
    out.push_str("CPU s: each size's own seconds, summed (sizes run in parallel, so more than the wall time)\n");
    out
}

/// What is wrong with a sweep's range or its CSV.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum SweepError {
    #[error("`{text}` is not valid for {what}: use A..B, A..B:STEP or a comma list, values at least {min}")]
    Range { text: String, what: String, min: usize },
    #[error("`{text}` is not a shard: use I/N, 1 <= I <= N (shard 2 of 4: 2/4)")]
    Shard { text: String },
    #[error("{file}: refused: {what}; run that shard again with the merge's settings, or merge it with its own")]
    Foreign { file: String, what: String },
    #[error("{file}: line 1: expected the header `{}`", csv::HEADER)]
    Header { file: String },
    #[error("{file}: line {line}: field `{field}` is not valid")]
    Field {
        file: String,
        line: usize,
        field: &'static str,
    },
    #[error("{file}: line {line}: a second row for {pcs} PCs with {nics} NICs (the first is on line {first})")]
    Duplicate {
        file: String,
        line: usize,
        pcs: usize,
        nics: u32,
        first: usize,
    },
}

/// Parses `3..1024`, `3..1024:8` (every 8th) or `8,16,64` into sizes.
pub fn parse_range(text: &str, what: &str, min: usize) -> Result<Vec<usize>, SweepError> {
    let bad = || SweepError::Range {
        text: text.to_string(),
        what: what.to_string(),
        min,
    };
    let num = |s: &str| s.trim().parse::<usize>().map_err(|_| bad());
    let values: Vec<usize> = if let Some((a, rest)) = text.split_once("..") {
        let (b, step) = match rest.split_once(':') {
            Some((b, s)) => (num(b)?, num(s)?),
            None => (num(rest)?, 1),
        };
        let a = num(a)?;
        if step == 0 || b < a {
            return Err(bad());
        }
        let mut v: Vec<usize> = (a..=b).step_by(step).collect();
        if v.last() != Some(&b) {
            v.push(b);
        }
        v
    } else {
        text.split(',').map(num).collect::<Result<_, _>>()?
    };
    if values.is_empty() || values.iter().any(|&v| v < min) {
        return Err(bad());
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse() {
        assert_eq!(parse_range("3..6", "--pcs", 3).unwrap(), vec![3, 4, 5, 6]);
        assert_eq!(parse_range("3..10:4", "--pcs", 3).unwrap(), vec![3, 7, 10]);
        assert_eq!(parse_range("8,16", "--pcs", 3).unwrap(), vec![8, 16]);
        assert!(
            parse_range("2..6", "--pcs", 3)
                .unwrap_err()
                .to_string()
                .contains("at least 3")
        );
        assert!(parse_range("6..2", "--pcs", 3).is_err());
        assert!(parse_range("a..b", "--pcs", 3).is_err());
        assert!(parse_range("3..9:0", "--pcs", 3).is_err());
    }

    #[test]
    fn the_ga_closes_a_gap_the_constructions_leave() {
        // 10 PCs with 5 NICs: the constructions need 4 ports, the bound
        // says 3 and the GA finds it (17 triangles of a 3-port design).
        let stop = AtomicBool::new(false);
        let p = point(10, 5, Budget::default(), &stop);
        assert_eq!((p.bound, p.width, p.method.as_str()), (3, 3, "GA"));
        let only = point(
            10,
            5,
            Budget {
                generations: 0,
                ..Budget::default()
            },
            &stop,
        );
        assert_eq!(only.width, 4);
        assert!(only.method.starts_with("construction"));
    }

    /// 52 PCs with 5 NICs: the annealing search meets the bound's 13 on
    /// its own (the constructions reach it too, with unequal groups).
    #[test]
    fn annealing_meets_the_bound_at_52_pcs_with_5_nics() {
        let stop = AtomicBool::new(false);
        let budget = Budget {
            generations: 0,
            anneal: 30_000_000,
            ..Budget::default()
        };
        assert_eq!(bounds::width_bound(52, 5), 13);
        assert!(anneal_at(52, 5, 13, budget, &stop).is_some());
        assert!(anneal_at(52, 5, 13, Budget { anneal: 3, ..budget }, &stop).is_none());
    }

    /// 38 PCs with 6 NICs: the planes over greedy groups leave it one over
    /// the bound (9 ports); unequal groups, sized by the walk, meet the
    /// bound's 8 without any search, so the cell is settled.
    #[test]
    fn unequal_groups_settle_38_pcs_with_6_nics() {
        let stop = AtomicBool::new(false);
        let off = Budget {
            generations: 0,
            ..Budget::default()
        };
        let p = point(38, 6, off, &stop);
        assert_eq!((p.bound, p.width, p.switches), (8, 8, 31));
        assert_eq!(p.method, "construction: projective plane of order 5");
        assert_eq!(p.mark, Mark::Optimal);
    }

    /// 10 PCs with 5 NICs: the constructions leave it one over the bound
    /// (4 ports); the annealing search meets the bound's 3 on 17 switches,
    /// and only when asked to.
    #[test]
    fn annealing_settles_a_cell_the_constructions_leave_one_over() {
        let stop = AtomicBool::new(false);
        let off = Budget {
            generations: 0,
            ..Budget::default()
        };
        let p = point(10, 5, off, &stop);
        assert_eq!((p.bound, p.width, p.mark), (3, 4, Mark::Open));
        let p = point(
            10,
            5,
            Budget {
                anneal: 2_000_000,
                ..off
            },
            &stop,
        );
        assert_eq!((p.width, p.switches, p.method.as_str()), (3, 17, "annealing"));
        assert_eq!(p.mark, Mark::Optimal);
    }

    #[test]
    fn large_points_meet_the_bound_by_construction() {
        let stop = AtomicBool::new(false);
        let p = point(1024, 5, Budget::default(), &stop);
        assert_eq!((p.width, p.bound, p.switches), (244, 244, 21));
        assert_eq!(p.switch_bound, 21);
    }
}
