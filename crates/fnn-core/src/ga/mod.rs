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
//!   finding the layers a pattern's structure leaves as partitions;
//!   [`sat`]: the exact mode;
//! * [`portfolio`]: the [`Strategy`] each of those implements (the
//!   constructions too, as a seed) and the presets that combine them,
//!   each strategy on a random stream of its own;
//! * [`engine`]: the generation loop, one step at a time, deterministic
//!   for a seed whatever the thread count.
//!
//! A search run (limits, clock, stop reason, the edits a user makes) is
//! [`crate::run::Run`], which drives the engine.

mod band_rows;
pub mod blocks;
pub mod cyclic;
pub mod engine;
pub mod eval;
pub mod genome;
pub mod groups;
pub mod local;
pub mod operators;
pub mod portfolio;
pub mod problem;
mod residual;
pub mod sat;
pub mod scale;
pub mod seeding;
pub mod tabu;
mod wide_row;

pub use engine::{Engine, EngineState, GenStats, Limits, Member, MemberState, Phase, ScaledProgress, StopReason};
pub use eval::{Eval, Terms};
pub use genome::Genome;
pub use portfolio::{Context, Found, Portfolio, Stats, Strategy};
pub use problem::Problem;

/// The random generator of the engine: small, fast, and serializable so a
/// session can resume exactly.
pub type Rng = rand_pcg::Pcg64Mcg;

/// When the searches inside one generation must give up: a time limit is
/// checked between generations, and one generation's walks can take
/// seconds, so they look at the clock too. `None` means no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deadline(pub Option<std::time::Instant>);

impl Deadline {
    pub fn passed(self) -> bool {
        self.0.is_some_and(|d| std::time::Instant::now() >= d)
    }
}
