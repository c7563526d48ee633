//! Block growing for sparse patterns: a design built switch by switch, each
//! switch's PCs a dense piece of the pattern still uncovered.
//!
//! The tabu walk moves one NIC at a time. Where the pattern's natural
//! blocks are subcubes, torus blocks or the components of a random wiring,
//! and every port is used, a walk from a random design stalls on a plateau
//! hundreds of pairs short: no single exchange turns a random block into a
//! subcube, and the blocks of one width must agree with each other (a
//! layer of subcubes on the same address bits) for the other widths to
//! cover the rest. So this strategy builds whole blocks:
//!
//! * a switch starts from the PC with the most uncovered partners and
//!   takes, one at a time, the PC whose uncovered pairs with it weigh the
//!   most (a greedy dense subgraph), until its ports are full. A pair
//!   weighs one more per common partner of its PCs, so a clique's pairs
//!   (a random switch's, a butterfly's) go together before pairs nothing
//!   else supports;
//! * where the PCs and the width are powers of two, a whole layer of the
//!   width's switches may instead be the cosets of a set of address bits
//!   (the subcubes of a hypercube or butterfly, the aligned blocks of a
//!   torus whose sides are powers of two): the set covering the most
//!   uncovered pairs is found from the pairs' address differences, and
//!   kept if it covers at least what growing the layer would.
//!
//! Two more ways to grow suit patterns the greedy misreads:
//!
//! * a *scan* grows a layer's pieces from the lowest-numbered PC not yet
//!   in it, each piece taking only PCs whose pairs with it close
//!   triangles, then fills the ports left: a torus's blocks shifted by
//!   one, given as pairs, come out block by block instead of starting
//!   wherever a PC has the most partners and breaking the blocks beside;
//! * *cliques* grow each switch as a clique, taking the partner of every
//!   member that has the most partners among the other such PCs: where a
//!   pattern is whole switches that overlap in two PCs or more, the
//!   heaviest pair leads the greedy into two switches at once.
//!
//! Which width goes first decides which pieces each width gets, so the
//! seed tries the orders of the widths (up to [`ORDERS`]), each grown the
//! four ways, and keeps the design leaving the fewest pairs uncovered; while the best still leaves
//! some, each generation grows one more with a random order and random
//! ties and hands it to a tabu walk, which repairs what the greedy left.
//! Where that fresh design leaves more pairs than the best member and the
//! best reads as partitions, the generation walks on from the best
//! instead, within the run's moves:
//! walking a fresh design's thousands of pairs again every generation
//! held each generation's whole time slice on sparse random patterns and
//! handed back designs hundreds of pairs short of the best. That walk is
//! one walk across generations, its pair weights with it: it goes on
//! where it stopped while the best member is its own or it is still
//! finding better, and starts again from the best (keeping the weights)
//! where another search found better.

use super::genome::Genome;
use super::local::{self, Required};
use super::member::Member;
use super::problem::Problem;
use super::regroup::Regroup;
use super::residual::{self, Walk};
use super::strategy::{Budget, Context, Found, Strategy};
use super::{Eval, Rng};
use crate::design::bits;
use crate::patterns::{self, PairWeights};
use crate::spec::Coverage;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use std::sync::{Mutex, PoisonError};

/// While a partition walk stalls, a generation in this many grows a
/// fresh design before it walks on.
const GROW_EVERY: u64 = 4;

/// The most orders of the switch widths the seed tries.
const ORDERS: usize = 24;

/// Moves the partition walk may make per pair it has to cover: few in
/// the seed, which tries up to 48 plans, where one that will not cover
/// everything costs its whole budget; more in a generation, which tries one.
const SEED_MOVES_PER_PAIR: u64 = 20;
const MOVES_PER_PAIR: u64 = 200;

/// The block growing as a strategy: a seed, then a regrown and walked
/// design each generation while the best leaves pairs uncovered.
pub struct Blocks {
    /// Whether it seeds the run too (`ga.constructions`: a construction
    /// like the design-theory ones, off with them).
    seeds: bool,
    /// The partition walk from the generations before, to go on with.
    walk: Mutex<Option<Walk>>,
}

impl Strategy for Blocks {
    fn name(&self) -> &'static str {
        "blocks"
    }

    fn seed(&self, full: &Problem, budget: Budget<'_>) -> Option<Genome> {
        if full.cluster.coverage != Coverage::Sparse || !self.seeds {
            return None;
        }
        seed_design(full, budget).0
    }

    fn applies(&self, ctx: &Context<'_>) -> bool {
        ctx.problem.cluster.coverage == Coverage::Sparse && ctx.budget.has_moves() && ctx.best_uncovered() > 0
    }

    fn restart(&self) {
        *self.walk.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }

    fn search(&self, ctx: &Context<'_>, rng: &mut Rng) -> Found {
        let problem = ctx.problem;
        let req = Required::new(problem);
        // A walk on its way goes on at once, and a stalled one three
        // generations of four: growing a fresh design first takes a
        // second of its time slice at 4,096 PCs, and with a few pairs
        // left a fresh design never beats the walk's.
        if self.is_walking(ctx.generation)
            && let Some(best) = ctx.population.first()
            && let Some(found) = self.walked_on(problem, &req, best, ctx.budget, &mut Rng::seed_from_u64(rng.random()))
        {
            return found;
        }
        let weight = triangle_weights(&problem.cluster.pattern);
        let mut order = widths(problem);
        order.shuffle(rng);
        let order = by_width(problem, &order);
        let layers = [Layers::Favoured, Layers::Compared, Layers::Scan, Layers::Cliques][rng.random_range(0..4)];
        // A scan follows the PCs' numbers, where a pattern's structure
        // shows (a grid's rows); the other plans break ties at random.
        let mut ties: Vec<u32> = (0..problem.pcs() as u32).collect();
        if layers != Layers::Scan {
            ties.shuffle(rng);
        }
        let grown = grow(problem, &req, &weight, &order, &ties, layers);
        let mut walk = Rng::seed_from_u64(rng.random());
        // A fresh design that leaves more pairs than the best member would
        // spend the generation covering pairs the run has covered already.
        let left = Eval::full(problem, &grown.0).terms.uncovered;
        if let Some(best) = ctx.population.first().filter(|m| m.eval.terms.uncovered < left)
            && let Some(found) = self.walked_on(problem, &req, best, ctx.budget, &mut walk)
        {
            return found;
        }
        let (_, mut g, partition_moves) = better(problem, &req, grown, (MOVES_PER_PAIR, true), ctx.budget, rng);
        let out = local::improve(problem, &req, &mut g, ctx.budget, &mut walk);
        Found {
            members: vec![g],
            moves: partition_moves + out.iterations,
            ..Found::default()
        }
    }
}

impl Blocks {
    /// Whether a partition walk from the generations before goes on in
    /// `generation` without a fresh design grown first: where it found a
    /// new best in its last stretch, and three generations of four where
    /// it did not.
    fn is_walking(&self, generation: u64) -> bool {
        let walk = self.walk.lock().unwrap_or_else(PoisonError::into_inner);
        walk.as_ref()
            .is_some_and(|w| w.is_improving() || !generation.is_multiple_of(GROW_EVERY))
    }

    /// The block growing; seeding the run too where `seeds`.
    pub fn new(seeds: bool) -> Blocks {
        Blocks {
            seeds,
            walk: Mutex::new(None),
        }
    }

    /// The best member walked on by the partition walk within the run's
    /// moves, where its wiring reads as partitions: the walk of the
    /// generations before goes on where the best member is still its
    /// best, and a new one starts from the best member where another
    /// search found better. Elsewhere (PCs with different NICs, pins) the
    /// generation grows afresh: the tabu walks already start from the
    /// best there.
    fn walked_on(
        &self,
        problem: &Problem,
        req: &Required<'_>,
        best: &Member,
        budget: Budget<'_>,
        rng: &mut Rng,
    ) -> Option<Found> {
        let mut walk = self.walk.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(read) = Regroup::read(problem, req, &best.genome.with_masks(problem)) else {
            *walk = None;
            return None;
        };
        let left = best.eval.terms.uncovered as usize;
        if !walk
            .as_ref()
            .is_some_and(|w| read.is_walked_by(w) && (w.best_left() <= left || w.is_improving()))
        {
            let before = walk.take();
            *walk = read.walk(problem);
            if let (Some(w), Some(before)) = (walk.as_mut(), before) {
                w.learn_from(before);
            }
        }
        let (g, moves) = read.walk_on(problem, walk.as_mut()?, budget, rng);
        Some(Found {
            members: vec![g],
            moves,
            ..Found::default()
        })
    }
}

/// The problem's switch widths, widest first.
pub(super) fn widths(problem: &Problem) -> Vec<u32> {
    let mut widths: Vec<u32> = (0..problem.switches()).map(|s| problem.cluster.ports(s)).collect();
    widths.sort_unstable_by(|a, b| b.cmp(a));
    widths.dedup();
    widths
}

/// The switches grouped by width, the widths in the order given.
fn by_width(problem: &Problem, widths: &[u32]) -> Vec<usize> {
    let c = &problem.cluster;
    widths
        .iter()
        .flat_map(|&w| (0..problem.switches()).filter(move |&s| c.ports(s) == w))
        .collect()
}

/// Every order of `items`, the given order first.
fn permutations(items: &[u32]) -> Vec<Vec<u32>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut all = Vec::new();
    for k in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(k);
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            all.push(tail);
        }
    }
    all
}

/// 1 + the common partners of each pair's two PCs, by pair slot (a
/// sparse pattern's rows are sorted, so a merge counts them).
fn triangle_weights(pattern: &PairWeights) -> Vec<u32> {
    let mut weight = vec![1u32; 2 * pattern.pair_count()];
    for a in 0..pattern.pcs() {
        let row = pattern.row(a).0;
        for (k, &b) in row.iter().enumerate() {
            let other = pattern.row(b as usize).0;
            let (mut i, mut j, mut common) = (0, 0, 0);
            while i < row.len() && j < other.len() {
                match row[i].cmp(&other[j]) {
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                    std::cmp::Ordering::Equal => {
                        common += 1;
                        i += 1;
                        j += 1;
                    }
                }
            }
            weight[pattern.row_start(a) + k] += common;
        }
    }
    weight
}

/// The `n`-bit masks with `k` bits set, in increasing order.
fn combinations(n: u32, k: u32) -> impl Iterator<Item = u32> {
    (0u32..1 << n).filter(move |m| m.count_ones() == k)
}

/// Every submask of `mask`, 0 first.
fn subsets(mask: u32) -> impl Iterator<Item = u32> {
    let mut next = Some(0u32);
    std::iter::from_fn(move || {
        let x = next?;
        next = (x != mask).then(|| (x.wrapping_sub(mask)) & mask);
        Some(x)
    })
}

/// What the growing knows as it goes.
#[derive(Clone)]
struct Growth<'a> {
    problem: &'a Problem,
    req: &'a Required<'a>,
    /// Whether each pair slot is covered (both slots of a pair together).
    covered: Vec<bool>,
    /// Uncovered required partners per PC.
    lack: Vec<u32>,
    /// NICs each PC has left to place.
    free: Vec<u32>,
    /// Switches each PC is on so far.
    masks: Vec<u64>,
    /// Per PC, uncovered partners on the switch being grown.
    gain: Vec<u32>,
    touched: Vec<usize>,
    /// Per PC, switches of the width being grown it is on: a width's
    /// switches are a layer, which takes every PC once before any twice.
    layer: Vec<u32>,
    width: u32,
    /// Per pair slot, what covering it weighs in a switch's growth: 1 and
    /// one more per common partner (a triangle), so pairs of a clique go
    /// together before pairs no other pair supports.
    weight: &'a [u32],
    /// Ties go to the lowest key.
    ties: &'a [u32],
    scan: bool,
    cliques: bool,
    /// Per PC, the members of the switch being grown it is a partner of
    /// (pairs covered or not).
    adj: Vec<u32>,
    /// In a scan, how many switches of the width a PC may be on by the
    /// end of the layer being grown: one more per layer.
    cap: u32,
    /// Required pairs covered so far.
    covered_pairs: u64,
    /// The switches grown for each PC.
    preferred: Vec<Vec<usize>>,
}

/// A genome grown switch by switch in `order`; pins, and NICs and ports
/// the growing left, are placed by [`Genome::construct`].
/// When a whole layer (cosets, a grid's blocks) is laid instead of grown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layers {
    /// When it covers at least what growing the layer would.
    Compared,
    /// When it covers at least half what growing would: growing may cover
    /// more pairs now with pieces that leave the other widths nothing
    /// whole (a torus's blocks against pieces that mix its edges with a
    /// random wiring's pairs), while a layer covering less than half is
    /// not the pattern's.
    Favoured,
    /// As `Favoured`, and a layer's pieces start from the lowest PC not
    /// yet in it.
    Scan,
    /// Every width grown switch by switch, each switch taking first the
    /// PC that is a partner of the most members: a pattern made of whole
    /// switches (cliques) that overlap in two PCs or more, where the
    /// heaviest pair would mix two of them.
    Cliques,
}

/// What a growing laid whole (blocks and their switches) and which of
/// its switches it grew, with the NICs each PC has on them, where every
/// NIC is in a layer: the grown switches may then be found again as
/// partitions.
struct Plan {
    laid: Vec<(Vec<Vec<usize>>, Vec<usize>)>,
    grown: Vec<(Vec<usize>, usize)>,
}

/// A width's switches in the growing's order, and how many NICs each PC
/// has on them: as many as the width's ports hold the PCs over
/// (`floor(switches x width / PCs)`). At a PC count the width does not
/// divide (1,001 PCs on 8-port switches) the ports hold the PCs with
/// some to spare, and a layer is the switches of one pass over the PCs.
struct Width {
    width: u32,
    switches: Vec<usize>,
    layers: usize,
}

impl Width {
    /// The widths of `order`, each with its switches, in order.
    fn of(problem: &Problem, order: &[usize]) -> Vec<Width> {
        let c = &problem.cluster;
        let mut all: Vec<Width> = Vec::new();
        for &s in order {
            match all.last_mut() {
                Some(w) if w.width == c.ports(s) => w.switches.push(s),
                _ => all.push(Width {
                    width: c.ports(s),
                    switches: vec![s],
                    layers: 0,
                }),
            }
        }
        for w in &mut all {
            w.layers = (w.switches.len() * w.width as usize / problem.pcs().max(1)).min(w.switches.len());
        }
        all
    }

    /// The width's switches as its layers, each holding every PC once:
    /// `layers` runs of switches, their lengths differing by at most one;
    /// `None` where a run's ports would not hold every PC (6,000 ports
    /// for 1,000 PCs with 6 NICs on 16-port switches: 62 switches hold
    /// 992 PCs), so no switch is a layer's.
    fn layers(&self, pcs: usize) -> Option<Vec<&[usize]>> {
        let (n, l) = (self.switches.len(), self.layers);
        let runs: Vec<&[usize]> = (0..l).map(|k| &self.switches[n * k / l..n * (k + 1) / l]).collect();
        runs.iter()
            .all(|r| r.len() * self.width as usize >= pcs)
            .then_some(runs)
    }
}

fn grow(
    problem: &Problem,
    req: &Required<'_>,
    weight: &[u32],
    order: &[usize],
    ties: &[u32],
    layers: Layers,
) -> (Genome, Option<Plan>) {
    let c = &problem.cluster;
    let p = problem.pcs();
    let mut g = Growth::new(problem, req, weight, ties);
    g.scan = layers == Layers::Scan;
    g.cliques = layers == Layers::Cliques;
    let mut plan = Plan {
        laid: Vec::new(),
        grown: Vec::new(),
    };
    let widths = Width::of(problem, order);
    for w in &widths {
        g.width = w.width;
        g.layer.fill(0);
        g.cap = u32::MAX;
        let Some(runs) = w.layers(p).filter(|runs| !runs.is_empty() && layers != Layers::Cliques) else {
            g.grow_switches(&w.switches);
            plan.grown.push((w.switches.clone(), w.layers));
            continue;
        };
        for (k, switches) in runs.into_iter().enumerate() {
            g.cap = k as u32 + 1;
            // A whole layer, if it covers enough of what growing covers.
            let mut grown = g.clone();
            let before = g.covered_pairs;
            grown.grow_switches(switches);
            let growing = grown.covered_pairs - before;
            let enough = match layers {
                Layers::Compared => growing,
                Layers::Favoured | Layers::Scan | Layers::Cliques => growing / 2,
            };
            match g.best_layer(w.width, switches.len()) {
                Some((blocks, score)) if score >= enough => {
                    g.lay(&blocks, switches);
                    plan.laid.push((blocks, switches.to_vec()));
                }
                _ => {
                    g = grown;
                    plan.grown.push((switches.to_vec(), 1));
                }
            }
        }
    }
    let nics: usize = widths.iter().map(|w| w.layers).sum();
    let grown = plan.grown.iter().any(|(_, layers)| *layers > 0);
    let whole = c.pins.is_empty() && grown && c.nics.iter().all(|&n| n as usize == nics);
    let preferred = std::mem::take(&mut g.preferred);
    let pcs: Vec<usize> = (0..p).collect();
    let genome = Genome::construct(problem, &pcs, &|pc| preferred[pc].clone());
    (genome, whole.then_some(plan))
}

/// The design of a plan whose grown layers are found again as partitions
/// of the PCs covering the pairs the laid layers leave.
fn partitioned(
    problem: &Problem,
    req: &Required<'_>,
    plan: &Plan,
    moves_per_pair: u64,
    time: Budget<'_>,
    rng: &mut Rng,
) -> (Genome, u64) {
    let p = problem.pcs();
    let laid: Vec<Vec<u32>> = plan.laid.iter().map(|(blocks, _)| block_of(p, blocks)).collect();
    let mut edges = Vec::new();
    for a in 0..p {
        req.each(a, |b, _| {
            if a < b && !laid.iter().any(|of| of[a] == of[b]) {
                edges.push((a as u32, b as u32));
            }
        });
    }
    // The grown switches by width: a kind of switch each.
    let mut kinds: Vec<(residual::Kind, Vec<usize>)> = Vec::new();
    for (switches, per_pc) in plan.grown.iter().filter(|(_, per_pc)| *per_pc > 0) {
        let width = problem.cluster.ports(switches[0]) as usize;
        match kinds.iter_mut().find(|(k, _)| k.width == width) {
            Some((kind, all)) => {
                kind.per_pc += per_pc;
                kind.switches += switches.len();
                all.extend(switches);
            }
            None => kinds.push((
                residual::Kind {
                    width,
                    per_pc: *per_pc,
                    switches: switches.len(),
                },
                switches.clone(),
            )),
        }
    }
    let only: Vec<residual::Kind> = kinds.iter().map(|(k, _)| *k).collect();
    let (found, moves) = residual::partition(p, &only, &edges, moves_per_pair, time, rng);
    let mut preferred = vec![Vec::new(); p];
    let laid = plan.laid.iter().map(|(blocks, switches)| (blocks, switches));
    for (blocks, switches) in laid.chain(found.iter().zip(kinds.iter().map(|(_, s)| s))) {
        for (block, &s) in blocks.iter().zip(switches) {
            block.iter().for_each(|&pc| preferred[pc].push(s));
        }
    }
    let pcs: Vec<usize> = (0..p).collect();
    (Genome::construct(problem, &pcs, &|pc| preferred[pc].clone()), moves)
}

/// The grown design walked on (where `walk_grown`), or its grown layers
/// found again as partitions from a fresh fill, whichever leaves fewer
/// pairs uncovered (the grown design itself where neither walk does
/// better), each walk `moves_per_pair` moves a required pair: the pairs
/// it leaves, and the partition walks' moves. The walk from the grown
/// design keeps what growing found: on 1,537 PCs cut from a torus with
/// random 8-cliques on top, the fresh fill left 324 pairs and generations
/// of walks stalled at 162, where the grown design, 582 short, walked
/// on to 53 in a generation.
fn better(
    problem: &Problem,
    req: &Required<'_>,
    (grown, plan): (Genome, Option<Plan>),
    (moves_per_pair, walk_grown): (u64, bool),
    time: Budget<'_>,
    rng: &mut Rng,
) -> (u64, Genome, u64) {
    let left = Eval::full(problem, &grown).terms.uncovered;
    if left == 0 {
        return (0, grown, 0);
    }
    let mut moves = 0;
    let mut best: Option<(u64, Genome)> = None;
    let mut keep = |(g, made): (Genome, u64), best: &mut Option<(u64, Genome)>| {
        moves += made;
        let after = Eval::full(problem, &g).terms.uncovered;
        if after < best.as_ref().map_or(left, |(u, _)| *u) {
            *best = Some((after, g));
        }
    };
    // The fresh partition first: where it covers every pair, as on most
    // plans, walking the grown design as well cost the seed 2 s at 2,048 PCs.
    if let Some(plan) = plan {
        keep(partitioned(problem, req, &plan, moves_per_pair, time, rng), &mut best);
    }
    if walk_grown
        && best.as_ref().is_none_or(|(u, _)| *u > 0)
        && let Some(walked) = walked_from(problem, req, &grown, moves_per_pair, time, rng)
    {
        keep(walked, &mut best);
    }
    let (left, g) = best.unwrap_or((left, grown));
    (left, g, moves)
}

/// `g` walked on by the partition walk until it stalls, within
/// `moves_per_pair` moves a required pair (and `time`'s moves where it
/// gives any): the design it found best and its moves, `None` where `g`
/// does not read as partitions.
fn walked_from(
    problem: &Problem,
    req: &Required<'_>,
    g: &Genome,
    moves_per_pair: u64,
    time: Budget<'_>,
    rng: &mut Rng,
) -> Option<(Genome, u64)> {
    let read = Regroup::read(problem, req, &g.with_masks(problem))?;
    let mut walk = read.walk(problem)?;
    let moves = residual::most_moves(moves_per_pair, read.pairs(), time);
    let budget = Budget {
        patience: moves,
        max: moves,
        ..time
    };
    let (found, moves) = walk.go_until_stalled(budget, rng);
    Some((read.design(problem, &found), moves))
}

/// How many plans a seed grew and how many it walked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tried {
    pub grown: usize,
    pub walked: usize,
}

/// The seed's design: every plan (an order of the switch widths, layers
/// compared or favoured) is grown first, growing being cheap; the
/// partition walks, which cost their whole budget where they fail, then
/// go to the plans growing left the fewest pairs, until one covers every
/// pair or the run's time is up (a spec of three widths has 12 plans,
/// and walking them in order took 117 s at 4096 PCs).
pub fn seed_design(full: &Problem, time: Budget<'_>) -> (Option<Genome>, Tried) {
    let req = Required::new(full);
    let weight = triangle_weights(&full.cluster.pattern);
    let ties: Vec<u32> = (0..full.pcs() as u32).collect();
    let mut tried = Tried::default();
    let mut plans: Vec<(u64, (Genome, Option<Plan>))> = Vec::new();
    let orders = permutations(&widths(full));
    // The scan and the clique growth go with the widest-first order only:
    // growing every plan costs the seed's first design on easy patterns.
    let tries = orders.iter().take(ORDERS).enumerate().flat_map(|(k, ws)| {
        let all = [Layers::Compared, Layers::Favoured, Layers::Scan, Layers::Cliques];
        all.into_iter().take(if k == 0 { 4 } else { 2 }).map(move |l| (ws, l))
    });
    for (ws, layers) in tries {
        if time.spent() && !plans.is_empty() {
            break;
        }
        let (mut g, plan) = grow(full, &req, &weight, &by_width(full, ws), &ties, layers);
        tried.grown += 1;
        let left = Eval::full(full, &g).terms.uncovered;
        if left == 0 {
            return (Some(g), tried);
        }
        // Only the entries wait: at 4096 PCs each plan's masks are MBs.
        g.shed_masks();
        plans.push((left, (g, plan)));
    }
    plans.sort_by_key(|(left, _)| *left);
    let mut best: Option<(u64, Genome)> = None;
    for (_, (mut grown, plan)) in plans {
        if time.spent() && best.is_some() {
            break;
        }
        grown.restore_masks(full);
        tried.walked += 1;
        let mut rng = Rng::seed_from_u64(best.as_ref().map_or(0, |(u, _)| *u));
        // The grown design walked on only for the plan growing did best
        // with: walking every plan's cost the seed 2 s at 1,537 PCs.
        let walk_grown = tried.walked == 1;
        let (uncovered, g, _) = better(
            full,
            &req,
            (grown, plan),
            (SEED_MOVES_PER_PAIR, walk_grown),
            time,
            &mut rng,
        );
        if best.as_ref().is_none_or(|(u, _)| uncovered < *u) {
            best = Some((uncovered, g));
        }
        if uncovered == 0 {
            break;
        }
    }
    (best.map(|(_, g)| g), tried)
}

/// Each PC's block.
fn block_of(pcs: usize, blocks: &[Vec<usize>]) -> Vec<u32> {
    let mut of = vec![u32::MAX; pcs];
    for (k, block) in blocks.iter().enumerate() {
        block.iter().for_each(|&pc| of[pc] = k as u32);
    }
    of
}

impl<'a> Growth<'a> {
    fn new(problem: &'a Problem, req: &'a Required<'a>, weight: &'a [u32], ties: &'a [u32]) -> Growth<'a> {
        let c = &problem.cluster;
        let p = problem.pcs();
        let mut lack = vec![0u32; p];
        for (a, l) in lack.iter_mut().enumerate() {
            req.each(a, |_, _| *l += 1);
        }
        Growth {
            problem,
            req,
            covered: vec![false; req.slots()],
            lack,
            free: (0..p)
                .map(|pc| c.nics[pc].saturating_sub(bits::ones(c.pins.must(pc)).count() as u32))
                .collect(),
            masks: vec![0; p * problem.words],
            gain: vec![0; p],
            touched: Vec::new(),
            layer: vec![0; p],
            width: 0,
            ties,
            scan: false,
            cliques: false,
            adj: vec![0; p],
            cap: u32::MAX,
            weight,
            covered_pairs: 0,
            preferred: vec![Vec::new(); p],
        }
    }

    fn grow_switches(&mut self, switches: &[usize]) {
        // A scan or a clique growth grows the strict pieces first (a
        // torus's blocks, whole switches), each ending where it does, and
        // then goes over the switches again to fill their ports.
        let pieces: Vec<Vec<usize>> = if (self.scan || self.cliques) && self.problem.cluster.pins.is_empty() {
            switches.iter().map(|&s| self.block(s, Vec::new(), true)).collect()
        } else {
            vec![Vec::new(); switches.len()]
        };
        for (&s, piece) in switches.iter().zip(pieces) {
            for pc in self.block(s, piece, false) {
                self.preferred[pc].push(s);
            }
        }
    }

    /// The layer of `room` switches `width` wide, as its blocks, that
    /// covers the most uncovered pairs, and how many it covers: the cosets
    /// of a set of address bits (the blocks of patterns built on the PCs'
    /// numbers: hypercube and butterfly partners, tori whose sides are
    /// powers of two, cut at the PC count), or the blocks of side 2 of one
    /// of the spec's grids at any shift (a torus's edges from odd
    /// coordinates, which no set of bits holds). Cosets win ties. Only
    /// where every PC has a NIC left and nothing is pinned.
    fn best_layer(&self, width: u32, room: usize) -> Option<(Vec<Vec<usize>>, u64)> {
        let p = self.problem.pcs();
        let plain = self.problem.cluster.pins.is_empty() && self.free.iter().all(|&f| f > 0);
        if !plain || width < 2 || width as usize > p {
            return None;
        }
        let cosets = self
            .subspace(width, room)
            .map(|(mask, score)| (self.coset_blocks(mask), score));
        let grids = self.problem.cluster.grids.iter().filter(|dims| {
            dims.iter().product::<usize>() == p
                && dims.iter().all(|d| d % 2 == 0)
                && 1usize.checked_shl(dims.len() as u32) == Some(width as usize)
        });
        let shifted = grids.flat_map(|dims| {
            (0..1usize << dims.len()).map(move |bits| {
                let shift: Vec<usize> = (0..dims.len()).map(|axis| (bits >> axis) & 1).collect();
                patterns::shifted_blocks(dims, &shift)
            })
        });
        let mut best = cosets;
        for blocks in shifted.filter(|b| b.len() <= room) {
            let score = self.inside(&blocks);
            if best.as_ref().is_none_or(|(_, s)| score > *s) {
                best = Some((blocks, score));
            }
        }
        best
    }

    /// The address bits whose cosets, as a layer of `room` switches
    /// `width` wide, cover the most uncovered pairs, and how many they
    /// cover; where the width is a power of two and the layer has a
    /// switch for every coset of the PCs' numbers up to the next power of
    /// two (a planted cube cut at 1,001 PCs keeps its 128 switches of 8).
    fn subspace(&self, width: u32, room: usize) -> Option<(u32, u64)> {
        let p = self.problem.pcs();
        let span = p.next_power_of_two();
        if !width.is_power_of_two() || span / width as usize > room {
            return None;
        }
        // Uncovered pairs by their address difference.
        let mut diffs = vec![0u64; span];
        for a in 0..p {
            self.req.each(a, |b, k| {
                if a < b && !self.covered[k] {
                    diffs[a ^ b] += 1;
                }
            });
        }
        let (n, k) = (span.trailing_zeros(), width.trailing_zeros());
        combinations(n, k)
            .map(|mask| {
                let score = subsets(mask).map(|x| diffs[x as usize]).sum::<u64>();
                (mask, score)
            })
            .min_by_key(|&(mask, score)| (std::cmp::Reverse(score), mask))
    }

    /// The cosets of the address bits `mask` that hold a PC, in order of
    /// their bases, each cut at the PC count.
    fn coset_blocks(&self, mask: u32) -> Vec<Vec<usize>> {
        let p = self.problem.pcs();
        (0..p.next_power_of_two() as u32)
            .filter(|b| b & mask == 0 && (*b as usize) < p)
            .map(|base| {
                subsets(mask)
                    .map(|x| (base | x) as usize)
                    .filter(|&pc| pc < p)
                    .collect()
            })
            .collect()
    }

    /// The uncovered pairs inside blocks (each PC in one block).
    fn inside(&self, blocks: &[Vec<usize>]) -> u64 {
        let mut block_of = vec![usize::MAX; self.problem.pcs()];
        for (i, b) in blocks.iter().enumerate() {
            b.iter().for_each(|&pc| block_of[pc] = i);
        }
        let mut n = 0;
        for a in 0..self.problem.pcs() {
            self.req.each(a, |b, k| {
                n += u64::from(a < b && !self.covered[k] && block_of[a] == block_of[b]);
            });
        }
        n
    }

    /// Lays the blocks on `switches`, in order.
    fn lay(&mut self, blocks: &[Vec<usize>], switches: &[usize]) {
        for (block, &s) in blocks.iter().zip(switches) {
            let mut members = Vec::new();
            for &pc in block {
                self.free[pc] -= 1;
                self.layer[pc] += 1;
                self.join(pc, s, &mut members);
                self.preferred[pc].push(s);
            }
            self.forget_gains();
        }
    }

    /// Grows switch `s`: its pinned PCs, then the densest PCs it can take.
    fn block(&mut self, s: usize, piece: Vec<usize>, strict: bool) -> Vec<usize> {
        let c = &self.problem.cluster;
        let width = c.ports(s) as usize;
        let mut members: Vec<usize> = Vec::new();
        if !c.pins.is_empty() {
            for pc in (0..self.problem.pcs()).filter(|&pc| bits::test(c.pins.must(pc), s)) {
                self.join(pc, s, &mut members);
            }
        }
        for pc in piece {
            self.join(pc, s, &mut members);
        }
        while members.len() < width {
            // A strict piece takes a PC only where it closes triangles
            // with the members (a scan) or is a partner of them all
            // (cliques), and ends where none does: filling it with
            // strangers would take the PCs that start the next.
            let fill = !strict || members.is_empty();
            let next = if strict && self.cliques && !members.is_empty() {
                self.widest_clique(s, members.len())
            } else {
                self.densest(s)
            };
            let next = next
                .filter(|&pc| !strict || self.closes(pc, members.len()))
                .or_else(|| fill.then(|| self.start(s)).flatten());
            let Some(pc) = next else { break };
            self.free[pc] -= 1;
            self.layer[pc] += 1;
            self.join(pc, s, &mut members);
        }
        self.forget_gains();
        members.retain(|&pc| !bits::test(c.pins.must(pc), s));
        members
    }

    /// Of the PCs that are partners of all `members` members, the one
    /// with the most partners among the others: the greedy way to a
    /// largest clique, which two overlapping switches' pairs do not
    /// mislead the way the heaviest pair does.
    fn widest_clique(&self, s: usize, members: usize) -> Option<usize> {
        let cand: Vec<usize> = self
            .touched
            .iter()
            .copied()
            .filter(|&pc| self.gain[pc] > 0 && self.adj[pc] as usize == members && self.may_join(pc, s))
            .collect();
        cand.iter().copied().max_by_key(|&c| {
            let inside = cand
                .iter()
                .filter(|&&d| d != c && self.req.slot(c, d).is_some())
                .count();
            (inside, self.gain[c], std::cmp::Reverse(self.ties[c]))
        })
    }

    /// Whether `pc` may join a strict piece of `members` PCs: its pairs
    /// with them close triangles (a scan), or it is a partner of every
    /// member (cliques).
    fn closes(&self, pc: usize, members: usize) -> bool {
        match self.cliques {
            true => self.adj[pc] as usize == members,
            false => self.gain[pc] as usize >= 2 * members,
        }
    }

    fn forget_gains(&mut self) {
        for &pc in &self.touched {
            self.gain[pc] = 0;
            self.adj[pc] = 0;
        }
        self.touched.clear();
    }

    fn may_join(&self, pc: usize, s: usize) -> bool {
        let w = self.problem.words;
        self.free[pc] > 0
            && (!self.scan || self.layer[pc] < self.cap)
            && !bits::test(&self.masks[pc * w..(pc + 1) * w], s)
            && !self.problem.cluster.pins.is_forbidden(pc, s)
    }

    /// The PC with the most uncovered partners on the switch, if any has one.
    fn densest(&self, s: usize) -> Option<usize> {
        self.touched
            .iter()
            .copied()
            .filter(|&pc| self.gain[pc] > 0 && self.may_join(pc, s))
            .min_by_key(|&pc| {
                let layer = if self.scan { self.layer[pc] } else { 0 };
                let adj = if self.cliques { self.adj[pc] } else { 0 };
                (
                    layer,
                    std::cmp::Reverse(adj),
                    std::cmp::Reverse(self.gain[pc]),
                    self.layer[pc],
                    self.ties[pc],
                )
            })
    }

    /// A PC to start a piece from: the most uncovered partners.
    fn start(&self, s: usize) -> Option<usize> {
        (0..self.problem.pcs())
            .filter(|&pc| self.may_join(pc, s))
            .min_by_key(|&pc| {
                let lack = if self.scan { 0 } else { self.lack[pc] };
                (self.layer[pc], std::cmp::Reverse(lack), self.ties[pc])
            })
    }

    /// Puts `pc` on switch `s`: covers its pairs with the members and
    /// counts it towards its other partners' gain.
    fn join(&mut self, pc: usize, s: usize, members: &mut Vec<usize>) {
        let w = self.problem.words;
        bits::set(&mut self.masks[pc * w..(pc + 1) * w], s);
        // A member has gain u32::MAX, so a partner's gain tells them apart.
        let mut newly = Vec::new();
        self.req.each(pc, |j, k| {
            if self.gain[j] != u32::MAX {
                if self.gain[j] == 0 && self.adj[j] == 0 {
                    self.touched.push(j);
                }
                self.adj[j] += 1;
            }
            if self.covered[k] {
                return;
            }
            if self.gain[j] == u32::MAX {
                newly.push((j, k));
            } else {
                self.gain[j] += self.weight[k];
            }
        });
        for (j, k) in newly {
            self.covered[k] = true;
            if let Some(back) = self.req.slot(j, pc) {
                self.covered[back] = true;
            }
            self.lack[pc] -= 1;
            self.lack[j] -= 1;
            self.covered_pairs += 1;
        }
        if self.gain[pc] == 0 && self.adj[pc] == 0 {
            self.touched.push(pc);
        }
        self.gain[pc] = u32::MAX;
        members.push(pc);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::spec::{PatternSpec, sparse_spec};

    /// `nics` layers of `width`-port switches, each a random partition
    /// of the PCs: a planted wiring, as the PCs on each switch.
    pub(crate) fn random_layers(pcs: usize, nics: usize, width: usize, rng: &mut Rng) -> Vec<Vec<usize>> {
        (0..nics)
            .flat_map(|_| {
                let mut order: Vec<usize> = (0..pcs).collect();
                order.shuffle(rng);
                order.chunks(width).map(<[usize]>::to_vec).collect::<Vec<_>>()
            })
            .collect()
    }

    /// A random wiring of 512 PCs, 4 NICs on 8-port switches (a layer of
    /// 64 switches a NIC), 35% of the pairs it covers, and `swaps`
    /// exchanges between its switches: a best member a few pairs short.
    fn wiring_short_by(swaps: usize) -> (Problem, crate::ga::Member) {
        let (pcs, nics, width) = (512, 4, 8);
        let mut rng = Rng::seed_from_u64(2);
        let blocks = random_layers(pcs, nics, width, &mut rng);
        let mut pairs = std::collections::BTreeSet::new();
        for b in &blocks {
            for (i, &x) in b.iter().enumerate() {
                for &y in &b[i + 1..] {
                    if rng.random_bool(0.35) {
                        pairs.insert((x.min(y), x.max(y)));
                    }
                }
            }
        }
        let pairs = pairs.into_iter().map(|(a, b)| vec![a as f64, b as f64]).collect();
        let pattern = PatternSpec::Pairs { pairs, weight: 1.0 };
        let switches = (width as u32, (pcs * nics / width) as u32);
        let spec = sparse_spec("random", pcs, nics as u32, &[switches], vec![pattern]);
        let p = Problem::new(spec.resolve().unwrap());
        let mut g = Genome::from_design(&p, &crate::design::Design::from_blocks(pcs, &blocks));
        assert_eq!(Eval::full(&p, &g).terms.uncovered, 0);
        let mut swapped = 0;
        while swapped < swaps {
            let (i, j) = (
                rng.random_range(0..p.real_entries()),
                rng.random_range(0..p.real_entries()),
            );
            if g.can_swap(&p, i, j) {
                g.swap(&p, i, j);
                swapped += 1;
            }
        }
        let best = crate::ga::Member::new(&p, g);
        (p, best)
    }

    /// Each generation grew a fresh design and walked its partitions 200
    /// moves a required pair (1.5 million at 7,241 pairs), whatever the
    /// run gave it, uncounted: it held every generation's time slice and
    /// handed back designs hundreds of pairs short of the best member.
    /// Now a generation spends the run's moves, counted, from where the
    /// run is.
    #[test]
    fn a_generation_spends_the_runs_moves_from_the_best_member() {
        let (p, best) = wiring_short_by(4);
        let short = best.eval.terms.uncovered;
        assert!(short > 0);
        let population = vec![best];
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let budget = Budget {
            patience: 500,
            max: 1_000,
            ..Budget::NONE
        };
        let ctx = Context::first(&p, &population, budget, crate::deadline::Deadline::NONE, &cancel, &pool);
        let blocks = Blocks::new(false);
        let found = blocks.search(&ctx, &mut Rng::seed_from_u64(1));
        assert!(found.moves > 0 && found.moves <= budget.max, "{} moves", found.moves);
        let left = Eval::full(&p, &found.members[0]).terms.uncovered;
        assert!(left <= short, "{left} pairs left, the best member {short}");
    }

    /// A walk handed back at the end of a generation goes on in the next,
    /// where its best is still the run's, but not past a restart: its moves add up, its pair
    /// weights kept (a walk started again each generation forgot them and
    /// stalled hundreds of pairs short where one long walk covered all).
    #[test]
    fn the_next_generation_goes_on_with_the_walk() {
        let (p, best) = wiring_short_by(60);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let budget = Budget {
            patience: 20,
            max: 40,
            ..Budget::NONE
        };
        let blocks = Blocks::new(false);
        let population = vec![best];
        let ctx = Context::first(&p, &population, budget, crate::deadline::Deadline::NONE, &cancel, &pool);
        let first = blocks.search(&ctx, &mut Rng::seed_from_u64(1));
        let population = vec![crate::ga::Member::new(&p, first.members[0].clone())];
        assert!(
            population[0].eval.terms.uncovered > 0,
            "the first stretch covered every pair"
        );
        let ctx = Context::first(&p, &population, budget, crate::deadline::Deadline::NONE, &cancel, &pool);
        let next = blocks.search(&ctx, &mut Rng::seed_from_u64(2));
        let walked = || blocks.walk.lock().unwrap().as_ref().map(Walk::moves);
        assert_eq!(walked(), Some(first.moves + next.moves));
        // A restart walks afresh.
        blocks.restart();
        let restarted = blocks.search(&ctx, &mut Rng::seed_from_u64(2));
        assert_eq!(walked(), Some(restarted.moves), "the walk of the run before went on");
    }

    /// A grown design a few swaps short walks on from where it is, with
    /// no plan to partition afresh: before, such a design came back as
    /// it was grown.
    #[test]
    fn a_grown_design_is_walked_on_from_where_it_is() {
        let (p, best) = wiring_short_by(12);
        let short = best.eval.terms.uncovered;
        assert!(short > 0);
        let req = Required::new(&p);
        let (left, g, moves) = better(
            &p,
            &req,
            (best.genome, None),
            (200, true),
            Budget::NONE,
            &mut Rng::seed_from_u64(1),
        );
        assert_eq!(left, Eval::full(&p, &g).terms.uncovered);
        assert!(
            moves > 0 && left < short,
            "{left} pairs left of {short} in {moves} moves"
        );
    }

    /// Blocks of 8 consecutive PCs cut at 250 (the cosets of the low 3
    /// address bits, the last one {248, 249}): with a switch for each of
    /// the 32 cosets the layer is found, with 31 it is not tried.
    #[test]
    fn cosets_cut_at_an_odd_size_are_a_layer_where_each_has_a_switch() {
        let pcs = 250;
        let pairs = (0..pcs)
            .flat_map(|a| {
                (a + 1..pcs)
                    .filter(move |b| a / 8 == b / 8)
                    .map(move |b| vec![a as f64, b as f64])
            })
            .collect();
        let pattern = PatternSpec::Pairs { pairs, weight: 1.0 };
        let p = Problem::new(sparse_spec("cut", pcs, 1, &[(8, 32)], vec![pattern]).resolve().unwrap());
        let req = Required::new(&p);
        let weight = triangle_weights(&p.cluster.pattern);
        let ties: Vec<u32> = (0..pcs as u32).collect();
        let layers: Vec<(u32, usize, usize)> = Width::of(&p, &by_width(&p, &widths(&p)))
            .iter()
            .map(|w| (w.width, w.switches.len(), w.layers))
            .collect();
        assert_eq!(layers, [(8, 32, 1)]);
        let g = Growth::new(&p, &req, &weight, &ties);
        let (mask, score) = g.subspace(8, 32).unwrap();
        assert_eq!((mask, score), (0b111, 31 * 28 + 1));
        let blocks = g.coset_blocks(mask);
        assert_eq!((blocks.len(), blocks[31].clone()), (32, vec![248, 249]));
        assert!(g.subspace(8, 31).is_none(), "a switch short for the cosets");
        let (found, _) = seed_design(&p, Budget::NONE);
        assert_eq!(found.map(|g| Eval::full(&p, &g).terms.uncovered), Some(0));
    }

    #[test]
    fn a_width_is_in_layers_where_each_run_of_its_switches_holds_every_pc() {
        let width = |width, switches, layers| Width {
            width,
            switches: (0..switches).collect(),
            layers,
        };
        let runs = |w: &Width, pcs| w.layers(pcs).map(|r| r.iter().map(|r| r.len()).collect::<Vec<_>>());
        // 1,001 PCs, 2 NICs on 256 8-port switches: two runs of 1,024 ports.
        assert_eq!(runs(&width(8, 256, 2), 1001), Some(vec![128, 128]));
        // 1,000 PCs, 6 NICs on 375 16-port switches: runs of 62 hold 992.
        assert_eq!(runs(&width(16, 375, 6), 1000), None);
        assert_eq!(runs(&width(16, 375, 6), 992), Some(vec![62, 63, 62, 63, 62, 63]));
    }

    #[test]
    fn submasks_and_combinations_are_all_there_once() {
        let subs: Vec<u32> = subsets(0b1010).collect();
        assert_eq!(subs, [0, 0b10, 0b1000, 0b1010]);
        assert_eq!(combinations(5, 2).count(), 10);
        assert!(combinations(5, 2).all(|m| m.count_ones() == 2 && m < 32));
    }

    #[test]
    fn a_clique_pair_weighs_its_common_partners() {
        // A triangle 0-1-2 and a pendant pair 2-3.
        let mut spec = sparse_spec("t", 4, 1, &[(4, 1)], Vec::new());
        spec.patterns.push(PatternSpec::Pairs {
            pairs: [[0, 1], [1, 2], [0, 2], [2, 3]]
                .iter()
                .map(|p| p.iter().map(|&x| x as f64).collect())
                .collect(),
            weight: 1.0,
        });
        let p = Problem::new(spec.resolve().unwrap());
        let req = Required::new(&p);
        let w = triangle_weights(&p.cluster.pattern);
        let of = |a, b| w[req.slot(a, b).unwrap()];
        assert_eq!((of(0, 1), of(1, 0), of(0, 2), of(2, 3), of(3, 2)), (2, 2, 2, 1, 1));
    }

    /// A sparse spec whose pattern is every pair inside each of `blocks`.
    fn cliques_spec(pcs: usize, nics: u32, switches: &[(u32, u32)], blocks: &[Vec<usize>]) -> Problem {
        let mut spec = sparse_spec("c", pcs, nics, switches, Vec::new());
        let mut pairs = std::collections::BTreeSet::new();
        for b in blocks {
            for (i, &x) in b.iter().enumerate() {
                pairs.extend(b[i + 1..].iter().map(|&y| (x.min(y), x.max(y))));
            }
        }
        spec.patterns.push(PatternSpec::Pairs {
            pairs: pairs.iter().map(|&(a, b)| vec![a as f64, b as f64]).collect(),
            weight: 1.0,
        });
        Problem::new(spec.resolve().unwrap())
    }

    /// What growing every switch in `layers` leaves uncovered.
    fn grown_left(p: &Problem, layers: Layers) -> u64 {
        let req = Required::new(p);
        let weight = triangle_weights(&p.cluster.pattern);
        let ties: Vec<u32> = (0..p.pcs() as u32).collect();
        let order = by_width(p, &widths(p));
        Eval::full(p, &grow(p, &req, &weight, &order, &ties, layers).0)
            .terms
            .uncovered
    }

    #[test]
    fn overlapping_cliques_are_grown_whole() {
        // A random wiring of 256 PCs, 4 NICs on 16-port switches (4
        // random partitions into blocks of 16), and every pair it covers:
        // blocks of different partitions share two PCs here and there,
        // whose pair is the heaviest and leads the heaviest-pair growth
        // into both.
        let mut rng = Rng::seed_from_u64(7);
        let mut blocks = Vec::new();
        for _ in 0..4 {
            let mut pcs: Vec<usize> = (0..256).collect();
            pcs.shuffle(&mut rng);
            blocks.extend(pcs.chunks(16).map(<[usize]>::to_vec));
        }
        let p = cliques_spec(256, 4, &[(16, 64)], &blocks);
        assert!(grown_left(&p, Layers::Compared) > 0, "the heaviest pair would do");
        assert_eq!(grown_left(&p, Layers::Cliques), 0);
    }

    #[test]
    fn a_scanned_piece_ends_where_no_pc_closes_a_triangle() {
        // A triangle 0-1-2 and a pendant pair 2-3 on a 4-port switch: a
        // strict piece is the triangle (3 is left to start a piece of its
        // own, where a torus's shifted block would start instead of being
        // broken); the plain growth takes all four.
        let p = cliques_spec(4, 2, &[(4, 2)], &[vec![0, 1, 2], vec![2, 3]]);
        let req = Required::new(&p);
        let weight = triangle_weights(&p.cluster.pattern);
        let ties: Vec<u32> = (0..4).collect();
        let mut g = Growth::new(&p, &req, &weight, &ties);
        g.scan = true;
        let mut piece = g.block(0, Vec::new(), true);
        piece.sort_unstable();
        assert_eq!(piece, [0, 1, 2]);
        let mut plain = Growth::new(&p, &req, &weight, &ties).block(0, Vec::new(), false);
        plain.sort_unstable();
        assert_eq!(plain, [0, 1, 2, 3]);
    }

    #[test]
    fn a_torus_takes_its_blocks_and_then_the_shifted_blocks() {
        // An 8x6 torus (48 PCs: no address bits fit), 2 NICs on 4-port
        // switches: the 2x2 blocks hold half the edges, the blocks shifted
        // by one along both axes the other half.
        let grid = PatternSpec::Grid {
            dims: vec![8, 6],
            torus: true,
            weight: 1.0,
        };
        let p = Problem::new(sparse_spec("t", 48, 2, &[(4, 24)], vec![grid]).resolve().unwrap());
        let req = Required::new(&p);
        let weight = triangle_weights(&p.cluster.pattern);
        let ties: Vec<u32> = (0..p.pcs() as u32).collect();
        let mut g = Growth::new(&p, &req, &weight, &ties);
        let first: Vec<usize> = (0..12).collect();
        let (blocks, score) = g.best_layer(4, 12).unwrap();
        assert_eq!((blocks.len(), score), (12, 48));
        g.lay(&blocks, &first);
        let (blocks, score) = g.best_layer(4, 12).unwrap();
        assert_eq!(score, 48, "the shifted blocks hold every edge left");
        let second: Vec<usize> = (12..24).collect();
        g.lay(&blocks, &second);
        assert_eq!(g.covered_pairs, 96);
        // Without the grid's sides there is no layer to lay.
        let mut blind = p.clone();
        blind.cluster.grids.clear();
        assert!(Growth::new(&blind, &req, &weight, &ties).best_layer(4, 12).is_none());
    }

    #[test]
    fn the_cosets_found_are_the_subcubes_of_the_pattern() {
        // Radix-16 butterfly on 8 bits: every pair of a 4-bit subcube, on
        // 16-port switches, 2 NICs a PC.
        let lines = PatternSpec::Lines {
            dims: vec![16, 16],
            weight: 1.0,
        };
        let p = Problem::new(sparse_spec("b", 256, 2, &[(16, 32)], vec![lines]).resolve().unwrap());
        let req = Required::new(&p);
        let weight = triangle_weights(&p.cluster.pattern);
        let ties: Vec<u32> = (0..p.pcs() as u32).collect();
        let mut g = Growth::new(&p, &req, &weight, &ties);
        let (mask, score) = g.subspace(16, 16).unwrap();
        assert!(mask == 0x0f || mask == 0xf0, "{mask:b}");
        assert_eq!(score, 16 * 120);
        let switches: Vec<usize> = (0..16).collect();
        g.lay(&g.coset_blocks(mask), &switches);
        assert_eq!(g.covered_pairs, 16 * 120);
        assert_eq!(g.subspace(16, 16).unwrap().1, 16 * 120, "the other half");
    }
}
