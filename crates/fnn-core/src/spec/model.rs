//! The spec as written in TOML. Every field has a default so that a
//! three-line spec (`[pcs]`, `count`, `nics`) works; unknown fields are
//! refused so a typo is reported instead of silently ignored.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Spec {
    pub name: String,
    pub pcs: PcSpec,
    pub nic: NicSpec,
    /// Switch models on offer for the FNN itself.
    pub switches: Vec<SwitchModel>,
    pub uplink: UplinkSpec,
    pub coverage: Coverage,
    pub patterns: Vec<PatternSpec>,
    pub pins: Vec<PinSpec>,
    pub weights: Weights,
    pub ga: GaParams,
    pub cables: CableSpec,
    pub racks: RackSpec,
    /// Where the spec came from, for error messages.
    #[serde(skip)]
    pub source: String,
    /// Relative pair files are read from here (held open).
    #[serde(skip)]
    pub base_dir: Option<crate::input::Folder>,
}

impl Default for Spec {
    fn default() -> Self {
        Spec {
            name: "cluster".into(),
            pcs: PcSpec::default(),
            nic: NicSpec::default(),
            switches: vec![SwitchModel::default()],
            uplink: UplinkSpec::default(),
            coverage: Coverage::Universal,
            patterns: Vec::new(),
            pins: Vec::new(),
            weights: Weights::default(),
            ga: GaParams::default(),
            cables: CableSpec::default(),
            racks: RackSpec::default(),
            source: "spec".into(),
            base_dir: None,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct PcSpec {
    /// PCs in the FNN (hot spares are extra and sit on the uplink switch).
    pub count: usize,
    /// Maximum NICs per PC.
    pub nics: u32,
    /// PCs whose NIC count differs.
    pub overrides: Vec<NicOverride>,
    /// Host names are `prefix` + zero-padded number (KLAT2: k00 .. k63).
    pub name_prefix: String,
    pub hot_spares: usize,
    pub rack_units: u32,
    /// Refuse designs that leave a NIC uncabled (otherwise spare NICs may
    /// stay unplugged, the papers' dummy switch).
    pub cable_every_nic: bool,
}

impl Default for PcSpec {
    fn default() -> Self {
        PcSpec {
            count: 64,
            nics: 4,
            overrides: Vec::new(),
            name_prefix: "n".into(),
            hot_spares: 0,
            rack_units: 2,
            cable_every_nic: false,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct NicOverride {
    pub pc: usize,
    pub nics: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct NicSpec {
    pub model: String,
    pub price: f64,
    pub speed_mbps: f64,
}

impl Default for NicSpec {
    fn default() -> Self {
        NicSpec {
            model: "Fast Ethernet NIC".into(),
            price: 15.0,
            speed_mbps: 100.0,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct SwitchModel {
    pub model: String,
    /// Physical ports, including any reserved for the uplink.
    pub ports: u32,
    /// How many are available; omitted means "as many as needed".
    pub count: Option<u32>,
    pub price: f64,
    pub rack_units: u32,
    pub power_w: f64,
}

impl Default for SwitchModel {
    fn default() -> Self {
        SwitchModel {
            model: "32-port Fast Ethernet".into(),
            ports: 32,
            count: None,
            price: 525.0,
            rack_units: 1,
            power_w: 30.0,
        }
    }
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum UplinkMode {
    /// No uplink: every port serves PCs.
    None,
    /// A separate uplink switch takes `ports` ports of every FNN switch.
    #[default]
    Separate,
    /// The uplink is folded into one FNN switch, which reserves a port for
    /// every other FNN switch; the others reserve `ports` each.
    Folded,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct UplinkSpec {
    pub mode: UplinkMode,
    /// Ports each FNN switch gives to the uplink.
    pub ports: u32,
    /// The separate uplink switch's model (name from `switches`); the first
    /// model when empty.
    pub model: String,
    pub speed_mbps: f64,
}

impl Default for UplinkSpec {
    fn default() -> Self {
        UplinkSpec {
            mode: UplinkMode::Separate,
            ports: 1,
            model: String::new(),
            speed_mbps: 100.0,
        }
    }
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Coverage {
    /// Every pair of PCs shares a switch.
    #[default]
    Universal,
    /// Only the pairs named by the patterns must share a switch.
    Sparse,
}

/// A communication pattern: a set of PC pairs with a weight (importance).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum PatternSpec {
    AllToAll {
        #[serde(default = "one")]
        weight: f64,
    },
    /// PC i with i +- 1 .. i +- k (mod P).
    Ring {
        #[serde(default = "one_u")]
        k: usize,
        #[serde(default = "one")]
        weight: f64,
    },
    /// Nearest neighbours in a 2D or 3D grid (row-major), wrapping when `torus`.
    Grid {
        dims: Vec<usize>,
        #[serde(default)]
        torus: bool,
        #[serde(default = "one")]
        weight: f64,
    },
    /// Every pair in the same full row or column (any axis line) of a grid.
    Lines {
        dims: Vec<usize>,
        #[serde(default = "one")]
        weight: f64,
    },
    /// i with i xor 2^b for every bit b.
    Hypercube {
        #[serde(default = "one")]
        weight: f64,
    },
    /// i with its bit-reversed index.
    BitReversal {
        #[serde(default = "one")]
        weight: f64,
    },
    /// (r, c) with (c, r) in a rows x cols grid.
    Transpose {
        dims: Vec<usize>,
        #[serde(default = "one")]
        weight: f64,
    },
    /// Explicit pairs `[a, b]` or `[a, b, weight]`.
    Pairs {
        pairs: Vec<Vec<f64>>,
        #[serde(default = "one")]
        weight: f64,
    },
    /// A file of lines `a b [weight]`. A spec names it relative to its
    /// own folder and cannot reach outside it; a path the user typed on
    /// the command line (`--pairs`) is read as given.
    PairFile {
        path: String,
        #[serde(default = "one")]
        weight: f64,
        /// Set only by the command line, never by a file (serde skips it,
        /// and a spec that names it is refused as an unknown field).
        #[serde(skip)]
        named_by_user: bool,
    },
}

fn one() -> f64 {
    1.0
}
fn one_u() -> usize {
    1
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum PinKind {
    /// The PC must have a NIC on the switch (a cable already run).
    Must,
    /// The PC must not be on the switch.
    Forbid,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PinSpec {
    pub pc: usize,
    pub switch: usize,
    pub kind: PinKind,
}

/// The evaluation is a weighted sum; these are the weights.
/// Secondary terms are normalised to about 0..NICs so that the default
/// `uncovered` weight dominates them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Weights {
    /// Penalty per required pair with no shared switch.
    pub uncovered: f64,
    /// Reward per weighted-average shared link over the pattern pairs.
    pub bandwidth: f64,
    /// Reward per link of the weakest pattern pair.
    pub weakest: f64,
    /// Penalty for uneven switch fill (0 = even, 1 = worst).
    pub balance: f64,
    /// Penalty per unit of hardware cost relative to the whole inventory.
    pub cost: f64,
    /// Reward per fraction of required pairs that keep a switch if any one fails.
    pub redundancy: f64,
    /// Penalty per share of cables that leave their PC's rack (PCs and
    /// switches spread evenly over `racks.count` racks in index order).
    pub rack_crossings: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            uncovered: 100.0,
            bandwidth: 1.0,
            weakest: 1.0,
            balance: 0.0,
            cost: 0.0,
            redundancy: 0.0,
            rack_crossings: 0.0,
        }
    }
}

impl Weights {
    /// Every weight with its field name.
    pub fn named(&self) -> [(&'static str, f64); 7] {
        [
            ("uncovered", self.uncovered),
            ("bandwidth", self.bandwidth),
            ("weakest", self.weakest),
            ("balance", self.balance),
            ("cost", self.cost),
            ("redundancy", self.redundancy),
            ("rack_crossings", self.rack_crossings),
        ]
    }
}

/// The threads a `threads` setting stands for: 0 means all cores.
pub fn threads_for(asked: usize) -> usize {
    match asked {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// GA parameters, named as in the FNN compiler paper ("The Genetic Algorithm Itself").
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct GaParams {
    pub population: usize,
    /// Members kept intact each generation.
    pub keep: usize,
    /// The last `fudge` kept members are swapped with random unkept ones.
    pub fudge: usize,
    /// Children made by crossover each generation.
    pub cross: usize,
    /// Each mutant gets 1..=max_mutations applications of the operators.
    pub max_mutations: u32,
    /// Probability that a mutation starts at a marked problem spot.
    pub focus: f64,
    /// Share of mutations that swap two PCs' whole connection sets (the
    /// rest swap single connections).
    pub pc_swap_rate: f64,
    /// Generations to run at most; 0 means no limit (the time limit governs).
    pub generations: u64,
    /// Seconds; 0 means no limit.
    pub time_limit_s: f64,
    pub seed: u64,
    /// Worker threads; 0 means all cores.
    pub threads: usize,
    /// Try the scaled-down problems first (the FNN compiler paper's two phases).
    pub scale_down: bool,
    /// Generation budget for each scaled-down attempt.
    pub scaled_generations: u64,
    /// Scaled-down sizes to try before falling back to the full problem.
    pub scale_attempts: u32,
    /// Generations to keep refining a scaled-down solution before scaling up.
    pub settle_generations: u64,
    /// With nothing but coverage to optimise, generations to keep pushing a
    /// valid design toward the pairwise-bandwidth bound before stopping.
    pub polish_generations: u64,
    /// Stop once the design is valid and the best has not improved for
    /// this many generations (0: never stop for that).
    pub stall_generations: u64,
    /// Seed the search with design-theory constructions; off,
    /// the GA searches on its own, as in the papers.
    pub constructions: bool,
    /// Tabu-search moves given to each of `local_members` members every
    /// generation (0: the papers' GA alone).
    pub local_search: u64,
    /// Members improved by the local search each generation.
    pub local_members: usize,
    /// Exact mode: `fnn-tui design` asks a SAT solver for a
    /// design or a proof that none exists, instead of running the GA
    /// (the same as `portfolio = "exact"`).
    pub exact: bool,
    /// Which searches the run combines ([`Preset`]).
    pub portfolio: Preset,
}

/// The searches a run combines, by name (`ga.portfolio`, `--portfolio`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// The papers' GA alone: selection, crossover, mutation, the scaled
    /// phase; no constructions, no walks.
    Papers,
    /// The papers' GA seeded by the constructions (`ga.constructions`):
    /// every generation costs the same at any width, which the sweep and
    /// the cheapest-hardware search budget for.
    Quick,
    /// The constructions, the GA and its cyclic, tabu and grouped searches.
    #[default]
    Default,
    /// The exact mode first, within the time limit, then the default.
    ExactFirst,
    /// The exact mode alone: a design or a proof that none exists.
    Exact,
}

impl Preset {
    pub const ALL: [Preset; 5] = [
        Preset::Papers,
        Preset::Quick,
        Preset::Default,
        Preset::ExactFirst,
        Preset::Exact,
    ];

    /// The name a spec and the command line use.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Papers => "papers",
            Preset::Quick => "quick",
            Preset::Default => "default",
            Preset::ExactFirst => "exact-first",
            Preset::Exact => "exact",
        }
    }
}

impl GaParams {
    /// The portfolio the run uses: `portfolio`, or the exact mode alone
    /// when `exact` asks for it.
    pub fn preset(&self) -> Preset {
        if self.exact { Preset::Exact } else { self.portfolio }
    }
}

impl Default for GaParams {
    fn default() -> Self {
        GaParams {
            population: 200,
            keep: 40,
            fudge: 4,
            cross: 20,
            max_mutations: 4,
            focus: 0.75,
            pc_swap_rate: 0.1,
            generations: 0,
            time_limit_s: 60.0,
            seed: 1,
            threads: 0,
            scale_down: true,
            scaled_generations: 200,
            scale_attempts: 3,
            settle_generations: 5,
            polish_generations: 300,
            stall_generations: 500,
            constructions: true,
            local_search: 10_000,
            local_members: 2,
            exact: false,
            portfolio: Preset::Default,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct CableSpec {
    pub price: f64,
    pub length_m: f64,
    /// One color per switch, in switch order; stripes once switches outnumber them.
    pub colors: Vec<CableColor>,
}

impl Default for CableSpec {
    fn default() -> Self {
        let solid = [
            ("blue", "#1f4fd1"),
            ("orange", "#f28c18"),
            ("green", "#2a9d3a"),
            ("red", "#d62828"),
            ("yellow", "#f2d318"),
            ("purple", "#7b2cbf"),
            ("gray", "#8d8d8d"),
            ("white", "#f4f4f4"),
            ("black", "#222222"),
        ];
        CableSpec {
            price: 2.5,
            length_m: 3.0,
            colors: solid
                .iter()
                .map(|(n, h)| CableColor {
                    name: n.to_string(),
                    hex: h.to_string(),
                    transparent: false,
                })
                .collect(),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CableColor {
    pub name: String,
    pub hex: String,
    #[serde(default)]
    pub transparent: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct RackSpec {
    pub count: usize,
    pub units: u32,
    pub width_m: f64,
}

impl Default for RackSpec {
    fn default() -> Self {
        RackSpec {
            count: 0,
            units: 42,
            width_m: 0.6,
        }
    }
}
