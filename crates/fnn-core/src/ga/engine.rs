//! The generation loop of the FNN compiler paper with a step API: one generation per
//! call, the population readable between steps, commands (weights, pins)
//! applied between generations.
//!
//! Each generation: the population is sorted by decreasing fitness; the top
//! KEEP are kept, the last FUDGE of those are exchanged with random unkept
//! ones; CROSS children come from crossover of two kept parents; the rest
//! are mutants of kept or crossover designs. Children are made and
//! evaluated in parallel, each from its own seed drawn in order from the
//! engine's generator, so a run depends on the seed only, not on the
//! thread count or scheduling.

use super::genome::Genome;
use super::member::Member;
use super::portfolio::{Portfolio, Stats};
use super::presets;
use super::problem::Problem;
use super::scale::{self, Scaled};
use super::strategy::{Budget, Context, Found, Verdict};
use super::{Rng, operators};
use crate::deadline::Deadline;
use crate::design::Design;
use crate::spec::{Cluster, Coverage, Pins, Weights};
use rand::{Rng as _, RngExt, SeedableRng};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Phase {
    /// Plain connectivity on a scaled-down problem (the FNN compiler paper's first phase).
    Scaled { width: u32, pcs: usize },
    /// The full problem with the user's evaluation.
    Full,
}

/// One generation's figures, for the fitness curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenStats {
    pub generation: u64,
    pub full: bool,
    pub best: f64,
    pub mean: f64,
    pub best_uncovered: u64,
}

/// The scaled-down phase in progress (the run's checkpoint saves it).
pub(crate) struct ScaledState {
    pub(crate) scaled: Scaled,
    /// 1 for the first scaled size tried.
    pub(crate) attempt: u32,
    pub(crate) generations: u64,
    pub(crate) solved_at: Option<u64>,
    /// The fewest uncovered pairs this scaled size reached, and the
    /// generation (of this size) it was reached.
    pub(crate) best_uncovered: u64,
    pub(crate) improved_at: u64,
    /// Whether a strategy spent moves on this size (walks that grow with
    /// a stall, see [`SCALED_STALL`]).
    pub(crate) searched: bool,
}

/// With walks in the portfolio, a scaled size whose best has not improved for
/// this many generations gives way to the next: its walks have had their
/// longest patience for five generations, and a scaled size the search
/// cannot solve would otherwise hold the run for `ga.scaled_generations`
/// expensive generations (the paper's GA alone keeps its 200).
const SCALED_STALL: u64 = 8;

impl ScaledState {
    fn new(scaled: Scaled, attempt: u32) -> Self {
        ScaledState {
            scaled,
            attempt,
            generations: 0,
            solved_at: None,
            best_uncovered: u64::MAX,
            improved_at: 0,
            searched: false,
        }
    }
}

/// The generation step: one generation per call, on the thread pool the
/// run hands it. Limits, stop rules, restarts and checkpoints are the
/// run's ([`crate::run`]); the checkpoint reads and restores what it
/// saves through [`Progress`] and a few accessors, never the fields.
pub struct Engine {
    full: Problem,
    scaled: Option<ScaledState>,
    population: Vec<Member>,
    rng: Rng,
    generation: u64,
    evaluations: u64,
    history: Vec<GenStats>,
    phase_changes: Vec<u64>,
    best: Option<Member>,
    /// The generation the first valid full-size design appeared.
    first_valid: Option<u64>,
    /// The generation the best full-size design last improved.
    improved_at: u64,
    /// The pairwise-bandwidth bound of the hardware (the FNN compiler paper).
    bandwidth_bound: f64,
    /// The best construction laid onto the hardware: the initial
    /// design when it is already valid, else added at the scale-up.
    seed: Option<Genome>,
    /// Where the searches inside a generation stop (the run's time limit).
    deadline: Deadline,
    /// Where this generation's searches hand back what they have, so no
    /// one of them holds the generation (and the others) for long.
    slice: Deadline,
    /// A full-size design a strategy found during the scaled phase.
    found_full: Option<Genome>,
    portfolio: Portfolio,
    /// What the strategies settled of the problem: a proof that no
    /// design exists stops the run.
    verdict: Verdict,
    /// What the strategies said of their verdicts, by name, in order.
    said: Vec<(&'static str, String)>,
    /// The run's thread pool: every parallel step runs on it.
    pool: Arc<rayon::ThreadPool>,
    /// Members whose masks take more bytes than this keep only their
    /// entries while idle ([`LEAN_ABOVE`]).
    lean_above: usize,
}

/// Above this many bytes of masks (2048 PCs on 1024 switches) the
/// population's members shed them while idle and build them again to
/// breed or walk, so memory follows the entries, P x NICs, and not P x
/// switches (a population of 200 at 4096 PCs on 5120 switches took 540 MB
/// with its masks, 55 MB without).
const LEAN_ABOVE: usize = crate::spec::LEAN_MASKS_ABOVE as usize;

/// Sheds a new member's masks where its problem's are large.
pub(crate) fn lean(problem: &Problem, lean_above: usize, mut m: Member) -> Member {
    if problem.pcs() * problem.words * 8 > lean_above {
        m.genome.shed_masks();
    }
    m
}

impl Engine {
    /// An engine running `portfolio`, building the first population only
    /// until `deadline` (the seeds until `slice`, if that is sooner: a seed
    /// hands back what it has, and the generations go on from there): the
    /// members not spread by then are copies of the
    /// first. The search spreads them later; a run whose time is up stops
    /// at once.
    pub fn with_portfolio(
        cluster: Cluster,
        portfolio: Portfolio,
        deadline: Deadline,
        slice: Deadline,
        pool: Arc<rayon::ThreadPool>,
    ) -> Engine {
        let mut engine = Engine::without_population(cluster, portfolio, Some(deadline.min(slice)), pool);
        engine.populate(deadline);
        engine
    }

    /// The first population, built until `deadline`, and its best noted.
    pub(crate) fn populate(&mut self, deadline: Deadline) {
        self.population = self.initial_population(deadline);
        self.note_best();
    }

    /// Everything but the population: for a saved state, whose population
    /// replaces it (building one first cost seconds and gigabytes at
    /// 16384 PCs).
    /// With `seeding`, the portfolio's seed is found before that deadline.
    pub(crate) fn without_population(
        cluster: Cluster,
        mut portfolio: Portfolio,
        seeding: Option<Deadline>,
        pool: Arc<rayon::ThreadPool>,
    ) -> Engine {
        let ga = cluster.ga.clone();
        let full = Problem::new(cluster);
        let seed = seeding.and_then(|deadline| portfolio.seed(&full, deadline));
        let seeded_valid = seed.as_ref().is_some_and(|(_, uncovered)| *uncovered == 0);
        let c = &full.cluster;
        let ports: Vec<u32> = c.switches.iter().map(|s| s.ports).collect();
        let bandwidth_bound = crate::design::pairwise_upper_bound(&ports, c.total_nics(), c.pcs());
        // A construction that already covers every pair makes the
        // scaled-down phase pointless: the GA starts from it at full size.
        let scaled =
            (ga.scale_down && portfolio.scales() && full.cluster.coverage == Coverage::Universal && !seeded_valid)
                .then(|| scale::next_scaled(&full.cluster, 1))
                .flatten()
                .filter(|_| ga.scale_attempts > 0)
                .map(|scaled| ScaledState::new(scaled, 1));
        Engine {
            full,
            scaled,
            population: Vec::new(),
            rng: Rng::seed_from_u64(ga.seed),
            generation: 0,
            evaluations: 0,
            history: Vec::new(),
            phase_changes: Vec::new(),
            best: None,
            first_valid: None,
            improved_at: 0,
            bandwidth_bound,
            seed: seed.map(|(g, _)| g),
            lean_above: LEAN_ABOVE,
            deadline: Deadline::NONE,
            slice: Deadline::NONE,
            found_full: None,
            portfolio,
            verdict: Verdict::Unknown,
            said: Vec::new(),
            pool,
        }
    }

    /// The problem the population currently solves.
    pub fn active(&self) -> &Problem {
        self.scaled.as_ref().map_or(&self.full, |s| &s.scaled.problem)
    }

    pub fn problem(&self) -> &Problem {
        &self.full
    }

    pub fn cluster(&self) -> &Cluster {
        &self.full.cluster
    }

    pub fn phase(&self) -> Phase {
        match &self.scaled {
            Some(s) => Phase::Scaled {
                width: s.scaled.width,
                pcs: s.scaled.problem.pcs(),
            },
            None => Phase::Full,
        }
    }

    pub fn population(&self) -> &[Member] {
        &self.population
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }

    pub fn history(&self) -> &[GenStats] {
        &self.history
    }

    /// Generations at which the phase changed (scaled-down -> full).
    pub fn phase_changes(&self) -> &[u64] {
        &self.phase_changes
    }

    /// The best full-size design so far (during the scaled phase, the
    /// current best scaled design scaled up).
    pub fn best(&self) -> Member {
        match (&self.best, &self.scaled) {
            (Some(b), None) => b.clone(),
            (_, Some(s)) => {
                let small = &s.scaled.problem;
                let g = scale::scale_up(&self.full, small, &self.population[0].genome.with_masks(small));
                Member::new(&self.full, g)
            }
            (None, None) => {
                let mut m = self.population[0].clone();
                m.genome.restore_masks(&self.full);
                m
            }
        }
    }

    pub fn best_design(&self) -> Design {
        self.best().genome.design(&self.full)
    }

    /// Whether the best design covers every required pair.
    pub fn is_valid(&self) -> bool {
        self.scaled.is_none() && self.best.as_ref().is_some_and(|b| b.eval.terms.uncovered == 0)
    }

    /// Sets when the searches inside a generation must stop: a generation
    /// can take seconds, and a time limit should not run over by that much.
    /// The generation still completes, with what its walks found so far.
    pub fn set_deadline(&mut self, deadline: Deadline) {
        self.deadline = deadline;
    }

    /// Sets when the next generation's searches hand back what they have
    /// (the GA operators are not cut: they are cheap and the run's
    /// deadline holds them).
    pub fn set_slice(&mut self, slice: Deadline) {
        self.slice = slice;
    }

    /// Runs one generation: the GA operators (if the portfolio evolves),
    /// then the portfolio's searches.
    pub fn step(&mut self) {
        static NEVER: AtomicBool = AtomicBool::new(false);
        self.step_until(&NEVER);
    }

    /// [`Engine::step`], whose searches give up as soon as `cancel` is set.
    pub fn step_until(&mut self, cancel: &AtomicBool) {
        let mut next = match self.portfolio.evolves() {
            true => self.next_generation(),
            false => std::mem::take(&mut self.population),
        };
        self.search(&mut next, cancel);
        self.population = next;
        self.generation += 1;
        if let Some(g) = self.found_full.take() {
            self.scale_up();
            let last = self.population.len() - 1;
            self.population[last] = lean(&self.full, self.lean_above, Member::new(&self.full, g));
            self.evaluations += 1;
            sort(&mut self.population);
        } else if self.scaled.is_some() {
            self.advance_scaled_phase();
        }
        self.record();
        self.note_best();
    }

    /// The first population; past `deadline` the members not yet made are
    /// left out (a time limit holds from the start, and even copying
    /// thousands of members takes seconds at 16384 PCs): the next
    /// generation fills the population up again.
    fn initial_population(&mut self, deadline: Deadline) -> Vec<Member> {
        let problem = self.active().clone();
        // Without the GA operators one member is all the strategies use.
        let n = match self.portfolio.evolves() {
            true => self.full.cluster.ga.population,
            false => 1,
        };
        let seeds: Vec<u64> = (0..n).map(|_| self.rng.next_u64()).collect();
        let base = match (&self.seed, &self.scaled) {
            (Some(seed), None) => seed.clone(),
            _ => Genome::straightforward(&problem),
        };
        // One full evaluation: the mutants update a copy of it move by move,
        // so building the population costs no more than its mutations (a
        // full evaluation each took 7 s at 8192 PCs).
        let first = Member::new(&problem, base);
        let lean_above = self.lean_above;
        let mut pop: Vec<Member> = self.pool.install(|| {
            seeds
                .par_iter()
                .enumerate()
                .filter_map(|(k, &seed)| {
                    if k > 0 && deadline.passed() {
                        return None;
                    }
                    let mut m = first.clone();
                    if k > 0 {
                        // Spread the rest of the population by mutation.
                        let mut rng = Rng::seed_from_u64(seed);
                        // Up to 64 moves: enough to spread the population, and
                        // cheap at 1024 PCs when it starts from a valid seed.
                        let moves = rng.random_range(1..=problem.pcs().clamp(1, 64));
                        for _ in 0..moves {
                            operators::swap_connection(&problem, &mut m.genome, &mut m.eval, &mut rng, 0.0);
                        }
                    }
                    Some(lean(&problem, lean_above, m))
                })
                .collect()
        });
        self.evaluations += pop.len() as u64;
        sort(&mut pop);
        pop
    }

    fn next_generation(&mut self) -> Vec<Member> {
        let problem = self.active().clone();
        let ga = self.full.cluster.ga.clone();
        // The population's size, even when the first one was cut short.
        let have = self.population.len();
        let n = ga.population.max(have);
        let keep = ga.keep.min(have);
        for k in keep.saturating_sub(ga.fudge)..keep {
            if have > keep {
                let u = self.rng.random_range(keep..have);
                self.population.swap(k, u);
            }
        }
        let cross = ga.cross.min(n - keep);
        let mutants = n - keep - cross;
        let seeds: Vec<u64> = (0..cross + mutants).map(|_| self.rng.next_u64()).collect();
        // Parents come only from the kept members, so the rest go before
        // the children are made: one generation in memory, not two (at
        // 4096 PCs and 3072 switches a member is 1.6 MB of masks).
        self.population.truncate(keep);
        let kept: Vec<Member> = std::mem::take(&mut self.population)
            .into_iter()
            .map(|m| Member { age: m.age + 1, ..m })
            .collect();
        let deadline = self.deadline;
        let lean_above = self.lean_above;
        let children: Vec<Member> = self.pool.install(|| {
            seeds[..cross]
                .par_iter()
                .map(|&seed| {
                    let mut rng = Rng::seed_from_u64(seed);
                    let a = rng.random_range(0..keep);
                    let b = (a + rng.random_range(1..keep.max(2))) % keep;
                    // A child is one full evaluation (0.1 s at 16384 PCs,
                    // dozens a generation): past the deadline this
                    // generation is the last, and a parent stands in.
                    if deadline.passed() {
                        return kept[a].clone();
                    }
                    let (ga, gb) = (kept[a].genome.with_masks(&problem), kept[b].genome.with_masks(&problem));
                    let child = Member::new(&problem, operators::crossover(&problem, &ga, &gb, &mut rng));
                    lean(&problem, lean_above, child)
                })
                .collect()
        });
        let parents: Vec<&Member> = kept.iter().chain(&children).collect();
        let mutated: Vec<Member> = self.pool.install(|| {
            seeds[cross..]
                .par_iter()
                .map(|&seed| {
                    let mut rng = Rng::seed_from_u64(seed);
                    let parent = parents[rng.random_range(0..parents.len())];
                    lean(&problem, lean_above, mutate(&problem, parent, &mut rng, &ga))
                })
                .collect()
        });
        self.evaluations += (cross + mutants) as u64;
        let mut next = kept;
        next.extend(children);
        next.extend(mutated);
        sort(&mut next);
        next
    }

    /// The portfolio's searches on this generation: designs of the active
    /// problem replace the worst members (the parents stay, and diversity
    /// with them); a full-size design found during the scaled phase ends it
    /// after this generation.
    fn search(&mut self, next: &mut [Member], cancel: &AtomicBool) {
        let active = self.scaled.as_ref().map_or(&self.full, |s| &s.scaled.problem);
        let since = match &self.scaled {
            Some(s) => s.generations - s.improved_at.min(s.generations),
            None => self.generation - self.improved_at.min(self.generation),
        };
        // Until the run has a valid design, the first search to find one
        // stops the others: the run records it and stops or polishes from
        // there (a GA child already valid leaves them nothing to do).
        let stop = AtomicBool::new(next.first().is_some_and(|m| m.eval.terms.uncovered == 0));
        let stop = self.seeks_first_valid().then_some(&stop);
        let ga = &self.full.cluster.ga;
        let ctx = Context {
            problem: active,
            full: &self.full,
            population: next,
            kept: ga.keep,
            generation: self.generation,
            scaled_generations: self.scaled.as_ref().map(|s| s.generations),
            budget: budget(ga.local_search, since, self.deadline.min(self.slice), stop),
            run_deadline: self.deadline,
            cancel,
            pool: &self.pool,
        };
        let found = self.portfolio.search(&ctx, ga.seed);
        let mut designs = Vec::new();
        for (name, f) in found {
            let Found {
                members,
                full,
                verdict,
                said,
                moves,
            } = f;
            designs.extend(members);
            if let Some(g) = full {
                match self.scaled {
                    Some(_) => self.found_full = Some(g),
                    None => designs.push(g),
                }
            }
            if let Some(s) = self.scaled.as_mut() {
                s.searched |= moves > 0;
            }
            if verdict != Verdict::Unknown || self.verdict == Verdict::Unknown {
                self.verdict = verdict;
            }
            self.said.extend(said.map(|said| (name, said)));
        }
        let problem = self.scaled.as_ref().map_or(&self.full, |s| &s.scaled.problem);
        let lean_above = self.lean_above;
        let improved: Vec<Member> = self.pool.install(|| {
            designs
                .into_par_iter()
                .map(|g| lean(problem, lean_above, Member::new(problem, g)))
                .collect()
        });
        self.evaluations += improved.len() as u64;
        let n = next.len();
        for (slot, m) in (0..n).rev().zip(improved) {
            next[slot] = m;
        }
        sort(next);
    }

    fn record(&mut self) {
        let n = self.population.len().max(1) as f64;
        let best = &self.population[0];
        self.history.push(GenStats {
            generation: self.generation,
            full: self.scaled.is_none(),
            best: best.eval.total,
            mean: self.population.iter().map(|m| m.eval.total).sum::<f64>() / n,
            best_uncovered: best.eval.terms.uncovered,
        });
    }

    /// Moves on from a scaled problem: once solved and settled, scale the
    /// population up; after its budget without a solution, try the next
    /// scale or fall back to the full problem.
    fn advance_scaled_phase(&mut self) {
        let ga = self.full.cluster.ga.clone();
        let Some(state) = self.scaled.as_mut() else { return };
        state.generations += 1;
        let uncovered = self.population[0].eval.terms.uncovered;
        if uncovered < state.best_uncovered {
            state.best_uncovered = uncovered;
            state.improved_at = state.generations;
        }
        if state.solved_at.is_none() && uncovered == 0 {
            state.solved_at = Some(state.generations);
        }
        let stalled = state.searched && state.generations - state.improved_at >= SCALED_STALL;
        match state.solved_at {
            Some(at) if state.generations - at >= ga.settle_generations => self.scale_up(),
            None if state.generations >= ga.scaled_generations || stalled => {
                let (width, attempt) = (state.scaled.width, state.attempt + 1);
                let next = scale::next_scaled(&self.full.cluster, width).filter(|_| attempt <= ga.scale_attempts);
                match next {
                    Some(scaled) => {
                        self.scaled = Some(ScaledState::new(scaled, attempt));
                        self.population = self.initial_population(Deadline::NONE);
                    }
                    // No scaled size solved: the nearly connected designs
                    // of the last one still beat starting from scratch.
                    None => self.scale_up(),
                }
            }
            _ => {}
        }
    }

    fn scale_up(&mut self) {
        let Some(state) = self.scaled.take() else { return };
        let small = &state.scaled.problem;
        let full = &self.full;
        let deadline = self.deadline;
        // Each member scaled up is one full evaluation (about 0.1 s at
        // 16384 PCs): past the deadline the rest are copies of the best,
        // as in the first population, so the time limit holds.
        let lean_above = self.lean_above;
        let Some(best) = self.population.first() else { return };
        let first = Member::new(full, scale::scale_up(full, small, &best.genome.with_masks(small)));
        let mut pop: Vec<Member> = self.pool.install(|| {
            self.population[1..]
                .par_iter()
                .map(|m| match deadline.passed() {
                    true => lean(full, lean_above, first.clone()),
                    false => lean(
                        full,
                        lean_above,
                        Member::new(full, scale::scale_up(full, small, &m.genome.with_masks(small))),
                    ),
                })
                .collect()
        });
        pop.insert(0, lean(full, lean_above, first));
        self.evaluations += pop.len() as u64;
        if let (Some(seed), Some(last), false) = (&self.seed, pop.last_mut(), deadline.passed()) {
            *last = lean(full, lean_above, Member::new(full, seed.clone()));
            self.evaluations += 1;
        }
        sort(&mut pop);
        self.population = pop;
        self.phase_changes.push(self.generation);
    }

    fn note_best(&mut self) {
        if self.scaled.is_some() {
            return;
        }
        let top = &self.population[0];
        if self.best.as_ref().is_none_or(|b| top.eval.total > b.eval.total) {
            let mut best = top.clone();
            best.genome.restore_masks(&self.full);
            self.best = Some(best);
            self.improved_at = self.generation;
        }
        if self.first_valid.is_none() && self.is_valid() {
            self.first_valid = Some(self.generation);
        }
    }

    /// New weights, applied to every member (the terms are unchanged, only
    /// the totals and so the order).
    pub fn set_weights(&mut self, weights: Weights) {
        self.full.cluster.weights = weights;
        if self.scaled.is_none() {
            let w = &self.full.cluster.weights;
            for m in &mut self.population {
                m.eval.reweigh(w);
            }
            if let Some(b) = &mut self.best {
                b.eval.reweigh(w);
            }
            sort(&mut self.population);
            self.best = None;
            self.note_best();
        }
    }

    /// New pins, all or nothing: every member is repaired to obey them and
    /// re-evaluated. If some member cannot be made to obey them, nothing
    /// changes (pins, population, best design, random stream) and the
    /// cells no repair could satisfy are returned.
    pub fn set_pins(&mut self, pins: Pins) -> Result<(), Vec<(usize, usize)>> {
        self.set_pins_from(pins, None)
    }

    /// New pins as `set_pins`, with `obeying`, a design known to obey
    /// them: a member the greedy repair cannot mend from its own wiring
    /// is rebuilt from that design instead, so pins the exact model
    /// proved possible are never refused for the search's current state.
    pub fn set_pins_from(&mut self, pins: Pins, obeying: Option<&Design>) -> Result<(), Vec<(usize, usize)>> {
        if self.scaled.is_some() {
            // The scale-up construction places must-pins first and avoids
            // forbidden cells, so the scaled phase needs nothing now.
            self.full.cluster.pins = pins;
            return Ok(());
        }
        let rng_before = self.rng.clone();
        let old = std::mem::replace(&mut self.full.cluster.pins, pins);
        let seeds: Vec<u64> = (0..self.population.len()).map(|_| self.rng.next_u64()).collect();
        let full = &self.full;
        let lean_above = self.lean_above;
        let results: Vec<(Member, Vec<(usize, usize)>)> = self.pool.install(|| {
            self.population
                .par_iter()
                .zip(&seeds)
                .map(|(m, &seed)| {
                    let mut rng = Rng::seed_from_u64(seed);
                    let mut g = m.genome.with_masks(full).into_owned();
                    let mut failed = operators::repair(full, &mut g, &mut rng);
                    if let (false, Some(d)) = (failed.is_empty(), obeying) {
                        g = Genome::from_design(full, d);
                        failed = operators::repair(full, &mut g, &mut rng);
                    }
                    (lean(full, lean_above, Member::new(full, g)), failed)
                })
                .collect()
        });
        let mut failed: Vec<(usize, usize)> = results.iter().flat_map(|(_, f)| f.iter().copied()).collect();
        if !failed.is_empty() {
            failed.sort_unstable();
            failed.dedup();
            self.full.cluster.pins = old;
            self.rng = rng_before;
            return Err(failed);
        }
        self.population = results.into_iter().map(|(m, _)| m).collect();
        sort(&mut self.population);
        self.best = None;
        self.note_best();
        Ok(())
    }

    /// Whether the search should stop: the design is valid, nothing else is
    /// being optimised, and its average pairwise links reached the
    /// hardware's bound (all ports used, the FNN compiler paper "Performance") or the
    /// polish budget ran out.
    pub fn done(&self) -> bool {
        if self.stalled() {
            return true;
        }
        if !self.is_valid() || self.full.cluster.has_secondary_objective() {
            return false;
        }
        let at_bound = self
            .best
            .as_ref()
            .is_some_and(|b| b.eval.terms.bandwidth >= self.bandwidth_bound - 1e-9);
        let polished = self
            .first_valid
            .is_some_and(|at| self.generation - at >= self.full.cluster.ga.polish_generations);
        at_bound || polished || !self.full.cluster.pattern.is_empty()
    }

    /// Whether the generation looks for the run's first valid design at
    /// full size: the first search to find one ends it. Polishing
    /// generations run in full, and a valid scaled design does not end
    /// the scaled phase at once. Like the slice, only under a time limit:
    /// where the others stop depends on the clock, and a run without a
    /// limit stays the same for a seed on any machine.
    fn seeks_first_valid(&self) -> bool {
        self.scaled.is_none() && self.first_valid.is_none() && self.slice.instant().is_some()
    }

    /// Whether a valid design has stopped improving: no better best for
    /// `ga.stall_generations` generations.
    pub fn stalled(&self) -> bool {
        let stall = self.full.cluster.ga.stall_generations;
        self.is_valid() && stall > 0 && self.generation - self.improved_at >= stall
    }

    /// The generation the first valid full-size design appeared.
    pub fn first_valid(&self) -> Option<u64> {
        self.first_valid
    }

    /// Whether a strategy proved that no design exists.
    pub fn proved_impossible(&self) -> bool {
        matches!(self.verdict, Verdict::Impossible(_))
    }

    /// Whether the portfolio has nothing left to try: without the GA
    /// operators the strategies work once.
    pub fn exhausted(&self) -> bool {
        !self.portfolio.evolves() && self.generation > 0
    }

    /// What the strategies settled of the problem so far.
    pub fn verdict(&self) -> &Verdict {
        &self.verdict
    }

    /// What the strategies said of their verdicts, by name, in the order
    /// they said it.
    pub fn said(&self) -> &[(&'static str, String)] {
        &self.said
    }

    /// Each strategy's account so far, in portfolio order.
    pub fn strategy_stats(&self) -> &[Stats] {
        self.portfolio.stats()
    }

    /// The hardware's bound on average pairwise links.
    pub fn bandwidth_bound(&self) -> f64 {
        self.bandwidth_bound
    }
}

/// What the run gives each strategy in a generation: a walk goes on
/// while it finds better designs (its pair weights are what it learnt),
/// up to 8 times its patience; the patience (`ga.local_search` moves)
/// doubles with every generation the best has not improved (up to 8
/// times), since a plateau needs a longer walk. So one generation costs
/// at most 64 x `ga.local_search` moves per walk; the searches hand back
/// what they have at `deadline`.
fn budget(local_search: u64, since_improved: u64, deadline: Deadline, stop: Option<&AtomicBool>) -> Budget<'_> {
    let stalled = since_improved.min(3) as u32;
    let patience = local_search.saturating_mul(1 << stalled);
    Budget {
        patience,
        max: patience.saturating_mul(8),
        deadline,
        stop,
    }
}

/// Applies the two mutations a random number of times in all (1 to
/// `max`), each time mutation 2 with probability `pc_swap_rate`, to a copy
/// of `parent`.
fn mutate(problem: &Problem, parent: &Member, rng: &mut Rng, ga: &crate::spec::GaParams) -> Member {
    let mut m = Member {
        genome: parent.genome.with_masks(problem).into_owned(),
        eval: parent.eval.clone(),
        age: 0,
    };
    for _ in 0..rng.random_range(1..=ga.max_mutations) {
        if rng.random_bool(ga.pc_swap_rate) {
            operators::swap_pcs(problem, &mut m.genome, &mut m.eval, rng, ga.focus);
        } else {
            operators::swap_connection(problem, &mut m.genome, &mut m.eval, rng, ga.focus);
        }
    }
    m
}

/// Decreasing fitness; stable, so equal members keep their order and runs
/// stay deterministic.
fn sort(pop: &mut [Member]) {
    pop.sort_by(|a, b| b.eval.total.total_cmp(&a.eval.total));
}

impl Engine {
    /// The portfolio, taken for a fresh engine (a restart keeps the
    /// strategies, their accounts and what they settled); this one is left
    /// with the papers' GA.
    pub(crate) fn take_portfolio(&mut self) -> Portfolio {
        let papers = presets::portfolio(crate::spec::Preset::Papers, &self.full.cluster.ga);
        std::mem::replace(&mut self.portfolio, papers).restarted()
    }

    /// New GA parameters between generations; a population size change
    /// trims the worst or adds mutants of the best.
    pub fn set_ga(&mut self, ga: crate::spec::GaParams) {
        let size = ga.population;
        let old = &self.full.cluster.ga;
        let settings = |g: &crate::spec::GaParams| (g.portfolio, g.exact, g.constructions, g.local_members);
        if settings(old) != settings(&ga) {
            self.portfolio = presets::of_params(&ga);
        }
        self.full.cluster.ga = ga;
        if size < self.population.len() {
            self.population.truncate(size);
        }
        let problem = self.active().clone();
        while self.population.len() < size {
            let k = self.population.len() % self.population.len().max(1);
            let mut m = self.population[k].clone();
            m.genome.restore_masks(&problem);
            operators::swap_connection(&problem, &mut m.genome, &mut m.eval, &mut self.rng, 0.0);
            m.age = 0;
            self.population.push(lean(&problem, self.lean_above, m));
        }
        sort(&mut self.population);
    }
}

/// An engine's progress besides its members, as a checkpoint saves and
/// restores it: the generator, the counters, the history and the scaled
/// phase's progress.
pub(crate) struct Progress {
    pub(crate) rng: Rng,
    pub(crate) scaled: Option<ScaledState>,
    pub(crate) generation: u64,
    pub(crate) evaluations: u64,
    pub(crate) first_valid: Option<u64>,
    pub(crate) improved_at: u64,
    pub(crate) phase_changes: Vec<u64>,
    pub(crate) history: Vec<GenStats>,
}

/// What the run's checkpoint reads and restores ([`crate::run`]).
impl Engine {
    /// The generator, whose state is saved.
    pub(crate) fn rng(&self) -> &Rng {
        &self.rng
    }

    /// The scaled-down phase's progress, while in it.
    pub(crate) fn scaled_state(&self) -> Option<&ScaledState> {
        self.scaled.as_ref()
    }

    /// The generation the best full-size design last improved.
    pub(crate) fn improved_at(&self) -> u64 {
        self.improved_at
    }

    /// The best full-size member kept so far (none before the full phase).
    pub(crate) fn kept_best(&self) -> Option<&Member> {
        self.best.as_ref()
    }

    /// The run's pool: a checkpoint evaluates its members on it.
    pub(crate) fn pool(&self) -> &rayon::ThreadPool {
        &self.pool
    }

    /// Bytes of masks above which idle members shed them ([`lean`]).
    pub(crate) fn lean_above(&self) -> usize {
        self.lean_above
    }

    #[cfg(test)]
    pub(crate) fn set_lean_above(&mut self, bytes: usize) {
        self.lean_above = bytes;
    }

    /// Puts a saved progress back: the problem the members solve is then
    /// the saved phase's ([`Engine::active`]).
    pub(crate) fn restore(&mut self, p: Progress) {
        self.rng = p.rng;
        self.scaled = p.scaled;
        self.generation = p.generation;
        self.evaluations = p.evaluations;
        self.first_valid = p.first_valid;
        self.improved_at = p.improved_at;
        self.phase_changes = p.phase_changes;
        self.history = p.history;
    }

    /// The members a checkpoint saved, checked and evaluated.
    pub(crate) fn set_members(&mut self, population: Vec<Member>, best: Option<Member>) {
        self.population = population;
        self.best = best;
    }
}
