//! The exact mode as a strategy: once, before the first generation's
//! other searches, a SAT solver ([`crate::exact`]) is asked for a design
//! of the full problem or a proof that none exists, within the run's time
//! limit. A design joins the population (and ends a scaled phase); a
//! proof stops the run; an unknown leaves the rest of the portfolio to go
//! on (or, alone, ends the run).

use super::genome::Genome;
use super::portfolio::{Context, Found, Strategy};
use super::{Deadline, Rng};
use crate::exact::{self, Options, Verdict};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct Exact {
    /// Write the CNF to `FILE.cnf` and the solver's DRAT proof of an
    /// impossibility to `FILE`.
    pub proof: Option<PathBuf>,
    /// The share of the time left that the solver may take, and its time
    /// when the run has no limit (`None`: none either).
    pub share: f64,
    pub unlimited: Option<Duration>,
}

impl Exact {
    /// The exact mode alone: all the run's time.
    pub fn alone(proof: Option<PathBuf>) -> Exact {
        Exact {
            proof,
            share: 1.0,
            unlimited: None,
        }
    }

    /// Before the other searches: half the time left, 10 s without a
    /// limit, so an unknown leaves them time (a hard instance can keep a
    /// solver for hours).
    pub fn first() -> Exact {
        Exact {
            proof: None,
            share: 0.5,
            unlimited: Some(Duration::from_secs(10)),
        }
    }

    fn time_limit(&self, deadline: Deadline) -> Option<Duration> {
        match deadline.0 {
            Some(d) => Some(d.saturating_duration_since(Instant::now()).mul_f64(self.share)),
            None => self.unlimited,
        }
    }
}

impl Strategy for Exact {
    fn name(&self) -> &'static str {
        "exact"
    }

    fn applies(&self, ctx: &Context<'_>) -> bool {
        ctx.generation == 0
    }

    fn goes_first(&self) -> bool {
        true
    }

    fn search(&self, ctx: &Context<'_>, _rng: &mut Rng) -> Found {
        let opts = Options {
            time_limit: self.time_limit(ctx.deadline),
            proof: self.proof.clone(),
            only: None,
            count_only: false,
        };
        let out = exact::solve_until(&ctx.full.cluster, &opts, ctx.cancel);
        let design = match &out {
            Ok(exact::Outcome {
                verdict: Verdict::Found(d),
                ..
            }) => Some(Genome::from_design(ctx.full, d)),
            _ => None,
        };
        let scaled = ctx.scaled_generations.is_some();
        Found {
            members: design.clone().filter(|_| !scaled).into_iter().collect(),
            full: design.filter(|_| scaled),
            exact: Some(out),
            moves: 1,
        }
    }
}
