//! The moment a run's time is up, in one form from the command line to
//! the strategies: the run sets it from its time limit once, and whatever
//! must stop by then asks it (whether it has passed, how long is left)
//! instead of reading the clock and doing the sum itself. What a search
//! took is measured here too ([`Stopwatch`]): the searches (`ga/`,
//! `exact/`) read no clock of their own.

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

    /// Up `limit` from now; no deadline for `None`: for whoever hands a
    /// search its time (the run, a front end, a sweep's cell).
    pub fn from_now(limit: Option<Duration>) -> Deadline {
        Deadline::after(Instant::now(), limit)
    }

    /// A `share` of the time left, up from now; `otherwise` from now when
    /// there is no deadline (`None`: none either).
    pub fn share(self, share: f64, otherwise: Option<Duration>) -> Deadline {
        Deadline::from_now(self.left().map(|left| left.mul_f64(share)).or(otherwise))
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

/// The time a piece of work took, for its report (the exact mode's
/// "0.77 s", a strategy's account): started where the work starts.
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch(Instant);

impl Stopwatch {
    pub fn start() -> Stopwatch {
        Stopwatch(Instant::now())
    }

    /// Seconds since the start.
    pub fn seconds(self) -> f64 {
        self.0.elapsed().as_secs_f64()
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

    #[test]
    fn a_share_of_the_time_left_or_the_time_without_a_limit() {
        let hour = Duration::from_secs(3600);
        let half = Deadline::from_now(Some(hour)).share(0.5, None);
        let left = half.left().expect("a share of a deadline is one");
        assert!(left <= hour / 2 && left > hour / 4, "{left:?}");
        assert_eq!(Deadline::NONE.share(0.5, None), Deadline::NONE);
        assert!(Deadline::NONE.share(0.5, Some(hour)).left().is_some_and(|l| l <= hour));
    }
}
