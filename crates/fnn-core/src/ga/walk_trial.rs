//! The partition walk alone on a planted random wiring, counted in moves.
//!
//! A run of the whole search is timed, and its time swings by half from
//! run to run on one spec (two threads share the generations: 44-73 s
//! to the first valid design on one planted spec of 4,096 PCs), so a
//! change to the walk that gains a fifth cannot be told from noise in
//! the planted benchmark. Moves are exact: one thread, one random
//! stream, and the same wiring and seed give the same count every time.
//! The wiring is drawn much as the planted benchmark draws a random layer
//! (every port used, each PC's NICs on distinct switches), with its pairs
//! a given number a PC, which is what makes a walk easy or hard: with as
//! many ports as NICs, 4 NICs on 16-port switches, 12 partners a PC take
//! 20 to 50 times the moves of 10 at 1,024 PCs, 4 times at 4,096.

use super::Rng;
use super::residual::{Kind, Walk};
use super::strategy::Budget;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

/// A planted random wiring to cover: `pcs` PCs of `nics` NICs on
/// switches of `width` ports, about `partners` pairs a PC drawn from the
/// pairs it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wiring {
    pub pcs: usize,
    pub width: usize,
    pub nics: usize,
    pub partners: usize,
}

/// What the walk did: the pairs to cover, the pairs its start left
/// uncovered, the fewest it left, and the moves it made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkTrial {
    pub pairs: usize,
    pub start: usize,
    pub left: usize,
    pub moves: u64,
}

/// The walk on `wiring` drawn from `seed`, until it covers every pair or
/// has made `most` moves: from the greedy fill the search starts from,
/// or, with `swapped`, from the planted wiring after that share of its
/// ports in swaps of two ports of different switches (0.01: as many
/// swaps as a hundredth of the ports, about a fiftieth of them moved),
/// which tells how near the answer a start must be to help. `None` where the ports do not divide into whole switches,
/// there are fewer PCs than ports on a switch, or more partners than
/// half the pairs the wiring could cover.
pub fn walk_trial(wiring: Wiring, seed: u64, swapped: Option<f64>, most: u64) -> Option<WalkTrial> {
    let Wiring {
        pcs,
        width,
        nics,
        partners,
    } = wiring;
    let ports = pcs * nics;
    if width < 2 || !ports.is_multiple_of(width) || pcs < width || 2 * partners > nics * (width - 1) {
        return None;
    }
    let mut rng = Rng::seed_from_u64(seed);
    let mut slots = wiring_slots(pcs, width, nics, &mut rng);
    let edges = pairs_of(&slots, pcs, width, partners, &mut rng);
    let kinds = [Kind {
        width,
        per_pc: nics,
        switches: ports / width,
    }];
    let mut walk = match swapped {
        None => Walk::filled(pcs, &kinds, &edges, &mut rng),
        Some(share) => {
            swap_ports(&mut slots, width, (share * ports as f64) as usize, &mut rng);
            let blocks: Vec<Vec<usize>> = slots
                .chunks(width)
                .map(|b| b.iter().map(|&pc| pc as usize).collect())
                .collect();
            Walk::from(pcs, &kinds, &edges, &[blocks])?
        }
    };
    let start = walk.best_left();
    let budget = Budget {
        patience: most,
        max: most,
        ..Budget::NONE
    };
    let (_, moves) = walk.go(budget, &mut rng);
    Some(WalkTrial {
        pairs: edges.len(),
        start,
        left: walk.best_left(),
        moves,
    })
}

/// A random wiring of `nics` NICs a PC on switches of `width` (no PC
/// twice on one), and about `per_pc` partners a PC drawn from it.
#[cfg(test)]
pub(super) fn planted(pcs: usize, width: usize, nics: usize, per_pc: usize, rng: &mut Rng) -> Vec<(u32, u32)> {
    let slots = wiring_slots(pcs, width, nics, rng);
    pairs_of(&slots, pcs, width, per_pc, rng)
}

/// Each port's PC, switch by switch (`width` ports each), every PC on
/// `nics` distinct switches.
fn wiring_slots(pcs: usize, width: usize, nics: usize, rng: &mut Rng) -> Vec<u32> {
    let mut slots: Vec<u32> = (0..pcs * nics).map(|k| (k / nics) as u32).collect();
    slots.shuffle(rng);
    // A PC twice on a switch trades the slot with a random one.
    while let Some(i) = (0..slots.len()).find(|&i| twice(&slots, width, i)) {
        let j = rng.random_range(0..slots.len());
        slots.swap(i, j);
    }
    slots
}

fn twice(slots: &[u32], width: usize, i: usize) -> bool {
    let s = i / width * width;
    slots[s..s + width].iter().filter(|&&pc| pc == slots[i]).count() > 1
}

/// About `per_pc` pairs a PC, each of two PCs on one switch of `slots`.
fn pairs_of(slots: &[u32], pcs: usize, width: usize, per_pc: usize, rng: &mut Rng) -> Vec<(u32, u32)> {
    let mut edges = std::collections::BTreeSet::new();
    while edges.len() < pcs * per_pc / 2 {
        let b = slots
            .chunks(width)
            .nth(rng.random_range(0..slots.len() / width))
            .expect("a switch of the wiring");
        let (x, y) = (b[rng.random_range(0..width)], b[rng.random_range(0..width)]);
        if x != y {
            edges.insert((x.min(y), x.max(y)));
        }
    }
    edges.into_iter().collect()
}

/// `count` swaps of two ports of different switches, each leaving no PC
/// twice on a switch.
fn swap_ports(slots: &mut [u32], width: usize, count: usize, rng: &mut Rng) {
    let on = |slots: &[u32], s: usize, pc: u32| slots[s * width..(s + 1) * width].contains(&pc);
    let mut done = 0;
    while done < count {
        let (i, j) = (rng.random_range(0..slots.len()), rng.random_range(0..slots.len()));
        let (si, sj) = (i / width, j / width);
        if si != sj && !on(slots, sj, slots[i]) && !on(slots, si, slots[j]) {
            slots.swap(i, j);
            done += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Wiring = Wiring {
        pcs: 256,
        width: 8,
        nics: 3,
        partners: 4,
    };

    #[test]
    fn the_planted_wiring_itself_needs_no_move() {
        let trial = walk_trial(SMALL, 1, Some(0.0), 1_000).unwrap();
        assert_eq!((trial.start, trial.left, trial.moves), (0, 0, 0), "{trial:?}");
        assert_eq!(trial.pairs, 256 * 4 / 2);
    }

    #[test]
    fn the_walk_covers_a_small_wiring_from_the_fill_and_from_ports_swapped() {
        for swapped in [None, Some(0.05)] {
            let trial = walk_trial(SMALL, 2, swapped, 1_000_000).unwrap();
            assert!(trial.start > 0, "{swapped:?}: {trial:?}");
            assert_eq!(trial.left, 0, "{swapped:?}: {trial:?}");
            assert!(trial.moves > 0 && trial.moves < 1_000_000, "{swapped:?}: {trial:?}");
        }
    }

    #[test]
    fn moves_are_the_same_on_the_same_seed() {
        let runs: Vec<WalkTrial> = (0..2).map(|_| walk_trial(SMALL, 3, None, 1_000_000).unwrap()).collect();
        assert_eq!(runs[0], runs[1]);
    }

    #[test]
    fn the_walk_stops_at_its_most_moves() {
        let hard = Wiring {
            width: 16,
            nics: 4,
            partners: 12,
            ..SMALL
        };
        let trial = walk_trial(hard, 1, None, 100).unwrap();
        assert_eq!(trial.moves, 100, "{trial:?}");
        assert!(trial.left > 0, "{trial:?}");
    }

    #[test]
    fn no_trial_where_the_wiring_cannot_be_drawn() {
        let odd = Wiring { pcs: 255, ..SMALL };
        assert_eq!(walk_trial(odd, 1, None, 100), None);
        let few = Wiring {
            pcs: 6,
            nics: 4,
            ..SMALL
        };
        assert_eq!(walk_trial(few, 1, None, 100), None);
        let dense = Wiring { partners: 11, ..SMALL };
        assert_eq!(walk_trial(dense, 1, None, 100), None);
    }
}
