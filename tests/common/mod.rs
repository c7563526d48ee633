//! Helpers shared by the integration tests (each test file includes this
//! with `mod common;`).
#![allow(dead_code)]

use fnn_tui::spec::{Cluster, QuickFlags, Spec};

/// A cluster from quick flags, as `fnn-tui design --pcs --nics --switches` builds it.
pub fn quick(pcs: usize, nics: u32, switches: &str) -> Cluster {
    quick_with(pcs, nics, switches, |_| {})
}

pub fn quick_with(pcs: usize, nics: u32, switches: &str, edit: impl FnOnce(&mut Spec)) -> Cluster {
    let flags = QuickFlags {
        pcs: Some(pcs),
        nics: Some(nics),
        switches: Some(switches.into()),
        ..Default::default()
    };
    let mut spec = flags.apply(Spec::default()).expect("quick flags apply");
    edit(&mut spec);
    spec.resolve().expect("spec resolves")
}

/// Runs an engine to its stopping rule within `generations`, no time limit.
pub fn run(e: &mut fnn_tui::ga::Engine, generations: u64) -> fnn_tui::ga::StopReason {
    e.run(
        fnn_tui::ga::Limits {
            generations,
            time_limit_s: 0.0,
        },
        &std::sync::atomic::AtomicBool::new(false),
        |_| {},
    )
}

/// The papers' GA alone (seed 002): no construction, no local search.
pub fn papers_ga(c: &mut Cluster) {
    c.ga.constructions = false;
    c.ga.local_search = 0;
}
