//! The model by NIC set, for universal coverage with interchangeable PCs.
//!
//! A universal FNN is an intersecting family: each PC is the set of
//! switches it is cabled to, and every two sets meet. When every PC has the
//! same NIC count and nothing is pinned, which PC has which set does not
//! matter, only how many PCs have each set. So: a boolean `used[t]` and a
//! binary count per possible set `t`; two disjoint sets are never both
//! used; the counts add up to the PCs; each switch's count of PCs stays
//! within its ports (pseudo-Boolean). One used set is relabelled onto the
//! first switches when the switches are interchangeable.

use super::model::{Built, Interrupted, Model, is_true};
use super::per_pc;
use super::size::Size;
use crate::design::Design;
use crate::spec::{Cluster, Coverage};
use rustsat::instances::SatInstance;
use rustsat::types::Lit;
use rustsat::types::constraints::PbConstraint;

/// Above this many candidate sets the model is too big to be the better one.
const MAX_TYPES: usize = 5000;
/// The most covers of one size tried for cuts.
const MAX_CUTS: usize = 2000;

/// The candidate NIC sets, if the model applies to the cluster: every
/// NIC cabled means sets of exactly n switches, else as few as can still
/// reach every other PC.
fn candidate_sets(c: &Cluster) -> Option<Vec<u64>> {
    let p = c.pcs();
    let n = *c.nics.first()? as usize;
    let s = c.switch_count();
    let fits =
        c.coverage == Coverage::Universal && c.pins.is_empty() && p >= 2 && c.nics.iter().all(|&k| k as usize == n);
    if !fits || s > 63 || n == 0 {
        return None;
    }
    let lo = per_pc::least_nics(c, 0).max(1);
    sets_of(s, lo, n.min(s), MAX_TYPES)
}

/// The bits of each set's binary count.
fn count_bits(c: &Cluster) -> usize {
    let widest = c.switches.iter().map(|x| x.ports as usize).max().unwrap_or(0);
    (usize::BITS - c.pcs().min(widest).leading_zeros()) as usize
}

/// What [`build`] will make for `c`, if the model applies: the clauses
/// counted as the build makes them, each pseudo-Boolean constraint
/// estimated as its terms times its bound (the generalized totalizer's
/// size on these sums of powers of two, measured).
pub(super) fn estimate(c: &Cluster) -> Option<Size> {
    let sets = candidate_sets(c)?;
    let t = sets.len() as u64;
    let bits = count_bits(c) as u64;
    let p = c.pcs() as u64;
    let mut total = Size::variables(t * (1 + bits)) + Size::clauses(t * bits, 2) + Size::clauses(t, bits + 1);
    let disjoint: u64 = (0..sets.len())
        .map(|a| sets[a + 1..].iter().filter(|&&b| sets[a] & b == 0).count() as u64)
        .sum();
    total += Size::clauses(disjoint, 2);
    let pb = |keep: &dyn Fn(u64) -> bool, bound: u64| {
        let terms = sets.iter().filter(|&&set| keep(set)).count() as u64 * bits;
        let cells = terms.saturating_mul(bound.saturating_add(1));
        Size::variables(cells / 2) + Size::clauses(cells, 3)
    };
    total += pb(&|_| true, p).times(2);
    for (sw, least) in per_pc::least_loads(c).into_iter().enumerate() {
        let on = |set: u64| set >> sw & 1 == 1;
        total += pb(&on, c.switches[sw].ports.into());
        if least > 0 {
            total += pb(&on, least as u64);
        }
    }
    let s = c.switch_count();
    let n = c.nics[0] as usize;
    for cover in (1..n).filter_map(|k| sets_of(s, k, k, MAX_CUTS)).flatten() {
        let ports: u64 = (0..s)
            .filter(|&x| cover >> x & 1 == 1)
            .map(|x| u64::from(c.switches[x].ports))
            .sum();
        if ports < p {
            total += Size::clauses(1, t);
            if cover.count_ones() <= 2 {
                total += pb(&|set| set & cover == 0, p - ports);
            }
        }
    }
    Some(total)
}

/// The model, if the cluster is one it applies to; [`Interrupted`] as
/// soon as `stop` says so.
pub(super) fn build(c: &Cluster, stop: &dyn Fn() -> bool) -> Result<Option<Built>, Interrupted> {
    let p = c.pcs();
    let s = c.switch_count();
    let Some(sets) = candidate_sets(c) else { return Ok(None) };
    let n = c.nics[0] as usize;
    let lo = per_pc::least_nics(c, 0).max(1);
    let mut inst = SatInstance::new();
    let bits = count_bits(c);
    let used: Vec<Lit> = sets.iter().map(|_| inst.new_lit()).collect();
    let count: Vec<Vec<Lit>> = sets
        .iter()
        .map(|_| (0..bits).map(|_| inst.new_lit()).collect())
        .collect();
    for (t, bits) in count.iter().enumerate() {
        for &b in bits {
            inst.add_lit_impl_lit(b, used[t]);
        }
        inst.add_lit_impl_clause(used[t], bits);
    }
    disjoint_sets_exclude(&sets, &used, &mut inst, stop)?;
    let terms = |keep: &dyn Fn(u64) -> bool| -> Vec<(Lit, isize)> {
        sets.iter()
            .zip(&count)
            .filter(|(set, _)| keep(**set))
            .flat_map(|(_, bits)| bits.iter().enumerate().map(|(k, &l)| (l, 1isize << k)))
            .collect()
    };
    inst.add_pb_constr(PbConstraint::new_eq(terms(&|_| true), p as isize));
    for (sw, least) in per_pc::least_loads(c).into_iter().enumerate() {
        let on = |set: u64| set >> sw & 1 == 1;
        inst.add_pb_constr(PbConstraint::new_ub(terms(&on), c.switches[sw].ports as isize));
        if least > 0 {
            inst.add_pb_constr(PbConstraint::new_lb(terms(&on), least as isize));
        }
    }
    cover_cuts(c, &sets, &used, &terms, &mut inst);
    // Interchangeable switches: some used set can be relabelled onto the
    // first switches (0..k for its size k).
    if c.switches.iter().all(|x| x.ports == c.switches[0].ports) {
        let prefixes: Vec<Lit> = (lo..=n.min(s))
            .filter_map(|k| sets.iter().position(|&set| set == (1u64 << k) - 1))
            .map(|t| used[t])
            .collect();
        inst.add_nary(&prefixes);
    }
    let decode = decoder(p, s, sets, count);
    Ok(Some(Built {
        instance: inst,
        model: Model::Types,
        decode,
    }))
}

/// Two sets of switches with none in common cannot both be used: their
/// PCs would share no switch.
fn disjoint_sets_exclude(
    sets: &[u64],
    used: &[Lit],
    inst: &mut SatInstance,
    stop: &dyn Fn() -> bool,
) -> Result<(), Interrupted> {
    for a in 0..sets.len() {
        if stop() {
            return Err(Interrupted);
        }
        for b in a + 1..sets.len() {
            if sets[a] & sets[b] == 0 {
                inst.add_binary(!used[a], !used[b]);
            }
        }
    }
    Ok(())
}

/// The design an assignment stands for: the counted PCs of each set, in
/// set order, take the next PC numbers.
fn decoder(
    p: usize,
    switches: usize,
    sets: Vec<u64>,
    count: Vec<Vec<Lit>>,
) -> Box<dyn Fn(&rustsat::types::Assignment) -> Design + Send> {
    Box::new(move |a: &rustsat::types::Assignment| {
        let mut d = Design::new(p, switches);
        let mut pc = 0;
        for (set, bits) in sets.iter().zip(&count) {
            let k: usize = bits
                .iter()
                .enumerate()
                .filter(|(_, l)| is_true(a, **l))
                .map(|(i, _)| 1 << i)
                .sum();
            for _ in 0..k {
                for x in (0..switches).filter(|&x| set >> x & 1 == 1) {
                    if pc < p {
                        d.connect(pc, x);
                    }
                }
                pc += 1;
            }
        }
        d
    })
}

/// The weighted count literals of the sets a predicate keeps.
type Terms<'a> = dyn Fn(&dyn Fn(u64) -> bool) -> Vec<(Lit, isize)> + 'a;

/// Implied: for a set `A` of fewer switches than NICs whose ports together are
/// fewer than the PCs, not every PC can be on `A`, so the PCs whose set
/// avoids `A` number at least `P - ports(A)` (and some used set avoids it).
/// An intersecting family with a small cover is then ruled out at once
/// instead of by arithmetic the solver would have to rediscover.
fn cover_cuts(c: &Cluster, sets: &[u64], used: &[Lit], terms: &Terms, inst: &mut SatInstance) {
    let s = c.switch_count();
    let p = c.pcs() as isize;
    let n = c.nics[0] as usize;
    let covers = (1..n).filter_map(|k| sets_of(s, k, k, MAX_CUTS)).flatten();
    for cover in covers {
        let ports: isize = (0..s)
            .filter(|&x| cover >> x & 1 == 1)
            .map(|x| c.switches[x].ports as isize)
            .sum();
        if ports >= p {
            continue;
        }
        let avoiding: Vec<Lit> = sets
            .iter()
            .zip(used)
            .filter(|(set, _)| **set & cover == 0)
            .map(|(_, &u)| u)
            .collect();
        inst.add_nary(&avoiding);
        // As counts only for one or two switches: with more, the encodings
        // grow past what they save.
        if cover.count_ones() <= 2 {
            inst.add_pb_constr(PbConstraint::new_lb(terms(&|set| set & cover == 0), p - ports));
        }
    }
}

/// Every set of `lo..=hi` of `s` switches as a bitmask, or `None` past `max`.
fn sets_of(s: usize, lo: usize, hi: usize, max: usize) -> Option<Vec<u64>> {
    let mut out = Vec::new();
    for k in lo..=hi {
        // Gosper's hack: the next mask with the same number of bits.
        let mut m: u64 = (1u64 << k) - 1;
        while m < 1u64 << s {
            out.push(m);
            if out.len() > max {
                return None;
            }
            let c = m & m.wrapping_neg();
            let r = m + c;
            m = (((r ^ m) >> 2) / c) | r;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_are_every_subset_of_the_sizes_asked() {
        let sets = sets_of(7, 3, 3, 100).unwrap();
        assert_eq!(sets.len(), 35);
        assert!(sets.iter().all(|m| m.count_ones() == 3 && *m < 128));
        assert_eq!(sets_of(5, 1, 2, 100).unwrap().len(), 15);
        assert_eq!(sets_of(30, 6, 6, 5000), None, "too many to list");
    }
}
