//! The SAT models the exact mode builds, and what building one gives:
//! the instance and how to read a design back from a solution.

use crate::design::Design;
use rustsat::instances::SatInstance;
use rustsat::types::{Assignment, Lit};

/// Which model settled it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// The counting and Füredi bounds, before any search.
    Bounds,
    /// PCs counted per NIC set (universal, one NIC count, no pins).
    Types,
    /// A boolean per PC and switch.
    PerPc,
}

impl Model {
    pub fn words(self) -> &'static str {
        match self {
            Model::Bounds => "the counting and Füredi bounds",
            Model::Types => "a SAT model counting PCs per NIC set",
            Model::PerPc => "a SAT model with a boolean per PC and switch",
        }
    }
}

/// A model ready for the solver: its instance and how to read a design
/// back from a satisfying assignment.
pub(super) struct Built {
    pub instance: SatInstance,
    pub model: Model,
    pub decode: Box<dyn Fn(&Assignment) -> Design + Send>,
}

/// Building a model stopped early: the deadline passed or a flag was set.
#[derive(Debug)]
pub(super) struct Interrupted;

/// The value of `l` in `a` (unassigned counts as false).
pub fn is_true(a: &Assignment, l: Lit) -> bool {
    a.lit_value(l) == rustsat::types::TernaryVal::True
}
