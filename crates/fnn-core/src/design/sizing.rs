//! Group sizes by a tabu walk: how many PCs each block of a construction
//! takes so that no switch holds more than a width, when the greedy
//! sizing in `constructions` leaves the fullest switch a port wider.
//!
//! The walk moves one PC at a time from a block on an overfull switch to
//! the block where it overfills least, and does not move a PC back into a
//! block it just left for a while. The number of moves and the seed are
//! fixed, so the sizes found (or the giving up) are the same on every
//! machine. A SAT model of the same sizes (unary counts, cardinality
//! sums) needed 20,000 to 300,000 conflicts, seconds, for 38 PCs with 6
//! NICs; the walk needs milliseconds.

use super::constructions::{self, Construction};
use rand::{RngExt, SeedableRng};

// The GA's generator, named here so the designs do not import the GA.
type Rng = rand_pcg::Pcg64Mcg;

/// Moves before giving up.
const MOVES: usize = 2_000;
/// Moves during which a block a PC left takes no PC back.
const TENURE: usize = 7;

/// The most PCs a block of `n` switches can take: its switches hold the
/// m PCs of the block n times and every other PC at least once, so
/// n m + (P - m) <= n w. (38 PCs with 6 NICs on 8 ports: 2.)
fn most_in_block(n: usize, pcs: usize, width: usize) -> usize {
    if n < 2 {
        return pcs.min(width);
    }
    ((n * width).saturating_sub(pcs) / (n - 1)).min(pcs)
}

/// Group sizes, starting from `start` (one per block, adding up to the
/// PCs), with at most `width` PCs on any switch of `c`; `None` when the
/// walk finds none within its moves.
pub fn sizes_within(c: &Construction, start: &[usize], width: usize) -> Option<Vec<usize>> {
    let pcs: usize = start.iter().sum();
    let cap: Vec<usize> = c.blocks.iter().map(|b| most_in_block(b.len(), pcs, width)).collect();
    let mut walk = Walk::new(c, start.to_vec(), width);
    let mut rng = Rng::seed_from_u64(pcs as u64 * 1_000_003 + width as u64);
    let mut left_at = vec![usize::MAX; c.blocks.len()];
    for step in 0..MOVES {
        if walk.excess == 0 {
            return Some(walk.sizes);
        }
        let over: Vec<usize> = (0..c.switches).filter(|&s| walk.load[s] > width).collect();
        let s = over[rng.random_range(0..over.len())];
        // The best move of a PC off switch s, ties broken at random.
        let mut best: Option<(i64, u64, usize, usize)> = None;
        for from in (0..c.blocks.len()).filter(|&b| walk.sizes[b] > 0 && c.blocks[b].contains(&s)) {
            for to in (0..c.blocks.len()).filter(|&b| b != from && walk.sizes[b] < cap[b]) {
                let tabu = left_at[to] != usize::MAX && step - left_at[to] < TENURE;
                let delta = walk.delta(from, to);
                if tabu && walk.excess as i64 + delta > 0 {
                    continue;
                }
                let key = (delta, rng.random::<u64>(), from, to);
                if best.is_none_or(|b| (key.0, key.1) < (b.0, b.1)) {
                    best = Some(key);
                }
            }
        }
        let (_, _, from, to) = best?;
        walk.shift(from, to);
        left_at[from] = step;
    }
    (walk.excess == 0).then_some(walk.sizes)
}

/// The walk's state: sizes, switch loads and the PCs over the width.
struct Walk<'a> {
    c: &'a Construction,
    sizes: Vec<usize>,
    load: Vec<usize>,
    width: usize,
    excess: usize,
}

impl<'a> Walk<'a> {
    fn new(c: &'a Construction, sizes: Vec<usize>, width: usize) -> Walk<'a> {
        let load = constructions::degrees(c, &sizes);
        let excess = load.iter().map(|&l| l.saturating_sub(width)).sum();
        Walk {
            c,
            sizes,
            load,
            width,
            excess,
        }
    }

    /// How the excess changes when one PC moves from block `from` to `to`.
    fn delta(&self, from: usize, to: usize) -> i64 {
        let (a, b) = (&self.c.blocks[from], &self.c.blocks[to]);
        let w = self.width;
        let off = a
            .iter()
            .filter(|s| !b.contains(s))
            .filter(|&&s| self.load[s] > w)
            .count();
        let on = b
            .iter()
            .filter(|s| !a.contains(s))
            .filter(|&&s| self.load[s] >= w)
            .count();
        on as i64 - off as i64
    }

    fn shift(&mut self, from: usize, to: usize) {
        self.excess = (self.excess as i64 + self.delta(from, to)) as usize;
        self.sizes[from] -= 1;
        self.sizes[to] += 1;
        constructions::shift(self.c, &mut self.load, from, to);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::constructions::{affine_plane, affine_plane_through_line};

    /// `pcs` PCs dealt round the blocks, one at a time.
    fn dealt(c: &Construction, pcs: usize) -> Vec<usize> {
        let n = c.blocks.len();
        (0..n).map(|b| pcs / n + usize::from(b < pcs % n)).collect()
    }

    /// The walk keeps the PCs and the width, and gives up where no sizes
    /// exist: over AG(2,5) alone, 38 PCs on 8-port lines would need the
    /// squared line loads to add up to more than they can.
    #[test]
    fn the_walk_fits_the_width_or_gives_up() {
        let c = affine_plane_through_line(5).unwrap();
        let sizes = sizes_within(&c, &dealt(&c, 38), 8).expect("sizes exist");
        assert_eq!(sizes.iter().sum::<usize>(), 38);
        assert!(constructions::degrees(&c, &sizes).iter().all(|&l| l <= 8));
        assert!(sizes.iter().all(|&n| n <= most_in_block(6, 38, 8)));
        let plain = affine_plane(5).unwrap();
        assert_eq!(sizes_within(&plain, &dealt(&plain, 38), 8), None);
    }

    #[test]
    fn a_block_takes_few_pcs_when_the_switches_are_tight() {
        assert_eq!(most_in_block(6, 38, 8), 2);
        // 31 PCs on a projective plane of order 5, 6-port lines: one each.
        assert_eq!(most_in_block(6, 31, 6), 1);
        assert_eq!(most_in_block(1, 5, 9), 5);
    }
}
