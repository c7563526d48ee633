//! The GA operators of the FNN compiler paper, all closed: each is a sequence of
//! exchanges of two genome entries, so NIC and port counts never change.
//!
//! * crossover: copy one parent, then force random PCs to the other
//!   parent's connection set by exchanging NIC connections with the PCs
//!   (real or dummy) that have the wanted connections;
//! * mutation 1: swap single NIC-to-switch connections between PCs;
//! * mutation 2: swap two PCs' whole connection sets;
//! * repair: force must-pins in and forbidden connections out, with the
//!   same exchanges.
//!
//! Mutations start at a problem spot (a PC lacking a required partner)
//! with probability `focus`, and then move one of its NICs onto a switch of
//! a partner it lacks: "the evaluation marks problem spots that mutation
//! prefers to change".

use super::Rng;
use super::eval::Eval;
use super::genome::{FREE, Genome};
use super::problem::{DUMMY_SWITCH, Problem};
use crate::design::bits;
use crate::spec::Coverage;
use rand::RngExt;

/// Tries per mutation before giving up (every rule can block a random exchange).
const ATTEMPTS: usize = 8;

/// A uniformly chosen element of an iterator (reservoir sampling).
fn pick<T>(rng: &mut Rng, items: impl Iterator<Item = T>) -> Option<T> {
    let mut chosen = None;
    for (n, item) in items.enumerate() {
        if rng.random_range(0..=n) == 0 {
            chosen = Some(item);
        }
    }
    chosen
}

/// A PC to mutate: a problem spot with probability `focus`, else any PC with NICs.
fn pick_pc(problem: &Problem, eval: &Eval, rng: &mut Rng, focus: f64) -> Option<usize> {
    if focus > 0.0
        && rng.random_bool(focus)
        && let Some(pc) = pick(rng, eval.problem_pcs())
    {
        return Some(pc);
    }
    let nics = &problem.cluster.nics;
    pick(rng, (0..problem.pcs()).filter(|&pc| nics[pc] > 0))
}

/// A required partner `pc` shares no switch with.
fn lacking_partner(problem: &Problem, g: &Genome, pc: usize, rng: &mut Rng) -> Option<usize> {
    let c = &problem.cluster;
    let m = g.mask(problem, pc);
    match c.coverage {
        Coverage::Universal => pick(
            rng,
            (0..problem.pcs()).filter(|&j| j != pc && !bits::meet(m, g.mask(problem, j))),
        ),
        Coverage::Sparse => pick(
            rng,
            c.pattern
                .row(pc)
                .0
                .iter()
                .map(|&j| j as usize)
                .filter(|&j| !bits::meet(m, g.mask(problem, j))),
        ),
    }
}

/// Mutation 1: exchange one NIC-to-switch connection between two PCs.
pub fn swap_connection(problem: &Problem, g: &mut Genome, eval: &mut Eval, rng: &mut Rng, focus: f64) -> bool {
    for _ in 0..ATTEMPTS {
        let Some(pc) = pick_pc(problem, eval, rng, focus) else {
            return false;
        };
        if eval.lacking[pc] > 0
            && focus > 0.0
            && let Some(partner) = lacking_partner(problem, g, pc, rng)
        {
            // Either side of the uncovered pair may move.
            let (mover, other) = if rng.random_bool(0.5) {
                (pc, partner)
            } else {
                (partner, pc)
            };
            if steer(problem, g, eval, mover, other, rng) {
                return true;
            }
            continue;
        }
        let own = g.entries_of(problem, pc);
        let Some(&i) = own.get(rng.random_range(0..own.len().max(1))) else {
            continue;
        };
        let j = if problem.switch_of(i) == DUMMY_SWITCH && rng.random_bool(0.5) {
            // An uncabled NIC looks for a free port first.
            if plug(problem, g, eval, pc, i, rng) {
                return true;
            }
            rng.random_range(0..g.len())
        } else {
            rng.random_range(0..g.len())
        };
        if eval.swap(problem, g, i, j) {
            return true;
        }
    }
    false
}

/// Required partners of `pc` whose only shared switch with it is `switch`:
/// what `pc` would lose by leaving that switch.
fn unique_loss(problem: &Problem, g: &Genome, pc: usize, switch: u32) -> u32 {
    if switch == DUMMY_SWITCH {
        return 0;
    }
    let s = switch as usize;
    let m = g.mask(problem, pc);
    let alone = |j: usize| bits::test(g.mask(problem, j), s) && bits::and_count(m, g.mask(problem, j)) == 1;
    match problem.cluster.coverage {
        Coverage::Universal => (0..problem.pcs()).filter(|&j| j != pc && alone(j)).count() as u32,
        Coverage::Sparse => problem
            .cluster
            .pattern
            .row(pc)
            .0
            .iter()
            .filter(|&&j| alone(j as usize))
            .count() as u32,
    }
}

/// Occupants of the target switch sampled when choosing whom to evict.
const EVICTION_SAMPLES: usize = 4;

/// Min-conflicts move for an uncovered pair: `mover` takes a port on a
/// switch of `other`, giving up the connection that covers fewest of its
/// partners alone; the occupant evicted in exchange is a free port if there
/// is one, else the sampled occupant that loses least.
fn steer(problem: &Problem, g: &mut Genome, eval: &mut Eval, mover: usize, other: usize, rng: &mut Rng) -> bool {
    let c = &problem.cluster;
    let (mm, mo) = (g.mask(problem, mover), g.mask(problem, other));
    let Some(y) = pick(
        rng,
        bits::ones(mo).filter(|&s| !bits::test(mm, s) && !c.pins.is_forbidden(mover, s)),
    ) else {
        return false;
    };
    let mut give: Vec<(u32, usize)> = g
        .entries_of(problem, mover)
        .into_iter()
        .filter(|&e| {
            let x = problem.switch_of(e);
            x == DUMMY_SWITCH || !c.pins.is_must(mover, x as usize)
        })
        .map(|e| (unique_loss(problem, g, mover, problem.switch_of(e)), e))
        .collect();
    shuffle(&mut give, rng);
    give.sort_by_key(|&(loss, _)| loss);
    let range = problem.range(y);
    let free: Vec<usize> = range.clone().filter(|&h| g.entries()[h] == FREE).collect();
    let candidates: Vec<usize> = if free.is_empty() {
        (0..EVICTION_SAMPLES).map(|_| rng.random_range(range.clone())).collect()
    } else {
        vec![free[rng.random_range(0..free.len())]]
    };
    // The connection to give up: the one covering fewest partners alone;
    // the occupant to evict: the one whose exchange scores best.
    for &(_, i) in &give {
        let mut best: Option<(f64, usize)> = None;
        for &h in &candidates {
            if !eval.swap(problem, g, i, h) {
                continue;
            }
            let score = eval.total;
            if !eval.swap(problem, g, i, h) {
                return true; // cannot undo: keep the move, it is still closed
            }
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, h));
            }
        }
        if let Some((_, h)) = best {
            return eval.swap(problem, g, i, h);
        }
    }
    false
}

/// Cables the uncabled NIC in entry `i` of `pc`: straight into a free port
/// on a switch `pc` is not on, or, when every free port is on one of its
/// switches, by a relay: a PC on another switch moves onto the free port
/// and `pc` takes the port it left. Both are exchanges of entries.
fn plug(problem: &Problem, g: &mut Genome, eval: &mut Eval, pc: usize, i: usize, rng: &mut Rng) -> bool {
    let free: Vec<usize> = (0..problem.real_entries())
        .filter(|&e| g.entries()[e] == FREE)
        .collect();
    if let Some(&f) = pick(rng, free.iter().filter(|&&f| g.can_swap(problem, i, f))) {
        return eval.swap(problem, g, i, f);
    }
    let Some(&f) = free.get(rng.random_range(0..free.len().max(1))) else {
        return false;
    };
    let mp = g.mask(problem, pc).to_vec();
    // A PC on a switch that `pc` may join, able to move onto the free port.
    let relay = pick(
        rng,
        (0..problem.real_entries()).filter(|&e| {
            let z = problem.switch_of(e) as usize;
            g.entries()[e] != FREE
                && !bits::test(&mp, z)
                && !problem.cluster.pins.is_forbidden(pc, z)
                && g.can_swap(problem, e, f)
        }),
    );
    match relay {
        Some(e) => eval.swap(problem, g, e, f) && eval.swap(problem, g, i, e),
        None => false,
    }
}

/// Mutation 2: exchange the whole connection sets of two PCs with the same
/// number of NICs ("essentially exchanging PC numbers").
pub fn swap_pcs(problem: &Problem, g: &mut Genome, eval: &mut Eval, rng: &mut Rng, focus: f64) -> bool {
    let nics = &problem.cluster.nics;
    for _ in 0..ATTEMPTS {
        let Some(p) = pick_pc(problem, eval, rng, focus) else {
            return false;
        };
        let Some(q) = pick(rng, (0..problem.pcs()).filter(|&q| q != p && nics[q] == nics[p])) else {
            return false;
        };
        let Some(pairs) = set_exchange(problem, g, p, q) else {
            continue;
        };
        let rows = [p, q];
        eval.rows(problem, g, &rows, -1);
        for &(i, j) in &pairs {
            eval.note_ports(problem, g, i, j);
            g.swap(problem, i, j);
        }
        eval.rows(problem, g, &rows, 1);
        eval.finish(problem);
        return true;
    }
    false
}

/// The entry exchanges that swap the connection sets of `p` and `q`, or
/// None if the sets are equal or a pin forbids it.
fn set_exchange(problem: &Problem, g: &Genome, p: usize, q: usize) -> Option<Vec<(usize, usize)>> {
    let c = &problem.cluster;
    let (mp, mq) = (g.mask(problem, p), g.mask(problem, q));
    let p_only: Vec<usize> = bits::ones(mp).filter(|&s| !bits::test(mq, s)).collect();
    let q_only: Vec<usize> = bits::ones(mq).filter(|&s| !bits::test(mp, s)).collect();
    if p_only.is_empty() && q_only.is_empty() {
        return None;
    }
    let blocked = p_only
        .iter()
        .any(|&s| c.pins.is_must(p, s) || c.pins.is_forbidden(q, s))
        || q_only
            .iter()
            .any(|&s| c.pins.is_must(q, s) || c.pins.is_forbidden(p, s));
    if blocked || (p_only.len() != q_only.len() && c.cable_every_nic) {
        return None;
    }
    // Entries of each PC to give: its own switches, padded with its
    // uncabled NICs when the other PC has more real connections.
    let mut dummy_p = (problem.real_entries()..g.len()).filter(|&i| g.entries()[i] == p as u32);
    let mut dummy_q = (problem.real_entries()..g.len()).filter(|&i| g.entries()[i] == q as u32);
    let mut give_p: Vec<usize> = p_only.iter().filter_map(|&s| g.find(problem, s as u32, p)).collect();
    let mut give_q: Vec<usize> = q_only.iter().filter_map(|&s| g.find(problem, s as u32, q)).collect();
    while give_p.len() < give_q.len() {
        give_p.push(dummy_p.next()?);
    }
    while give_q.len() < give_p.len() {
        give_q.push(dummy_q.next()?);
    }
    Some(give_p.into_iter().zip(give_q).collect())
}

/// Moves `pc` onto each switch in `add` it is not on, giving up one of its
/// connections outside `keep` (or an uncabled NIC) in exchange with a PC or
/// free port that holds the wanted switch. Returns the exchanges made.
pub(crate) fn force_switches(
    problem: &Problem,
    g: &mut Genome,
    pc: usize,
    add: &[usize],
    keep: &[u64],
    rng: &mut Rng,
) -> usize {
    let mut moves = 0;
    for &s in add {
        if g.has(problem, pc, s) || problem.cluster.pins.is_forbidden(pc, s) {
            continue;
        }
        let give: Vec<usize> = g
            .entries_of(problem, pc)
            .into_iter()
            .filter(|&e| {
                let x = problem.switch_of(e);
                x == DUMMY_SWITCH || !bits::test(keep, x as usize)
            })
            .collect();
        if give.is_empty() {
            break;
        }
        let range = problem.range(s);
        let len = range.len();
        let start = rng.random_range(0..len);
        'holders: for k in 0..len {
            let h = range.start + (start + k) % len;
            for &e in &give {
                if g.can_swap(problem, e, h) {
                    g.swap(problem, e, h);
                    moves += 1;
                    break 'holders;
                }
            }
        }
    }
    moves
}

/// Closed crossover: a copy of `a` with a random number of PCs forced to
/// their connection sets in `b`.
pub fn crossover(problem: &Problem, a: &Genome, b: &Genome, rng: &mut Rng) -> Genome {
    let mut child = a.clone();
    let p = problem.pcs();
    if p == 0 {
        return child;
    }
    let substitutions = rng.random_range(1..=(p / 2).max(1));
    for _ in 0..substitutions {
        let pc = rng.random_range(0..p);
        let target = b.mask(problem, pc).to_vec();
        let mut add: Vec<usize> = bits::ones(&target).collect();
        shuffle(&mut add, rng);
        force_switches(problem, &mut child, pc, &add, &target, rng);
    }
    child
}

fn shuffle<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        let j = rng.random_range(0..=i);
        items.swap(i, j);
    }
}

/// Makes `g` obey the pins: every must-pin cabled, every forbidden cell
/// moved elsewhere. Returns the cells it could not satisfy.
pub fn repair(problem: &Problem, g: &mut Genome, rng: &mut Rng) -> Vec<(usize, usize)> {
    let c = &problem.cluster;
    let mut failed = Vec::new();
    for pc in 0..problem.pcs() {
        let must = c.pins.must(pc).to_vec();
        let add: Vec<usize> = bits::ones(&must).filter(|&s| !g.has(problem, pc, s)).collect();
        force_switches(problem, g, pc, &add, &must, rng);
        for s in bits::ones(&must) {
            if !g.has(problem, pc, s) {
                failed.push((pc, s));
            }
        }
        let bad: Vec<usize> = bits::ones(c.pins.forbid(pc))
            .filter(|&s| g.has(problem, pc, s))
            .collect();
        for s in bad {
            if !evict(problem, g, pc, s, rng) {
                failed.push((pc, s));
            }
        }
    }
    failed
}

/// Moves `pc`'s connection on `s` to some other switch (a free port first).
fn evict(problem: &Problem, g: &mut Genome, pc: usize, s: usize, rng: &mut Rng) -> bool {
    let Some(e) = g.find(problem, s as u32, pc) else {
        return true;
    };
    let n = g.len();
    let start = rng.random_range(0..n);
    let order = (0..n).map(|k| (start + k) % n);
    let free_first: Vec<usize> = order
        .clone()
        .filter(|&h| g.entries()[h] == FREE)
        .chain(order.filter(|&h| g.entries()[h] != FREE))
        .collect();
    for h in free_first {
        if g.can_swap(problem, e, h) {
            g.swap(problem, e, h);
            return true;
        }
    }
    // Nowhere to go: uncable the NIC (grow the dummy switch by one entry).
    if problem.cluster.cable_every_nic {
        return false;
    }
    let h = g.grow_dummy();
    g.swap(problem, e, h);
    true
}
