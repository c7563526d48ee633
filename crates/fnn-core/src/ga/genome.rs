//! A closed representation of a wiring (the FNN compiler paper, "The Genetic Algorithm
//! Itself"). Every real switch port is an entry holding a PC, or [`FREE`]
//! (the paper's dummy NIC on a virtual PC absorbing an unused port). The
//! NICs that have no port are entries of a dummy switch after the real
//! ones. Operators only ever exchange two entries, so the number of NICs of
//! every PC and of ports of every switch never changes: they are closed.

/// A saved genome or engine state that does not fit the spec (a session
/// edited by hand, or of another spec).
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[error("{0}")]
pub struct StateError(pub String);

use super::problem::{DUMMY_SWITCH, Problem};
use crate::design::{Design, bits};
use serde::{Deserialize, Serialize};

/// A dummy NIC: the port is not cabled.
pub(crate) const FREE: u32 = u32::MAX;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Genome {
    /// Real switch ports, then the dummy switch (uncabled NICs).
    entries: Vec<u32>,
    /// Per-PC switch bitmasks derived from `entries`, kept in step.
    #[serde(skip)]
    masks: Vec<u64>,
}

impl Genome {
    /// Builds a genome from explicit entries, checking that they describe a
    /// closed wiring of this problem (used when loading sessions).
    pub fn from_entries(problem: &Problem, entries: Vec<u32>) -> Result<Genome, StateError> {
        let real = problem.real_entries();
        if entries.len() < real {
            return Err(StateError(format!(
                "{} entries, but the switches have {real} ports",
                entries.len()
            )));
        }
        let mut per_pc = vec![0u32; problem.pcs()];
        let mut g = Genome {
            entries,
            masks: vec![0; problem.pcs() * problem.words],
        };
        for (i, &pc) in g.entries.iter().enumerate() {
            if pc == FREE {
                continue;
            }
            let pc = pc as usize;
            if pc >= problem.pcs() {
                return Err(StateError(format!(
                    "entry {i} names PC {pc}, but there are {}",
                    problem.pcs()
                )));
            }
            per_pc[pc] += 1;
            if i < real {
                let s = problem.switch_of(i) as usize;
                if g.has(problem, pc, s) {
                    return Err(StateError(format!("PC {pc} has two NICs on switch {s}")));
                }
                bits::set(&mut g.masks[pc * problem.words..(pc + 1) * problem.words], s);
            }
        }
        for (pc, &n) in per_pc.iter().enumerate() {
            if n != problem.cluster.nics[pc] {
                return Err(StateError(format!(
                    "PC {pc} has {n} NIC entries but {} NICs",
                    problem.cluster.nics[pc]
                )));
            }
        }
        Ok(g)
    }

    /// Places the NICs of every PC, in `order`: first all must-pins, then
    /// the switches `preferred(pc)` names, then the lowest-numbered switch
    /// with a free port that the PC is not already on (the FNN compiler paper's
    /// straightforward construction). NICs left over go to the dummy switch
    /// and ports left over stay free.
    pub(crate) fn construct(problem: &Problem, order: &[usize], preferred: &dyn Fn(usize) -> Vec<usize>) -> Genome {
        let c = &problem.cluster;
        let words = problem.words;
        let mut fill: Vec<usize> = (0..problem.switches()).map(|s| problem.range(s).start).collect();
        let mut entries = vec![FREE; problem.real_entries()];
        let mut masks = vec![0u64; problem.pcs() * words];
        let mut unplugged = Vec::new();
        let mut place = |pc: usize, s: usize, entries: &mut Vec<u32>, masks: &mut Vec<u64>| -> bool {
            let row = &mut masks[pc * words..(pc + 1) * words];
            if bits::test(row, s) || c.pins.is_forbidden(pc, s) || fill[s] >= problem.range(s).end {
                return false;
            }
            entries[fill[s]] = pc as u32;
            fill[s] += 1;
            bits::set(row, s);
            true
        };
        // Pins first, for every PC, so no later choice can take their ports.
        let mut placed = vec![0u32; problem.pcs()];
        for &pc in order {
            for s in bits::ones(c.pins.must(pc)).collect::<Vec<_>>() {
                if placed[pc] < c.nics[pc] && place(pc, s, &mut entries, &mut masks) {
                    placed[pc] += 1;
                }
            }
        }
        // Then every PC's preferred switches, before any filling, so one
        // PC's spare NICs cannot take the ports another PC prefers.
        for &pc in order {
            for s in preferred(pc) {
                if placed[pc] >= c.nics[pc] {
                    break;
                }
                if s < problem.switches() && place(pc, s, &mut entries, &mut masks) {
                    placed[pc] += 1;
                }
            }
        }
        for &pc in order {
            for s in 0..problem.switches() {
                if placed[pc] >= c.nics[pc] {
                    break;
                }
                if place(pc, s, &mut entries, &mut masks) {
                    placed[pc] += 1;
                }
            }
            unplugged.extend(std::iter::repeat_n(pc as u32, (c.nics[pc] - placed[pc]) as usize));
        }
        entries.extend(unplugged);
        Genome { entries, masks }
    }

    /// The straightforward construction in PC order.
    pub fn straightforward(problem: &Problem) -> Genome {
        let order: Vec<usize> = (0..problem.pcs()).collect();
        Genome::construct(problem, &order, &|_| Vec::new())
    }

    /// A genome that reproduces `design` as far as the limits allow.
    pub fn from_design(problem: &Problem, design: &Design) -> Genome {
        let order: Vec<usize> = (0..problem.pcs()).collect();
        Genome::construct(problem, &order, &|pc| {
            if pc < design.pcs() {
                design.switches_of(pc)
            } else {
                Vec::new()
            }
        })
    }

    pub fn entries(&self) -> &[u32] {
        &self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn masks(&self) -> &[u64] {
        debug_assert!(!self.masks.is_empty(), "the masks of a genome that shed them were read");
        &self.masks
    }

    pub fn mask(&self, problem: &Problem, pc: usize) -> &[u64] {
        debug_assert!(
            self.has_masks(problem),
            "the masks of a genome that shed them were read"
        );
        &self.masks[pc * problem.words..(pc + 1) * problem.words]
    }

    /// Frees the masks, which the entries determine: an idle member of a
    /// large population keeps only its entries (at 4096 PCs on 5120
    /// switches the masks are 2.6 MB, the entries 0.1 MB).
    /// [`Genome::restore_masks`] builds them again before use.
    pub(crate) fn shed_masks(&mut self) {
        self.masks = Vec::new();
    }

    /// Whether the masks are there (not shed).
    pub(crate) fn has_masks(&self, problem: &Problem) -> bool {
        self.masks.len() == problem.pcs() * problem.words
    }

    /// Builds the masks again from the entries, if they were shed.
    pub(crate) fn restore_masks(&mut self, problem: &Problem) {
        if self.has_masks(problem) {
            return;
        }
        let w = problem.words;
        let mut masks = vec![0u64; problem.pcs() * w];
        for (i, &pc) in self.entries[..problem.real_entries()].iter().enumerate() {
            if pc != FREE {
                let pc = pc as usize;
                bits::set(&mut masks[pc * w..(pc + 1) * w], problem.switch_of(i) as usize);
            }
        }
        self.masks = masks;
    }

    /// This genome with its masks: itself, or a copy with them restored.
    pub(crate) fn with_masks(&self, problem: &Problem) -> std::borrow::Cow<'_, Genome> {
        if self.has_masks(problem) {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut g = self.clone();
        g.restore_masks(problem);
        std::borrow::Cow::Owned(g)
    }

    pub fn has(&self, problem: &Problem, pc: usize, switch: usize) -> bool {
        bits::test(self.mask(problem, pc), switch)
    }

    pub fn design(&self, problem: &Problem) -> Design {
        let masks = match self.with_masks(problem) {
            std::borrow::Cow::Borrowed(g) => g.masks.clone(),
            std::borrow::Cow::Owned(g) => g.masks,
        };
        Design::from_masks(problem.pcs(), problem.switches(), masks)
    }

    /// The entry of `pc` on `switch` (a real switch or [`DUMMY_SWITCH`]).
    pub fn find(&self, problem: &Problem, switch: u32, pc: usize) -> Option<usize> {
        let range = if switch == DUMMY_SWITCH {
            problem.real_entries()..self.entries.len()
        } else {
            problem.range(switch as usize)
        };
        range.into_iter().find(|&i| self.entries[i] == pc as u32)
    }

    /// Whether exchanging the PCs in entries `i` and `j` keeps every rule:
    /// no PC twice on one switch, pins kept, forbidden cells avoided.
    pub fn can_swap(&self, problem: &Problem, i: usize, j: usize) -> bool {
        let (x, y) = (problem.switch_of(i), problem.switch_of(j));
        let (p, q) = (self.entries[i], self.entries[j]);
        x != y && p != q && self.can_move(problem, p, x, y) && self.can_move(problem, q, y, x)
    }

    /// Whether PC `pc` (or a free port) may move its NIC from switch `from` to `to`.
    fn can_move(&self, problem: &Problem, pc: u32, from: u32, to: u32) -> bool {
        if pc == FREE {
            return true;
        }
        let c = &problem.cluster;
        let pc = pc as usize;
        if from != DUMMY_SWITCH && c.pins.is_must(pc, from as usize) {
            return false;
        }
        if to == DUMMY_SWITCH {
            return !c.cable_every_nic;
        }
        !self.has(problem, pc, to as usize) && !c.pins.is_forbidden(pc, to as usize)
    }

    /// Exchanges two entries (check [`Genome::can_swap`] first) and returns
    /// the real PCs whose connections changed.
    pub fn swap(&mut self, problem: &Problem, i: usize, j: usize) -> [Option<usize>; 2] {
        let (x, y) = (problem.switch_of(i), problem.switch_of(j));
        let (p, q) = (self.entries[i], self.entries[j]);
        self.entries.swap(i, j);
        self.relocate(problem, p, x, y);
        self.relocate(problem, q, y, x);
        [(p != FREE).then_some(p as usize), (q != FREE).then_some(q as usize)]
    }

    fn relocate(&mut self, problem: &Problem, pc: u32, from: u32, to: u32) {
        if pc == FREE {
            return;
        }
        let w = problem.words;
        let row = &mut self.masks[pc as usize * w..(pc as usize + 1) * w];
        if from != DUMMY_SWITCH {
            bits::clear(row, from as usize);
        }
        if to != DUMMY_SWITCH {
            bits::set(row, to as usize);
        }
    }

    /// Adds an empty entry to the dummy switch and returns its index, so a
    /// NIC can be uncabled when no other exchange exists.
    pub(crate) fn grow_dummy(&mut self) -> usize {
        self.entries.push(FREE);
        self.entries.len() - 1
    }

    /// The entries of one PC: its real switches' entries then its uncabled NICs.
    pub(crate) fn entries_of(&self, problem: &Problem, pc: usize) -> Vec<usize> {
        let mut out: Vec<usize> = bits::ones(self.mask(problem, pc))
            .filter_map(|s| self.find(problem, s as u32, pc))
            .collect();
        out.extend((problem.real_entries()..self.entries.len()).filter(|&i| self.entries[i] == pc as u32));
        out
    }

    /// NICs of `pc` on the dummy switch.
    pub fn uncabled(&self, problem: &Problem, pc: usize) -> u32 {
        problem.cluster.nics[pc] - bits::count(self.mask(problem, pc))
    }
}
