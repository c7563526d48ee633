//! The engine's view of a cluster: where each switch's ports sit in a genome.

use crate::design::bits;
use crate::spec::Cluster;

/// Marks an entry that belongs to the dummy switch (an uncabled NIC).
pub(crate) const DUMMY_SWITCH: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub struct Problem {
    pub cluster: Cluster,
    /// Entries of switch s are `offsets[s]..offsets[s + 1]`.
    pub offsets: Vec<u32>,
    /// The switch of each real port entry.
    pub entry_switch: Vec<u32>,
    pub words: usize,
    /// The reference rack of each PC, for the rack-crossings term.
    pub pc_rack: Vec<u32>,
    /// Per rack, the switches in it (a mask, `words` long).
    pub rack_switches: Vec<u64>,
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
        // PCs and switches spread evenly over the racks in index order.
        let racks = cluster.racks.count.max(1);
        let (p, s) = (cluster.pcs().max(1), cluster.switch_count().max(1));
        let pc_rack = (0..cluster.pcs()).map(|pc| (pc * racks / p) as u32).collect();
        let mut rack_switches = vec![0u64; racks * words];
        for sw in 0..cluster.switch_count() {
            let r = sw * racks / s;
            bits::set(&mut rack_switches[r * words..(r + 1) * words], sw);
        }
        Problem {
            cluster,
            offsets,
            entry_switch,
            words,
            pc_rack,
            rack_switches,
        }
    }

    pub fn pcs(&self) -> usize {
        self.cluster.pcs()
    }

    pub fn switches(&self) -> usize {
        self.cluster.switch_count()
    }

    /// Real switch ports: entries past this index are the dummy switch.
    pub(crate) fn real_entries(&self) -> usize {
        self.entry_switch.len()
    }

    pub fn range(&self, switch: usize) -> std::ops::Range<usize> {
        self.offsets[switch] as usize..self.offsets[switch + 1] as usize
    }

    /// The switch an entry belongs to, or [`DUMMY_SWITCH`].
    pub fn switch_of(&self, entry: usize) -> u32 {
        self.entry_switch.get(entry).copied().unwrap_or(DUMMY_SWITCH)
    }

    /// Cables of `pc` (mask `m`) to switches outside its reference rack.
    pub fn crossings(&self, pc: usize, m: &[u64]) -> u32 {
        let r = self.pc_rack[pc] as usize;
        let rack = &self.rack_switches[r * self.words..(r + 1) * self.words];
        m.iter().zip(rack).map(|(a, b)| (a & !b).count_ones()).sum()
    }
}
