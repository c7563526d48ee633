//! When a run stops: its limits (generations, time) and the stop rules,
//! written once for every front end.

use super::stop::StopReason;
use crate::deadline::Deadline;
use crate::ga::Engine;
use crate::spec::GaParams;
use std::time::{Duration, Instant};

/// When a headless search stops.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// 0 means none.
    pub generations: u64,
    /// Seconds; 0 means none.
    pub time_limit_s: f64,
}

impl Limits {
    pub fn from_params(ga: &GaParams) -> Limits {
        Limits {
            generations: ga.generations,
            time_limit_s: ga.time_limit_s,
        }
    }
}

/// A generation's searches share of the time limit: each hands back what
/// it has after this share, so none holds a generation for most of the
/// run (a 2-NIC stencil's first generation took 30 s of a 60 s limit
/// where the GA alone was valid in a fraction of a second).
const SLICES: u32 = 20;

impl Limits {
    /// When the searches of a generation starting `now` hand back what
    /// they have: a share of the time limit. A run without a time limit
    /// has no slice either, so it stays the same for a seed on any
    /// machine; its searches are bounded by their moves.
    pub fn slice(&self, now: Instant) -> Deadline {
        Deadline::after(now, self.time_limit().map(|t| t / SLICES))
    }

    /// The time limit, `None` for none.
    pub fn time_limit(&self) -> Option<Duration> {
        let limit = Duration::try_from_secs_f64(self.time_limit_s).ok()?;
        (self.time_limit_s > 0.0).then_some(limit)
    }

    /// The moment the time limit runs out for a clock started at `since`.
    pub fn deadline(&self, since: Instant) -> Deadline {
        Deadline::after(since, self.time_limit())
    }

    /// The stop rules, in order, for an engine whose clock started at
    /// `since`: the one place they are written (runs and tests use it).
    pub fn reached(&self, e: &Engine, since: Instant) -> Option<StopReason> {
        if e.proved_impossible() {
            return Some(StopReason::Impossible);
        }
        if e.stalled() {
            return Some(StopReason::Stalled);
        }
        if e.done() {
            return Some(StopReason::Valid);
        }
        if e.exhausted() {
            return Some(if e.is_valid() {
                StopReason::Valid
            } else {
                StopReason::Exhausted
            });
        }
        if self.generations > 0 && e.generation() >= self.generations {
            return Some(StopReason::Generations);
        }
        if self.time_limit_s > 0.0 && since.elapsed().as_secs_f64() >= self.time_limit_s {
            return Some(StopReason::TimeLimit);
        }
        None
    }
}
