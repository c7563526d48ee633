//! The cyclic search for tight universal designs.
//!
//! The grouped search ([`super::groups`]) stalls a few pairs short where a
//! design must be a projective or affine plane laid over groups of PCs:
//! finding a plane of order 5 by moving whole groups one switch at a time
//! is the hard core. Covering-design searches meet the same wall and get
//! past it by prescribing a symmetry (Kramer and Mesner): look only for
//! designs that a cyclic group maps onto themselves. Here the switches
//! are the residues mod `m` and so are the groups ("points"); switch `j`
//! holds the points `j + d` for `d` in one base set `D` of `nics`
//! residues. Two points `a`, `b` then share a switch exactly when `a - b`
//! is a difference of two elements of `D`, so the whole design is right
//! when the differences of `D` cover every nonzero residue: a search over
//! `nics` numbers instead of `pcs x nics` cables. Nothing here knows a
//! field or a plane; a random base set is improved by min-conflicts tabu
//! moves (swap one element), as the other local searches do.
//!
//! The PCs are then spread over the points (some points may stay empty)
//! so that no switch holds more PCs than it has ports, by a second small
//! min-conflicts search that moves one PC at a time off an overloaded
//! switch. With `m` one more than there are switches, the points of
//! switch 0 stay empty so that switch is never used (an affine plane is a
//! projective one without a line).
//!
//! Where no base set of `nics` residues fits the ports (7 NICs: no plane
//! of order 6 exists), a base set of `nics - 1` leaves every PC a NIC to
//! spare. The points then hold as many PCs as their switches' ports allow,
//! and the few they cannot ("leftovers") go on a handful of spare switches
//! together, each of the others joining one of those with its spare NIC:
//! 64 PCs with 7 NICs on 12 ports are 62 PCs two to a point of a plane of
//! order 5 and two leftovers on seven spare switches, 38 in all.

use super::Rng;
use super::genome::Genome;
use super::groups::ones;
use super::problem::Problem;
use super::strategy::{Budget, Context, Found, Strategy};
use crate::spec::Coverage;
use rand::RngExt;
use std::sync::{Mutex, PoisonError};

/// Where the cyclic search applies and the residue counts it may try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub nics: usize,
    pub ports: u32,
    pub switches: usize,
    pub pcs: usize,
    /// Candidate moduli, largest first: at most one more than the
    /// switches, at most `nics (nics - 1) + 1` (beyond it the differences
    /// cannot cover every residue), enough ports in all for every NIC.
    pub moduli: Vec<usize>,
    /// Moduli for base sets of `nics - 1` residues, largest first, where
    /// the leftovers fit on the switches the lines leave spare
    /// ([`Apex::of`]).
    pub spare_moduli: Vec<usize>,
}

impl Plan {
    /// Universal coverage, one NIC count, no pins, switches of one width.
    pub fn of(problem: &Problem) -> Option<Plan> {
        let c = &problem.cluster;
        let (pcs, switches) = (c.pcs(), c.switch_count());
        let nics = *c.nics.first()? as usize;
        let ports = c.switches.first()?.ports;
        let plain = c.coverage == Coverage::Universal && c.pins.is_empty();
        let even = c.nics.iter().all(|&n| n as usize == nics) && c.switches.iter().all(|s| s.ports == ports);
        if !plain || !even || nics < 2 || pcs < 3 || ports < 2 {
            return None;
        }
        let top = (switches + 1).min(nics * (nics - 1) + 1).min(MAX_MODULUS);
        let moduli: Vec<usize> = (nics + 1..=top)
            .rev()
            .filter(|&m| (m.min(switches) as u64) * u64::from(ports) >= (pcs * nics) as u64)
            .collect();
        let k = nics - 1;
        let spare_top = switches
            .saturating_sub(1)
            .min(k * k.saturating_sub(1) + 1)
            .min(MAX_MODULUS);
        let spare_moduli: Vec<usize> = if k >= 2 {
            (k + 1..=spare_top)
                .rev()
                .filter(|&m| Apex::of(m, k, pcs, ports, nics, switches).is_some())
                .collect()
        } else {
            Vec::new()
        };
        (!moduli.is_empty() || !spare_moduli.is_empty()).then_some(Plan {
            nics,
            ports,
            switches,
            pcs,
            moduli,
            spare_moduli,
        })
    }
}

/// How the PCs the points cannot hold are served: `leftovers` PCs on
/// every one of `spare` switches, the other PCs split among those.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Apex {
    pub leftovers: usize,
    pub spare: usize,
}

impl Apex {
    /// The shape for `m` lines of `k` points: the points hold at most
    /// `m ports / k` PCs (every line full); the rest are leftovers, and
    /// each spare switch takes them all plus `ports - leftovers` others,
    /// so ceil((pcs - leftovers) / (ports - leftovers)) spare switches,
    /// each a NIC of every leftover. `None` when that is more than the
    /// NICs or the switches the lines leave.
    pub fn of(m: usize, k: usize, pcs: usize, ports: u32, nics: usize, switches: usize) -> Option<Apex> {
        let ports = ports as usize;
        let leftovers = pcs.saturating_sub(m * ports / k);
        Apex::with(leftovers, pcs, ports, nics, switches.checked_sub(m)?)
    }

    fn with(leftovers: usize, pcs: usize, ports: usize, nics: usize, room: usize) -> Option<Apex> {
        if leftovers == 0 {
            return Some(Apex { leftovers, spare: 0 });
        }
        let spare = (pcs - leftovers).div_ceil(ports.checked_sub(leftovers).filter(|&r| r > 0)?);
        (spare <= nics && spare <= room).then_some(Apex { leftovers, spare })
    }
}

/// The cyclic search as a strategy. A design with a cyclic symmetry is
/// found in a few thousand moves or not at all, so it goes first. It also
/// serves a scaled problem (whose design scales up exactly); and since a
/// scaled size may have no design where the full size has a symmetric one
/// (52 PCs with 8 NICs on 9 ports: a plane of order 7 over single PCs),
/// every fourth scaled generation it also tries the full size, whose
/// design ends the scaled phase.
///
/// Under a time limit a generation may end before every modulus is
/// tried, so the next one goes on from the first untried: 53 PCs with 8
/// NICs on 51 switches have a design at the plan's last moduli, reached
/// at 0.76 s, and slices of 0.5 s started again from the first each time.
#[derive(Default)]
pub(crate) struct Cyclic {
    /// Where the searches of the active and of the full problem go on.
    active: Mutex<Option<Cursor>>,
    full: Mutex<Option<Cursor>>,
}

/// The plan a search worked through and the next modulus of it to try.
struct Cursor {
    plan: Plan,
    next: usize,
}

impl Cyclic {
    fn full_size_due(ctx: &Context<'_>) -> bool {
        ctx.scaled_generations.is_some_and(|g| g % 4 == 0)
    }

    /// The search of `problem`'s plan, from where the last generation's
    /// stopped if it worked through the same plan.
    fn go_on(cursor: &Mutex<Option<Cursor>>, problem: &Problem, budget: Budget<'_>, rng: &mut Rng) -> Option<Genome> {
        let plan = Plan::of(problem)?;
        let mut cursor = cursor.lock().unwrap_or_else(PoisonError::into_inner);
        let start = cursor.as_ref().filter(|c| c.plan == plan).map_or(0, |c| c.next);
        let moves = budget.patience.min(MAX_MOVES);
        let (found, next) = search_from(problem, &plan, start, moves, budget, rng);
        *cursor = Some(Cursor { plan, next });
        found
    }
}

impl Strategy for Cyclic {
    fn name(&self) -> &'static str {
        "cyclic"
    }

    fn restart(&self) {
        for cursor in [&self.active, &self.full] {
            *cursor.lock().unwrap_or_else(PoisonError::into_inner) = None;
        }
    }

    fn applies(&self, ctx: &Context<'_>) -> bool {
        ctx.budget.has_moves()
            && ctx.best_uncovered() > 0
            && (Plan::of(ctx.problem).is_some() || Cyclic::full_size_due(ctx) && Plan::of(ctx.full).is_some())
    }

    /// Where the full size is due too, it goes first with half the time:
    /// a full design ends the scaled phase at once (most plane-like sizes
    /// have one at a modulus of the plan), and the active size's moduli
    /// alone could take all the time every generation.
    fn search(&self, ctx: &Context<'_>, rng: &mut Rng) -> Found {
        let budget = ctx.budget.before_others();
        let mut found = Found::default();
        if Cyclic::full_size_due(ctx) {
            found.full = Cyclic::go_on(&self.full, ctx.full, budget.before_others(), rng);
            if found.full.is_some() {
                return found;
            }
        }
        found
            .members
            .extend(Cyclic::go_on(&self.active, ctx.problem, budget, rng));
        found
    }
}

/// Moves per modulus and search in one generation: a base set that exists
/// is found in a few thousand moves, and where none exists a longer walk
/// would only take time from the other searches.
pub(crate) const MAX_MOVES: u64 = 20_000;

/// Point and switch sets are kept as `u128` masks.
const MAX_MODULUS: usize = 128;

/// Runs both searches on each modulus of the plan in turn, each for at
/// most `max` moves, starting at the plan's `start`th modulus (the base
/// sets of `nics` residues, then those of `nics - 1`) and wrapping round:
/// a genome of the full problem once both succeed, and the modulus to
/// start from next (the first untried where the time ran out, `start`
/// after a whole round).
fn search_from(
    problem: &Problem,
    plan: &Plan,
    start: usize,
    max: u64,
    time: Budget<'_>,
    rng: &mut Rng,
) -> (Option<Genome>, usize) {
    let whole = plan.moduli.len();
    let tries = whole + plan.spare_moduli.len();
    for i in (start..tries).chain(0..start.min(tries)) {
        if time.spent() {
            return (None, i);
        }
        let found = match i.checked_sub(whole) {
            None => with_every_nic(problem, plan, plan.moduli[i], max, rng),
            Some(s) => with_spare_nic(problem, plan, plan.spare_moduli[s], max, rng),
        };
        if found.is_some() {
            return (found, i);
        }
    }
    (None, start.min(tries))
}

/// The search with a base set of `nics` residues mod `m`, every PC on a
/// point; with one residue more than switches, switch 0 (the points of
/// the base set) must stay empty.
fn with_every_nic(problem: &Problem, plan: &Plan, m: usize, max: u64, rng: &mut Rng) -> Option<Genome> {
    let base = difference_cover(m, plan.nics, max, rng)?;
    let empty = if m > plan.switches { mask(&base) } else { 0 };
    let sizes = spread(m, &base, empty, plan.pcs, plan.ports, max, rng)?;
    let used = (0..m).filter(|&j| base.iter().any(|&d| sizes[(j + d) % m] > 0)).count();
    (used <= plan.switches).then(|| genome(problem, m, &base, &sizes, Apex { leftovers: 0, spare: 0 }))
}

/// The search with a base set of `nics - 1` residues mod `m`: the points
/// hold what the ports allow and the leftovers share the spare switches
/// ([`Apex`]); if the points hold one PC fewer than every line full would,
/// one more leftover is tried.
fn with_spare_nic(problem: &Problem, plan: &Plan, m: usize, max: u64, rng: &mut Rng) -> Option<Genome> {
    let k = plan.nics - 1;
    let base = difference_cover(m, k, max, rng)?;
    let first = Apex::of(m, k, plan.pcs, plan.ports, plan.nics, plan.switches)?;
    (first.leftovers..first.leftovers + 2).find_map(|leftovers| {
        let room = plan.switches - m;
        let apex = Apex::with(leftovers, plan.pcs, plan.ports as usize, plan.nics, room)?;
        let sizes = spread(m, &base, 0, plan.pcs - leftovers, plan.ports, max, rng)?;
        Some(genome(problem, m, &base, &sizes, apex))
    })
}

fn mask(set: &[usize]) -> u128 {
    set.iter().fold(0, |acc, &x| acc | 1 << x)
}

/// The switches through point `a`: `a - d` for every `d` in the base set.
fn lines_through(m: usize, base: &[usize], a: usize) -> u128 {
    base.iter().fold(0, |acc, &d| acc | 1 << ((a + m - d) % m))
}

/// A set of `k` residues mod `m` whose differences cover every nonzero
/// residue, by min-conflicts tabu search; `None` after `max` moves.
pub(crate) fn difference_cover(m: usize, k: usize, max: u64, rng: &mut Rng) -> Option<Vec<usize>> {
    let mut s = Differences::random(m, k, rng);
    let mut tabu = vec![0u64; m];
    for it in 1..=max {
        if s.missing == 0 {
            return Some(s.set);
        }
        let (i, y) = s.best_swap(&tabu, it, rng)?;
        let x = s.set[i];
        s.swap(i, y);
        // The element taken out may not come back for a while.
        tabu[x] = it + 2 + rng.random_range(0..k as u64 + 2);
    }
    (s.missing == 0).then_some(s.set)
}

/// A base set and how often each residue occurs as a difference in it.
struct Differences {
    m: usize,
    set: Vec<usize>,
    count: Vec<u32>,
    missing: usize,
}

impl Differences {
    /// `0` and `k - 1` other residues at random (translating a base set
    /// changes nothing, so `0` stays in it).
    fn random(m: usize, k: usize, rng: &mut Rng) -> Self {
        let mut s = Differences {
            m,
            set: vec![0],
            count: vec![0; m],
            missing: 0,
        };
        // Each element counted against those before it: every pair once.
        while s.set.len() < k {
            let x = rng.random_range(1..m);
            if !s.set.contains(&x) {
                s.set.push(x);
                s.add(s.set.len() - 1, 1);
            }
        }
        s.missing = (1..m).filter(|&r| s.count[r] == 0).count();
        s
    }

    /// Counts (sign +1) or uncounts (-1) the differences between element
    /// `i` and every other element.
    fn add(&mut self, i: usize, sign: i32) {
        let (m, x) = (self.m, self.set[i]);
        for (j, &a) in self.set.iter().enumerate() {
            if j != i {
                for r in [(x + m - a) % m, (a + m - x) % m] {
                    self.count[r] = (self.count[r] as i32 + sign) as u32;
                }
            }
        }
    }

    fn swap(&mut self, i: usize, y: usize) {
        self.add(i, -1);
        self.set[i] = y;
        self.add(i, 1);
        self.missing = (1..self.m).filter(|&r| self.count[r] == 0).count();
    }

    /// The swap (position, new residue) leaving the fewest residues
    /// missing, ties at random; tabu residues only if they finish.
    fn best_swap(&mut self, tabu: &[u64], it: u64, rng: &mut Rng) -> Option<(usize, usize)> {
        let m = self.m;
        let mut best = Pick::default();
        let mut seen = vec![0u64; m];
        let mut stamp = 0u64;
        for i in 1..self.set.len() {
            self.add(i, -1);
            let base = (1..m).filter(|&r| self.count[r] == 0).count();
            for y in (1..m).filter(|y| !self.set.contains(y)) {
                // Residues newly covered by y's differences, each once.
                stamp += 1;
                let mut gained = 0;
                for (j, &a) in self.set.iter().enumerate() {
                    if j == i {
                        continue;
                    }
                    for r in [(y + m - a) % m, (a + m - y) % m] {
                        if self.count[r] == 0 && seen[r] != stamp {
                            seen[r] = stamp;
                            gained += 1;
                        }
                    }
                }
                let after = base - gained;
                if tabu[y] > it && after > 0 {
                    continue;
                }
                best.offer(after as i64, (i, y), rng);
            }
            self.add(i, 1);
        }
        best.item
    }
}

/// How many PCs sit on each point so that every switch `j` (the points
/// `j + d`) holds at most `plan.ports`; points in `empty` hold none.
/// Min-conflicts: move one PC off an overloaded switch to the point that
/// overloads least. `None` after `max` moves.
fn spread(m: usize, base: &[usize], empty: u128, pcs: usize, cap: u32, max: u64, rng: &mut Rng) -> Option<Vec<u32>> {
    let free: Vec<usize> = (0..m).filter(|&a| empty >> a & 1 == 0).collect();
    let through: Vec<u128> = (0..m).map(|a| lines_through(m, base, a)).collect();
    // Round robin over the free points in a random order keeps the sizes
    // within one of each other.
    let mut order = free.clone();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.random_range(0..=i));
    }
    let mut sizes = vec![0u32; m];
    for k in 0..pcs {
        sizes[order[k % order.len()]] += 1;
    }
    let mut load = vec![0u32; m];
    for a in 0..m {
        for j in ones(through[a]) {
            load[j] += sizes[a];
        }
    }
    let excess = |load: &[u32]| load.iter().map(|&l| l.saturating_sub(cap)).sum::<u32>();
    let mut tabu = vec![0u64; m];
    for it in 1..=max {
        if excess(&load) == 0 {
            return Some(sizes);
        }
        let over: Vec<usize> = (0..m).filter(|&j| load[j] > cap).collect();
        let j = over[rng.random_range(0..over.len())];
        let mut best = Pick::default();
        for &a in free.iter().filter(|&&a| sizes[a] > 0 && through[a] >> j & 1 == 1) {
            for &b in free.iter().filter(|&&b| b != a) {
                let (la, lb) = (through[a] & !through[b], through[b] & !through[a]);
                let gain = ones(la).filter(|&x| load[x] > cap).count() as i64;
                let cost = ones(lb).filter(|&x| load[x] >= cap).count() as i64;
                let delta = cost - gain;
                if tabu[b] > it && excess(&load) as i64 + delta > 0 {
                    continue;
                }
                best.offer(delta, (a, b), rng);
            }
        }
        let (a, b) = best.item?;
        sizes[a] -= 1;
        sizes[b] += 1;
        for x in ones(through[a]) {
            load[x] -= 1;
        }
        for x in ones(through[b]) {
            load[x] += 1;
        }
        // A PC just taken off `a` may not be put back at once.
        tabu[a] = it + 1 + rng.random_range(0..4u64);
    }
    (excess(&load) == 0).then_some(sizes)
}

/// The lowest-keyed move offered so far, ties broken uniformly at random
/// (reservoir sampling), so equal moves do not always favour the first.
struct Pick<T> {
    key: i64,
    item: Option<T>,
    ties: u32,
}

impl<T> Default for Pick<T> {
    fn default() -> Self {
        Pick {
            key: i64::MAX,
            item: None,
            ties: 0,
        }
    }
}

impl<T> Pick<T> {
    fn offer(&mut self, key: i64, item: T, rng: &mut Rng) {
        if key < self.key {
            (self.key, self.item, self.ties) = (key, Some(item), 1);
        } else if key == self.key {
            self.ties += 1;
            if rng.random_range(0..self.ties) == 0 {
                self.item = Some(item);
            }
        }
    }
}

/// The full-size genome: the PCs laid over the points in order, each on
/// the switches through its point; the used switches of the residue
/// design numbered in order onto the cluster's switches. With an apex,
/// the last `leftovers` PCs are on every spare switch (numbered after the
/// lines) and the others take turns on them.
fn genome(problem: &Problem, m: usize, base: &[usize], sizes: &[u32], apex: Apex) -> Genome {
    let mut load = vec![0u32; m];
    let mut point = Vec::with_capacity(problem.pcs());
    for (a, &n) in sizes.iter().enumerate() {
        point.extend(std::iter::repeat_n(a, n as usize));
        for j in ones(lines_through(m, base, a)) {
            load[j] += n;
        }
    }
    let mut switch = vec![usize::MAX; m];
    let mut next = 0;
    for j in (0..m).filter(|&j| load[j] > 0) {
        switch[j] = next;
        next += 1;
    }
    let order: Vec<usize> = (0..problem.pcs()).collect();
    let spares: Vec<usize> = (next..next + apex.spare).collect();
    Genome::construct(problem, &order, &|pc| match point.get(pc) {
        Some(&a) => {
            let lines = ones(lines_through(m, base, a)).map(|j| switch[j]);
            lines.chain(spares.get(pc % apex.spare.max(1)).copied()).collect()
        }
        None => spares.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ga::eval::Eval;
    use crate::spec::quick_cluster;
    use rand::SeedableRng;

    /// How often each nonzero residue is a difference of `set`, counted
    /// afresh (not by the search's own bookkeeping).
    fn differences(m: usize, set: &[usize]) -> Vec<u32> {
        let mut c = vec![0; m];
        for &a in set {
            for &b in set.iter().filter(|&&b| b != a) {
                c[(a + m - b) % m] += 1;
            }
        }
        c
    }

    /// Where `m = k(k-1)+1` a cover is a planar difference set: every
    /// nonzero residue exactly once (the lines of a projective plane of
    /// order k-1). Orders 4, 5 and 7.
    #[test]
    fn finds_planar_difference_sets() {
        for (m, k) in [(21, 5), (31, 6), (57, 8)] {
            for seed in 1..=3 {
                let mut rng = Rng::seed_from_u64(seed);
                let set = (0..20)
                    .find_map(|_| difference_cover(m, k, MAX_MOVES, &mut rng))
                    .unwrap_or_else(|| panic!("no cover mod {m} of {k}, seed {seed}"));
                assert_eq!(set.len(), k);
                let c = differences(m, &set);
                assert!(c[1..].iter().all(|&n| n == 1), "mod {m}: {set:?} gives {c:?}");
            }
        }
    }

    #[test]
    fn no_cover_where_the_differences_are_too_few() {
        // 5 elements give 20 differences; 21 nonzero residues mod 22.
        let mut rng = Rng::seed_from_u64(1);
        assert_eq!(difference_cover(22, 5, 2_000, &mut rng), None);
    }

    /// 52 PCs on the 31 points of a plane of order 5 with 11 ports: 21
    /// points hold two PCs, and every line must keep one single.
    #[test]
    fn spread_fits_the_ports() {
        let mut rng = Rng::seed_from_u64(2);
        let base = (0..20)
            .find_map(|_| difference_cover(31, 6, MAX_MOVES, &mut rng))
            .unwrap();
        let sizes = spread(31, &base, 0, 52, 11, MAX_MOVES, &mut rng).expect("a spread");
        assert_eq!(sizes.iter().sum::<u32>(), 52);
        for j in 0..31 {
            let load: u32 = base.iter().map(|&d| sizes[(j + d) % 31]).sum();
            assert!(load <= 11, "switch {j} holds {load}");
        }
    }

    /// 48 PCs with 6 NICs on thirty 10-port switches: an affine plane of
    /// order 5 over groups (one line of the projective plane left empty).
    #[test]
    fn the_cyclic_search_builds_a_valid_full_design() {
        let p = Problem::new(quick_cluster(48, 6, "10x30").unwrap());
        let plan = Plan::of(&p).unwrap();
        assert_eq!(plan.moduli[0], 31, "one more residue than switches");
        let mut rng = Rng::seed_from_u64(1);
        let g = (0..20)
            .find_map(|_| search_from(&p, &plan, 0, MAX_MOVES, Budget::NONE, &mut rng).0)
            .expect("a design");
        let e = Eval::full(&p, &g);
        assert_eq!(e.terms.uncovered, 0);
        assert!(g.entries()[p.real_entries()..].is_empty(), "every NIC cabled");
    }

    /// 64 PCs with 7 NICs on thirty-eight 12-port switches: no base set
    /// of 7 fits, but one of 6 mod 31 (a plane of order 5) holds 62 PCs,
    /// two to a point, and the two leftovers share seven spare switches,
    /// each of the 62 joining one of them with its seventh NIC.
    #[test]
    fn leftovers_share_the_spare_switches() {
        let p = Problem::new(quick_cluster(64, 7, "12x38").unwrap());
        let plan = Plan::of(&p).unwrap();
        assert_eq!(plan.spare_moduli.first(), Some(&31));
        assert_eq!(Apex::of(31, 6, 64, 12, 7, 38), Some(Apex { leftovers: 2, spare: 7 }));
        // Thirty-seven switches leave six spare, one too few.
        assert_eq!(Apex::of(31, 6, 64, 12, 7, 37), None);
        let mut rng = Rng::seed_from_u64(1);
        let g = (0..20)
            .find_map(|_| with_spare_nic(&p, &plan, 31, MAX_MOVES, &mut rng))
            .expect("a design");
        assert_eq!(Eval::full(&p, &g).terms.uncovered, 0);
    }

    /// 53 PCs with 8 NICs on fifty-one 9-port switches: the plan's
    /// second modulus has a design, found at once from there; with the
    /// time up nothing is tried and the search would go on from where it
    /// was asked to start.
    #[test]
    fn a_search_goes_on_from_the_modulus_it_is_given() {
        let p = Problem::new(quick_cluster(53, 8, "9x51").unwrap());
        let plan = Plan::of(&p).unwrap();
        let mut rng = Rng::seed_from_u64(1);
        let (g, next) = search_from(&p, &plan, 1, MAX_MOVES, Budget::NONE, &mut rng);
        assert_eq!(next, 1, "found at the modulus it started from");
        assert_eq!(Eval::full(&p, &g.expect("a design")).terms.uncovered, 0);
        let up = Budget::time(crate::deadline::Deadline::now());
        assert_eq!(search_from(&p, &plan, 5, MAX_MOVES, up, &mut rng), (None, 5));
    }

    /// Where the full size has a cyclic design, the first generation that
    /// tries it ends the scaled phase: the scaled size tried first found
    /// its own design and left the full size for a later generation.
    #[test]
    fn a_full_design_ends_the_scaled_phase_at_once() {
        let mut e = crate::ga::Engine::new(quick_cluster(64, 4, "25x11").unwrap());
        assert!(matches!(e.phase(), crate::ga::Phase::Scaled { .. }));
        e.step();
        assert!(e.is_valid(), "uncovered {}", e.best().terms().uncovered);
    }

    /// Where the last generation stopped on the same plan, the next goes
    /// on from there; after a restart, and on another plan, it starts
    /// from the first modulus.
    #[test]
    fn the_next_generation_goes_on_where_the_last_stopped() {
        let p = Problem::new(quick_cluster(53, 8, "9x51").unwrap());
        let other = Problem::new(quick_cluster(53, 8, "9x52").unwrap());
        let population = vec![crate::ga::Member::new(&p, Genome::straightforward(&p))];
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let up = Budget {
            patience: 1_000,
            max: 1_000,
            ..Budget::time(crate::deadline::Deadline::now())
        };
        let next_after = |problem: &Problem, restarted: bool| {
            let cyclic = Cyclic::default();
            *cyclic.active.lock().unwrap() = Some(Cursor {
                plan: Plan::of(&p).unwrap(),
                next: 5,
            });
            if restarted {
                cyclic.restart();
            }
            let ctx = Context::first(
                problem,
                &population,
                up,
                crate::deadline::Deadline::NONE,
                &cancel,
                &pool,
            );
            let found = cyclic.search(&ctx, &mut Rng::seed_from_u64(1));
            assert!(found.members.is_empty(), "the time was up");
            let cursor = cyclic.active.lock().unwrap();
            cursor.as_ref().map(|c| c.next)
        };
        assert_eq!(next_after(&p, false), Some(5), "goes on");
        assert_eq!(next_after(&p, true), Some(0), "a restart");
        assert_eq!(next_after(&other, false), Some(0), "another plan");
    }

    #[test]
    fn applies_to_plain_universal_problems_only() {
        let p = |pcs, nics, sw: &str| Problem::new(quick_cluster(pcs, nics, sw).unwrap());
        assert!(Plan::of(&p(35, 5, "9x21")).is_some());
        let mut c = quick_cluster(35, 5, "9x21").unwrap();
        c.coverage = Coverage::Sparse;
        assert!(Plan::of(&Problem::new(c)).is_none(), "sparse");
        let mut c = quick_cluster(35, 5, "9x21").unwrap();
        c.pins.set_forbid(0, 0);
        assert!(Plan::of(&Problem::new(c)).is_none(), "pinned");
        let mut c = quick_cluster(35, 5, "9x21").unwrap();
        c.nics[0] = 4;
        assert!(Plan::of(&Problem::new(c)).is_none(), "mixed NIC counts");
        // Moduli need enough ports on the switches they use: 35 x 5 NICs
        // need 20 of 21 nine-port switches, and 21 residues at most.
        assert_eq!(Plan::of(&p(35, 5, "9x21")).unwrap().moduli, vec![21, 20]);
    }
}
