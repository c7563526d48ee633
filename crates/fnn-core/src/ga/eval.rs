//! The evaluation (the GA's fitness, after the FNN compiler paper): a
//! weighted sum of terms the user edits live. Shared switches between two
//! PCs are popcount(a & b).
//!
//! The state kept per member is enough to update the terms from the rows
//! of the PCs a mutation touched: a histogram of shared-link counts over the
//! required pairs, the pattern-weighted link sum, ports used per switch, and
//! per PC the number of required partners it lacks (the problem spots that
//! mutation prefers to change).

use super::genome::Genome;
use super::problem::Problem;
use super::{band_rows, wide_row};
use crate::design::bits;
use crate::spec::{Coverage, Weights};
use multiversion::multiversion;
use serde::{Deserialize, Serialize};

/// Each term of the evaluation, before weighting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Terms {
    /// Required pairs with no shared switch.
    pub uncovered: u64,
    /// Weighted average shared links over the pattern pairs (all pairs if none).
    pub bandwidth: f64,
    /// Links of the weakest pattern pair (weakest required pair if no pattern).
    pub weakest: u32,
    /// Spread of switch fill: standard deviation of used/ports, 0..1.
    pub balance: f64,
    /// Cost of the hardware used relative to the whole inventory, 0..1.
    pub cost: f64,
    /// Fraction of required pairs that share two or more switches.
    pub redundancy: f64,
    /// Share of cables leaving their PC's reference rack, 0..1.
    pub crossings: f64,
}

impl Terms {
    pub fn total(&self, w: &Weights) -> f64 {
        -w.uncovered * self.uncovered as f64 + w.bandwidth * self.bandwidth + w.weakest * self.weakest as f64
            - w.balance * self.balance
            - w.cost * self.cost
            + w.redundancy * self.redundancy
            - w.rack_crossings * self.crossings
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Eval {
    /// Universal coverage: all pairs by shared-link count.
    all_hist: Vec<i64>,
    /// Explicit pattern pairs by shared-link count.
    pat_hist: Vec<i64>,
    /// Sum over explicit pattern pairs of weight x links (thousandths).
    pat_sum: i64,
    /// Required partners each PC has no switch in common with.
    pub lacking: Vec<u32>,
    used: Vec<u32>,
    /// Cables leaving their PC's reference rack.
    crossing_cables: i64,
    pub terms: Terms,
    pub total: f64,
}

impl Eval {
    /// Evaluates every pair: P(P-1)/2 AND+popcount operations.
    pub fn full(problem: &Problem, g: &Genome) -> Eval {
        let c = &problem.cluster;
        let p = problem.pcs();
        let bins = c.max_nics() as usize + 1;
        let mut e = Eval {
            all_hist: vec![0; bins],
            pat_hist: vec![0; bins],
            pat_sum: 0,
            lacking: vec![0; p],
            used: vec![0; problem.switches()],
            crossing_cables: (0..p).map(|pc| problem.crossings(pc, g.mask(problem, pc)) as i64).sum(),
            terms: Terms::default(),
            total: 0.0,
        };
        for i in 0..problem.real_entries() {
            if g.entries()[i] != super::genome::FREE {
                e.used[problem.switch_of(i) as usize] += 1;
            }
        }
        if c.coverage == Coverage::Universal {
            add_all_pairs(&mut e, problem, g);
        }
        add_pattern_pairs(&mut e, problem, g);
        e.finish(problem);
        e
    }

    fn pattern_pair(&mut self, coverage: Coverage, a: usize, b: usize, w: i64, links: u32, sign: i64) {
        self.pat_hist[links as usize] += sign;
        self.pat_sum += sign * w * links as i64;
        if coverage == Coverage::Sparse && links == 0 {
            self.lacking[a] = self.lacking[a].wrapping_add(sign as u32);
            self.lacking[b] = self.lacking[b].wrapping_add(sign as u32);
        }
    }

    /// Adds (`sign` = 1) or removes (-1) every pair involving a PC in
    /// `rows`; pairs between two listed PCs are counted once.
    pub fn rows(&mut self, problem: &Problem, g: &Genome, rows: &[usize], sign: i64) {
        add_rows(self, problem, g, rows, sign);
    }

    /// One pair's share of the all-pairs aggregates.
    fn all_pair(&mut self, a: usize, b: usize, links: u32, sign: i64) {
        self.all_hist[links as usize] += sign;
        if links == 0 {
            self.lacking[a] = self.lacking[a].wrapping_add(sign as u32);
            self.lacking[b] = self.lacking[b].wrapping_add(sign as u32);
        }
    }

    /// Exchanges entries `i` and `j` of `g` and updates the evaluation from
    /// the touched rows only. Returns false (and changes nothing) when the
    /// exchange would break a rule.
    pub fn swap(&mut self, problem: &Problem, g: &mut Genome, i: usize, j: usize) -> bool {
        if !g.can_swap(problem, i, j) {
            return false;
        }
        let touched = touched(g, i, j);
        self.rows(problem, g, &touched, -1);
        self.note_ports(problem, g, i, j);
        g.swap(problem, i, j);
        self.rows(problem, g, &touched, 1);
        self.finish(problem);
        true
    }

    /// Port accounting for an exchange about to happen: a PC moving onto a
    /// free port or to the dummy switch changes the ports in use.
    pub(crate) fn note_ports(&mut self, problem: &Problem, g: &Genome, i: usize, j: usize) {
        let free = super::genome::FREE;
        let (x, y) = (problem.switch_of(i), problem.switch_of(j));
        let (p, q) = (g.entries()[i], g.entries()[j]);
        let dummy = super::problem::DUMMY_SWITCH;
        for (pc, from, to) in [(p, x, y), (q, y, x)] {
            if pc == free {
                continue;
            }
            if from != dummy {
                self.used[from as usize] -= 1;
            }
            if to != dummy {
                self.used[to as usize] += 1;
            }
        }
    }

    /// Recomputes the terms and the total from the kept aggregates.
    pub fn finish(&mut self, problem: &Problem) {
        let c = &problem.cluster;
        let p = problem.pcs() as i64;
        let all_pairs = p * (p - 1) / 2;
        let pattern_pairs = c.pattern.pair_count() as i64;
        let (hist, required) = match c.coverage {
            Coverage::Universal => (&self.all_hist, all_pairs),
            Coverage::Sparse => (&self.pat_hist, pattern_pairs),
        };
        let uncovered = hist[0].max(0) as u64;
        let ones = hist.get(1).copied().unwrap_or(0);
        let total_links: i64 = self.used.iter().map(|&u| u as i64 * (u as i64 - 1) / 2).sum();
        let a2a = c.pattern.all_to_all();
        let pattern_weight = a2a * all_pairs + c.pattern.total_weight();
        let bandwidth = if pattern_weight > 0 {
            (a2a * total_links + self.pat_sum) as f64 / pattern_weight as f64
        } else if all_pairs > 0 {
            total_links as f64 / all_pairs as f64
        } else {
            0.0
        };
        let weakest_hist = if pattern_pairs > 0 { &self.pat_hist } else { hist };
        let weakest = weakest_hist.iter().position(|&n| n > 0).unwrap_or(0) as u32;
        self.terms = Terms {
            uncovered,
            bandwidth,
            weakest,
            balance: self.balance(problem),
            cost: self.cost(problem),
            redundancy: if required > 0 {
                (required - uncovered as i64 - ones) as f64 / required as f64
            } else {
                0.0
            },
            crossings: {
                let cables: u32 = self.used.iter().sum();
                self.crossing_cables as f64 / cables.max(1) as f64
            },
        };
        self.total = self.terms.total(&c.weights);
    }

    fn balance(&self, problem: &Problem) -> f64 {
        let c = &problem.cluster;
        let n = self.used.len() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let fills: Vec<f64> = self
            .used
            .iter()
            .enumerate()
            .map(|(s, &u)| u as f64 / c.ports(s) as f64)
            .collect();
        let mean = fills.iter().sum::<f64>() / n;
        (fills.iter().map(|f| (f - mean).powi(2)).sum::<f64>() / n).sqrt()
    }

    fn cost(&self, problem: &Problem) -> f64 {
        let c = &problem.cluster;
        let inventory = c.inventory_cost();
        if inventory <= 0.0 {
            return 0.0;
        }
        let switches: f64 = self
            .used
            .iter()
            .enumerate()
            .filter(|(_, u)| **u > 0)
            .map(|(s, _)| c.switch_price(s))
            .sum();
        let plugged: u64 = self.used.iter().map(|&u| u as u64).sum();
        let uplink = c.uplink.model.map_or(0.0, |m| c.models[m].price);
        (switches + plugged as f64 * (c.nic.price + c.cable_price) + uplink) / inventory
    }

    /// Re-weights after the user changed the weights.
    pub(crate) fn reweigh(&mut self, w: &Weights) {
        self.total = self.terms.total(w);
    }

    /// The PCs marked as problem spots.
    pub fn problem_pcs(&self) -> impl Iterator<Item = usize> + '_ {
        self.lacking
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(pc, _)| pc)
    }

    pub fn ports_used(&self) -> &[u32] {
        &self.used
    }
}

// The loops where the evaluation's time goes, each compiled for several
// CPU levels and picked at run time: POPCNT is not in the x86-64 baseline.

/// Every pattern pair once.
#[multiversion(targets("x86_64+avx2+bmi1+bmi2+lzcnt+popcnt", "x86_64+popcnt"))]
fn add_pattern_pairs(e: &mut Eval, problem: &Problem, g: &Genome) {
    let c = &problem.cluster;
    for a in 0..problem.pcs() {
        let (partners, weights) = c.pattern.row(a);
        let ma = g.mask(problem, a);
        for (&b, &w) in partners.iter().zip(weights) {
            let b = b as usize;
            if b > a {
                let l = bits::and_count(ma, g.mask(problem, b));
                e.pattern_pair(c.coverage, a, b, w, l, 1);
            }
        }
    }
}

/// The all-pairs loop, kept tight and branch-free: one word per mask is
/// the common case, and uncovered pairs are common early in a search.
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vl+avx512vpopcntdq+avx2+bmi1+bmi2+lzcnt+popcnt",
    "x86_64+avx2+bmi1+bmi2+lzcnt+popcnt",
    "x86_64+popcnt"
))]
fn add_all_pairs(e: &mut Eval, problem: &Problem, g: &Genome) {
    let p = problem.pcs();
    let masks = g.masks();
    let w = problem.words;
    let mut hist = vec![0i64; e.all_hist.len()];
    let lacking = &mut e.lacking;
    // Where the CPU has AVX2 but not AVX-512's popcount, four rows at once.
    let bands = w == 1 && !wide_row::available() && band_rows::available();
    let mut a = 0;
    while a < p {
        if bands
            && a + band_rows::ROWS <= p
            && masks[a..a + band_rows::ROWS].iter().all(|m| m.count_ones() < 8)
            && band_rows::band(&masks[a..], &mut lacking[a..], &mut hist).is_some()
        {
            a += band_rows::ROWS;
            continue;
        }
        let mut zeros = 0u32;
        let (row, rest) = lacking[a..].split_first_mut().expect("a < p");
        let ma = &masks[a * w..(a + 1) * w];
        let few = ma.iter().map(|m| m.count_ones()).sum::<u32>() < 8;
        if few && w == 1 {
            zeros = wide_row::row(ma[0], &masks[a + 1..], rest, &mut hist)
                .unwrap_or_else(|| packed_row::<1>(ma, &masks[a + 1..], rest, &mut hist));
        } else if few && w == 2 {
            zeros = packed_row::<2>(ma, &masks[(a + 1) * 2..], rest, &mut hist);
        } else {
            // 8 switches or more: the links may not fit a byte's index.
            for (mb, lack) in masks[(a + 1) * w..].chunks_exact(w).zip(rest.iter_mut()) {
                let l = bits::and_count(ma, mb);
                let z = u32::from(l == 0);
                hist[l as usize] += 1;
                zeros += z;
                *lack += z;
            }
        }
        *row += zeros;
        a += 1;
    }
    e.all_hist = hist;
}

/// The pairs of a PC on fewer than 8 switches with the PCs after it
/// (masks `W` words long), and its uncovered count. The histogram is kept
/// in the bytes of one word (a pair with `l` links adds `1 << 8l`) and
/// emptied before a byte could overflow: no store depends on a pair's
/// links, so the loop vectorises (AND, popcount and a shift per pair;
/// AVX-512 does 8 pairs at once).
#[inline(always)]
fn packed_row<const W: usize>(ma: &[u64], after: &[u64], lacking: &mut [u32], hist: &mut [i64]) -> u32 {
    let ma: [u64; W] = ma.try_into().expect("W words");
    let mut zeros = 0u32;
    for (ms, ls) in after.chunks(255 * W).zip(lacking.chunks_mut(255)) {
        let mut packed = 0u64;
        for (mb, lack) in ms.chunks_exact(W).zip(ls.iter_mut()) {
            let l: u32 = (0..W).map(|k| (ma[k] & mb[k]).count_ones()).sum();
            let z = u32::from(l == 0);
            packed += 1u64 << (8 * l);
            zeros += z;
            *lack += z;
        }
        for (k, h) in hist.iter_mut().take(8).enumerate() {
            *h += ((packed >> (8 * k)) & 0xff) as i64;
        }
    }
    zeros
}

/// [`Eval::rows`].
#[multiversion(targets("x86_64+avx2+bmi1+bmi2+lzcnt+popcnt", "x86_64+popcnt"))]
fn add_rows(e: &mut Eval, problem: &Problem, g: &Genome, rows: &[usize], sign: i64) {
    let c = &problem.cluster;
    for (k, &t) in rows.iter().enumerate() {
        let earlier = &rows[..k];
        e.crossing_cables += sign * problem.crossings(t, g.mask(problem, t)) as i64;
        if c.coverage == Coverage::Universal {
            add_universal_row(e, problem, g, t, sign);
            // The loop ran over every PC: take back the pair of `t` with
            // itself and the pairs already counted with earlier rows.
            for &j in std::iter::once(&t).chain(earlier) {
                let l = bits::and_count(g.mask(problem, t), g.mask(problem, j));
                e.all_pair(t, j, l, -sign);
            }
        }
        let mt = g.mask(problem, t);
        let (partners, weights) = c.pattern.row(t);
        for (&j, &w) in partners.iter().zip(weights) {
            let j = j as usize;
            if earlier.contains(&j) {
                continue;
            }
            let l = bits::and_count(mt, g.mask(problem, j));
            e.pattern_pair(c.coverage, t, j, w, l, sign);
        }
    }
}

/// The pairs of `t` with every PC, itself included, branch-free.
#[multiversion(targets("x86_64+avx2+bmi1+bmi2+lzcnt+popcnt", "x86_64+popcnt"))]
fn add_universal_row(e: &mut Eval, problem: &Problem, g: &Genome, t: usize, sign: i64) {
    let w = problem.words;
    let masks = g.masks();
    let s32 = sign as u32;
    let mut zeros = 0u32;
    if w == 1 {
        let mt = masks[t];
        for (&mj, lack) in masks.iter().zip(e.lacking.iter_mut()) {
            let l = (mt & mj).count_ones();
            let z = u32::from(l == 0);
            e.all_hist[l as usize] += sign;
            zeros += z;
            *lack = lack.wrapping_add(z.wrapping_mul(s32));
        }
    } else {
        let mt = &masks[t * w..(t + 1) * w];
        for (mj, lack) in masks.chunks_exact(w).zip(e.lacking.iter_mut()) {
            let l = bits::and_count(mt, mj);
            let z = u32::from(l == 0);
            e.all_hist[l as usize] += sign;
            zeros += z;
            *lack = lack.wrapping_add(z.wrapping_mul(s32));
        }
    }
    e.lacking[t] = e.lacking[t].wrapping_add(zeros.wrapping_mul(s32));
}

/// The distinct real PCs in two entries.
pub fn touched(g: &Genome, i: usize, j: usize) -> Vec<usize> {
    let free = super::genome::FREE;
    let (p, q) = (g.entries()[i], g.entries()[j]);
    let mut t = Vec::with_capacity(2);
    if p != free {
        t.push(p as usize);
    }
    if q != free && q != p {
        t.push(q as usize);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ga::{Rng, operators};
    use rand::SeedableRng;

    fn universal(pcs: usize, nics: u32, switches: &[(u32, u32)]) -> Problem {
        let mut spec = crate::spec::sparse_spec("packed", pcs, nics, switches, Vec::new());
        spec.coverage = Coverage::Universal;
        Problem::new(spec.resolve().unwrap())
    }

    /// The links histogram and uncovered partners per PC, a pair at a time.
    fn plain(problem: &Problem, g: &Genome) -> (Vec<i64>, Vec<u32>) {
        let p = problem.pcs();
        let mut hist = vec![0i64; problem.cluster.max_nics() as usize + 1];
        let mut lacking = vec![0u32; p];
        for a in 0..p {
            for b in a + 1..p {
                let l = bits::and_count(g.mask(problem, a), g.mask(problem, b));
                hist[l as usize] += 1;
                if l == 0 {
                    lacking[a] += 1;
                    lacking[b] += 1;
                }
            }
        }
        (hist, lacking)
    }

    #[test]
    fn the_packed_all_pairs_loop_counts_what_a_plain_loop_counts() {
        // One and two mask words; fewer than 8 NICs (the packed loop) and
        // more; rows longer than a byte counts, tidy and shuffled wirings.
        type Case = (usize, u32, &'static [(u32, u32)]);
        let cases: [Case; 4] = [
            (700, 3, &[(100, 21)]),
            (700, 7, &[(100, 49), (50, 1)]),
            (600, 9, &[(90, 60)]),
            (700, 4, &[(40, 70)]),
        ];
        for (pcs, nics, switches) in cases {
            let problem = universal(pcs, nics, switches);
            let mut g = Genome::straightforward(&problem);
            let mut rng = Rng::seed_from_u64(pcs as u64 + u64::from(nics));
            for shuffles in [0, pcs * 4] {
                let mut e = Eval::full(&problem, &g);
                for _ in 0..shuffles {
                    operators::swap_connection(&problem, &mut g, &mut e, &mut rng, 0.0);
                }
                let e = Eval::full(&problem, &g);
                let (hist, lacking) = plain(&problem, &g);
                assert_eq!(e.all_hist, hist, "{pcs} PCs, {nics} NICs, {shuffles} exchanges");
                assert_eq!(e.lacking, lacking, "{pcs} PCs, {nics} NICs, {shuffles} exchanges");
            }
        }
    }
}
