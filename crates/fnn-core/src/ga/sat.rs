//! The exact mode as a strategy: once, before the first generation's
//! other searches, a SAT solver ([`crate::exact`]) is asked for a design
//! of the full problem or a proof that none exists, within a share of the
//! time the run gives it. A design joins the population (and ends a
//! scaled phase); a proof is its verdict, which stops the run; an unknown
//! leaves the rest of the portfolio to go on (or, alone, ends the run).
//! It writes no file: a proof asked for comes back in its outcome.

use super::genome::Genome;
use super::strategy::{Context, Found, Strategy, Verdict};
use super::{Deadline, Rng};
use crate::exact::{self, ExactError, Options, Outcome};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the exact mode settled (or why it could not run), for the front
/// end that asked for it: the proof, the model, what it cost.
pub type Settled = Arc<Mutex<Option<Result<Outcome, ExactError>>>>;

#[derive(Clone, Debug)]
pub struct Exact {
    /// Keep the CNF and the solver's DRAT proof of an impossibility in
    /// its outcome ([`Settled`]), for the front end to write.
    pub proof: bool,
    /// The share of the time left that the solver may take, and its time
    /// when the run has no limit (`None`: none either).
    pub share: f64,
    pub unlimited: Option<Duration>,
    settled: Settled,
}

impl Exact {
    /// The exact mode alone: all the run's time.
    pub fn alone(proof: bool) -> Exact {
        Exact {
            proof,
            share: 1.0,
            unlimited: None,
            settled: Settled::default(),
        }
    }

    /// Before the other searches: half the time left, 10 s without a
    /// limit, so an unknown leaves them time (a hard instance can keep a
    /// solver for hours).
    pub fn first() -> Exact {
        Exact {
            proof: false,
            share: 0.5,
            unlimited: Some(Duration::from_secs(10)),
            settled: Settled::default(),
        }
    }

    /// Where its outcome will be, once it ran: kept by whoever set the
    /// strategy up, read after the run.
    pub fn settled(&self) -> Settled {
        Arc::clone(&self.settled)
    }

    /// Its share of the run's time left: it runs alone, once, so the
    /// generation's slice (a twentieth of the limit) does not hold it.
    fn deadline(&self, run: Deadline) -> Deadline {
        run.share(self.share, self.unlimited)
    }
}

impl Strategy for Exact {
    fn name(&self) -> &'static str {
        "exact"
    }

    fn applies(&self, ctx: &Context<'_>) -> bool {
        ctx.generation == 0
    }

    fn search(&self, ctx: &Context<'_>, _rng: &mut Rng) -> Found {
        let opts = Options {
            deadline: self.deadline(ctx.run_deadline),
            proof: self.proof,
            only: None,
            count_only: false,
        };
        let out = exact::solve_until(&ctx.full.cluster, &opts, ctx.cancel);
        let (design, verdict, said) = match &out {
            Ok(o) => {
                let design = match &o.verdict {
                    exact::Verdict::Found(d) => Some(Genome::from_design(ctx.full, d)),
                    _ => None,
                };
                let verdict = match &o.verdict {
                    exact::Verdict::Found(_) => Verdict::Found,
                    exact::Verdict::Impossible(why) => Verdict::Impossible(why.clone()),
                    exact::Verdict::Unknown => Verdict::Unknown,
                };
                (design, verdict, Some(o.words()))
            }
            Err(e) => (None, Verdict::Unknown, Some(format!("could not run: {e}"))),
        };
        if let Ok(mut settled) = self.settled.lock() {
            *settled = Some(out);
        }
        let scaled = ctx.scaled_generations.is_some();
        Found {
            members: design.clone().filter(|_| !scaled).into_iter().collect(),
            full: design.filter(|_| scaled),
            verdict,
            said,
            moves: 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ga::genome::Genome;
    use crate::ga::member::Member;
    use crate::ga::problem::Problem;
    use crate::ga::strategy::Budget;
    use crate::spec::{QuickFlags, Spec};
    use rand::SeedableRng;
    use std::sync::atomic::AtomicBool;
    use std::time::Instant;

    /// The exact mode runs alone, once: its share is of the run's time
    /// left, not of the generation's slice. Here the slice is up before
    /// it starts and the run has an hour: it still gets to solve.
    #[test]
    fn the_exact_mode_takes_its_share_of_the_run_not_of_the_slice() {
        let q = QuickFlags {
            pcs: Some(12),
            nics: Some(2),
            switches: Some("12x4".into()),
            ..Default::default()
        };
        let spec: Spec = q.apply(Spec::default()).unwrap();
        let p = Problem::new(spec.resolve().unwrap());
        let population = vec![Member::new(&p, Genome::straightforward(&p))];
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let cancel = AtomicBool::new(false);
        let budget = Budget {
            patience: 1,
            max: 1,
            ..Budget::time(Deadline::now())
        };
        let hour = Deadline::after(Instant::now(), Some(Duration::from_secs(3600)));
        let ctx = Context::first(&p, &population, budget, hour, &cancel, &pool);
        let found = Exact::first().search(&ctx, &mut Rng::seed_from_u64(1));
        assert_eq!(found.verdict, Verdict::Found, "{:?}", found.said);
        assert_eq!(found.members.len(), 1);
    }
}
