//! Simulated annealing over the incidence of PCs and switches, for cells
//! the constructions leave one port (or more) over the lower bound.
//!
//! The constructions put groups of PCs on the points of a plane; where the
//! groups cannot be equal (44 PCs over the 16 points of AG(2,4)) the
//! fullest line needs one port more. This search drops the groups: each PC
//! has exactly `nics` switches of its own, each switch at most `width` PCs,
//! and the cost is the number of pairs of PCs that share no switch. A move
//! takes a pair that shares none and puts one of its PCs on a switch of the
//! other, swapping a PC back when that switch is full; each move changes
//! the pair counts of two switches only, so its cost change is counted in
//! O(width). Worse moves are taken with the Metropolis rule at a temperature
//! that cools over each round; a round that ends stuck starts again from
//! a fresh start, further along the same random stream.
//!
//! Deterministic: the search's random stream is seeded from the seed and
//! the cell alone, so a row of the atlas found this way is found again by
//! its own command.

use crate::design::Design;
use crate::ga::Rng;
use rand::{RngExt, SeedableRng};
use std::sync::atomic::{AtomicBool, Ordering};

/// A search's size: PCs, NICs per PC, switches and their width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    pub pcs: usize,
    pub nics: usize,
    pub width: usize,
    pub switches: usize,
}

/// Moves per round: long enough to cool from exploring to settling.
const ROUND: u64 = 2_000_000;

/// Temperatures at the start and end of a round (in uncovered pairs):
/// colder rounds freeze with a dozen or more pairs uncovered (44 PCs
/// with 6 NICs on 9 ports, cooling from 0.6 to 0.05: stuck at 16 for
/// three seeds of four; from 1.5 to 0.3 found for two of three).
const HOT: f64 = 1.5;
const COLD: f64 = 0.3;

/// Searches `steps` moves for a design of `cell` in which every pair of
/// PCs shares a switch; `None` when none is found (or `interrupted`).
pub fn anneal(cell: Cell, steps: u64, seed: u64, interrupted: &AtomicBool) -> Option<Design> {
    if cell.nics > cell.switches || cell.pcs * cell.nics > cell.switches * cell.width || cell.width < 2 {
        return None;
    }
    let mut rng = Rng::seed_from_u64(stream(cell, seed));
    let mut done = 0;
    while done < steps {
        let round = ROUND.min(steps - done);
        let mut state = State::start(cell, &mut rng);
        if state.cool(round, &mut rng, interrupted) {
            return Some(state.design());
        }
        if interrupted.load(Ordering::Relaxed) {
            return None;
        }
        done += round;
    }
    None
}

/// The cell's own random stream: the seed mixed with the cell, so cells
/// of one sweep do not walk in step and a cell searched alone walks the
/// same way as in the sweep.
fn stream(cell: Cell, seed: u64) -> u64 {
    let mut h = seed ^ 0x616e_6e65_616c_2121; // "anneal!!"
    for v in [cell.pcs, cell.nics, cell.width, cell.switches] {
        h = (h ^ v as u64).wrapping_mul(0x100_0000_01b3).rotate_left(29);
    }
    h
}

/// The incidence, the pair counts and the pairs that share no switch.
struct State {
    cell: Cell,
    /// PCs on each switch.
    members: Vec<Vec<u32>>,
    /// Switches of each PC (exactly `nics`).
    of_pc: Vec<Vec<u32>>,
    /// Switches two PCs share, `pcs * pcs`.
    shared: Vec<u16>,
    /// Pairs (as `p * pcs + q`, p < q) that share no switch, and where
    /// each sits in that list (`u32::MAX`: covered).
    uncovered: Vec<u32>,
    at: Vec<u32>,
}

impl State {
    /// Every PC on the `nics` switches with the most room left, ties in
    /// a random order: filling greedily by room places every NIC whenever
    /// the ports can hold them (the Gale-Ryser greedy).
    fn start(cell: Cell, rng: &mut Rng) -> State {
        let n = cell.pcs;
        let mut state = State {
            cell,
            members: vec![Vec::with_capacity(cell.width); cell.switches],
            of_pc: vec![Vec::with_capacity(cell.nics); n],
            shared: vec![0; n * n],
            uncovered: Vec::with_capacity(n * n / 2),
            at: vec![u32::MAX; n * n],
        };
        for p in 0..n {
            for q in p + 1..n {
                state.mark_uncovered(p, q);
            }
        }
        let mut order: Vec<usize> = (0..cell.switches).collect();
        for p in 0..n {
            shuffle(&mut order, rng);
            order.sort_by_key(|&s| state.members[s].len());
            for &s in &order[..cell.nics] {
                state.add(p, s);
            }
        }
        state
    }

    fn has(&self, p: usize, s: usize) -> bool {
        self.of_pc[p].contains(&(s as u32))
    }

    fn pair(&self, p: usize, q: usize) -> usize {
        let (a, b) = if p < q { (p, q) } else { (q, p) };
        a * self.cell.pcs + b
    }

    fn mark_uncovered(&mut self, p: usize, q: usize) {
        let k = self.pair(p, q);
        self.at[k] = self.uncovered.len() as u32;
        self.uncovered.push(k as u32);
    }

    fn mark_covered(&mut self, p: usize, q: usize) {
        let k = self.pair(p, q);
        let i = self.at[k] as usize;
        let last = *self.uncovered.last().expect("the pair is listed");
        self.uncovered[i] = last;
        self.at[last as usize] = i as u32;
        self.uncovered.pop();
        self.at[k] = u32::MAX;
    }

    fn add(&mut self, p: usize, s: usize) {
        let n = self.cell.pcs;
        for i in 0..self.members[s].len() {
            let q = self.members[s][i] as usize;
            let k = self.pair(p, q);
            self.shared[k] += 1;
            self.shared[q * n + p] = self.shared[k];
            if self.shared[k] == 1 {
                self.mark_covered(p, q);
            }
        }
        self.members[s].push(p as u32);
        self.of_pc[p].push(s as u32);
    }

    fn remove(&mut self, p: usize, s: usize) {
        let n = self.cell.pcs;
        let m = &mut self.members[s];
        let i = m.iter().position(|&x| x as usize == p).expect("p is on s");
        m.swap_remove(i);
        let o = &mut self.of_pc[p];
        let j = o.iter().position(|&x| x as usize == s).expect("s is p's");
        o.swap_remove(j);
        for i in 0..self.members[s].len() {
            let q = self.members[s][i] as usize;
            let k = self.pair(p, q);
            self.shared[k] -= 1;
            self.shared[q * n + p] = self.shared[k];
            if self.shared[k] == 0 {
                self.mark_uncovered(p, q);
            }
        }
    }

    /// Runs `moves` moves cooling from `HOT` to `COLD`; true once every
    /// pair shares a switch.
    fn cool(&mut self, moves: u64, rng: &mut Rng, interrupted: &AtomicBool) -> bool {
        let ratio = (COLD / HOT).powf(1.0 / moves.max(1) as f64);
        let mut t = HOT;
        for m in 0..moves {
            if self.uncovered.is_empty() {
                return true;
            }
            if m % 65_536 == 0 && interrupted.load(Ordering::Relaxed) {
                return false;
            }
            self.step(t, rng);
            t *= ratio;
        }
        self.uncovered.is_empty()
    }

    /// One move aimed at a pair that shares no switch: one of its PCs
    /// leaves one of its switches for one of the other's, and if that is
    /// full a PC there takes the freed place.
    fn step(&mut self, t: f64, rng: &mut Rng) {
        let before = self.uncovered.len();
        let k = self.uncovered[rng.random_range(0..before)] as usize;
        let (mut x, mut y) = (k / self.cell.pcs, k % self.cell.pcs);
        if rng.random_bool(0.5) {
            std::mem::swap(&mut x, &mut y);
        }
        let to = self.of_pc[y][rng.random_range(0..self.of_pc[y].len())] as usize;
        let from = self.of_pc[x][rng.random_range(0..self.of_pc[x].len())] as usize;
        let back = if self.members[to].len() < self.cell.width {
            None
        } else {
            let r = self.members[to][rng.random_range(0..self.members[to].len())] as usize;
            if r == y || self.has(r, from) {
                return;
            }
            Some(r)
        };
        self.remove(x, from);
        if let Some(r) = back {
            self.remove(r, to);
            self.add(r, from);
        }
        self.add(x, to);
        let delta = self.uncovered.len() as f64 - before as f64;
        if delta <= 0.0 || rng.random::<f64>() < (-delta / t).exp() {
            return;
        }
        self.remove(x, to);
        if let Some(r) = back {
            self.remove(r, from);
            self.add(r, to);
        }
        self.add(x, from);
    }

    /// The design: switches in their order, empty ones kept (a sweep
    /// counts the used ones).
    fn design(&self) -> Design {
        let blocks: Vec<Vec<usize>> = self
            .members
            .iter()
            .map(|m| m.iter().map(|&p| p as usize).collect())
            .collect();
        Design::from_blocks(self.cell.pcs, &blocks)
    }
}

/// Fisher-Yates with the search's own stream (not `rand`'s slice helpers,
/// whose algorithm may change between versions and with it the designs).
fn shuffle(v: &mut [usize], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=i);
        v.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::constructions;

    /// Every pair of PCs shares a switch, no switch holds more than
    /// `width` PCs and every PC has `nics` NICs.
    fn valid(d: &Design, cell: Cell) -> bool {
        let on: Vec<Vec<usize>> = (0..cell.pcs)
            .map(|p| (0..d.switches()).filter(|&s| d.has(p, s)).collect())
            .collect();
        let pairs = (0..cell.pcs).all(|p| (p + 1..cell.pcs).all(|q| on[p].iter().any(|&s| d.has(q, s))));
        let widths = d.ports_used().iter().all(|&u| u as usize <= cell.width);
        pairs && widths && on.iter().all(|s| s.len() == cell.nics)
    }

    /// 10 PCs with 5 NICs: the planes over groups need 4 ports, the bound
    /// is 3, and the walk finds 3 on 17 switches, every port used.
    #[test]
    fn finds_a_one_over_cell_at_its_bound() {
        assert_eq!(constructions::best(10, 5).map(|b| b.width), Some(4));
        let cell = Cell {
            pcs: 10,
            nics: 5,
            width: 3,
            switches: 17,
        };
        let stop = AtomicBool::new(false);
        let d = anneal(cell, 2_000_000, 1, &stop).expect("a design on 3 ports");
        assert!(valid(&d, cell));
    }

    /// The same seed walks the same way: the design is found again, switch
    /// for switch; another seed walks elsewhere.
    #[test]
    fn designs_are_reproducible_by_seed() {
        let cell = Cell {
            pcs: 21,
            nics: 5,
            width: 5,
            switches: 21,
        };
        let stop = AtomicBool::new(false);
        let a = anneal(cell, 2_000_000, 7, &stop).expect("PG(2,4) exists");
        assert!(valid(&a, cell));
        assert_eq!(anneal(cell, 2_000_000, 7, &stop), Some(a.clone()));
        assert_ne!(anneal(cell, 2_000_000, 8, &stop), Some(a));
    }

    /// A cell whose NICs do not fit the ports is refused at once.
    #[test]
    fn too_few_ports_find_nothing() {
        let cell = Cell {
            pcs: 44,
            nics: 5,
            width: 11,
            switches: 19,
        };
        assert_eq!(anneal(cell, 1_000, 1, &AtomicBool::new(false)), None);
    }
}
