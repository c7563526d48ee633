//! The grouped search for tight universal designs.
//!
//! A tight universal FNN repeats a few NIC sets: the constructions lay the
//! lines of a projective plane over groups of one or two PCs. A search over
//! single PCs must move the PCs of a group together, one NIC at a time,
//! and stalls a pair or two short. This search works one level up, like
//! the paper's scaled-down phase but with uneven groups: the PCs are split
//! into as many groups as there are switches (sizes differing by at most
//! one), every PC of a group gets the group's switches, and a switch's
//! load is the sum of the sizes of the groups on it. Two groups cover each
//! other's PCs when their sets meet; a group covers its own PCs always.
//!
//! It is a min-conflicts tabu search with breakout weights, as in
//! [`super::local`]: pick two groups whose sets are disjoint, try every way
//! of moving one of them onto a switch of the other (alone where the
//! switch has room, else exchanged with a group already there), score each
//! exactly from the intersection counts, and make the best move not tabu.
//! A grouped design that covers every pair scales up exactly: the loads
//! fit the ports by construction.

use super::Rng;
use super::genome::Genome;
use super::problem::Problem;
use super::strategy::{Budget, Context, Found, Strategy};
use crate::spec::Coverage;
use rand::RngExt;

/// How the PCs are grouped: `weight[g]` PCs in group `g`, each with `nics`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub nics: usize,
    pub weight: Vec<u32>,
}

impl Plan {
    /// The grouping of a problem where it applies: universal coverage,
    /// every PC with the same number of NICs, no pins. As many groups as
    /// switches (a plane has as many lines as points), or one per PC when
    /// there are fewer PCs.
    pub fn of(problem: &Problem) -> Option<Plan> {
        Plan::with_groups(problem, usize::MAX)
    }

    /// [`Plan::of`] with `groups` groups, within [`Plan::group_counts`].
    /// Fewer groups than switches suit designs no plane underlies: 40 PCs
    /// with 7 NICs on thirty-five 8-port switches (every port used) is
    /// found over 20-24 groups, and was 1-3 pairs short over 35.
    pub(crate) fn with_groups(problem: &Problem, groups: usize) -> Option<Plan> {
        let c = &problem.cluster;
        let (p, s) = (c.pcs(), c.switch_count());
        let nics = *c.nics.first()? as usize;
        let plain = c.coverage == Coverage::Universal && c.pins.is_empty();
        if !plain || nics < 2 || c.nics.iter().any(|&n| n as usize != nics) || s > 128 || s <= nics || p < 3 {
            return None;
        }
        let range = Plan::group_counts(problem);
        let g = groups.clamp(*range.start(), *range.end());
        let weight = (0..g).map(|k| (p * (k + 1) / g - p * k / g) as u32).collect();
        Some(Plan { nics, weight })
    }

    /// The group counts tried: from groups of two PCs (half the PCs) up to
    /// one group per switch or per PC.
    pub(crate) fn group_counts(problem: &Problem) -> std::ops::RangeInclusive<usize> {
        let c = &problem.cluster;
        let most = c.switch_count().min(c.pcs());
        c.pcs().div_ceil(2).min(most)..=most
    }

    /// The group of PC `pc` (contiguous groups, as `weight` counts them).
    pub(crate) fn group_of(&self, pc: usize, pcs: usize) -> usize {
        let g = self.weight.len();
        // Group g holds PCs p*g/G .. p*(g+1)/G.
        (0..g).find(|&k| pc < pcs * (k + 1) / g).unwrap_or(g - 1)
    }
}

/// A move: group `g` leaves switch `x` for `y`; if `h` is a group, it
/// leaves `y` for `x` in exchange.
#[derive(Clone, Copy, Debug)]
struct Move {
    g: usize,
    x: usize,
    y: usize,
    h: Option<usize>,
    /// Change in weighted disjoint pairs (the search's objective).
    delta: i64,
    /// Change in uncovered real PC pairs.
    plain: i64,
}

struct State {
    cap: Vec<u32>,
    weight: Vec<u32>,
    sets: Vec<u128>,
    load: Vec<u32>,
    /// |set g ∩ set h|, G x G.
    inter: Vec<u32>,
    /// Breakout weights of group pairs, G x G.
    pair: Vec<i64>,
    /// Uncovered real PC pairs.
    uncovered: u64,
    /// Iteration until which group g may not rejoin switch s (g * S + s).
    tabu: Vec<u64>,
    iteration: u64,
}

/// The grouped search as a strategy: at full size, on universal designs
/// it can express. Every other generation the groups are as many as the
/// switches (planes over groups); in between, a count drawn from the
/// range (designs with more PCs in pairs).
pub struct Grouped;

impl Strategy for Grouped {
    fn name(&self) -> &'static str {
        "grouped"
    }

    fn applies(&self, ctx: &Context<'_>) -> bool {
        ctx.scaled_generations.is_none()
            && ctx.budget.has_moves()
            && ctx.best_uncovered() > 0
            && Plan::of(ctx.full).is_some()
    }

    fn search(&self, ctx: &Context<'_>, rng: &mut Rng) -> Found {
        let counts = Plan::group_counts(ctx.full);
        let groups = match ctx.generation % 2 {
            0 => *counts.end(),
            _ => rng.random_range(counts),
        };
        let Some(plan) = Plan::with_groups(ctx.full, groups) else {
            return Found::default();
        };
        let budget = ctx.budget;
        let (g, out) = search(ctx.full, &plan, budget.patience, budget, rng);
        Found {
            members: g.into_iter().collect(),
            moves: out.iterations,
            ..Found::default()
        }
    }
}

/// What one grouped search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The fewest uncovered PC pairs it reached.
    pub uncovered: u64,
    pub iterations: u64,
}

/// Runs the grouped search from a random feasible grouping for at most
/// `max` moves; a genome of the full problem when it covers every pair.
pub fn search(problem: &Problem, plan: &Plan, max: u64, time: Budget<'_>, rng: &mut Rng) -> (Option<Genome>, Outcome) {
    let Some(mut s) = State::random(problem, plan, rng) else {
        return (None, Outcome::default());
    };
    let mut best = s.uncovered;
    while s.uncovered > 0 && s.iteration < max {
        s.iteration += 1;
        if s.iteration % 64 == 0 && time.spent() {
            break;
        }
        let Some(((a, b), m)) = s.choose(rng) else {
            continue;
        };
        if m.delta >= 0 {
            // A local minimum for this pair: make it count for more.
            let n = s.groups();
            s.pair[a * n + b] += 1;
            s.pair[b * n + a] += 1;
        }
        s.apply(m, rng);
        best = best.min(s.uncovered);
    }
    let out = Outcome {
        uncovered: best,
        iterations: s.iteration,
    };
    let genome = (s.uncovered == 0).then(|| s.genome(problem, plan));
    if genome.is_some() {
        time.found_valid();
    }
    (genome, out)
}

/// The set bits of a switch or point mask, lowest first.
pub(super) fn ones(mut mask: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let b = mask.trailing_zeros() as usize;
        (mask != 0).then(|| {
            mask &= mask - 1;
            b
        })
    })
}

impl State {
    /// Every group on the `nics` least loaded switches that fit it
    /// (heaviest groups first, ties at random); `None` if they do not fit.
    fn random(problem: &Problem, plan: &Plan, rng: &mut Rng) -> Option<State> {
        let cap: Vec<u32> = problem.cluster.switches.iter().map(|s| s.ports).collect();
        let (groups, switches) = (plan.weight.len(), cap.len());
        let mut load = vec![0u32; switches];
        let mut sets = vec![0u128; groups];
        let mut order: Vec<usize> = (0..groups).collect();
        order.sort_by_key(|&g| std::cmp::Reverse(plan.weight[g]));
        for g in order {
            let w = plan.weight[g];
            for _ in 0..plan.nics {
                let pick = (0..switches)
                    .filter(|&s| sets[g] >> s & 1 == 0 && load[s] + w <= cap[s])
                    .map(|s| (load[s] * 1024 / cap[s].max(1), rng.random_range(0..1024u32), s))
                    .min()?
                    .2;
                sets[g] |= 1 << pick;
                load[pick] += w;
            }
        }
        let mut s = State {
            cap,
            weight: plan.weight.clone(),
            sets,
            load,
            inter: vec![0; groups * groups],
            pair: vec![0; groups * groups],
            uncovered: 0,
            tabu: vec![0; groups * switches],
            iteration: 0,
        };
        for a in 0..groups {
            for b in 0..groups {
                s.inter[a * groups + b] = (s.sets[a] & s.sets[b]).count_ones();
                s.pair[a * groups + b] = i64::from(s.weight[a] * s.weight[b]);
            }
        }
        s.recount();
        Some(s)
    }

    fn groups(&self) -> usize {
        self.weight.len()
    }

    fn recount(&mut self) {
        let n = self.groups();
        let mut u = 0u64;
        for a in 0..n {
            for b in a + 1..n {
                if self.inter[a * n + b] == 0 {
                    u += u64::from(self.weight[a] * self.weight[b]);
                }
            }
        }
        self.uncovered = u;
    }

    fn on(&self, g: usize, s: usize) -> bool {
        self.sets[g] >> s & 1 == 1
    }

    /// (weighted, plain) change when group `g` leaves `x` for `y`, all
    /// other groups unchanged.
    fn delta(&self, g: usize, x: usize, y: usize) -> (i64, i64) {
        let n = self.groups();
        let mut d = (0, 0);
        for k in (0..n).filter(|&k| k != g) {
            let c = self.inter[g * n + k];
            let after = c + u32::from(self.on(k, y)) - u32::from(self.on(k, x));
            let change = i64::from(after == 0) - i64::from(c == 0);
            d.0 += change * self.pair[g * n + k];
            d.1 += change * i64::from(self.weight[g] * self.weight[k]);
        }
        d
    }

    /// A random pair of groups whose sets are disjoint.
    fn disjoint_pair(&self, rng: &mut Rng) -> Option<(usize, usize)> {
        let n = self.groups();
        let mut chosen = None;
        let mut seen = 0;
        for a in 0..n {
            for b in a + 1..n {
                if self.inter[a * n + b] == 0 {
                    seen += 1;
                    if rng.random_range(0..seen) == 0 {
                        chosen = Some((a, b));
                    }
                }
            }
        }
        chosen
    }

    /// A random disjoint pair and the best move that makes it meet: one
    /// group takes a switch of the other, alone or by exchange. Tabu moves
    /// only when they would reach a design with fewer uncovered pairs.
    fn choose(&self, rng: &mut Rng) -> Option<((usize, usize), Move)> {
        let (a, b) = self.disjoint_pair(rng)?;
        let n = self.groups();
        let switches = self.cap.len();
        let mut best: Option<(Move, u32)> = None;
        let mut consider = |m: Move, tabu: bool, rng: &mut Rng| {
            if tabu && self.uncovered as i64 + m.plain > 0 {
                return;
            }
            match &mut best {
                Some((b, ties)) if m.delta == b.delta => {
                    *ties += 1;
                    if rng.random_range(0..*ties) == 0 {
                        *b = m;
                    }
                }
                Some((b, _)) if m.delta > b.delta => {}
                _ => best = Some((m, 1)),
            }
        };
        for (u, v) in [(a, b), (b, a)] {
            let wu = self.weight[u];
            for y in ones(self.sets[v]) {
                let u_tabu = self.tabu[u * switches + y] > self.iteration;
                for x in ones(self.sets[u]) {
                    let (du, pu) = self.delta(u, x, y);
                    if self.load[y] + wu <= self.cap[y] {
                        let m = Move {
                            g: u,
                            x,
                            y,
                            h: None,
                            delta: du,
                            plain: pu,
                        };
                        consider(m, u_tabu, rng);
                    }
                    for k in (0..n).filter(|&k| k != u && self.on(k, y) && !self.on(k, x)) {
                        let wk = self.weight[k];
                        if self.load[y] - wk + wu > self.cap[y] || self.load[x] - wu + wk > self.cap[x] {
                            continue;
                        }
                        let (dk, pk) = self.delta(k, y, x);
                        // u and k swap x and y, so their own intersection
                        // stays; each one-sided delta counted it as gained.
                        let (fix, pfix) = if self.inter[u * n + k] == 0 {
                            (2 * self.pair[u * n + k], 2 * i64::from(wu * wk))
                        } else {
                            (0, 0)
                        };
                        let m = Move {
                            g: u,
                            x,
                            y,
                            h: Some(k),
                            delta: du + dk + fix,
                            plain: pu + pk + pfix,
                        };
                        let k_tabu = self.tabu[k * switches + x] > self.iteration;
                        consider(m, u_tabu || k_tabu, rng);
                    }
                }
            }
        }
        best.map(|(m, _)| ((a, b), m))
    }

    /// Moves group `g` from `x` to `y`, keeping loads and intersections.
    fn shift(&mut self, g: usize, x: usize, y: usize) {
        let n = self.groups();
        for k in (0..n).filter(|&k| k != g) {
            let c = self.inter[g * n + k] + u32::from(self.on(k, y)) - u32::from(self.on(k, x));
            self.inter[g * n + k] = c;
            self.inter[k * n + g] = c;
        }
        self.sets[g] = self.sets[g] & !(1 << x) | 1 << y;
        self.load[x] -= self.weight[g];
        self.load[y] += self.weight[g];
    }

    fn apply(&mut self, m: Move, rng: &mut Rng) {
        let switches = self.cap.len();
        // Tenure: long enough to leave a plateau, randomised so cycles break.
        let tenure = 4 + rng.random_range(0..8u64);
        self.shift(m.g, m.x, m.y);
        self.tabu[m.g * switches + m.x] = self.iteration + tenure;
        if let Some(h) = m.h {
            self.shift(h, m.y, m.x);
            self.tabu[h * switches + m.y] = self.iteration + tenure;
        }
        self.recount();
    }

    /// The full-size genome: every PC on its group's switches.
    fn genome(&self, problem: &Problem, plan: &Plan) -> Genome {
        let p = problem.pcs();
        let order: Vec<usize> = (0..p).collect();
        Genome::construct(problem, &order, &|pc| ones(self.sets[plan.group_of(pc, p)]).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ga::eval::Eval;
    use crate::spec::quick_cluster;
    use rand::SeedableRng;

    fn problem(pcs: usize, nics: u32, switches: &str) -> Problem {
        Problem::new(quick_cluster(pcs, nics, switches).unwrap())
    }

    #[test]
    fn groups_differ_by_at_most_one_and_cover_every_pc() {
        let p = problem(21, 4, "7x13");
        let plan = Plan::of(&p).unwrap();
        assert_eq!(plan.weight.iter().sum::<u32>(), 21);
        assert!(plan.weight.iter().all(|&w| w == 1 || w == 2));
        let counts = (0..21).fold(vec![0u32; 13], |mut c, pc| {
            c[plan.group_of(pc, 21)] += 1;
            c
        });
        assert_eq!(counts, plan.weight);
    }

    #[test]
    fn does_not_apply_to_sparse_pinned_or_small_problems() {
        assert_eq!(Plan::of(&problem(12, 3, "6x7")).map(|p| p.weight.len()), Some(7));
        assert_eq!(
            Plan::of(&problem(7, 3, "3x9")).map(|p| p.weight),
            Some(vec![1; 7]),
            "a group per PC"
        );
        let mut c = quick_cluster(12, 3, "6x7").unwrap();
        c.pins.set_forbid(0, 0);
        assert!(Plan::of(&Problem::new(c)).is_none(), "pinned");
        let mut c = quick_cluster(12, 3, "6x7").unwrap();
        c.coverage = Coverage::Sparse;
        assert!(Plan::of(&Problem::new(c)).is_none(), "sparse");
    }

    /// 21 PCs with 4 NICs on thirteen 7-port switches: PG(2,3) over
    /// groups of one and two PCs, where the PC-level tabu search stalls.
    #[test]
    fn finds_a_tight_plane_over_groups() {
        let p = problem(21, 4, "7x13");
        let plan = Plan::of(&p).unwrap();
        let mut rng = Rng::seed_from_u64(1);
        let (g, out) = search(&p, &plan, 200_000, Budget::NONE, &mut rng);
        let g = g.unwrap_or_else(|| panic!("{out:?}"));
        assert_eq!(Eval::full(&p, &g).terms.uncovered, 0);
        assert!(g.entries()[p.real_entries()..].is_empty(), "every NIC cabled");
    }
}
