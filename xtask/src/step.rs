//! A step of the test command: its name, how long it took and how it ended.

use crate::tally::Tally;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// How a step ended.
pub enum Outcome {
    Passed,
    /// It could not run here (and outside CI that is not a failure); why.
    Skipped(String),
    Failed(String),
}

#[derive(Default)]
pub struct Steps {
    done: Vec<(String, Duration, Outcome)>,
}

impl Steps {
    /// Runs a step that only passes or fails.
    pub fn run(&mut self, name: &str, step: impl FnOnce() -> Outcome) {
        self.run_for(name, || match step() {
            Outcome::Passed => Ok(Some(())),
            Outcome::Skipped(why) => Err(Outcome::Skipped(why)),
            Outcome::Failed(why) => Err(Outcome::Failed(why)),
        });
    }

    /// Runs a step that makes something the later steps use.
    pub fn run_for<T>(&mut self, name: &str, step: impl FnOnce() -> Result<Option<T>, Outcome>) -> Option<T> {
        eprintln!("\n==> cargo test-all: {name}");
        let start = Instant::now();
        let (made, outcome) = match step() {
            Ok(made) => (made, Outcome::Passed),
            Err(outcome) => (None, outcome),
        };
        let outcome = under_ci(outcome, in_ci());
        match &outcome {
            Outcome::Passed => {}
            Outcome::Skipped(why) => eprintln!("{name}: skipped: {why}"),
            Outcome::Failed(why) => eprintln!("{name}: FAILED: {why}"),
        }
        self.done.push((name.to_string(), start.elapsed(), outcome));
        made
    }

    /// The summary: each step, then the tests' tally; failure when any
    /// step failed.
    pub fn report(&self, tally: Option<&Tally>) -> ExitCode {
        eprintln!("\n==> cargo test-all: summary");
        for (name, took, outcome) in &self.done {
            let said = match outcome {
                Outcome::Passed => "ok".to_string(),
                Outcome::Skipped(why) => format!("skipped ({why})"),
                Outcome::Failed(_) => "FAILED".to_string(),
            };
            eprintln!("  {name:<14} {:>7.1} s  {said}", took.as_secs_f64());
        }
        if let Some(t) = tally {
            eprintln!("{t}");
        }
        let failed = self.done.iter().any(|(_, _, o)| matches!(o, Outcome::Failed(_)));
        if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
    }
}

/// Under `CI=true` nothing may be skipped: a step that could not run fails.
fn under_ci(outcome: Outcome, ci: bool) -> Outcome {
    match outcome {
        Outcome::Skipped(why) if ci => Outcome::Failed(format!("{why} (under CI=true a skip is a failure)")),
        other => other,
    }
}

pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_that_cannot_run_fails_under_ci_and_is_skipped_elsewhere() {
        let skipped = || Outcome::Skipped("needs qemu-x86_64".into());
        assert!(matches!(under_ci(skipped(), true), Outcome::Failed(why) if why.contains("needs qemu-x86_64")));
        assert!(matches!(under_ci(skipped(), false), Outcome::Skipped(_)));
        assert!(matches!(under_ci(Outcome::Passed, true), Outcome::Passed));
    }

    #[test]
    fn any_failed_step_fails_the_command() {
        let mut steps = Steps::default();
        steps.run("fine", || Outcome::Passed);
        assert_eq!(steps.report(None), ExitCode::SUCCESS);
        steps.run("broken", || Outcome::Failed("no".into()));
        assert_eq!(steps.report(None), ExitCode::FAILURE);
    }
}
