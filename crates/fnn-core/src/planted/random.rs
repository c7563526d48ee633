//! The random half of a planted spec: a wiring drawn at random with every
//! port used and each PC's NICs on distinct switches, and required pairs
//! drawn from the pairs it covers.

use crate::ga::Rng;
use rand::RngExt;
use rand::seq::SliceRandom;

/// `nics` NICs per PC on `pcs * nics / width` switches of `width` ports,
/// every port used, as the PCs on each switch. `None` when the ports do not
/// divide evenly or there are fewer switches than NICs.
pub fn wiring(pcs: usize, nics: usize, width: usize, rng: &mut Rng) -> Option<Vec<Vec<usize>>> {
    let ports = pcs * nics;
    if width < 2 || !ports.is_multiple_of(width) || ports / width < nics {
        return None;
    }
    // Port slots, shuffled, dealt `nics` to a PC; a PC dealt two ports of one
    // switch swaps one away with a slot of a PC that can take it.
    let mut slot: Vec<usize> = (0..ports).map(|k| k / width).collect();
    slot.shuffle(rng);
    let holds = |slot: &[usize], pc: usize, switch: usize, except: usize| {
        (pc * nics..pc * nics + nics).any(|k| k != except && slot[k] == switch)
    };
    for k in 0..ports {
        let pc = k / nics;
        let mut tries = 0;
        while holds(&slot, pc, slot[k], k) {
            let j = rng.random_range(0..ports);
            let other = j / nics;
            if other != pc && !holds(&slot, pc, slot[j], k) && !holds(&slot, other, slot[k], j) {
                slot.swap(k, j);
            }
            tries += 1;
            if tries > 100 * ports {
                return None;
            }
        }
    }
    let mut blocks = vec![Vec::new(); ports / width];
    for (k, &s) in slot.iter().enumerate() {
        blocks[s].push(k / nics);
    }
    Some(blocks)
}

/// Up to `per_pc` partners for each PC, drawn from the PCs it shares a
/// switch with in `blocks`; each pair once, smaller PC first.
pub fn partners(pcs: usize, blocks: &[Vec<usize>], per_pc: usize, rng: &mut Rng) -> Vec<(usize, usize)> {
    let mut near: Vec<Vec<usize>> = vec![Vec::new(); pcs];
    for block in blocks {
        for &a in block {
            near[a].extend(block.iter().copied().filter(|&b| b != a));
        }
    }
    let mut pairs: Vec<(usize, usize)> = near
        .iter_mut()
        .enumerate()
        .flat_map(|(a, n)| {
            n.shuffle(rng);
            n.iter()
                .take(per_pc)
                .map(move |&b| (a.min(b), a.max(b)))
                .collect::<Vec<_>>()
        })
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}
