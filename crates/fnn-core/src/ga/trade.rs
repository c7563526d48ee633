//! The best trade of a Kernighan-Lin pass, drawn at random among the best
//! without scoring every pair of members.
//!
//! A trade of member `i` (one side) with `j` (the other) gains
//! `D[i] + D[j] - 2 w(i, j)`, each pair's weight 0 or 1. Scoring every pair
//! at every step made a pass cubic in the members: two 64-port switches
//! hold 128, and a 2-NIC stencil's seed spent seconds there. The pattern
//! is sparse, so the best gain is within 2 of the two sides' best `D`s, and
//! which pairs reach it follows from the few weighted pairs among the
//! members at the top three levels of `D`: a pair is drawn from those
//! levels and kept when its weight is the one its level needs, which draws
//! uniformly among the best trades, as scoring every pair did.

use super::Rng;
use rand::RngExt;

/// Draws before the trades of the best gain are listed one by one.
const DRAWS: usize = 64;

/// A Kernighan-Lin pass's members: `d[i]` their gains, `first[i]` their
/// side, and `near[i]` the members `i` weighs 1 with (every other pair
/// weighs 0).
pub(super) struct Members<'a> {
    pub d: &'a [i32],
    pub first: &'a [bool],
    pub locked: &'a [bool],
    pub near: &'a [Vec<u32>],
}

impl Members<'_> {
    fn n(&self) -> usize {
        self.d.len()
    }

    fn w(&self, i: usize, j: usize) -> i32 {
        i32::from(self.near[i].contains(&(j as u32)))
    }

    /// The best trade `(gain, i, j)` of an unlocked member `i` of the
    /// first side with an unlocked `j` of the other, drawn uniformly
    /// among the trades of that gain; `None` when a side has none left.
    pub fn best_trade(&self, rng: &mut Rng) -> Option<(i32, usize, usize)> {
        let n = self.n();
        let open = |side: bool| (0..n).filter(move |&i| self.first[i] == side && !self.locked[i]);
        let top_a = open(true).map(|i| self.d[i]).max()?;
        let top_b = open(false).map(|i| self.d[i]).max()?;
        // Members at 0, 1 and 2 below each side's best, and each one's level.
        let mut levels: [[Vec<usize>; 3]; 2] = Default::default();
        let mut level = vec![u8::MAX; n];
        for (i, at) in level.iter_mut().enumerate() {
            let (side, top) = if self.first[i] { (0, top_a) } else { (1, top_b) };
            let below = top - self.d[i];
            if !self.locked[i] && below <= 2 {
                levels[side][below as usize].push(i);
                *at = below as u8;
            }
        }
        // Weighted pairs between the levels of the two sides.
        let mut weighted = [[0usize; 3]; 3];
        for (x, members) in levels[0].iter().enumerate() {
            for &i in members {
                for &j in &self.near[i] {
                    let j = j as usize;
                    if !self.first[j] && level[j] <= 2 {
                        weighted[x][level[j] as usize] += 1;
                    }
                }
            }
        }
        for below in 0..=2usize {
            // (level of i, level of j, weight wanted): their gain is the
            // best gain less `below`.
            let mut cells: Vec<(usize, usize, i32)> = (0..=below).map(|x| (x, below - x, 0)).collect();
            if below == 2 {
                cells.push((0, 0, 1));
            }
            let size = |&(x, y, _): &(usize, usize, i32)| levels[0][x].len() * levels[1][y].len();
            let count: usize = cells
                .iter()
                .map(|c| match c.2 {
                    0 => size(c) - weighted[c.0][c.1],
                    _ => weighted[c.0][c.1],
                })
                .sum();
            if count == 0 {
                continue;
            }
            let gain = top_a + top_b - below as i32;
            let total: usize = cells.iter().map(size).sum();
            for _ in 0..DRAWS {
                let mut r = rng.random_range(0..total);
                let cell = cells.iter().find(|c| {
                    let s = size(c);
                    let here = r < s;
                    r -= if here { 0 } else { s };
                    here
                })?;
                let (a, b) = (&levels[0][cell.0], &levels[1][cell.1]);
                let (i, j) = (a[r / b.len()], b[r % b.len()]);
                if self.w(i, j) == cell.2 {
                    return Some((gain, i, j));
                }
            }
            // Mostly weighted pairs where unweighted ones were wanted (or
            // the reverse): list them.
            let mut chosen = None;
            let mut ties = 0;
            for &(x, y, want) in &cells {
                for &i in &levels[0][x] {
                    for &j in levels[1][y].iter().filter(|&&j| self.w(i, j) == want) {
                        ties += 1;
                        if rng.random_range(0..ties) == 0 {
                            chosen = Some((gain, i, j));
                        }
                    }
                }
            }
            return chosen;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Every pair scored: the gains the draw must reach, and which pairs reach it.
    fn scored(m: &Members<'_>, w: &[i32]) -> (i32, Vec<(usize, usize)>) {
        let n = m.n();
        let mut best = (i32::MIN, Vec::new());
        for i in (0..n).filter(|&i| m.first[i] && !m.locked[i]) {
            for j in (0..n).filter(|&j| !m.first[j] && !m.locked[j]) {
                let g = m.d[i] + m.d[j] - 2 * w[i * n + j];
                if g > best.0 {
                    best = (g, Vec::new());
                }
                if g == best.0 {
                    best.1.push((i, j));
                }
            }
        }
        best
    }

    #[test]
    fn the_drawn_trade_is_one_of_the_best_and_every_best_one_is_drawn() {
        let mut rng = Rng::seed_from_u64(5);
        for case in 0..300 {
            let n = rng.random_range(2..12usize);
            let first: Vec<bool> = (0..n).map(|i| i % 2 == 0 || rng.random_bool(0.3)).collect();
            let locked: Vec<bool> = (0..n).map(|_| rng.random_bool(0.2)).collect();
            let d: Vec<i32> = (0..n).map(|_| rng.random_range(-3..3)).collect();
            // Dense weights in some cases: the listing behind the draws.
            let p = if case % 3 == 0 { 0.9 } else { 0.3 };
            let mut w = vec![0; n * n];
            let mut near = vec![Vec::new(); n];
            for i in 0..n {
                for j in (i + 1..n).filter(|&j| first[i] != first[j]) {
                    if rng.random_bool(p) {
                        (w[i * n + j], w[j * n + i]) = (1, 1);
                        near[i].push(j as u32);
                        near[j].push(i as u32);
                    }
                }
            }
            let m = Members {
                d: &d,
                first: &first,
                locked: &locked,
                near: &near,
            };
            let (gain, best) = scored(&m, &w);
            let mut seen = std::collections::BTreeSet::new();
            for _ in 0..400 {
                match m.best_trade(&mut rng) {
                    Some((g, i, j)) => {
                        assert_eq!(g, gain, "case {case}");
                        assert!(best.contains(&(i, j)), "case {case}: ({i}, {j}) is not among {best:?}");
                        seen.insert((i, j));
                    }
                    None => assert!(best.is_empty(), "case {case}: no trade drawn of {best:?}"),
                }
            }
            if best.len() <= 8 {
                assert_eq!(seen.len(), best.len(), "case {case}: drew {seen:?} of {best:?}");
            }
        }
    }
}
