//! The searches a run combines, each a [`Strategy`] in a file of its own:
//! the constructions and the exact mode seed or settle the run, the tabu,
//! grouped and cyclic searches work inside each generation beside the
//! papers' GA operators. Which of them run is a [`Preset`] of the spec's
//! GA parameters, built here and nowhere else.
//!
//! Every strategy draws from a random stream of its own, seeded from the
//! run's seed, its name and the generation: adding, removing or reordering
//! a strategy changes no other strategy's draws, and a resumed run draws
//! what the uninterrupted one would have.

use super::engine::Member;
use super::local::Budget;
use super::problem::Problem;
use super::{Deadline, Genome, Rng};
use crate::spec::{GaParams, Preset};
use rand::SeedableRng;
use rayon::prelude::*;
use std::time::Instant;

/// One search the portfolio may run.
pub trait Strategy: Send + Sync {
    /// Its name: in the statistics, and the seed of its random stream
    /// (renaming a strategy changes its draws, nothing else's).
    fn name(&self) -> &'static str;

    /// A design of the full problem to start from, made before the first
    /// generation; the portfolio starts from the best seed offered.
    fn seed(&self, _full: &Problem, _deadline: Deadline) -> Option<Genome> {
        None
    }

    /// Whether it has work in this generation.
    fn applies(&self, ctx: &Context<'_>) -> bool;

    /// Runs before the others, one at a time: a design it finds ends the
    /// generation's searches (what it finds is whole, so the others would
    /// have nothing left to cover).
    fn goes_first(&self) -> bool {
        false
    }

    /// Whether its walks grow longer while the best does not improve (the
    /// scaled phase then gives up a size sooner, see `SCALED_STALL`).
    fn walks(&self, _ga: &GaParams) -> bool {
        false
    }

    /// One generation's work, with its own random stream.
    fn search(&self, ctx: &Context<'_>, rng: &mut Rng) -> Found;
}

/// What a strategy sees of the run in one generation.
pub struct Context<'a> {
    /// The problem the population solves (scaled down, or the full one).
    pub problem: &'a Problem,
    pub full: &'a Problem,
    /// This generation's members, best first.
    pub population: &'a [Member],
    /// Generations run before this one.
    pub generation: u64,
    /// Generations of the current scaled size, during the scaled phase.
    pub scaled_generations: Option<u64>,
    /// Generations since the best improved (of the scaled size, during
    /// the scaled phase).
    pub since_improved: u64,
    pub deadline: Deadline,
    /// Set when the run is asked to stop now (a signal, the designer's
    /// quit): a strategy that can run long gives up at once.
    pub cancel: &'a std::sync::atomic::AtomicBool,
    pub pool: &'a rayon::ThreadPool,
}

impl Context<'_> {
    pub fn ga(&self) -> &GaParams {
        &self.full.cluster.ga
    }

    /// Whether the best member still leaves required pairs uncovered.
    pub fn best_uncovered(&self) -> u64 {
        self.population.first().map_or(0, |m| m.eval.terms.uncovered)
    }

    /// How long a walk may go this generation: a walk goes on while it
    /// finds better designs (its pair weights are what it learnt), up to
    /// 8 times its patience; the patience doubles with every generation
    /// the best has not improved (up to 8 times), since a plateau needs a
    /// longer walk. So one generation costs at most 64 x `ga.local_search`
    /// moves per walk.
    pub fn budget(&self) -> Budget {
        let stalled = self.since_improved.min(3) as u32;
        let patience = self.ga().local_search.saturating_mul(1 << stalled);
        Budget {
            patience,
            max: patience.saturating_mul(8),
            deadline: self.deadline,
        }
    }
}

/// What a strategy found in one generation.
#[derive(Default)]
pub struct Found {
    /// Designs of the active problem; they replace the worst members.
    pub members: Vec<Genome>,
    /// A design of the full problem: during the scaled phase it ends the
    /// phase, otherwise it joins the population.
    pub full: Option<Genome>,
    /// What the exact mode settled (or why it could not), if it ran.
    pub exact: Option<Result<crate::exact::Outcome, crate::exact::ExactError>>,
    /// Moves (or solver calls) it spent, where it counts them.
    pub moves: u64,
}

/// A strategy's account over the run so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub name: &'static str,
    /// Generations it ran in (a seed counts as one).
    pub runs: u64,
    /// Designs it handed back.
    pub finds: u64,
    pub moves: u64,
    pub seconds: f64,
}

/// The strategies of one run, in the order they run, with their accounts.
pub struct Portfolio {
    /// Whether the papers' GA operators (selection, crossover, mutation)
    /// make each generation; without them the strategies alone work on
    /// the first population, once.
    evolves: bool,
    /// Whether the run starts on a scaled-down problem where it can.
    scales: bool,
    strategies: Vec<Box<dyn Strategy>>,
    stats: Vec<Stats>,
}

impl Portfolio {
    /// The portfolio `preset` names, for these GA parameters.
    pub fn preset(preset: Preset, ga: &GaParams) -> Portfolio {
        use super::{blocks::Blocks, cyclic::Cyclic, groups::Grouped, local::Tabu, seeding::Constructions};
        let constructions = ga.constructions.then(|| Box::new(Constructions) as Box<dyn Strategy>);
        let (evolves, scales) = (true, ga.scale_down);
        let searches = || -> Vec<Box<dyn Strategy>> {
            vec![Box::new(Cyclic), Box::new(Tabu), Box::new(Grouped), Box::new(Blocks)]
        };
        let exact = || Box::new(super::sat::Exact::first()) as Box<dyn Strategy>;
        let strategies: Vec<Box<dyn Strategy>> = match preset {
            Preset::Papers => Vec::new(),
            Preset::Quick => constructions.into_iter().collect(),
            Preset::Default => constructions.into_iter().chain(searches()).collect(),
            Preset::ExactFirst => std::iter::once(exact())
                .chain(constructions)
                .chain(searches())
                .collect(),
            Preset::Exact => return Portfolio::exact(super::sat::Exact::alone(None)),
        };
        Portfolio {
            evolves,
            scales,
            ..Portfolio::of(strategies)
        }
    }

    /// The spec's own portfolio: `ga.portfolio`, or the exact mode when
    /// `ga.exact` asks for it.
    pub fn of_params(ga: &GaParams) -> Portfolio {
        Portfolio::preset(ga.preset(), ga)
    }

    /// The exact mode alone (the `exact` preset), as `exact` is set up.
    pub fn exact(exact: super::sat::Exact) -> Portfolio {
        Portfolio {
            evolves: false,
            scales: false,
            ..Portfolio::of(vec![Box::new(exact)])
        }
    }

    fn of(strategies: Vec<Box<dyn Strategy>>) -> Portfolio {
        let stats = strategies
            .iter()
            .map(|s| Stats {
                name: s.name(),
                ..Stats::default()
            })
            .collect();
        Portfolio {
            evolves: true,
            scales: true,
            strategies,
            stats,
        }
    }

    /// The same portfolio with `strategy` run first of all (one line adds
    /// a strategy to a preset; tests add theirs this way).
    pub fn with_first(mut self, strategy: Box<dyn Strategy>) -> Portfolio {
        self.stats.insert(
            0,
            Stats {
                name: strategy.name(),
                ..Stats::default()
            },
        );
        self.strategies.insert(0, strategy);
        self
    }

    pub fn evolves(&self) -> bool {
        self.evolves
    }

    pub fn scales(&self) -> bool {
        self.scales
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.strategies.iter().map(|s| s.name()).collect()
    }

    pub fn stats(&self) -> &[Stats] {
        &self.stats
    }

    /// Whether any strategy's walks grow with a stall.
    pub fn walks(&self, ga: &GaParams) -> bool {
        self.strategies.iter().any(|s| s.walks(ga))
    }

    /// The seed that leaves the fewest pairs uncovered, with that count.
    pub fn seed(&mut self, full: &Problem, deadline: Deadline) -> Option<(Genome, u64)> {
        let mut seeds = Vec::new();
        for (k, s) in self.strategies.iter().enumerate() {
            let t = Instant::now();
            let Some(g) = s.seed(full, deadline) else { continue };
            let uncovered = super::Eval::full(full, &g).terms.uncovered;
            let found = Found {
                members: vec![g],
                ..Found::default()
            };
            self.stats[k].note(&found, t.elapsed().as_secs_f64());
            seeds.extend(found.members.into_iter().map(|g| (g, uncovered)));
        }
        seeds.into_iter().min_by_key(|(_, u)| *u)
    }

    /// One generation's searches: those that go first, one at a time,
    /// until one finds a design of the active problem; then, if none did,
    /// the rest side by side. Their finds come back in portfolio order.
    pub fn search(&mut self, ctx: &Context<'_>) -> Vec<Found> {
        let seed = ctx.ga().seed;
        let mut found = Vec::new();
        let (first, rest): (Vec<usize>, Vec<usize>) = (0..self.strategies.len())
            .filter(|&k| self.strategies[k].applies(ctx))
            .partition(|&k| self.strategies[k].goes_first());
        for k in first {
            let f = self.run_one(k, ctx, seed);
            let ends = !f.members.is_empty();
            found.push(f);
            if ends {
                return found;
            }
        }
        let strategies = &self.strategies;
        let timed: Vec<(usize, Found, f64)> = ctx.pool.install(|| {
            rest.par_iter()
                .map(|&k| {
                    let t = Instant::now();
                    let mut rng = stream(seed, strategies[k].name(), ctx.generation);
                    let f = strategies[k].search(ctx, &mut rng);
                    (k, f, t.elapsed().as_secs_f64())
                })
                .collect()
        });
        for (k, f, seconds) in timed {
            self.stats[k].note(&f, seconds);
            found.push(f);
        }
        found
    }

    fn run_one(&mut self, k: usize, ctx: &Context<'_>, seed: u64) -> Found {
        let t = Instant::now();
        let mut rng = stream(seed, self.strategies[k].name(), ctx.generation);
        let f = self.strategies[k].search(ctx, &mut rng);
        self.stats[k].note(&f, t.elapsed().as_secs_f64());
        f
    }
}

impl Stats {
    fn note(&mut self, f: &Found, seconds: f64) {
        self.runs += 1;
        self.finds += (f.members.len() + usize::from(f.full.is_some())) as u64;
        self.moves += f.moves;
        self.seconds += seconds;
    }
}

/// The random stream of strategy `name` in `generation` of a run seeded
/// with `seed`.
pub fn stream(seed: u64, name: &str, generation: u64) -> Rng {
    // FNV-1a of the name, then SplitMix64 finalisers to mix in the rest.
    let named = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    Rng::seed_from_u64(mix(seed ^ mix(named ^ mix(generation))))
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    #[test]
    fn streams_differ_by_name_seed_and_generation_and_repeat_exactly() {
        let draw = |seed, name, generation| stream(seed, name, generation).random::<u64>();
        assert_eq!(draw(1, "tabu", 3), draw(1, "tabu", 3));
        let others = [draw(2, "tabu", 3), draw(1, "grouped", 3), draw(1, "tabu", 4)];
        assert!(others.iter().all(|&d| d != draw(1, "tabu", 3)), "{others:?}");
    }
}
