//! Why a run stopped: the reasons the stop rules ([`super::Limits`])
//! give, in one place for every front end, report and session.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StopReason {
    /// A valid design and nothing else to optimise.
    Valid,
    /// A valid design that stopped improving (`ga.stall_generations`).
    Stalled,
    Generations,
    TimeLimit,
    Interrupted,
    /// The exact mode proved that no design exists.
    Impossible,
    /// The portfolio has nothing left to try (the exact mode alone, after
    /// an unknown).
    Exhausted,
}

impl StopReason {
    /// The reason in words, for people (reports, the status bar).
    pub fn words(self) -> &'static str {
        match self {
            StopReason::Valid => "valid, nothing else to optimise",
            StopReason::Stalled => "valid, and no better design for ga.stall_generations generations",
            StopReason::Generations => "generation limit reached",
            StopReason::TimeLimit => "time limit reached",
            StopReason::Interrupted => "interrupted",
            StopReason::Impossible => "proved impossible",
            StopReason::Exhausted => "nothing left to try",
        }
    }
}
