//! Tabu search over NIC exchanges with exact coverage deltas,
//! the local search inside the GA.
//!
//! Where every port is used, a random mutation almost always uncovers as
//! many pairs as it covers, and the paper's GA stalls a few pairs short.
//! The covering-design literature solves such problems with min-conflicts
//! tabu search, and so does this module: pick an uncovered required pair,
//! try every way of putting one of its PCs onto a switch of the other
//! (giving up one of its own connections, exchanged with the occupant of
//! the port it takes), score each exactly from the PCs' bitmasks, and make
//! the best move that is not tabu. A PC that left a switch may not return
//! to it for a few iterations, so the search walks across plateaus instead
//! of undoing itself.
//!
//! Every move is an exchange of two genome entries, like the GA's
//! operators, so NIC and port limits and pins hold throughout.

use super::Rng;
use super::genome::{FREE, Genome};
use super::problem::{DUMMY_SWITCH, Problem};
use super::strategy::{Budget, Context, Found, Strategy};
use super::tabu::Marks;
use crate::design::bits;
use crate::patterns::PairWeights;
use crate::spec::Coverage;
use rand::{Rng as _, RngExt, SeedableRng};
use rayon::prelude::*;

/// The required partners of every PC, as the local search reads them:
/// every other PC, or the pattern's own rows (sorted, weights > 0).
/// A pair's weight slot is its place among all rows' entries.
pub enum Required<'a> {
    Universal { pcs: usize },
    Sparse(&'a PairWeights),
}

impl<'a> Required<'a> {
    pub fn new(problem: &'a Problem) -> Required<'a> {
        let c = &problem.cluster;
        match c.coverage {
            Coverage::Universal => Required::Universal { pcs: c.pcs() },
            Coverage::Sparse => Required::Sparse(&c.pattern),
        }
    }

    /// Calls `f(partner, weight slot)` for every required partner of `pc`.
    pub(super) fn each(&self, pc: usize, mut f: impl FnMut(usize, usize)) {
        match self {
            Required::Sparse(pw) => {
                let base = pw.row_start(pc);
                pw.row(pc)
                    .0
                    .iter()
                    .enumerate()
                    .for_each(|(k, &j)| f(j as usize, base + k))
            }
            Required::Universal { pcs } => (0..*pcs).filter(|&j| j != pc).for_each(|j| f(j, pc * pcs + j)),
        }
    }

    /// The weight slot of the pair (a, b) in a's row, if it is required.
    pub(super) fn slot(&self, a: usize, b: usize) -> Option<usize> {
        match self {
            Required::Sparse(pw) => pw.row(a).0.binary_search(&(b as u32)).ok().map(|k| pw.row_start(a) + k),
            Required::Universal { pcs } => (a != b).then(|| a * pcs + b),
        }
    }

    pub(super) fn slots(&self) -> usize {
        match self {
            Required::Sparse(pw) => 2 * pw.pair_count(),
            Required::Universal { pcs } => pcs * pcs,
        }
    }
}

/// What one run of the local search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub uncovered_before: u64,
    pub uncovered_after: u64,
    pub iterations: u64,
}

/// A candidate move: `u` leaves entry `eu` (on switch `x`, or an uncabled
/// NIC) for entry `ek` on switch `y`, whose occupant (a PC or a free port)
/// takes `u`'s place. `delta` is the change in weighted uncovered pairs,
/// `plain` in uncovered pairs.
///
/// An opening move (see [`Search::open_onto`]) makes a second exchange,
/// `then`, of the pair's other PC onto another free port of the same
/// switch.
#[derive(Clone, Copy, Debug)]
struct Move {
    eu: usize,
    ek: usize,
    delta: i64,
    plain: i64,
    then: Option<(usize, usize)>,
}

/// Change in (weighted, plain) uncovered pairs.
type Delta = (i64, i64);

/// The tabu walks as a strategy: every generation the best member and
/// `members - 1` random kept ones that still leave pairs uncovered get a
/// walk each, in parallel; the walked designs replace the worst members,
/// so their parents stay and diversity with them.
pub struct Tabu {
    /// How many members walk each generation (`ga.local_members`).
    pub members: usize,
}

impl Strategy for Tabu {
    fn name(&self) -> &'static str {
        "tabu"
    }

    fn applies(&self, ctx: &Context<'_>) -> bool {
        ctx.budget.has_moves() && self.members > 0 && ctx.best_uncovered() > 0
    }

    fn search(&self, ctx: &Context<'_>, rng: &mut Rng) -> Found {
        let pop = ctx.population;
        let keep = ctx.kept.clamp(1, pop.len());
        let mut picks = vec![0];
        while picks.len() < self.members.min(keep) {
            let k = rng.random_range(0..keep);
            if !picks.contains(&k) {
                picks.push(k);
            }
        }
        let seeds: Vec<u64> = picks.iter().map(|_| rng.next_u64()).collect();
        let (problem, budget) = (ctx.problem, ctx.budget);
        let required = Required::new(problem);
        let walked: Vec<(Genome, u64)> = ctx.pool.install(|| {
            picks
                .par_iter()
                .zip(&seeds)
                .filter(|(k, _)| pop[**k].eval.terms.uncovered > 0)
                .map(|(&k, &seed)| {
                    let mut g = pop[k].genome.with_masks(problem).into_owned();
                    let out = improve(problem, &required, &mut g, budget, &mut Rng::seed_from_u64(seed));
                    (g, out.iterations)
                })
                .collect()
        });
        Found {
            moves: walked.iter().map(|(_, n)| n).sum(),
            members: walked.into_iter().map(|(g, _)| g).collect(),
            ..Found::default()
        }
    }
}

struct Search<'a> {
    problem: &'a Problem,
    req: &'a Required<'a>,
    g: Genome,
    /// Pair weights (breakout): a pair that stays uncovered where no move
    /// helps grows heavier, until covering it pays for what it uncovers.
    weight: Vec<u32>,
    /// Uncovered required partners per PC.
    lack: Vec<u32>,
    /// PCs with `lack > 0`, and each PC's position in it (or `usize::MAX`).
    lacking: Vec<usize>,
    slot: Vec<usize>,
    /// The links of every required pair by its slot, kept as the walk
    /// moves (sparse patterns only; empty when every pair is required):
    /// a move's scan reads a pair's count thousands of times, and a mask
    /// AND is ten words at 640 switches.
    cover: Vec<u8>,
    /// The slot of (b, a) for the slot of (a, b), with `cover`.
    mirror: Vec<u32>,
    uncovered: u64,
    /// Free ports per switch, and how many switches have two or more.
    room: Vec<u32>,
    roomy: usize,
    /// The switches each PC may not rejoin yet.
    tabu: Marks,
    iteration: u64,
    /// When to stop, looked at inside a move's scan too: one scan covers
    /// millions of pairs at 16384 PCs.
    budget: Budget<'a>,
}

/// Runs the tabu search on `g` until every required pair is covered or the
/// budget runs out, and leaves in `g` the best design it saw (never one
/// with more uncovered pairs than it started with). A walk that keeps
/// finding better designs goes on: its pair weights are what it learnt.
pub fn improve(problem: &Problem, req: &Required<'_>, g: &mut Genome, budget: Budget<'_>, rng: &mut Rng) -> Outcome {
    let mut s = Search::new(problem, req, g.clone());
    s.budget = budget;
    let before = s.uncovered;
    let mut best = (s.uncovered, s.g.clone());
    let mut best_at = 0;
    while s.uncovered > 0 && s.iteration < budget.max && s.iteration - best_at < budget.patience {
        s.iteration += 1;
        // One move can scan millions of pairs at 16384 PCs: the clock is
        // read before each (a read is tens of nanoseconds).
        if budget.spent() {
            break;
        }
        let Some((pair, m)) = s.choose(rng, best.0) else {
            continue;
        };
        if m.delta >= 0 {
            // A local minimum for this pair: make it count for more.
            s.bump(pair);
        }
        s.apply(m, rng);
        if s.uncovered < best.0 {
            best = (s.uncovered, s.g.clone());
            best_at = s.iteration;
        }
    }
    if best.0 == 0 {
        budget.found_valid();
    }
    *g = best.1;
    Outcome {
        uncovered_before: before,
        uncovered_after: best.0,
        iterations: s.iteration,
    }
}

/// Free ports per switch of `g`.
fn free_ports(problem: &Problem, g: &Genome) -> Vec<u32> {
    (0..problem.switches())
        .map(|y| problem.range(y).filter(|&e| g.entries()[e] == FREE).count() as u32)
        .collect()
}

impl<'a> Search<'a> {
    fn new(problem: &'a Problem, req: &'a Required<'a>, g: Genome) -> Search<'a> {
        let p = problem.pcs();
        let room = free_ports(problem, &g);
        let mut s = Search {
            problem,
            req,
            g,
            weight: vec![1; req.slots()],
            lack: vec![0; p],
            lacking: Vec::new(),
            slot: vec![usize::MAX; p],
            cover: Vec::new(),
            mirror: Vec::new(),
            uncovered: 0,
            roomy: room.iter().filter(|&&r| r >= 2).count(),
            room,
            tabu: Marks::new(p),
            iteration: 0,
            budget: Budget::NONE,
        };
        if matches!(req, Required::Sparse(_)) {
            s.cover = vec![0; req.slots()];
            s.mirror = vec![0; req.slots()];
            for a in 0..p {
                let (g, cover, mirror) = (&s.g, &mut s.cover, &mut s.mirror);
                req.each(a, |b, k| {
                    mirror[k] = req.slot(b, a).expect("a pattern's rows are symmetric") as u32;
                    cover[k] = bits::and_count(g.mask(problem, a), g.mask(problem, b)) as u8;
                });
            }
        }
        for a in 0..p {
            let mut n = 0;
            req.each(a, |b, k| n += u32::from(s.linked(a, b, k) == 0));
            s.lack[a] = n;
            s.uncovered += n as u64;
            s.update_slot(a);
        }
        s.uncovered /= 2;
        s
    }

    fn links(&self, a: usize, b: usize) -> u32 {
        bits::and_count(self.g.mask(self.problem, a), self.g.mask(self.problem, b))
    }

    /// The links of the required pair (a, b) in slot `k`.
    fn linked(&self, a: usize, b: usize, k: usize) -> u32 {
        match self.cover.get(k) {
            Some(&n) => u32::from(n),
            None => self.links(a, b),
        }
    }

    /// Recounts the kept links of `pc`'s required pairs, both ways.
    fn refresh(&mut self, pc: usize) {
        if self.cover.is_empty() {
            return;
        }
        let (p, g) = (self.problem, &self.g);
        let (cover, mirror) = (&mut self.cover, &self.mirror);
        self.req.each(pc, |j, k| {
            let n = bits::and_count(g.mask(p, pc), g.mask(p, j)) as u8;
            cover[k] = n;
            cover[mirror[k] as usize] = n;
        });
    }

    fn on(&self, pc: usize, switch: u32) -> bool {
        switch != DUMMY_SWITCH && self.g.has(self.problem, pc, switch as usize)
    }

    fn update_slot(&mut self, pc: usize) {
        let listed = self.slot[pc] != usize::MAX;
        if self.lack[pc] > 0 && !listed {
            self.slot[pc] = self.lacking.len();
            self.lacking.push(pc);
        } else if self.lack[pc] == 0 && listed {
            let at = self.slot[pc];
            self.lacking.swap_remove(at);
            if let Some(&moved) = self.lacking.get(at) {
                self.slot[moved] = at;
            }
            self.slot[pc] = usize::MAX;
        }
    }

    /// Weighs the pair (a, b) one more, in both rows.
    fn bump(&mut self, (a, b): (usize, usize)) {
        for (x, y) in [(a, b), (b, a)] {
            if let Some(k) = self.req.slot(x, y) {
                self.weight[k] = self.weight[k].saturating_add(1);
            }
        }
    }

    /// An uncovered required pair, its first PC drawn among the lacking.
    fn uncovered_pair(&self, rng: &mut Rng) -> Option<(usize, usize)> {
        let a = *self.lacking.get(rng.random_range(0..self.lacking.len().max(1)))?;
        let mut chosen = None;
        let mut seen = 0;
        self.req.each(a, |b, k| {
            if self.linked(a, b, k) == 0 {
                seen += 1;
                if rng.random_range(0..seen) == 0 {
                    chosen = Some(b);
                }
            }
        });
        chosen.map(|b| (a, b))
    }

    /// Change in uncovered pairs of `pc` leaving switch `from` (or an
    /// uncabled NIC) for `to` (or the dummy switch), all else unchanged.
    fn delta(&self, pc: usize, from: u32, to: u32) -> Delta {
        let mut d = (0i64, 0i64);
        self.req.each(pc, |j, k| {
            let c = self.linked(pc, j, k);
            let after = c + u32::from(self.on(j, to)) - u32::from(self.on(j, from));
            let change = i64::from(after == 0) - i64::from(c == 0);
            d.0 += change * i64::from(self.weight[k]);
            d.1 += change;
        });
        d
    }

    /// Connections `u` may give up for switch `yy`, with what each costs:
    /// cabled ones not pinned, and one uncabled NIC if it has any.
    fn gives(&self, u: usize, yy: u32) -> Vec<(usize, u32, Delta)> {
        let p = self.problem;
        let mut gives: Vec<(usize, u32, Delta)> = Vec::new();
        for e in self.g.entries_of(p, u) {
            let x = p.switch_of(e);
            if x == DUMMY_SWITCH {
                if gives.iter().any(|&(_, gx, _)| gx == DUMMY_SWITCH) {
                    continue;
                }
            } else if p.cluster.pins.is_must(u, x as usize) {
                continue;
            }
            gives.push((e, x, self.delta(u, x, yy)));
        }
        gives
    }

    /// What k gains moving from y to `x`: the partners it shared only y
    /// with (`only_y`) are lost unless on x, those it lacked (`zero`) are
    /// gained when on x.
    fn k_moves_to(&self, x: u32, only_y: &[(usize, i64)], zero: &[(usize, i64)]) -> Delta {
        let (mut dk, mut pk) = (0, 0);
        for &(j, w) in only_y {
            if !self.on(j, x) {
                dk += w;
                pk += 1;
            }
        }
        for &(j, w) in zero {
            if self.on(j, x) {
                dk -= w;
                pk -= 1;
            }
        }
        (dk, pk)
    }

    /// The pair (u, k) keeps its links: u joins y as k leaves it, and k
    /// joins x as u leaves it. What the two one-sided deltas counted for
    /// it, to take back.
    fn pair_fix(&self, pair: Option<usize>, x: u32) -> Delta {
        match pair {
            Some(slot) => {
                let n = 1 + i64::from(x != DUMMY_SWITCH);
                (n * i64::from(self.weight[slot]), n)
            }
            None => (0, 0),
        }
    }

    /// Considers every move that puts `u` on switch `y`.
    fn moves_onto(&self, u: usize, y: usize, aspiration: u64, rng: &mut Rng, best: &mut Option<(Move, u32)>) {
        let p = self.problem;
        let c = &p.cluster;
        let yy = y as u32;
        let gives = self.gives(u, yy);
        let u_tabu = self.tabu.holds(u, yy, self.iteration);
        let mut only_y: Vec<(usize, i64)> = Vec::new();
        let mut zero: Vec<(usize, i64)> = Vec::new();
        for (i, ek) in p.range(y).enumerate() {
            if i % 64 == 63 && self.budget.spent() {
                return;
            }
            let k = self.g.entries()[ek];
            if k == FREE {
                for &(eu, _, (du, pu)) in &gives {
                    let m = Move {
                        eu,
                        ek,
                        delta: du,
                        plain: pu,
                        then: None,
                    };
                    self.consider(m, u_tabu, aspiration, rng, best);
                }
                continue;
            }
            let k = k as usize;
            if c.pins.is_must(k, y) {
                continue;
            }
            // k's partners it shares only y with, and those it lacks.
            only_y.clear();
            zero.clear();
            self.req.each(k, |j, slot| match self.linked(k, j, slot) {
                0 => zero.push((j, i64::from(self.weight[slot]))),
                1 if self.on(j, yy) => only_y.push((j, i64::from(self.weight[slot]))),
                _ => {}
            });
            let pair = self.req.slot(u, k).filter(|&slot| self.linked(u, k, slot) == 0);
            for &(eu, x, (du, pu)) in &gives {
                let allowed = if x == DUMMY_SWITCH {
                    !c.cable_every_nic
                } else {
                    !self.on(k, x) && !c.pins.is_forbidden(k, x as usize)
                };
                if !allowed {
                    continue;
                }
                let (dk, pk) = self.k_moves_to(x, &only_y, &zero);
                let (fix, pfix) = self.pair_fix(pair, x);
                let k_tabu = x != DUMMY_SWITCH && self.tabu.holds(k, x, self.iteration);
                let m = Move {
                    eu,
                    ek,
                    delta: du + dk + fix,
                    plain: pu + pk + pfix,
                    then: None,
                };
                self.consider(m, u_tabu || k_tabu, aspiration, rng, best);
            }
        }
    }

    /// Keeps `m` if it beats the best so far (ties broken at random); a
    /// tabu move only when it would beat the best design seen.
    fn consider(&self, m: Move, tabu: bool, aspiration: u64, rng: &mut Rng, best: &mut Option<(Move, u32)>) {
        if tabu && (self.uncovered as i64 + m.plain) >= aspiration as i64 {
            return;
        }
        match best {
            Some((b, ties)) if m.delta == b.delta => {
                *ties += 1;
                if rng.random_range(0..*ties) == 0 {
                    *b = m;
                }
            }
            Some((b, _)) if m.delta > b.delta => {}
            _ => *best = Some((m, 1)),
        }
    }

    /// A random uncovered pair and the best non-tabu move that covers it.
    fn choose(&self, rng: &mut Rng, aspiration: u64) -> Option<((usize, usize), Move)> {
        let (a, b) = self.uncovered_pair(rng)?;
        let p = self.problem;
        let mut best = None;
        for (u, v) in [(a, b), (b, a)] {
            if p.cluster.nics[u] == 0 {
                continue;
            }
            let mv = self.g.mask(p, v).to_vec();
            let mu = self.g.mask(p, u);
            for y in bits::ones(&mv) {
                if !bits::test(mu, y) && !p.cluster.pins.is_forbidden(u, y) {
                    self.moves_onto(u, y, aspiration, rng, &mut best);
                }
            }
        }
        self.open_onto(a, b, aspiration, rng, &mut best);
        best.map(|(m, _)| ((a, b), m))
    }

    /// Considers putting both `a` and `b` on the switch with the most
    /// ports free, each giving up the connection it misses least. Every
    /// other move puts a PC where its partner already is, so a switch
    /// no PC is on stays empty: a 3,001-PC pattern whose planted switches
    /// hold 10 to 14 PCs on 16 ports was walked on 751 full switches with
    /// 273 empty, ~1,050 pairs short, where the planted wiring uses 1,006.
    ///
    /// Only for sparse patterns: where every pair must meet, a switch two
    /// PCs open covers one pair of hundreds, and the universal sizes'
    /// walks are kept as they were measured.
    fn open_onto(&self, a: usize, b: usize, aspiration: u64, rng: &mut Rng, best: &mut Option<(Move, u32)>) {
        if matches!(self.req, Required::Universal { .. }) {
            return;
        }
        let p = self.problem;
        let c = &p.cluster;
        let Some(y) = self.roomiest(a, b) else { return };
        let yy = y as u32;
        let free: Vec<usize> = p.range(y).filter(|&e| self.g.entries()[e] == FREE).take(2).collect();
        let cheapest = |u: usize| {
            self.gives(u, yy)
                .into_iter()
                .filter(|&(_, x, _)| x != DUMMY_SWITCH || !c.cable_every_nic)
                .min_by_key(|&(_, _, d)| d)
        };
        let (Some((ea, _, (da, pa))), Some((eb, _, (db, pb)))) = (cheapest(a), cheapest(b)) else {
            return;
        };
        let w = self.req.slot(a, b).map_or(1, |k| i64::from(self.weight[k]));
        let m = Move {
            eu: ea,
            ek: free[0],
            delta: da + db - w,
            plain: pa + pb - 1,
            then: Some((eb, free[1])),
        };
        let tabu = self.tabu.holds(a, yy, self.iteration) || self.tabu.holds(b, yy, self.iteration);
        self.consider(m, tabu, aspiration, rng, best);
    }

    fn set_room(&mut self, y: usize, by: i32) {
        let was = self.room[y] >= 2;
        self.room[y] = self.room[y].saturating_add_signed(by);
        self.roomy = self.roomy + usize::from(self.room[y] >= 2) - usize::from(was);
    }

    /// The switch with the most ports free, two at least, that neither
    /// `a` nor `b` is on or is kept from.
    fn roomiest(&self, a: usize, b: usize) -> Option<usize> {
        let c = &self.problem.cluster;
        // Looking costs a pass over the switches, which where every port
        // is used (4,096 PCs x 6 NICs on 3,072 switches) is most of a move.
        if self.roomy == 0 {
            return None;
        }
        (0..self.problem.switches())
            .filter(|&y| self.room[y] >= 2)
            .filter(|&y| {
                ![a, b]
                    .iter()
                    .any(|&u| self.on(u, y as u32) || c.pins.is_forbidden(u, y))
            })
            .max_by_key(|&y| self.room[y])
    }

    /// Makes the move, updating the coverage counts exactly and marking
    /// the returns tabu.
    fn apply(&mut self, m: Move, rng: &mut Rng) {
        self.exchange(m.eu, m.ek, rng);
        if let Some((ev, fv)) = m.then {
            self.exchange(ev, fv, rng);
        }
    }

    /// Exchanges entries `eu` and `ek`, updating the coverage counts and
    /// the free ports exactly and marking the returns tabu.
    fn exchange(&mut self, eu: usize, ek: usize, rng: &mut Rng) {
        let p = self.problem;
        let (x, y) = (p.switch_of(eu), p.switch_of(ek));
        let u = self.g.entries()[eu] as usize;
        let k = self.g.entries()[ek];
        if k == FREE {
            self.set_room(y as usize, -1);
            if x != DUMMY_SWITCH {
                self.set_room(x as usize, 1);
            }
        }
        let touched: Vec<usize> = std::iter::once(u).chain((k != FREE).then_some(k as usize)).collect();
        self.count(&touched, -1);
        self.g.swap(p, eu, ek);
        for &t in &touched {
            self.refresh(t);
        }
        self.count(&touched, 1);
        // Tenure: long enough to leave a plateau, randomised so cycles break.
        let tenure = 4 + rng.random_range(0..8u64) + (self.lacking.len() as u64).min(12);
        if x != DUMMY_SWITCH {
            self.tabu.mark(u, x, self.iteration + tenure);
        }
        if k != FREE {
            self.tabu.mark(k as usize, y, self.iteration + tenure);
        }
    }

    /// Adds (`sign` 1) or removes (-1) the uncovered pairs of `rows`, each
    /// pair once.
    fn count(&mut self, rows: &[usize], sign: i64) {
        for (n, &t) in rows.iter().enumerate() {
            let mut hits = Vec::new();
            self.req.each(t, |j, k| {
                if !rows[..n].contains(&j) && self.linked(t, j, k) == 0 {
                    hits.push(j);
                }
            });
            for j in hits {
                for pc in [t, j] {
                    self.lack[pc] = (self.lack[pc] as i64 + sign) as u32;
                    self.update_slot(pc);
                }
                self.uncovered = (self.uncovered as i64 + sign) as u64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ga::eval::Eval;
    use crate::spec::{PatternSpec, QuickFlags, Spec};
    use rand::SeedableRng;

    fn problem(pcs: usize, nics: u32, switches: &str, edit: impl FnOnce(&mut Spec)) -> Problem {
        let q = QuickFlags {
            pcs: Some(pcs),
            nics: Some(nics),
            switches: Some(switches.into()),
            ..Default::default()
        };
        let mut spec = q.apply(Spec::default()).unwrap();
        edit(&mut spec);
        Problem::new(spec.resolve().unwrap())
    }

    /// A sparse torus of `dims` on 2 NICs and `switches`.
    fn torus(dims: [usize; 2], switches: &str) -> Problem {
        problem(dims[0] * dims[1], 2, switches, |s| {
            s.coverage = Coverage::Sparse;
            s.patterns = vec![PatternSpec::Grid {
                dims: dims.to_vec(),
                torus: true,
                weight: 1.0,
            }];
        })
    }

    /// The search's own counts agree with the full evaluation after every
    /// move: the uncovered pairs, each pair's links, and the free ports
    /// (on a torus with spare switches too, where opening moves are made).
    #[test]
    fn counts_stay_exact_move_after_move() {
        for switches in ["4x24", "4x40"] {
            let p = torus([6, 8], switches);
            let req = Required::new(&p);
            let mut rng = Rng::seed_from_u64(7);
            let mut s = Search::new(&p, &req, Genome::straightforward(&p));
            assert_eq!(s.uncovered, Eval::full(&p, &s.g).terms.uncovered);
            let mut opened = 0;
            for _ in 0..300 {
                s.iteration += 1;
                let Some((pair, m)) = s.choose(&mut rng, 0) else { break };
                if m.delta >= 0 {
                    s.bump(pair);
                }
                opened += usize::from(m.then.is_some());
                let expected = s.uncovered as i64 + m.plain;
                s.apply(m, &mut rng);
                assert_eq!(s.uncovered as i64, expected, "the delta was not exact");
                assert_eq!(s.uncovered, Eval::full(&p, &s.g).terms.uncovered);
                for a in 0..p.pcs() {
                    req.each(a, |b, k| {
                        assert_eq!(u32::from(s.cover[k]), s.links(a, b), "kept links of ({a}, {b})")
                    });
                }
                let room = free_ports(&p, &s.g);
                assert_eq!(s.roomy, room.iter().filter(|&&r| r >= 2).count());
                assert_eq!(s.room, room);
            }
            if switches == "4x40" {
                assert!(opened > 0, "no opening move was made");
            }
        }
    }

    /// Every pair required, switches to spare: the walk makes no opening move.
    #[test]
    fn a_universal_walk_opens_no_switch() {
        let p = problem(12, 3, "4x14", |_| {});
        let req = Required::new(&p);
        let mut rng = Rng::seed_from_u64(3);
        let mut s = Search::new(&p, &req, Genome::straightforward(&p));
        assert!(s.roomy > 0 && s.uncovered > 0);
        for _ in 0..300 {
            s.iteration += 1;
            let Some((pair, m)) = s.choose(&mut rng, 0) else { break };
            assert!(m.then.is_none(), "an opening move for {pair:?}");
            if m.delta >= 0 {
                s.bump(pair);
            }
            s.apply(m, &mut rng);
        }
    }

    /// PCs 0 and 4 must meet, each on a full switch whose other three
    /// must meet each other, with one NIC each and a third switch empty:
    /// only both going to the empty switch covers the pair without
    /// uncovering another (0 taking a member's place on 4's switch
    /// uncovers two).
    #[test]
    fn a_pair_on_two_full_switches_meets_on_an_empty_one() {
        let pairs = [(1, 2), (1, 3), (2, 3), (5, 6), (5, 7), (6, 7), (0, 4)];
        let p = problem(8, 1, "4x3", |s| {
            s.coverage = Coverage::Sparse;
            s.patterns = vec![PatternSpec::Pairs {
                pairs: pairs.iter().map(|&(a, b)| vec![a as f64, b as f64]).collect(),
                weight: 1.0,
            }];
        });
        let blocks = [vec![0, 1, 2, 3], vec![4, 5, 6, 7], vec![]];
        let g = Genome::from_design(&p, &crate::design::Design::from_blocks(8, &blocks));
        let req = Required::new(&p);
        let mut s = Search::new(&p, &req, g);
        assert_eq!(s.uncovered, 1);
        let (pair, m) = s.choose(&mut Rng::seed_from_u64(1), u64::MAX).unwrap();
        assert!(pair == (0, 4) || pair == (4, 0), "{pair:?}");
        s.apply(m, &mut Rng::seed_from_u64(1));
        assert_eq!(s.uncovered, 0);
        assert_eq!(Eval::full(&p, &s.g).terms.uncovered, 0);
    }

    #[test]
    fn solves_a_full_port_torus_the_straightforward_wiring_leaves_uncovered() {
        // An 8x8 torus, 2 NICs, thirty-two 4-port switches: every port used.
        let p = torus([8, 8], "4x32");
        let req = Required::new(&p);
        let mut g = Genome::straightforward(&p);
        let start = Eval::full(&p, &g).terms.uncovered;
        assert!(start > 0);
        let budget = Budget {
            patience: 200_000,
            max: 200_000,
            deadline: crate::deadline::Deadline::NONE,
            stop: None,
        };
        let out = improve(&p, &req, &mut g, budget, &mut Rng::seed_from_u64(1));
        assert_eq!(out.uncovered_before, start);
        assert_eq!(out.uncovered_after, 0, "{out:?}");
        assert_eq!(Eval::full(&p, &g).terms.uncovered, 0);
    }

    /// A run's time limit reaches into the walk: with the deadline passed,
    /// a walk that would take 10^9 moves stops before its first move's
    /// scan is done and still returns the best it saw.
    #[test]
    fn a_passed_deadline_stops_the_walk() {
        let p = torus([8, 8], "4x32");
        let req = Required::new(&p);
        let mut g = Genome::straightforward(&p);
        let budget = Budget {
            patience: 1_000_000_000,
            max: 1_000_000_000,
            deadline: crate::deadline::Deadline::now(),
            stop: None,
        };
        let out = improve(&p, &req, &mut g, budget, &mut Rng::seed_from_u64(1));
        assert_eq!(out.iterations, 1, "{out:?}");
        assert_eq!(Eval::full(&p, &g).terms.uncovered, out.uncovered_after);
    }
}
