use super::model::{Coverage, GaParams, NicSpec, SwitchModel, UplinkMode, Weights};
use crate::design::bits;
use crate::patterns::PairWeights;

/// One FNN switch of the resolved inventory.
#[derive(Clone, Debug, PartialEq)]
pub struct SwitchSlot {
    /// Index into [`Cluster::models`].
    pub model: usize,
    /// Ports left for PCs after the uplink reservation.
    pub ports: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Uplink {
    pub mode: UplinkMode,
    /// The separate uplink switch's model.
    pub model: Option<usize>,
    /// For a folded uplink, the FNN switch that carries it.
    pub hub: Option<usize>,
    pub speed_mbps: f64,
}

/// Must / forbid pins as per-PC bitmasks (a set bit is a pinned switch).
#[derive(Clone, Debug, PartialEq)]
pub struct Pins {
    words: usize,
    must: Vec<u64>,
    forbid: Vec<u64>,
}

impl Pins {
    pub fn new(pcs: usize, switches: usize) -> Self {
        let words = bits::words_for(switches);
        Pins {
            words,
            must: vec![0; pcs * words],
            forbid: vec![0; pcs * words],
        }
    }

    fn row(&self, pc: usize) -> std::ops::Range<usize> {
        pc * self.words..(pc + 1) * self.words
    }

    pub fn must(&self, pc: usize) -> &[u64] {
        &self.must[self.row(pc)]
    }

    pub fn forbid(&self, pc: usize) -> &[u64] {
        &self.forbid[self.row(pc)]
    }

    pub fn is_must(&self, pc: usize, switch: usize) -> bool {
        bits::test(self.must(pc), switch)
    }

    pub fn is_forbidden(&self, pc: usize, switch: usize) -> bool {
        bits::test(self.forbid(pc), switch)
    }

    pub fn set_must(&mut self, pc: usize, switch: usize) {
        let r = self.row(pc);
        bits::clear(&mut self.forbid[r.clone()], switch);
        bits::set(&mut self.must[r], switch);
    }

    pub fn set_forbid(&mut self, pc: usize, switch: usize) {
        let r = self.row(pc);
        bits::clear(&mut self.must[r.clone()], switch);
        bits::set(&mut self.forbid[r], switch);
    }

    pub fn clear(&mut self, pc: usize, switch: usize) {
        let r = self.row(pc);
        bits::clear(&mut self.must[r.clone()], switch);
        bits::clear(&mut self.forbid[r], switch);
    }

    pub fn is_empty(&self) -> bool {
        self.must.iter().chain(&self.forbid).all(|&w| w == 0)
    }

    /// All pins as (pc, switch, is_must), in PC then switch order.
    pub fn list(&self) -> Vec<(usize, usize, bool)> {
        let pcs = self.must.len() / self.words;
        let mut out = Vec::new();
        for pc in 0..pcs {
            out.extend(bits::ones(self.must(pc)).map(|s| (pc, s, true)));
            out.extend(bits::ones(self.forbid(pc)).map(|s| (pc, s, false)));
        }
        out.sort_unstable();
        out
    }
}

/// A validated spec with everything resolved to numbers: the engine's input.
#[derive(Clone, Debug, PartialEq)]
pub struct Cluster {
    pub name: String,
    /// The file the spec came from, for messages.
    pub source: String,
    /// NICs per PC.
    pub nics: Vec<u32>,
    pub switches: Vec<SwitchSlot>,
    pub models: Vec<SwitchModel>,
    pub uplink: Uplink,
    pub coverage: Coverage,
    pub pattern: PairWeights,
    /// The sides of the spec's grid patterns (tori and meshes): a search
    /// may lay a layer of switches as a grid's blocks.
    pub grids: Vec<Vec<usize>>,
    pub pins: Pins,
    pub weights: Weights,
    pub ga: GaParams,
    pub nic: NicSpec,
    pub cable_price: f64,
    pub cable_every_nic: bool,
    pub hot_spares: usize,
    pub name_prefix: String,
    /// One cable colour per switch, in switch order (repeating, striped,
    /// once switches outnumber them).
    pub cable_colors: Vec<super::CableColor>,
    pub racks: super::RackSpec,
    pub pc_rack_units: u32,
}

impl Cluster {
    pub fn pcs(&self) -> usize {
        self.nics.len()
    }

    pub fn switch_count(&self) -> usize {
        self.switches.len()
    }

    pub fn ports(&self, switch: usize) -> u32 {
        self.switches[switch].ports
    }

    /// How many other PCs `pc` must share a switch with.
    pub(crate) fn partners_needed(&self, pc: usize) -> usize {
        match self.coverage {
            Coverage::Universal => self.pcs() - 1,
            Coverage::Sparse => self.pattern.required_degree(pc),
        }
    }

    pub(crate) fn total_nics(&self) -> u64 {
        self.nics.iter().map(|&n| n as u64).sum()
    }

    pub(crate) fn total_ports(&self) -> u64 {
        self.switches.iter().map(|s| s.ports as u64).sum()
    }

    pub fn max_nics(&self) -> u32 {
        self.nics.iter().copied().max().unwrap_or(0)
    }

    pub(crate) fn switch_price(&self, switch: usize) -> f64 {
        self.models[self.switches[switch].model].price
    }

    /// Host name of a PC: prefix and a number zero-padded to the width of
    /// the largest number (KLAT2: k00 .. k63).
    pub fn pc_name(&self, pc: usize) -> String {
        format!("{}{:0width$}", self.name_prefix, pc, width = self.pc_digits())
    }

    /// How many digits a PC's number takes in its name.
    fn pc_digits(&self) -> usize {
        (self.pcs().max(2) - 1).to_string().len()
    }

    /// The PC named `s` ([`Cluster::pc_name`] read back), found directly
    /// rather than by comparing with every name (files from thousands of
    /// PCs have millions of lines).
    pub fn pc_named(&self, s: &str) -> Option<usize> {
        self.pc_numbered(s.strip_prefix(self.name_prefix.as_str())?)
    }

    /// The PC whose host name (its name as `/etc/hosts` has it) is `s`.
    pub fn pc_host_named(&self, s: &str) -> Option<usize> {
        let prefix = if self.name_prefix.is_empty() {
            String::new()
        } else {
            crate::escape::host_name(&self.name_prefix)
        };
        self.pc_numbered(s.strip_prefix(prefix.as_str())?)
    }

    fn pc_numbered(&self, digits: &str) -> Option<usize> {
        if digits.len() != self.pc_digits() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.parse().ok().filter(|&pc| pc < self.pcs())
    }

    /// Whether the user asked for more than plain connectivity: then the
    /// search runs to its limits instead of stopping at the first valid design.
    pub(crate) fn has_secondary_objective(&self) -> bool {
        let w = &self.weights;
        let patterned = !self.pattern.is_empty();
        (patterned && (w.bandwidth > 0.0 || w.weakest > 0.0)) || w.balance > 0.0 || w.cost > 0.0 || w.redundancy > 0.0
    }

    /// Whether PCs `a` and `b` must share a switch.
    pub fn is_required(&self, a: usize, b: usize) -> bool {
        a != b
            && match self.coverage {
                Coverage::Universal => true,
                Coverage::Sparse => self.pattern.weight(a, b) > 0,
            }
    }

    /// The price of everything in the inventory, the scale for the cost term.
    pub(crate) fn inventory_cost(&self) -> f64 {
        let switches: f64 = (0..self.switch_count()).map(|s| self.switch_price(s)).sum();
        let nics = self.total_nics() as f64 * (self.nic.price + self.cable_price);
        let uplink = self.uplink.model.map_or(0.0, |m| self.models[m].price);
        switches + nics + uplink
    }
}
