//! The FNN genetic algorithm of the FNN compiler paper ("The GA Structure", "The Genetic
//! Algorithm Itself"), faithful to the paper and then strengthened:
//!
//! * [`genome`]: the wiring as the ports of every switch, with dummy NICs
//!   (free ports) and a dummy switch (uncabled NICs), so every operator is
//!   closed and NIC and port limits can never be broken;
//! * [`operators`]: the straightforward initial construction, closed
//!   crossover by forced matching, the two closed mutations, pin repair;
//! * [`eval`]: the weighted evaluation, full and incremental (only the
//!   rows of the PCs a mutation touched), with problem spots marked;
//! * [`scale`]: the scaled-down first phase and the scale-up;
//! * [`seeding`]: design-theory constructions laid onto the hardware as seeds;
//! * [`local`], [`groups`], [`cyclic`]: the searches inside the GA: tabu
//!   walks over single NICs, over groups of PCs that share a NIC set, and
//!   over designs with a cyclic symmetry; [`blocks`]: sparse designs grown
//!   switch by switch as dense pieces of the pattern, with [`residual`]
//!   finding the layers a pattern's structure leaves as partitions, and
//!   [`repair`] covering a sparse design's last pairs by rewiring a few
//!   switches at a time with a SAT solver;
//!   [`sat`]: the exact mode;
//! * [`strategy`]: what each of those implements (the constructions
//!   too, as a seed): a search handed a budget that hands back what it
//!   found and a verdict; [`portfolio`] runs them side by side, each on a
//!   random stream of its own, and [`presets`] names the combinations;
//! * [`engine`]: the generation step, one generation at a time,
//!   deterministic for a seed whatever the thread count.
//!
//! A search run (limits, clock, stop reason, thread pool, restart,
//! checkpoint, the edits a user makes) is [`crate::run::Run`], which
//! drives the engine.

mod band_rows;
pub mod blocks;
pub mod cyclic;
pub mod engine;
pub mod eval;
pub mod genome;
pub mod groups;
pub mod local;
pub mod member;
pub mod operators;
pub mod portfolio;
pub mod presets;
pub mod problem;
mod regroup;
pub mod repair;
mod residual;
pub mod sat;
pub mod scale;
pub mod seeding;
pub mod strategy;
pub mod tabu;
mod trade;
mod walk_trial;
mod wide_row;

pub use crate::deadline::Deadline;
pub use engine::{Engine, GenStats, Phase};
pub use eval::{Eval, Terms};
pub use genome::Genome;
pub use member::Member;
pub use portfolio::{Portfolio, Stats};
pub use problem::Problem;
pub use strategy::{Budget, Context, Found, Strategy, Verdict};
pub use walk_trial::{WalkTrial, Wiring, walk_trial};

/// The random generator of the engine: small, fast, and serializable so a
/// session can resume exactly.
pub type Rng = rand_pcg::Pcg64Mcg;
