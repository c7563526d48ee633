//! A small model solved as it is: for a search that builds its own
//! clauses over a piece of a design (a neighbourhood) and wants only an
//! assignment, or to hear that there is none, within a deadline.

use super::cadical::{self, Answer};
use crate::deadline::Deadline;
use rustsat::instances::SatInstance;
use rustsat::types::Assignment;
use std::sync::atomic::AtomicBool;

/// What one call settled.
pub enum Settled {
    /// The model holds: read a literal with [`super::is_true`].
    Sat(Assignment),
    Unsat,
    /// The deadline passed or a flag was raised first.
    Unknown,
}

/// Solves `instance` (cardinality constraints encoded by rustsat's
/// defaults) within `conflicts` conflicts, until `deadline` or either
/// flag is raised.
pub fn satisfy(instance: SatInstance, conflicts: u32, deadline: Deadline, flags: [&AtomicBool; 2]) -> Settled {
    let halt = || deadline.passed() || flags.iter().any(|f| f.load(std::sync::atomic::Ordering::Relaxed));
    let Ok((cnf, vm)) = super::encode::to_cnf(instance, &halt) else {
        return Settled::Unknown;
    };
    let variables = rustsat::instances::ManageVars::n_used(&vm);
    match cadical::solve_counted(cnf, variables, conflicts, deadline.instant(), flags) {
        Ok(Answer::Sat(a)) => Settled::Sat(a),
        Ok(Answer::Unsat) => Settled::Unsat,
        Ok(Answer::Stopped) | Err(_) => Settled::Unknown,
    }
}
