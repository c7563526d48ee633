//! The sweep tab's background run: the scalability sweep of `crate::sweep`
//! on its own thread, its points read by the drawing code as they come.
//! Dropping the run (leaving the tab) stops it.

use crate::sweep::{self, Budget, Point};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

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
    /// (and the spec's), the GA tried up to 32 PCs: under a minute on one core.
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
            },
            spec: (pcs, nics, widest),
        }
    }
}

#[derive(Debug)]
pub struct SweepRun {
    pub plan: SweepPlan,
    points: Arc<Mutex<Vec<Point>>>,
    done: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
}

impl PartialEq for SweepRun {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.points, &other.points)
    }
}

impl SweepRun {
    pub fn start(plan: SweepPlan) -> SweepRun {
        let points = Arc::new(Mutex::new(Vec::new()));
        let done = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let todo: Vec<(usize, u32)> = plan
            .nics
            .iter()
            .flat_map(|&n| plan.pcs.iter().map(move |&p| (p, n)))
            .collect();
        let (p, d, s, budget) = (points.clone(), done.clone(), stop.clone(), plan.budget);
        // The name tells the UI's panic hook this is not the drawing thread.
        let _ = std::thread::Builder::new()
            .name("ga-worker-sweep".into())
            .spawn(move || {
                sweep::run(&todo, budget, 1, &s, |point| {
                    if let Ok(mut v) = p.lock() {
                        v.push(point);
                    }
                    d.fetch_add(1, Ordering::Relaxed);
                })
            });
        SweepRun {
            plan,
            points,
            done,
            stop,
        }
    }

    /// The points so far, by NICs then PCs.
    pub fn points(&self) -> Vec<Point> {
        let mut v = self.points.lock().map(|v| v.clone()).unwrap_or_default();
        v.sort_by_key(|p| (p.nics, p.pcs));
        v
    }

    pub fn total(&self) -> usize {
        self.plan.pcs.len() * self.plan.nics.len()
    }

    pub fn finished(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }
}

impl Drop for SweepRun {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
