//! The moment a run's time is up, in one form from the command line to
//! the strategies: the run sets it from its time limit once, and whatever
//! must stop by then asks it (whether it has passed, how long is left)
//! instead of reading the clock and doing the sum itself.

use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deadline(Option<Instant>);

impl Deadline {
    /// No time limit.
    pub const NONE: Deadline = Deadline(None);

    /// Up at `at`.
    pub fn at(at: Instant) -> Deadline {
        Deadline(Some(at))
    }

    /// Up `limit` after `since`; no deadline for `None` or a limit too
    /// long for the clock.
    pub fn after(since: Instant, limit: Option<Duration>) -> Deadline {
        Deadline(limit.and_then(|l| since.checked_add(l)))
    }

    /// Up now: whatever asks stops at once (tests of a run out of time).
    pub fn now() -> Deadline {
        Deadline(Some(Instant::now()))
    }

    pub fn passed(self) -> bool {
        self.0.is_some_and(|d| Instant::now() >= d)
    }

    /// The time left, `None` without a limit.
    pub fn left(self) -> Option<Duration> {
        self.0.map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// The instant itself, for a solver that takes one.
    pub fn instant(self) -> Option<Instant> {
        self.0
    }

    /// The earlier of the two.
    pub fn min(self, other: Deadline) -> Deadline {
        match (self.0, other.0) {
            (Some(a), Some(b)) => Deadline(Some(a.min(b))),
            (a, b) => Deadline(a.or(b)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_limit_never_passes_and_the_earlier_deadline_wins() {
        assert!(!Deadline::NONE.passed());
        assert_eq!(Deadline::NONE.left(), None);
        assert_eq!(Deadline::after(Instant::now(), None), Deadline::NONE);
        let now = Instant::now();
        let later = Deadline::after(now, Some(Duration::from_secs(3600)));
        assert!(!later.passed());
        assert_eq!(Deadline::at(now).min(later), Deadline::at(now));
        assert_eq!(Deadline::NONE.min(later), later);
        assert!(Deadline::at(now).passed());
    }
}
