//! The designer's run clock and rate: wall time while the search runs, at
//! any pace (the watch pace's waits included), standing still while it is
//! paused or stopped; the evaluations per second of the run so far once it
//! is not running, so neither figure moves after the run stops.

use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug)]
pub struct RunClock {
    /// Running time before the current stretch.
    banked: Duration,
    /// When the current running stretch began (`None`: not running).
    since: Option<Instant>,
    /// The evaluation count when the clock started from zero.
    evals_at_start: u64,
}

impl RunClock {
    pub fn new(running: bool, evaluations: u64, now: Instant) -> RunClock {
        RunClock {
            banked: Duration::ZERO,
            since: running.then_some(now),
            evals_at_start: evaluations,
        }
    }

    /// Starts or stops the clock as the run starts or stops.
    pub fn set_running(&mut self, running: bool, now: Instant) {
        match (self.since, running) {
            (None, true) => self.since = Some(now),
            (Some(t), false) => {
                self.banked += now.saturating_duration_since(t);
                self.since = None;
            }
            _ => {}
        }
    }

    /// From zero again: a restart or another session is another run.
    pub fn restart(&mut self, evaluations: u64, now: Instant) {
        *self = RunClock::new(self.since.is_some(), evaluations, now);
    }

    /// The running time so far.
    pub fn elapsed(&self, now: Instant) -> Duration {
        self.banked + self.since.map_or(Duration::ZERO, |t| now.saturating_duration_since(t))
    }

    /// This run's evaluations out of the engine's `evaluations` (a resumed
    /// session's count carries the runs before it, which the clock does not).
    pub fn evaluations(&self, evaluations: u64) -> u64 {
        evaluations.saturating_sub(self.evals_at_start)
    }

    /// Evaluations per second over the running time so far.
    pub fn rate(&self, evaluations: u64, now: Instant) -> f64 {
        let secs = self.elapsed(now).as_secs_f64();
        if secs > 0.0 {
            self.evaluations(evaluations) as f64 / secs
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_counts_running_time_only_and_the_rate_stands_still_when_stopped() {
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        let mut c = RunClock::new(true, 100, t0);
        // Running 20 s (a watch-pace run sleeps most of it): 20 s.
        assert_eq!(c.elapsed(at(20)), Duration::from_secs(20));
        c.set_running(false, at(20));
        // Paused for 40 s: the clock and the rate stand still.
        assert_eq!(c.elapsed(at(60)), Duration::from_secs(20));
        assert_eq!(c.rate(1100, at(21)), 50.0);
        assert_eq!(c.rate(1100, at(600)), 50.0);
        c.set_running(true, at(60));
        c.set_running(true, at(61));
        assert_eq!(c.elapsed(at(70)), Duration::from_secs(30));
        c.restart(5, at(70));
        assert_eq!(c.elapsed(at(71)), Duration::from_secs(1));
        assert_eq!(c.rate(15, at(71)), 10.0);
        assert_eq!(RunClock::new(false, 0, t0).rate(10, at(5)), 0.0);
    }
}
