//! The run's checkpoint: everything needed to continue a run exactly
//! where it stopped (a session holds one), saved from an engine and
//! restored into one on the run's pool.

use super::thread_pool;
use crate::ga::engine::{Progress, ScaledState, lean};
use crate::ga::genome::{FREE, StateError};
use crate::ga::{Deadline, Engine, Eval, GenStats, Genome, Member, Problem, presets, scale};
use crate::spec::Cluster;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Everything needed to continue a run exactly where it stopped: the
/// genomes (evaluations are recomputed, they are a function of the genome),
/// the generator's state, the counters and the history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineState {
    pub generation: u64,
    pub evaluations: u64,
    /// The generator's state as JSON (TOML has no 128-bit integers).
    pub rng: String,
    pub scaled: Option<ScaledProgress>,
    pub first_valid: Option<u64>,
    /// When the best last improved (absent in older sessions).
    #[serde(default)]
    pub improved_at: Option<u64>,
    pub phase_changes: Vec<u64>,
    pub history: Vec<GenStats>,
    pub population: Vec<MemberState>,
    pub best: Option<MemberState>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScaledProgress {
    pub width: u32,
    pub attempt: u32,
    pub generations: u64,
    pub solved_at: Option<u64>,
    /// Absent in sessions saved before the scaled phase tracked its stall.
    #[serde(default)]
    pub best_uncovered: Option<u64>,
    #[serde(default)]
    pub improved_at: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemberState {
    pub age: u64,
    /// The genome's entries, space separated, `-` for a free port.
    pub entries: String,
}

impl MemberState {
    fn of(m: &Member) -> MemberState {
        let entries: Vec<String> = m
            .genome
            .entries()
            .iter()
            .map(|&e| if e == FREE { "-".to_string() } else { e.to_string() })
            .collect();
        MemberState {
            age: m.age,
            entries: entries.join(" "),
        }
    }

    fn member(&self, problem: &Problem) -> Result<Member, StateError> {
        let genome = self.genome(problem)?;
        Ok(Member {
            eval: Eval::full(problem, &genome),
            genome,
            age: self.age,
        })
    }

    fn genome(&self, problem: &Problem) -> Result<Genome, StateError> {
        let entries = self
            .entries
            .split_whitespace()
            .map(|t| match t {
                "-" => Ok(FREE),
                n => n
                    .parse::<u32>()
                    .map_err(|_| StateError(format!("`{n}` is not a PC number"))),
            })
            .collect::<Result<Vec<u32>, StateError>>()?;
        Genome::from_entries(problem, entries)
    }
}

impl Engine {
    pub fn state(&self) -> EngineState {
        EngineState {
            generation: self.generation(),
            evaluations: self.evaluations(),
            rng: serde_json::to_string(self.rng()).expect("the generator serializes"),
            scaled: self.scaled_state().map(|s| ScaledProgress {
                width: s.scaled.width,
                attempt: s.attempt,
                generations: s.generations,
                solved_at: s.solved_at,
                // None before the first scaled generation: TOML has no
                // integer as large as u64::MAX, and a session saved at
                // generation 0 could not be read back.
                best_uncovered: (s.best_uncovered != u64::MAX).then_some(s.best_uncovered),
                improved_at: s.improved_at,
            }),
            first_valid: self.first_valid(),
            improved_at: Some(self.improved_at()),
            phase_changes: self.phase_changes().to_vec(),
            history: self.history().to_vec(),
            population: self.population().iter().map(MemberState::of).collect(),
            best: self.kept_best().map(MemberState::of),
        }
    }

    /// Rebuilds an engine from a saved state; every genome is checked
    /// against the cluster, so a state that does not fit is refused.
    pub fn from_state(cluster: Cluster, state: &EngineState) -> Result<Engine, StateError> {
        let mut engine = Engine::state_without_members(cluster, state)?;
        let active = engine.active().clone();
        let lean_above = engine.lean_above();
        // Each member is one full evaluation (0.1 s at 16384 PCs): spread
        // over the cores.
        let population = engine.pool().install(|| {
            state
                .population
                .par_iter()
                .enumerate()
                .map(|(i, m)| {
                    m.member(&active)
                        .map(|m| lean(&active, lean_above, m))
                        .map_err(|e| StateError(format!("population[{i}]: {e}")))
                })
                .collect::<Result<_, _>>()
        })?;
        let best = match &state.best {
            Some(b) => Some(
                b.member(engine.problem())
                    .map_err(|e| StateError(format!("best: {e}")))?,
            ),
            None => None,
        };
        engine.set_members(population, best);
        Ok(engine)
    }

    /// Whether `from_state` would accept a state, checking every member's
    /// wiring without evaluating it (an evaluation is 0.1 s at 16384 PCs).
    pub fn check_state(cluster: Cluster, state: &EngineState) -> Result<(), StateError> {
        let engine = Engine::state_without_members(cluster, state)?;
        let active = engine.active();
        for (i, m) in state.population.iter().enumerate() {
            m.genome(active)
                .map_err(|e| StateError(format!("population[{i}]: {e}")))?;
        }
        if let Some(b) = &state.best {
            b.genome(engine.problem())
                .map_err(|e| StateError(format!("best: {e}")))?;
        }
        Ok(())
    }

    /// The engine a state describes, all but its members.
    fn state_without_members(cluster: Cluster, state: &EngineState) -> Result<Engine, StateError> {
        let portfolio = presets::of_params(&cluster.ga);
        // A resumed run uses the seed only to scale up (its first
        // population is in the state), so only a state of the scaled phase
        // looks for one: a sparse seed takes seconds to minutes at 4096
        // PCs, and every export of a saved session resumes one.
        let seeding = state.scaled.is_some().then_some(Deadline::NONE);
        let threads = thread_pool(cluster.ga.threads);
        let mut engine = Engine::without_population(cluster, portfolio, seeding, threads);
        let rng = serde_json::from_str(&state.rng).map_err(|e| StateError(format!("rng: {e}")))?;
        let scaled = match &state.scaled {
            None => None,
            Some(p) => {
                let scaled = scale::scaled_problem(engine.cluster(), p.width)
                    .ok_or_else(|| StateError(format!("no scaled-down problem of width {} for this spec", p.width)))?;
                Some(ScaledState {
                    scaled,
                    attempt: p.attempt,
                    generations: p.generations,
                    solved_at: p.solved_at,
                    best_uncovered: p.best_uncovered.unwrap_or(u64::MAX),
                    improved_at: p.improved_at,
                    searched: false,
                })
            }
        };
        if state.population.is_empty() {
            return Err(StateError("the population is empty".into()));
        }
        engine.restore(Progress {
            rng,
            scaled,
            generation: state.generation,
            evaluations: state.evaluations,
            first_valid: state.first_valid,
            improved_at: state.improved_at.unwrap_or(state.generation),
            phase_changes: state.phase_changes.clone(),
            history: state.history.clone(),
        });
        Ok(engine)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::Design;
    use crate::spec::{Coverage, PatternSpec, Spec};

    /// An engine whose members shed their masks whatever their size.
    fn lean_engine(cluster: Cluster) -> Engine {
        let portfolio = presets::of_params(&cluster.ga);
        let threads = thread_pool(cluster.ga.threads);
        let mut e = Engine::without_population(cluster, portfolio, Some(Deadline::NONE), threads);
        e.set_lean_above(0);
        e.populate(Deadline::NONE);
        e
    }

    /// What a run is: the same for a lean engine and a plain one.
    fn seen(e: &Engine) -> (Vec<GenStats>, Design, u64, Vec<Vec<u32>>) {
        let entries = e.population().iter().map(|m| m.genome.entries().to_vec()).collect();
        (e.history().to_vec(), e.best_design(), e.evaluations(), entries)
    }

    fn cluster(edit: impl FnOnce(&mut Spec)) -> Cluster {
        let flags = crate::spec::QuickFlags {
            pcs: Some(40),
            nics: Some(3),
            switches: Some("20x6,8x2".into()),
            ..Default::default()
        };
        let mut spec = flags.apply(Spec::default()).expect("quick flags apply");
        edit(&mut spec);
        spec.resolve().expect("spec resolves")
    }

    /// A resumed sparse run does not look for the portfolio's seed again
    /// (block growing and its walks, minutes at 4096 PCs, for nothing: the
    /// population is in the state), and goes on as the run it resumes.
    #[test]
    fn a_resumed_run_does_not_seed_again() {
        let c = cluster(|s| {
            s.coverage = Coverage::Sparse;
            s.patterns.push(PatternSpec::Ring { k: 6, weight: 1.0 });
        });
        let mut e = Engine::new(c.clone());
        let blocks = |e: &Engine| e.strategy_stats().iter().find(|s| s.name == "blocks").map(|s| s.runs);
        assert_eq!(blocks(&e), Some(1), "a new run seeds with block growing");
        e.step();
        let mut resumed = Engine::from_state(c, &e.state()).expect("its own state");
        assert_eq!(blocks(&resumed), Some(0), "the resumed run grew blocks again");
        e.step();
        resumed.step();
        assert_eq!(seen(&e).3, seen(&resumed).3, "the same members after a generation");
    }

    /// Shedding the masks of idle members changes nothing a run does:
    /// breeding, the walks, the scaled phase, pins, a resized population
    /// and a resumed state all see the masks they need (a read of shed
    /// masks fails the debug assertion in `Genome::mask`).
    #[test]
    fn a_lean_population_runs_as_a_plain_one() {
        // Tight, without the constructions: the walks have pairs to cover.
        let sparse = cluster(|s| {
            s.coverage = Coverage::Sparse;
            s.ga.constructions = false;
            s.patterns.push(PatternSpec::Ring { k: 6, weight: 1.0 });
            s.ga.population = 30;
            s.ga.keep = 8;
            s.ga.cross = 6;
        });
        let universal = cluster(|s| {
            s.ga.population = 30;
            s.ga.keep = 8;
            s.ga.cross = 6;
            s.ga.constructions = false;
        });
        for c in [sparse, universal] {
            let mut plain = Engine::new(c.clone());
            let mut lean = lean_engine(c.clone());
            assert!(lean.population().iter().all(|m| !m.genome.has_masks(lean.active())));
            let scenario = |e: &mut Engine| {
                for _ in 0..12 {
                    e.step();
                }
                let mut pins = e.cluster().pins.clone();
                pins.set_must(0, 1);
                let _ = e.set_pins(pins);
                let mut ga = e.cluster().ga.clone();
                ga.population = 36;
                e.set_ga(ga);
                for _ in 0..4 {
                    e.step();
                }
                let state = e.state();
                let lean_above = e.lean_above();
                let mut resumed = Engine::from_state(e.cluster().clone(), &state).expect("its own state");
                resumed.set_lean_above(lean_above);
                resumed.step();
                resumed
            };
            let (plain_after, lean_after) = (scenario(&mut plain), scenario(&mut lean));
            assert_eq!(seen(&plain), seen(&lean));
            assert_eq!(seen(&plain_after), seen(&lean_after));
        }
    }
}
