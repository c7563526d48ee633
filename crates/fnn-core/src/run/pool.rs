//! The run's thread pool: built once for a run from `ga.threads` and
//! handed to the engine, whose parallel steps all run on it.

use crate::ga::{Deadline, Engine, presets};
use crate::spec::Cluster;
use std::sync::Arc;

/// A pool of `threads` threads (one if that many cannot be had), named
/// after the worker so the designer's panic hook recognises them.
pub fn thread_pool(threads: usize) -> Arc<rayon::ThreadPool> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("ga-worker-pool-{i}"))
        .build()
        .unwrap_or_else(|_| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .expect("a one-thread pool")
        });
    Arc::new(pool)
}

impl Engine {
    /// An engine with the spec's own portfolio (`ga.portfolio`) on a pool
    /// of `ga.threads`, without limits (tests and benchmarks step it
    /// themselves).
    pub fn new(cluster: Cluster) -> Engine {
        let portfolio = presets::of_params(&cluster.ga);
        let threads = thread_pool(cluster.ga.threads);
        Engine::with_portfolio(cluster, portfolio, Deadline::NONE, Deadline::NONE, threads)
    }
}
