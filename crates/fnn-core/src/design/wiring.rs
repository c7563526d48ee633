use super::bits;

/// A wiring of `pcs` PCs to `switches` FNN switches: one bitmask per PC.
///
/// A PC never has two NICs on one switch (the FNN compiler paper: "such a configuration
/// would add nothing"), so a set bit is one NIC and one cable. NICs are
/// numbered so that within each PC the lowest NIC goes to the lowest switch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Design {
    pcs: usize,
    switches: usize,
    words: usize,
    masks: Vec<u64>,
}

impl Design {
    pub fn new(pcs: usize, switches: usize) -> Self {
        let words = bits::words_for(switches);
        Design {
            pcs,
            switches,
            words,
            masks: vec![0; pcs * words],
        }
    }

    /// Builds a design from per-PC masks laid out `words` apart.
    pub(crate) fn from_masks(pcs: usize, switches: usize, masks: Vec<u64>) -> Self {
        let words = bits::words_for(switches);
        assert_eq!(masks.len(), pcs * words, "mask array does not match the design size");
        Design {
            pcs,
            switches,
            words,
            masks,
        }
    }

    /// A design from the PCs on each switch (switch `s` holds `blocks[s]`);
    /// PCs past `pcs` are ignored.
    pub fn from_blocks(pcs: usize, blocks: &[Vec<usize>]) -> Self {
        let mut d = Design::new(pcs, blocks.len());
        for (s, block) in blocks.iter().enumerate() {
            for &pc in block.iter().filter(|&&pc| pc < pcs) {
                d.connect(pc, s);
            }
        }
        d
    }

    /// The design of its first `pcs` PCs (all of them if it has fewer):
    /// dropping PCs keeps every remaining pair on its shared switch.
    pub fn first_pcs(&self, pcs: usize) -> Design {
        let pcs = pcs.min(self.pcs);
        Design::from_masks(pcs, self.switches, self.masks[..pcs * self.words].to_vec())
    }

    pub fn pcs(&self) -> usize {
        self.pcs
    }

    pub fn switches(&self) -> usize {
        self.switches
    }

    pub fn words(&self) -> usize {
        self.words
    }

    pub fn masks(&self) -> &[u64] {
        &self.masks
    }

    pub fn mask(&self, pc: usize) -> &[u64] {
        &self.masks[pc * self.words..(pc + 1) * self.words]
    }

    pub fn has(&self, pc: usize, switch: usize) -> bool {
        bits::test(self.mask(pc), switch)
    }

    pub fn connect(&mut self, pc: usize, switch: usize) {
        let w = self.words;
        bits::set(&mut self.masks[pc * w..(pc + 1) * w], switch);
    }

    pub fn disconnect(&mut self, pc: usize, switch: usize) {
        let w = self.words;
        bits::clear(&mut self.masks[pc * w..(pc + 1) * w], switch);
    }

    /// The PC's switches in NIC order: NIC 0 on the lowest switch, and so on.
    pub fn switches_of(&self, pc: usize) -> Vec<usize> {
        bits::ones(self.mask(pc)).collect()
    }

    /// The NIC (0-based) of `pc` that is cabled to `switch`, if any.
    pub fn nic_on(&self, pc: usize, switch: usize) -> Option<usize> {
        let m = self.mask(pc);
        (switch < self.switches && bits::test(m, switch)).then(|| bits::rank(m, switch))
    }

    pub fn nics_used(&self, pc: usize) -> u32 {
        bits::count(self.mask(pc))
    }

    /// Shared switches between two PCs: their single-hop links.
    pub fn links(&self, a: usize, b: usize) -> u32 {
        bits::and_count(self.mask(a), self.mask(b))
    }

    /// How many PCs are cabled to each switch.
    pub fn ports_used(&self) -> Vec<u32> {
        let mut used = vec![0u32; self.switches];
        for pc in 0..self.pcs {
            for s in bits::ones(self.mask(pc)) {
                used[s] += 1;
            }
        }
        used
    }

    /// The PCs on each switch, ascending.
    pub fn pcs_on_switches(&self) -> Vec<Vec<usize>> {
        let mut on = vec![Vec::new(); self.switches];
        for pc in 0..self.pcs {
            for s in bits::ones(self.mask(pc)) {
                on[s].push(pc);
            }
        }
        on
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nic_order_follows_switch_order() {
        let mut d = Design::new(2, 70);
        d.connect(0, 69);
        d.connect(0, 3);
        d.connect(1, 3);
        assert_eq!(d.switches_of(0), vec![3, 69]);
        assert_eq!(d.nic_on(0, 69), Some(1));
        assert_eq!(d.links(0, 1), 1);
        assert_eq!(d.ports_used()[3], 2);
        d.disconnect(0, 3);
        assert_eq!(d.links(0, 1), 0);
    }

    #[test]
    fn first_pcs_keeps_their_cables() {
        let mut d = Design::new(3, 70);
        d.connect(0, 69);
        d.connect(1, 69);
        d.connect(2, 5);
        let two = d.first_pcs(2);
        assert_eq!((two.pcs(), two.switches()), (2, 70));
        assert_eq!(two.links(0, 1), 1);
        assert_eq!(two.ports_used()[5], 0);
        assert_eq!(d.first_pcs(9), d);
    }
}
