//! The exact mode: a SAT model of the design problem that
//! either finds a design or proves that none exists for the hardware, so
//! "one port over the bound" can become "the bound is impossible".
//!
//! Two models, both encoded with `rustsat` and solved by CaDiCaL
//! (the `fnn-sat` crate, built from source by cargo):
//! * [`types`]: universal coverage with one NIC count and no pins — the PCs
//!   are interchangeable, so the model counts PCs per NIC set (binary
//!   counts, pseudo-Boolean port limits) and never branches over which PC
//!   is which;
//! * [`per_pc`]: everything else (sparse patterns, pins and forbids, mixed
//!   NIC counts): a boolean per PC and switch, cardinality limits, and a
//!   shared switch per required pair.
//!
//! A found design is checked by the ordinary evaluation before it is
//! returned; an impossibility can be backed by a DRAT proof of the CNF the
//! solver was given ([`Options::proof`]), which an independent checker
//! (`rate`, `drat-trim`) accepts without trusting fnn-tui.

use fnn_sat as cadical;
mod encode;
mod model;
mod per_pc;
mod pins;
mod satisfy;
mod size;
mod solve;
mod types;

pub use cadical::SolverError;
pub use model::{Model, is_true};
pub use pins::{BUDGET as PINS_BUDGET, PinsVerdict, check_pins, check_pins_design};
pub use satisfy::{Settled, satisfy};
pub use size::Size;
pub use solve::{ExactError, Options, Outcome, Proof, Verdict, cnf_path_of, estimates, solve, solve_until};
