//! The sweep tab: what the scalability sweep of `crate::sweep` covers and
//! the points it has found so far. The sweep runs as a job of the GA
//! worker, its points arriving as events like everything else the UI
//! hears; leaving the tab stops it.

use crate::sweep::{Budget, Point};

/// Seconds of exact search per narrower width on a cell over the bound.
const EXACT_S: f64 = 1.0;

/// The sizes the tab sweeps, and the spec's own size to mark.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPlan {
    pub pcs: Vec<usize>,
    pub nics: Vec<u32>,
    pub budget: Budget,
    /// The open spec: PCs, NICs per PC, widest usable switch.
    pub spec: (usize, u32, u32),
}

impl SweepPlan {
    /// 3 to 1024 PCs in steps of 8 (and the spec's own size), 2 to 6 NICs
    /// (and the spec's), the GA and a second of exact search per width tried
    /// up to 32 PCs: about a minute on one core.
    pub fn for_spec(pcs: usize, nics: u32, widest: u32) -> SweepPlan {
        let mut sizes: Vec<usize> = (3..=1024).step_by(8).chain([1024, pcs.max(3)]).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let mut counts: Vec<u32> = (2..=6).chain([nics.max(1)]).collect();
        counts.sort_unstable();
        counts.dedup();
        SweepPlan {
            pcs: sizes,
            nics: counts,
            budget: Budget {
                generations: 100,
                max_pcs: 32,
                seed: 1,
                exact_s: EXACT_S,
                anneal: 0,
            },
            spec: (pcs, nics, widest),
        }
    }
}

/// The sweep tab's state: the plan, the points so far (kept sorted as they
/// arrive, not at every frame) and a failure, if the job had one.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepView {
    pub plan: SweepPlan,
    pub points: Vec<Point>,
    pub failed: Option<String>,
}

impl SweepView {
    pub fn new(plan: SweepPlan) -> SweepView {
        SweepView {
            plan,
            points: Vec::new(),
            failed: None,
        }
    }

    /// A point from the job, in its place by NICs then PCs.
    pub fn add(&mut self, p: Point) {
        let at = self.points.partition_point(|q| (q.nics, q.pcs) < (p.nics, p.pcs));
        self.points.insert(at, p);
    }

    pub fn total(&self) -> usize {
        self.plan.pcs.len() * self.plan.nics.len()
    }

    pub fn finished(&self) -> usize {
        self.points.len()
    }
}
