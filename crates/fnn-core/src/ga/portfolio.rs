//! The searches a run combines, each a [`Strategy`] in a file of its own,
//! run in order with their accounts: the constructions and the exact mode
//! seed or settle the run, the tabu, grouped and cyclic searches work
//! inside each generation beside the papers' GA operators. Which of them
//! run is a preset ([`super::presets`]).
//!
//! Every strategy draws from a random stream of its own, seeded from the
//! run's seed, its name and the generation: adding, removing or reordering
//! a strategy changes no other strategy's draws, and a resumed run draws
//! what the uninterrupted one would have.

use super::Rng;
use super::genome::Genome;
use super::problem::Problem;
use super::strategy::{Budget, Context, Found, Strategy};
use crate::deadline::Deadline;
use crate::deadline::Stopwatch;
use rand::SeedableRng;
use rayon::prelude::*;

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
    entries: Vec<Entry>,
    stats: Vec<Stats>,
}

/// A strategy and where it runs in a generation.
struct Entry {
    strategy: Box<dyn Strategy>,
    /// Runs before the others, one at a time: a design it finds that
    /// covers every required pair ends the generation's searches (the
    /// others would have nothing left to cover); one that leaves pairs
    /// comes back beside theirs.
    first: bool,
}

impl Portfolio {
    /// The portfolio for a restarted run: each strategy forgets what it
    /// carried between the generations of the run before.
    pub(crate) fn restarted(self) -> Portfolio {
        for e in &self.entries {
            e.strategy.restart();
        }
        self
    }

    /// No strategies yet: the GA operators alone, scaling down where the
    /// spec lets it.
    pub fn new(evolves: bool, scales: bool) -> Portfolio {
        Portfolio {
            evolves,
            scales,
            entries: Vec::new(),
            stats: Vec::new(),
        }
    }

    /// The same portfolio with `strategy` running beside the others.
    pub fn with(self, strategy: impl Strategy + 'static) -> Portfolio {
        self.push(Box::new(strategy), false)
    }

    /// The same portfolio with `strategy` running before those beside
    /// (after those already first), alone.
    pub(crate) fn then_first(self, strategy: impl Strategy + 'static) -> Portfolio {
        self.push(Box::new(strategy), true)
    }

    /// The same portfolio with `strategy` run first of all (tests add
    /// theirs this way).
    pub fn with_first(mut self, strategy: Box<dyn Strategy>) -> Portfolio {
        self.stats.insert(0, Stats::named(strategy.name()));
        self.entries.insert(0, Entry { strategy, first: true });
        self
    }

    fn push(mut self, strategy: Box<dyn Strategy>, first: bool) -> Portfolio {
        self.stats.push(Stats::named(strategy.name()));
        self.entries.push(Entry { strategy, first });
        self
    }

    pub(crate) fn evolves(&self) -> bool {
        self.evolves
    }

    pub fn scales(&self) -> bool {
        self.scales
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.entries.iter().map(|e| e.strategy.name()).collect()
    }

    pub fn stats(&self) -> &[Stats] {
        &self.stats
    }

    /// The seed that leaves the fewest pairs uncovered, with that count.
    pub fn seed(&mut self, full: &Problem, deadline: Deadline) -> Option<(Genome, u64)> {
        let mut seeds = Vec::new();
        for (k, e) in self.entries.iter().enumerate() {
            let t = Stopwatch::start();
            let Some(g) = e.strategy.seed(full, Budget::time(deadline)) else {
                continue;
            };
            let uncovered = super::Eval::full(full, &g).terms.uncovered;
            let found = Found {
                members: vec![g],
                ..Found::default()
            };
            self.stats[k].note(&found, t.seconds());
            seeds.extend(found.members.into_iter().map(|g| (g, uncovered)));
        }
        seeds.into_iter().min_by_key(|(_, u)| *u)
    }

    /// One generation's searches: those that go first, one at a time,
    /// until one finds a design covering every required pair of the
    /// active problem; then, if none did,
    /// the rest side by side. Their finds come back in portfolio order,
    /// each with the strategy's name. `seed` is the run's.
    pub fn search(&mut self, ctx: &Context<'_>, seed: u64) -> Vec<(&'static str, Found)> {
        let mut found = Vec::new();
        let (first, rest): (Vec<usize>, Vec<usize>) = (0..self.entries.len())
            .filter(|&k| self.entries[k].strategy.applies(ctx))
            .partition(|&k| self.entries[k].first);
        for k in first {
            let (f, seconds) = run_one(self.entries[k].strategy.as_ref(), ctx, seed);
            self.stats[k].note(&f, seconds);
            let ends = covers_all(ctx, &f);
            found.push((self.entries[k].strategy.name(), f));
            if ends {
                return found;
            }
        }
        let entries = &self.entries;
        let timed: Vec<(usize, Found, f64)> = ctx.pool.install(|| {
            rest.par_iter()
                .map(|&k| {
                    let (f, seconds) = run_one(entries[k].strategy.as_ref(), ctx, seed);
                    (k, f, seconds)
                })
                .collect()
        });
        for (k, f, seconds) in timed {
            self.stats[k].note(&f, seconds);
            found.push((self.entries[k].strategy.name(), f));
        }
        found
    }
}

/// One strategy's search on its own stream, and the seconds it took. A
/// design it hands back that covers every required pair raises the
/// generation's stop flag (the walks raise it themselves the moment they
/// get there), so the searches still running hand back what they have.
fn run_one(strategy: &dyn Strategy, ctx: &Context<'_>, seed: u64) -> (Found, f64) {
    let t = Stopwatch::start();
    let mut rng = stream(seed, strategy.name(), ctx.generation);
    let f = strategy.search(ctx, &mut rng);
    if ctx.budget.stop.is_some() && !ctx.budget.stopped() && covers_all(ctx, &f) {
        ctx.budget.found_valid();
    }
    (f, t.seconds())
}

/// Whether a design `f` hands back covers every required pair.
fn covers_all(ctx: &Context<'_>, f: &Found) -> bool {
    let members = f.members.iter().map(|g| (ctx.problem, g));
    members
        .chain(f.full.iter().map(|g| (ctx.full, g)))
        .any(|(problem, g)| super::Eval::full(problem, &g.with_masks(problem)).terms.uncovered == 0)
}

impl Stats {
    fn named(name: &'static str) -> Stats {
        Stats {
            name,
            ..Stats::default()
        }
    }

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
    use crate::ga::member::Member;
    use crate::spec::{Coverage, PatternSpec, QuickFlags, Spec};
    use rand::RngExt;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Hands back a design it was given, found at once.
    struct Finds(Genome);

    impl Strategy for Finds {
        fn name(&self) -> &'static str {
            "finds"
        }
        fn applies(&self, _: &Context<'_>) -> bool {
            true
        }
        fn search(&self, _: &Context<'_>, _: &mut Rng) -> Found {
            Found {
                members: vec![self.0.clone()],
                ..Found::default()
            }
        }
    }

    /// Works a millisecond a move for up to `SLOW_MOVES` moves, unless
    /// its budget says stop; its moves say when it stopped.
    struct Slow;
    const SLOW_MOVES: u64 = 20_000;

    impl Strategy for Slow {
        fn name(&self) -> &'static str {
            "slow"
        }
        fn applies(&self, _: &Context<'_>) -> bool {
            true
        }
        fn search(&self, ctx: &Context<'_>, _: &mut Rng) -> Found {
            let mut moves = 0;
            while moves < SLOW_MOVES && !ctx.budget.spent() {
                std::thread::sleep(std::time::Duration::from_millis(1));
                moves += 1;
            }
            Found {
                moves,
                ..Found::default()
            }
        }
    }

    /// A sparse 8x8 torus on 2 NICs, and a design of it covering every pair.
    fn torus_and_design() -> (Problem, Genome) {
        let q = QuickFlags {
            pcs: Some(64),
            nics: Some(2),
            switches: Some("4x32".into()),
            ..Default::default()
        };
        let mut spec: Spec = q.apply(Spec::default()).unwrap();
        spec.coverage = Coverage::Sparse;
        spec.patterns = vec![PatternSpec::Grid {
            dims: vec![8, 8],
            torus: true,
            weight: 1.0,
        }];
        let p = Problem::new(spec.resolve().unwrap());
        let mut g = Genome::straightforward(&p);
        let budget = Budget {
            patience: 200_000,
            max: 200_000,
            ..Budget::NONE
        };
        let req = super::super::local::Required::new(&p);
        super::super::local::improve(&p, &req, &mut g, budget, &mut Rng::seed_from_u64(1));
        assert_eq!(super::super::Eval::full(&p, &g).terms.uncovered, 0);
        (p, g)
    }

    /// The run's first valid design, found by one search, ends the
    /// generation: the slow search beside it, which has neither a move
    /// limit nor a deadline it would reach soon, hands back what it has
    /// instead of running on.
    #[test]
    fn the_first_valid_design_stops_the_searches_beside_it() {
        let (p, valid) = torus_and_design();
        let population = vec![Member::new(&p, Genome::straightforward(&p))];
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let (stop, cancel) = (AtomicBool::new(false), AtomicBool::new(false));
        let budget = Budget {
            patience: 1,
            max: 1,
            stop: Some(&stop),
            ..Budget::NONE
        };
        let ctx = Context::first(&p, &population, budget, Deadline::NONE, &cancel, &pool);
        let mut portfolio = Portfolio::new(false, false).with(Slow).with(Finds(valid));
        let found = portfolio.search(&ctx, 1);
        assert_eq!(
            found.iter().map(|(n, f)| (*n, f.members.len())).collect::<Vec<_>>(),
            [("slow", 0), ("finds", 1)]
        );
        assert!(stop.load(Ordering::Relaxed));
        let slow = &portfolio.stats()[0];
        assert!(slow.moves < SLOW_MOVES, "{slow:?}");
    }

    /// A search that goes first ends the generation only with a design
    /// covering every pair; one that leaves pairs (the repair's) comes
    /// back beside what the others find.
    #[test]
    fn a_first_search_ends_the_generation_only_with_a_whole_design() {
        let (p, valid) = torus_and_design();
        let partial = Genome::straightforward(&p);
        assert!(super::super::Eval::full(&p, &partial).terms.uncovered > 0);
        let population = vec![Member::new(&p, partial.clone())];
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let cancel = AtomicBool::new(false);
        let budget = Budget {
            patience: 1,
            max: 1,
            ..Budget::NONE
        };
        let ctx = Context::first(&p, &population, budget, Deadline::NONE, &cancel, &pool);
        let run = |first: &Genome| {
            let mut portfolio = Portfolio::new(false, false)
                .then_first(Finds(first.clone()))
                .with(Finds(valid.clone()));
            let found = portfolio.search(&ctx, 1);
            found.iter().map(|(_, f)| f.members.len()).collect::<Vec<_>>()
        };
        assert_eq!(run(&partial), [1, 1], "a design that leaves pairs lets the others run");
        assert_eq!(run(&valid), [1], "a whole design ends the generation");
    }

    /// Counts the restarts it is told of.
    struct Restarts(std::sync::Arc<std::sync::atomic::AtomicUsize>);

    impl Strategy for Restarts {
        fn name(&self) -> &'static str {
            "restarts"
        }
        fn applies(&self, _: &Context<'_>) -> bool {
            false
        }
        fn search(&self, _: &Context<'_>, _: &mut Rng) -> Found {
            Found::default()
        }
        fn restart(&self) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The portfolio a restart takes from the engine tells each strategy,
    /// so none goes on with what it carried from the run before.
    #[test]
    fn a_restart_tells_every_strategy() {
        let restarts = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let portfolio = Portfolio::new(true, false).with(Restarts(restarts.clone()));
        let pool = std::sync::Arc::new(rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap());
        let mut engine = crate::ga::Engine::with_portfolio(
            crate::spec::quick_cluster(8, 3, "4x6").unwrap(),
            portfolio,
            crate::deadline::Deadline::NONE,
            crate::deadline::Deadline::NONE,
            pool,
        );
        assert_eq!(restarts.load(Ordering::Relaxed), 0);
        let _taken = engine.take_portfolio();
        assert_eq!(restarts.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn streams_differ_by_name_seed_and_generation_and_repeat_exactly() {
        let draw = |seed, name, generation| stream(seed, name, generation).random::<u64>();
        assert_eq!(draw(1, "tabu", 3), draw(1, "tabu", 3));
        let others = [draw(2, "tabu", 3), draw(1, "grouped", 3), draw(1, "tabu", 4)];
        assert!(others.iter().all(|&d| d != draw(1, "tabu", 3)), "{others:?}");
    }
}
