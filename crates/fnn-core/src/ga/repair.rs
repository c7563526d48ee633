//! The last pairs of a sparse design, repaired exactly one neighbourhood
//! at a time.
//!
//! The walks move one NIC (or trade two switches' members) at a time. A
//! few dozen pairs short, the pairs left are where every such move
//! uncovers as much as it covers: untangling them takes several PCs
//! moving at once, across several switches. So this search frees a
//! neighbourhood of an uncovered pair (its two PCs' switches and some
//! switches near them), keeps every other cable where it is, and asks a
//! SAT solver to rewire the freed switches so that the pair is covered
//! and every pair they covered still is: a design it finds leaves fewer
//! pairs uncovered, never more. A neighbourhood with no such rewiring is
//! tried again wider, then another pair is taken.

use super::Rng;
use super::genome::Genome;
use super::local::Required;
use super::problem::Problem;
use super::strategy::{Context, Found, Strategy};
use crate::deadline::Deadline;
use crate::exact::{Settled, is_true, satisfy};
use crate::spec::Coverage;
use rand::seq::IndexedRandom;
use rand::seq::SliceRandom;
use rustsat::instances::SatInstance;
use rustsat::types::Lit;
use rustsat::types::constraints::CardConstraint;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, PoisonError};

/// The most pairs a best member may leave for the repair to run: above,
/// a stalled design is far from any that a few rewirings finish. A
/// 3,001-PC transpose pattern on 16-port switches stalls ~1,050 short,
/// where each rewiring that holds covers ~20.
const MOST_LEFT: u64 = 2000;

/// Switches freed around a pair, in the order they are tried: a small
/// neighbourhood solves in milliseconds, a wider one holds more ways out.
const SIZES: [usize; 3] = [10, 16, 24];

/// The most conflicts one solver call may have: past them the
/// neighbourhood is as good as impossible and another is worth more.
/// Counted, not timed, so a run's calls end alike on any machine.
const CONFLICTS: u32 = 5_000;

/// Solver calls a generation makes at most.
const CALLS: u64 = 96;

/// The repair as a strategy: each generation, the best member's
/// uncovered pairs are taken at random, each one's neighbourhood rewired
/// by the solver where it can be.
///
/// It takes time from the walks (it runs before them, for up to half
/// of the generation, [`Budget::before_others`]), so it starts only
/// where the best has not improved by a [`GAIN`] for [`STALLED`]
/// generations (the walks
/// covering a few pairs a generation, 500 short, are as good as
/// stalled), and goes on while it covers
/// pairs. Where a generation's calls all fail (pairs no rewiring of a few
/// switches covers), it sits out twice as many generations as the time
/// before: on 4,096 PCs with 6 random NICs on 8-port switches and half
/// their pairs required, 384 calls covered none. Run whenever the best
/// left 160 pairs or fewer, it made a 1,001-PC bit-reversal run 2x slower
/// to its first valid design and one 4,096-PC random run fail, where the
/// walks were still covering pairs.
#[derive(Default)]
pub struct Repair {
    backoff: Mutex<Backoff>,
}

/// When the repair runs next, and how long it sat out last; the best
/// pairs left seen, since which generation, and whether the repair's
/// last generation covered any.
#[derive(Default)]
struct Backoff {
    next: u64,
    wait: u64,
    best: Option<(u64, u64)>,
    hit: bool,
}

/// Generations without a better best before the repair starts.
const STALLED: u64 = 2;

/// The share of the pairs left that a best must cover to count as
/// better: a 3,001-PC transpose pattern's walks covered 1 to 10 pairs of
/// ~500 a generation, which kept the repair out for 13 generations (23
/// s) when it then covered 300 in 4.
const GAIN: u64 = 20;

impl Backoff {
    /// Whether the repair runs in `generation`, whose best leaves `left`.
    fn runs(&mut self, generation: u64, left: u64) -> bool {
        let since = match self.best {
            Some((best, since)) if left * GAIN > best * (GAIN - 1) => since,
            _ => {
                self.best = Some((left, generation));
                generation
            }
        };
        self.next <= generation && (self.hit || generation - since >= STALLED)
    }

    fn note(&mut self, generation: u64, covered_any: bool) {
        self.hit = covered_any;
        self.wait = if covered_any {
            0
        } else {
            (self.wait * 2).clamp(1, MOST_WAIT)
        };
        self.next = generation + 1 + self.wait;
    }
}

/// The most generations the repair sits out after failing.
const MOST_WAIT: u64 = 32;

impl Strategy for Repair {
    fn name(&self) -> &'static str {
        "repair"
    }

    fn applies(&self, ctx: &Context<'_>) -> bool {
        ctx.problem.cluster.coverage == Coverage::Sparse
            && ctx.scaled_generations.is_none()
            && ctx.budget.has_moves()
            && (1..=MOST_LEFT).contains(&ctx.best_uncovered())
            && self
                .backoff
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .runs(ctx.generation, ctx.best_uncovered())
    }

    fn search(&self, ctx: &Context<'_>, rng: &mut Rng) -> Found {
        let problem = ctx.problem;
        let Some(best) = ctx.population.first() else {
            return Found::default();
        };
        let req = Required::new(problem);
        let mut w = Wiring::of(problem, &best.genome);
        // A rewiring never uncovers a pair, so the open pairs are listed
        // once (every pair looked at: millions at 16,384 PCs) and only
        // shrink.
        let mut open = w.open(&req);
        let before = open.len();
        // The repair runs alone before the walks.
        let deadline = ctx.budget.before_others().deadline;
        let mut calls = 0;
        let mut size = 0;
        while calls < CALLS && !ctx.spent() && !deadline.passed() {
            let Some(&pair) = open.choose(rng) else { break };
            let hood = w.neighbourhood(problem, &req, pair, SIZES[size], rng);
            calls += 1;
            match w.rewired(problem, &req, pair, &hood, deadline, [ctx.cancel, stop_flag(ctx)]) {
                Some(on) => {
                    w.set(&hood, on);
                    open.retain(|&(a, b)| !w.share(a as usize, b as usize));
                    size = 0;
                }
                None => size = (size + 1) % SIZES.len(),
            }
        }
        let after = open.len();
        let mut backoff = self.backoff.lock().unwrap_or_else(PoisonError::into_inner);
        backoff.note(ctx.generation, after < before);
        Found {
            members: (after < before).then(|| w.genome(problem)).into_iter().collect(),
            moves: calls,
            ..Found::default()
        }
    }
}

/// The generation's stop flag, or one never raised.
fn stop_flag<'a>(ctx: &Context<'a>) -> &'a AtomicBool {
    static NEVER: AtomicBool = AtomicBool::new(false);
    ctx.budget.stop.unwrap_or(&NEVER)
}

/// A design as each PC's switches and each switch's PCs.
struct Wiring {
    on: Vec<Vec<u32>>,
    members: Vec<Vec<u32>>,
}

/// A neighbourhood's new cables: for each PC in it, its switches among
/// the freed ones.
type Rewiring = Vec<(u32, Vec<u32>)>;

impl Wiring {
    fn of(problem: &Problem, g: &Genome) -> Wiring {
        let design = g.design(problem);
        let on: Vec<Vec<u32>> = (0..problem.pcs())
            .map(|pc| design.switches_of(pc).into_iter().map(|s| s as u32).collect())
            .collect();
        let mut members = vec![Vec::new(); problem.switches()];
        for (pc, switches) in on.iter().enumerate() {
            switches.iter().for_each(|&s| members[s as usize].push(pc as u32));
        }
        Wiring { on, members }
    }

    fn has_room(&self, problem: &Problem, s: u32) -> bool {
        self.free_ports(problem, s) > 0
    }

    fn free_ports(&self, problem: &Problem, s: u32) -> usize {
        (problem.cluster.ports(s as usize) as usize).saturating_sub(self.members[s as usize].len())
    }

    fn genome(&self, problem: &Problem) -> Genome {
        let order: Vec<usize> = (0..problem.pcs()).collect();
        Genome::construct(problem, &order, &|pc| self.on[pc].iter().map(|&s| s as usize).collect())
    }

    fn share(&self, a: usize, b: usize) -> bool {
        self.on[a].iter().any(|s| self.on[b].contains(s))
    }

    /// The required pairs no switch covers, smaller PC first.
    fn open(&self, req: &Required<'_>) -> Vec<(u32, u32)> {
        let mut open = Vec::new();
        for a in 0..self.on.len() {
            req.each(a, |b, _| {
                if a < b && !self.share(a, b) {
                    open.push((a as u32, b as u32));
                }
            });
        }
        open
    }

    /// Up to `size` switches around `pair`: its PCs' own, the one with the
    /// most ports free of each width (where a clique split across switches
    /// can meet), then at random the switches of the partners they do not
    /// meet (where the rest of such a clique is), those of the partners
    /// they meet, and those of the freed switches' members. On a 3,001-PC
    /// transpose pattern with 30 switches empty, a random switch with a
    /// port free, and partners' switches in any order, left the run
    /// stalled ~430 pairs short at 60 s; the emptiest switch took it to
    /// 254, and the unmet partners' switches first to 183.
    fn neighbourhood(
        &self,
        problem: &Problem,
        req: &Required<'_>,
        (a, b): (u32, u32),
        size: usize,
        rng: &mut Rng,
    ) -> Vec<u32> {
        let mut hood: Vec<u32> = Vec::new();
        let add = |s: u32, hood: &mut Vec<u32>| {
            if hood.len() < size && !hood.contains(&s) {
                hood.push(s);
            }
        };
        for pc in [a, b] {
            self.on[pc as usize].iter().for_each(|&s| add(s, &mut hood));
        }
        // A switch with room of each width takes PCs without any leaving:
        // a pair's clique may move there whole.
        let mut room: Vec<u32> = (0..problem.switches() as u32)
            .filter(|&s| self.has_room(problem, s))
            .collect();
        room.shuffle(rng);
        room.sort_by_key(|&s| std::cmp::Reverse(self.free_ports(problem, s)));
        let mut widths: Vec<u32> = Vec::new();
        for s in room {
            let w = problem.cluster.ports(s as usize);
            if !widths.contains(&w) {
                widths.push(w);
                add(s, &mut hood);
            }
        }
        let (mut met, mut unmet) = (Vec::new(), Vec::new());
        for pc in [a, b] {
            req.each(pc as usize, |q, _| {
                let to = if self.share(pc as usize, q) {
                    &mut met
                } else {
                    &mut unmet
                };
                to.extend(&self.on[q]);
            });
        }
        unmet.shuffle(rng);
        met.shuffle(rng);
        unmet.into_iter().chain(met).for_each(|s| add(s, &mut hood));
        let mut k = 0;
        while hood.len() < size && k < hood.len() {
            let mut next: Vec<u32> = self.members[hood[k] as usize]
                .iter()
                .flat_map(|&m| self.on[m as usize].iter().copied())
                .collect();
            next.shuffle(rng);
            next.into_iter().for_each(|s| add(s, &mut hood));
            k += 1;
        }
        hood
    }

    /// The freed switches `hood` rewired so that `target` and every pair
    /// they covered are covered, or `None` where the solver finds no such
    /// rewiring within [`CONFLICTS`] conflicts and by `deadline`.
    fn rewired(
        &self,
        problem: &Problem,
        req: &Required<'_>,
        target: (u32, u32),
        hood: &[u32],
        deadline: Deadline,
        flags: [&AtomicBool; 2],
    ) -> Option<Rewiring> {
        let model = Model::build(self, problem, req, target, hood);
        let settled = satisfy(model.instance, CONFLICTS, deadline, flags);
        tracing::trace!(
            switches = hood.len(),
            pcs = model.x.len(),
            sat = matches!(settled, Settled::Sat(_)),
            "repair"
        );
        let Settled::Sat(a) = settled else {
            return None;
        };
        let chosen = |row: Vec<(u32, Lit)>| {
            row.into_iter()
                .filter(|&(_, l)| is_true(&a, l))
                .map(|(s, _)| s)
                .collect()
        };
        Some(model.x.into_iter().map(|(pc, row)| (pc, chosen(row))).collect())
    }

    /// The freed switches `pc` may go to: those it is on, those with a
    /// port free, and those holding a partner of its; the target pair's
    /// PCs may go to any.
    fn choices(&self, problem: &Problem, req: &Required<'_>, pc: u32, target: (u32, u32), hood: &[u32]) -> Vec<u32> {
        let mut to: Vec<u32> = if pc == target.0 || pc == target.1 {
            hood.to_vec()
        } else {
            let mut to: Vec<u32> = hood
                .iter()
                .copied()
                .filter(|&s| self.on[pc as usize].contains(&s) || self.has_room(problem, s))
                .collect();
            req.each(pc as usize, |q, _| {
                to.extend(self.on[q].iter().filter(|s| hood.contains(s)))
            });
            to
        };
        to.sort_unstable();
        to.dedup();
        to.retain(|&s| !problem.cluster.pins.is_forbidden(pc as usize, s as usize));
        to
    }

    /// Each PC of the neighbourhood on the freed switches the solver gave it.
    fn set(&mut self, hood: &[u32], rewiring: Rewiring) {
        for &s in hood {
            self.members[s as usize].clear();
        }
        for (pc, switches) in rewiring {
            let on = &mut self.on[pc as usize];
            on.retain(|s| !hood.contains(s));
            on.extend(&switches);
            switches.iter().for_each(|&s| self.members[s as usize].push(pc));
        }
    }
}

/// The clauses of one neighbourhood: a boolean per PC and freed switch it
/// may go to, and the literals they are, by PC.
struct Model {
    instance: SatInstance,
    x: Vec<(u32, Vec<(u32, Lit)>)>,
}

impl Model {
    fn build(w: &Wiring, problem: &Problem, req: &Required<'_>, target: (u32, u32), hood: &[u32]) -> Model {
        let mut scope: Vec<u32> = hood
            .iter()
            .flat_map(|&s| w.members[s as usize].iter().copied())
            .collect();
        scope.extend([target.0, target.1]);
        scope.sort_unstable();
        scope.dedup();
        let mut inst = SatInstance::new();
        let x: Vec<(u32, Vec<(u32, Lit)>)> = scope
            .iter()
            .map(|&pc| {
                let to = w.choices(problem, req, pc, target, hood);
                (pc, to.into_iter().map(|s| (s, inst.new_lit())).collect())
            })
            .collect();
        let mut model = Model { instance: inst, x };
        model.limits(w, problem, hood);
        model.pairs(w, req, target, hood);
        model
    }

    /// Each PC keeps as many cables on the freed switches as it had there
    /// (and may take an uncabled NIC's), keeps its pins, and each freed
    /// switch holds no more PCs than its ports.
    fn limits(&mut self, w: &Wiring, problem: &Problem, hood: &[u32]) {
        let c = &problem.cluster;
        let inst = &mut self.instance;
        for (pc, row) in &self.x {
            let p = *pc as usize;
            let there = w.on[p].iter().filter(|s| hood.contains(s)).count();
            let kept = w.on[p].len() - there;
            let lits = || row.iter().map(|&(_, l)| l);
            inst.add_card_constr(CardConstraint::new_ub(
                lits(),
                (c.nics[p] as usize).saturating_sub(kept),
            ));
            inst.add_card_constr(CardConstraint::new_lb(lits(), there));
            row.iter()
                .filter(|&&(s, _)| c.pins.is_must(p, s as usize))
                .for_each(|&(_, l)| inst.add_unit(l));
        }
        for &s in hood {
            let column = self
                .x
                .iter()
                .filter_map(|(_, row)| row.iter().find(|&&(t, _)| t == s).map(|&(_, l)| l));
            inst.add_card_constr(CardConstraint::new_ub(column, c.ports(s as usize) as usize));
        }
    }

    /// The target and every pair the freed switches alone covered share a
    /// freed switch; pairs they did not cover may stay open.
    fn pairs(&mut self, w: &Wiring, req: &Required<'_>, target: (u32, u32), hood: &[u32]) {
        let (x, inst) = (&self.x, &mut self.instance);
        let at: HashMap<u32, usize> = x.iter().enumerate().map(|(k, &(pc, _))| (pc, k)).collect();
        let kept = |pc: u32| w.on[pc as usize].iter().copied().filter(|s| !hood.contains(s));
        for (k, (p, row)) in x.iter().enumerate() {
            let p = *p;
            req.each(p as usize, |q, _| {
                let q = q as u32;
                let Some(&j) = at.get(&q) else { return };
                let must = (p, q) == target || w.share(p as usize, q as usize);
                if j <= k || !must || kept(p).any(|s| kept(q).any(|t| t == s)) {
                    return;
                }
                let meet: Vec<Lit> = row
                    .iter()
                    .filter_map(|&(s, l)| x[j].1.iter().find(|&&(t, _)| t == s).map(|&(_, m)| (l, m)))
                    .map(|(l, m)| {
                        let both = inst.new_lit();
                        inst.add_lit_impl_lit(both, l);
                        inst.add_lit_impl_lit(both, m);
                        both
                    })
                    .collect();
                inst.add_nary(&meet);
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ga::{Budget, Eval, Member};
    use crate::spec::{PatternSpec, sparse_spec};
    use rand::{RngExt, SeedableRng};
    use std::time::Duration;

    /// `blocks` as the switches of a sparse spec of `pcs` PCs with `nics`
    /// NICs on `switches` (ports, count), requiring `pairs`.
    fn problem(pcs: usize, nics: u32, switches: &[(u32, u32)], pairs: &[(usize, usize)]) -> Problem {
        let pairs = pairs.iter().map(|&(a, b)| vec![a as f64, b as f64]).collect();
        let pattern = PatternSpec::Pairs { pairs, weight: 1.0 };
        Problem::new(
            sparse_spec("repair", pcs, nics, switches, vec![pattern])
                .resolve()
                .unwrap(),
        )
    }

    /// The repair's generation on `best` alone (a second at most), and the
    /// design it hands back, if any.
    fn repaired(p: &Problem, best: Genome, seed: u64) -> Option<Genome> {
        let population = vec![Member::new(p, best)];
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let cancel = AtomicBool::new(false);
        let budget = Budget {
            patience: 1,
            max: 1,
            deadline: Deadline::from_now(Some(Duration::from_secs(1))),
            stop: None,
        };
        let ctx = Context::first(p, &population, budget, Deadline::NONE, &cancel, &pool);
        let repair = Repair::default();
        repair.search(&ctx, &mut Rng::seed_from_u64(seed)).members.pop()
    }

    /// Five PCs that must all meet, four of them on a full 4-port switch
    /// and the fifth alone: no rewiring of the two switches they are on
    /// covers the fifth's pairs without uncovering others, but all five
    /// fit on the empty 8-port switch, which the neighbourhood holds.
    #[test]
    fn a_clique_split_across_full_switches_meets_on_one_with_room() {
        let clique: Vec<(usize, usize)> = (0..5).flat_map(|a| (a + 1..5).map(move |b| (a, b))).collect();
        let p = problem(5, 1, &[(4, 2), (8, 1)], &clique);
        let split = crate::design::Design::from_blocks(5, &[vec![1, 2, 3, 4], vec![0], vec![]]);
        let g = Genome::from_design(&p, &split);
        assert_eq!(Eval::full(&p, &g).terms.uncovered, 4);
        let g = repaired(&p, g, 1).expect("a design with fewer pairs uncovered");
        assert_eq!(Eval::full(&p, &g).terms.uncovered, 0);
    }

    /// A planted random wiring (64 PCs, 4 NICs on 8-port switches, 40%
    /// of its pairs) with random exchanges between its switches: whatever
    /// the repair hands back leaves fewer pairs than it was given, as the
    /// design's own evaluation counts them, within every NIC and port.
    #[test]
    fn a_repaired_design_leaves_fewer_pairs_and_keeps_the_limits() {
        let (pcs, nics, width) = (64usize, 4u32, 8usize);
        let mut improved = 0;
        for seed in 0..4 {
            let mut rng = Rng::seed_from_u64(seed);
            let blocks = crate::ga::blocks::tests::random_layers(pcs, nics as usize, width, &mut rng);
            let pairs: Vec<(usize, usize)> = blocks
                .iter()
                .flat_map(|b| {
                    b.iter()
                        .flat_map(|&x| b.iter().map(move |&y| (x, y)))
                        .collect::<Vec<_>>()
                })
                .filter(|&(x, y)| x < y)
                .filter(|_| rng.random_bool(0.4))
                .collect();
            let p = problem(
                pcs,
                nics,
                &[(width as u32, (pcs * nics as usize / width) as u32)],
                &pairs,
            );
            let mut g = Genome::from_design(&p, &crate::design::Design::from_blocks(pcs, &blocks));
            for _ in 0..12 {
                let (i, j) = (
                    rng.random_range(0..p.real_entries()),
                    rng.random_range(0..p.real_entries()),
                );
                if g.can_swap(&p, i, j) {
                    g.swap(&p, i, j);
                }
            }
            let before = Eval::full(&p, &g).terms.uncovered;
            if before == 0 {
                continue;
            }
            let Some(r) = repaired(&p, g, seed) else { continue };
            improved += 1;
            let d = r.design(&p);
            assert!(Eval::full(&p, &r).terms.uncovered < before, "seed {seed}");
            assert!(
                (0..pcs).all(|pc| d.switches_of(pc).len() <= nics as usize),
                "seed {seed}"
            );
            assert!(d.pcs_on_switches().iter().all(|on| on.len() <= width), "seed {seed}");
        }
        assert!(improved >= 3, "only {improved} of 4 designs repaired");
    }

    /// Every PC alone on a 2-port switch, all of `pcs` required to meet.
    fn all_apart(pcs: usize) -> (Problem, Vec<Member>) {
        let pairs: Vec<(usize, usize)> = (0..pcs).flat_map(|a| (a + 1..pcs).map(move |b| (a, b))).collect();
        let p = problem(pcs, 1, &[(2, pcs as u32)], &pairs);
        let apart: Vec<Vec<usize>> = (0..pcs).map(|pc| vec![pc]).collect();
        let g = Genome::from_design(&p, &crate::design::Design::from_blocks(pcs, &apart));
        let population = vec![Member::new(&p, g)];
        (p, population)
    }

    #[test]
    fn it_runs_where_the_best_leaves_at_most_2000_pairs_and_has_stalled() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let cancel = AtomicBool::new(false);
        let budget = Budget {
            patience: 1,
            max: 1,
            ..Budget::NONE
        };
        for (pcs, runs) in [(63, true), (64, false)] {
            let (p, population) = all_apart(pcs);
            let repair = Repair::default();
            let seen: Vec<bool> = (0..=STALLED)
                .map(|generation| {
                    let mut ctx = Context::first(&p, &population, budget, Deadline::NONE, &cancel, &pool);
                    ctx.generation = generation;
                    repair.applies(&ctx)
                })
                .collect();
            let mut after_stall = vec![false; STALLED as usize];
            after_stall.push(runs);
            assert_eq!(seen, after_stall, "{} pairs left", pcs * (pcs - 1) / 2);
        }
    }

    /// The neighbourhood of pair (0, 1), `size` switches, drawn with `seed`.
    fn hood_of(p: &Problem, blocks: &[Vec<usize>], size: usize, seed: u64) -> Vec<u32> {
        let g = Genome::from_design(p, &crate::design::Design::from_blocks(p.pcs(), blocks));
        let req = Required::new(p);
        Wiring::of(p, &g).neighbourhood(p, &req, (0, 1), size, &mut Rng::seed_from_u64(seed))
    }

    /// Nine switches with one port free and one with all four: the pair's
    /// own two switches and the empty one, where a split clique fits whole.
    #[test]
    fn the_switch_with_room_freed_is_the_one_with_the_most_ports_free() {
        let mut blocks: Vec<Vec<usize>> = vec![vec![0, 2, 3, 4], vec![1, 5, 6, 7]];
        let mut next = 8;
        for _ in 0..9 {
            blocks.push((next..next + 3).collect());
            next += 3;
        }
        blocks.push(Vec::new());
        let p = problem(next, 1, &[(4, blocks.len() as u32)], &[(0, 1)]);
        for seed in 0..10 {
            assert_eq!(hood_of(&p, &blocks, 3, seed), [0, 1, 11], "seed {seed}");
        }
    }

    /// PC 0 meets partners 2 and 3 (whose other switches are 4 and 5) and
    /// not 6 or 7 (on 6, 7 and 8, 9), every switch full: after the pair's
    /// own four, the freed switches are those of 6 or 7.
    #[test]
    fn the_switches_of_partners_not_met_are_freed_before_those_of_partners_met() {
        let blocks: Vec<Vec<usize>> = [
            [0, 2],
            [0, 3],
            [1, 4],
            [1, 5],
            [2, 8],
            [3, 9],
            [6, 10],
            [6, 11],
            [7, 12],
            [7, 13],
        ]
        .iter()
        .map(|b| b.to_vec())
        .collect();
        let p = problem(14, 2, &[(2, 10)], &[(0, 1), (0, 2), (0, 3), (0, 6), (0, 7)]);
        for seed in 0..10 {
            let hood = hood_of(&p, &blocks, 6, seed);
            assert_eq!(hood[..4], [0, 1, 2, 3], "seed {seed}");
            assert!(hood[4..].iter().all(|s| (6..10).contains(s)), "seed {seed}: {hood:?}");
        }
    }

    /// 1,000 pairs left, then 990 and 980 (2% covered): stalled by the
    /// second generation. 900 then 890: the 10% covered first counts as
    /// better, so it waits two generations from there.
    #[test]
    fn a_best_that_covers_under_a_twentieth_of_the_pairs_left_counts_as_stalled() {
        let mut slow = Backoff::default();
        let runs: Vec<bool> = [1000, 990, 980]
            .iter()
            .zip(0..)
            .map(|(&l, g)| slow.runs(g, l))
            .collect();
        assert_eq!(runs, [false, false, true]);
        let mut fast = Backoff::default();
        let runs: Vec<bool> = [1000, 900, 890, 885]
            .iter()
            .zip(0..)
            .map(|(&l, g)| fast.runs(g, l))
            .collect();
        assert_eq!(runs, [false, false, false, true]);
    }

    #[test]
    fn a_repair_that_covers_nothing_sits_out_twice_as_long_each_time_and_a_hit_ends_it() {
        let mut b = Backoff::default();
        let mut waits = Vec::new();
        let mut generation = 0;
        for _ in 0..8 {
            b.note(generation, false);
            waits.push(b.next - generation - 1);
            generation = b.next;
        }
        assert_eq!(waits, [1, 2, 4, 8, 16, 32, 32, 32]);
        b.note(generation, true);
        assert_eq!(b.next, generation + 1, "a hit runs it again next generation");
    }
}
