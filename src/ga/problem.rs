//! The engine's view of a cluster: where each switch's ports sit in a genome.

use crate::design::bits;
use crate::spec::Cluster;

/// Marks an entry that belongs to the dummy switch (an uncabled NIC).
pub const DUMMY_SWITCH: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub struct Problem {
    pub cluster: Cluster,
    /// Entries of switch s are `offsets[s]..offsets[s + 1]`.
    pub offsets: Vec<u32>,
    /// The switch of each real port entry.
    pub entry_switch: Vec<u32>,
    pub words: usize,
}

impl Problem {
    pub fn new(cluster: Cluster) -> Self {
        let mut offsets = Vec::with_capacity(cluster.switch_count() + 1);
        let mut entry_switch = Vec::new();
        offsets.push(0);
        for (s, slot) in cluster.switches.iter().enumerate() {
            entry_switch.extend(std::iter::repeat_n(s as u32, slot.ports as usize));
            offsets.push(entry_switch.len() as u32);
        }
        let words = bits::words_for(cluster.switch_count());
        Problem {
            cluster,
            offsets,
            entry_switch,
            words,
        }
    }

    pub fn pcs(&self) -> usize {
        self.cluster.pcs()
    }

    pub fn switches(&self) -> usize {
        self.cluster.switch_count()
    }

    /// Real switch ports: entries past this index are the dummy switch.
    pub fn real_entries(&self) -> usize {
        self.entry_switch.len()
    }

    pub fn range(&self, switch: usize) -> std::ops::Range<usize> {
        self.offsets[switch] as usize..self.offsets[switch + 1] as usize
    }

    /// The switch an entry belongs to, or [`DUMMY_SWITCH`].
    pub fn switch_of(&self, entry: usize) -> u32 {
        self.entry_switch.get(entry).copied().unwrap_or(DUMMY_SWITCH)
    }
}
