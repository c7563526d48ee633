//! What a search must be to join a run: a [`Strategy`] is handed the
//! generation it works on ([`Context`]) with the [`Budget`] the run gives
//! it, and hands back what it found and a [`Verdict`] on the problem. It
//! never reads the clock (it asks its budget whether it is spent) and
//! never writes a file; the run decides when to stop and what to keep.
//!
//! Every strategy draws from a random stream of its own, so adding one
//! changes no other strategy's draws.

use super::Rng;
use super::genome::Genome;
use super::member::Member;
use super::problem::Problem;
use crate::deadline::Deadline;
use std::sync::atomic::{AtomicBool, Ordering};

/// One search a run may combine with others.
pub trait Strategy: Send + Sync {
    /// Its name: in the statistics, and the seed of its random stream
    /// (renaming a strategy changes its draws, nothing else's).
    fn name(&self) -> &'static str;

    /// A design of the full problem to start from, made before the first
    /// generation within `budget`'s time; the run starts from the best
    /// offered.
    fn seed(&self, _full: &Problem, _budget: Budget<'_>) -> Option<Genome> {
        None
    }

    /// Whether it has work in this generation.
    fn applies(&self, ctx: &Context<'_>) -> bool;

    /// One generation's work within `ctx.budget`, with its own random
    /// stream.
    fn search(&self, ctx: &Context<'_>, rng: &mut Rng) -> Found;

    /// The run starts again (a restart keeps the portfolio): what the
    /// strategy carried from one generation to the next belongs to the
    /// run before, and a restarted run is the run of its seed.
    fn restart(&self) {}
}

/// What a strategy sees of the run in one generation.
pub struct Context<'a> {
    /// The problem the population solves (scaled down, or the full one).
    pub problem: &'a Problem,
    pub full: &'a Problem,
    /// This generation's members, best first.
    pub population: &'a [Member],
    /// How many of the best members the GA keeps (the parents).
    pub kept: usize,
    /// Generations run before this one.
    pub generation: u64,
    /// Generations of the current scaled size, during the scaled phase.
    pub scaled_generations: Option<u64>,
    /// What this generation's search may spend.
    pub budget: Budget<'a>,
    /// The run's own deadline (its time limit), past the generation's
    /// slice: for a search that runs alone, once, before the others (the
    /// exact mode), which holds no other search and which a slice would
    /// cut to a twentieth of the limit.
    pub run_deadline: Deadline,
    /// Set when the run is asked to stop now (a signal, the designer's
    /// quit): a strategy that can run long gives up at once.
    pub cancel: &'a AtomicBool,
    pub pool: &'a rayon::ThreadPool,
}

impl Context<'_> {
    /// Whether the best member still leaves required pairs uncovered.
    pub fn best_uncovered(&self) -> u64 {
        self.population.first().map_or(0, |m| m.eval.terms.uncovered)
    }

    /// Whether the search should give up now: its time is up or the run
    /// is cancelled.
    pub fn spent(&self) -> bool {
        self.budget.spent() || self.cancel.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
impl<'a> Context<'a> {
    /// The first generation of `problem` at full size, for a test of
    /// strategies alone.
    pub(crate) fn first(
        problem: &'a Problem,
        population: &'a [Member],
        budget: Budget<'a>,
        run_deadline: Deadline,
        cancel: &'a AtomicBool,
        pool: &'a rayon::ThreadPool,
    ) -> Context<'a> {
        Context {
            problem,
            full: problem,
            population,
            kept: 1,
            generation: 0,
            scaled_generations: None,
            budget,
            run_deadline,
            cancel,
            pool,
        }
    }
}

/// What the run gives one strategy for one generation: moves (a walk
/// goes on while it finds better designs, up to `max`, and stops after
/// `patience` moves without) and the time it may take. The moves make a
/// run the same for a seed on any machine; the time only cuts a search
/// short when the run's limit or the generation's slice is up, and the
/// generation's stop flag when another search found the run's first
/// valid design.
#[derive(Clone, Copy, Debug)]
pub struct Budget<'a> {
    /// Moves without a new best before a walk stops; 0 means the run
    /// gives no moves (the searches do not run).
    pub patience: u64,
    /// Moves at most.
    pub max: u64,
    /// When the searches must hand back what they have.
    pub deadline: Deadline,
    /// Raised when a search of this generation finds the run's first
    /// valid design (every required pair covered, at full size): the
    /// others hand back what they have at once instead of holding the
    /// generation until their moves or time run out. `None` once the run
    /// has one (polishing generations run in full) and in the scaled
    /// phase.
    pub stop: Option<&'a AtomicBool>,
}

impl<'a> Budget<'a> {
    /// No moves and no time limit.
    pub const NONE: Budget<'static> = Budget {
        patience: 0,
        max: 0,
        deadline: Deadline::NONE,
        stop: None,
    };

    /// Whether a search has any moves to spend.
    pub(crate) fn has_moves(&self) -> bool {
        self.patience > 0
    }

    /// Only time, no moves: for a seed, whose moves the run does not count.
    pub fn time(deadline: Deadline) -> Budget<'static> {
        Budget {
            deadline,
            ..Budget::NONE
        }
    }

    /// This budget for a search that runs alone before the others: its
    /// time ends at a share of what is left, the rest being theirs. On
    /// two cores beside two walks such a search started only once one of
    /// them had spent the generation; run first with all of it, it left
    /// them nothing (the cyclic search, trying moduli that have no base
    /// set, took every slice of a 53-PC, 8-NIC run). A quarter was too
    /// little for the repair on the 1,537-PC torus with random 8-port
    /// switches, which failed one seed of three; half is valid on all three.
    pub fn before_others(self) -> Budget<'a> {
        Budget {
            deadline: self.deadline.share(0.5, None),
            ..self
        }
    }

    /// Whether the time is up: the one question a search asks of the
    /// clock, through the budget the run gave it.
    pub fn spent(&self) -> bool {
        self.stopped() || self.deadline.passed()
    }

    /// Whether a search of the generation found the run's first valid
    /// design.
    pub fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Tells the generation's other searches that this one found a
    /// design covering every required pair of the active problem: while
    /// the run has none, they stop.
    pub fn found_valid(&self) {
        if let Some(s) = self.stop {
            s.store(true, Ordering::Relaxed);
        }
    }

    /// The time left, `None` without a limit.
    pub fn left(&self) -> Option<std::time::Duration> {
        self.deadline.left()
    }

    /// The same moves, the time cut at `deadline` if that is sooner.
    pub fn until(self, deadline: Deadline) -> Self {
        Budget {
            deadline: self.deadline.min(deadline),
            ..self
        }
    }
}

/// What a strategy settled of the whole problem.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing settled: what it hands back may be better, not decisive.
    #[default]
    Unknown,
    /// It found a design covering every required pair.
    Found,
    /// It proved no design exists, and why.
    Impossible(String),
}

/// What a strategy found in one generation.
#[derive(Default)]
pub struct Found {
    /// Designs of the active problem; they replace the worst members.
    pub members: Vec<Genome>,
    /// A design of the full problem: during the scaled phase it ends the
    /// phase, otherwise it joins the population.
    pub full: Option<Genome>,
    pub verdict: Verdict,
    /// Its verdict in words, for the report (how it was settled, what it
    /// cost), when it has something to say.
    pub said: Option<String>,
    /// Moves (or solver calls) it spent, where it counts them.
    pub moves: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A search before the others ends at half the time left, and
    /// without a deadline has none either (a run the same on any machine).
    #[test]
    fn a_search_before_the_others_leaves_them_half_the_time() {
        let budget = Budget::time(Deadline::from_now(Some(Duration::from_secs(100))));
        let left = budget.before_others().deadline.left().expect("a deadline");
        assert!(
            left <= Duration::from_secs(50) && left > Duration::from_secs(49),
            "{left:?}"
        );
        assert_eq!(Budget::NONE.before_others().deadline.left(), None);
    }
}
