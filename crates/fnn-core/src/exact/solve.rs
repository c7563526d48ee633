//! Running a model: the solver, its time limit, the proof (kept in
//! memory: whoever asked for it writes it), and the check of a found
//! design.

use super::cadical::{self, Answer, SolverError};
use super::model::{Built, Model};
use super::size::Size;
use super::{per_pc, types};
use crate::deadline::{Deadline, Stopwatch};
use crate::design::Design;
use crate::spec::{Cluster, Coverage, SpecError, check_feasible};
use std::io::{Read, Seek};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// What the exact search was asked.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Give up (an honest "unknown") when this passes: the time whoever
    /// asked gives it (the exact mode reads no clock for a limit).
    pub deadline: Deadline,
    /// Keep the CNF and the solver's DRAT proof of an impossibility, for
    /// the caller to write ([`Outcome::proof`]).
    pub proof: bool,
    /// Run only this model (when it applies), not the race of both: for
    /// tests that hold each model to account on its own.
    pub only: Option<Model>,
    /// Build and encode the model, count its variables and clauses, and
    /// stop before solving (the answer is unknown): for tests that hold
    /// the size estimates to account without waiting for an answer.
    pub count_only: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// A design the ordinary evaluation accepts.
    Found(Design),
    /// No design exists for this hardware; the reason in words.
    Impossible(String),
    /// The time limit ran out first.
    Unknown,
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    pub model: Model,
    pub variables: u32,
    pub clauses: usize,
    pub seconds: f64,
    /// The CNF and its DRAT refutation, when asked and the answer is
    /// impossible.
    pub proof: Option<Proof>,
    /// Why the answer is unknown, in words (the time limit ran out while
    /// solving or building, or the model would not fit in memory).
    pub unknown_because: Option<String>,
}

/// A proof of impossibility, in memory: the CNF (DIMACS) and the
/// solver's text DRAT refutation of it, which a checker such as `rate`
/// verifies. The exact mode writes no file; the caller writes these
/// (conventionally the proof to `FILE` and the CNF to [`cnf_path_of`]).
#[derive(Clone, PartialEq, Eq)]
pub struct Proof {
    pub cnf: Vec<u8>,
    pub drat: Vec<u8>,
}

impl std::fmt::Debug for Proof {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Proof {{ cnf: {} bytes, drat: {} bytes }}",
            self.cnf.len(),
            self.drat.len()
        )
    }
}

impl Outcome {
    /// What the exact mode settled and how, in one line.
    pub fn words(&self) -> String {
        let how = self.how();
        match &self.verdict {
            Verdict::Found(_) => format!("found a design by {how}"),
            Verdict::Impossible(why) => format!("impossible: {why}; proved by {how}"),
            Verdict::Unknown => {
                let why = self
                    .unknown_because
                    .as_deref()
                    .unwrap_or("its share of the time ran out first");
                format!("unknown: {why}; {how}")
            }
        }
    }

    /// Which model answered and what it cost, in words.
    pub fn how(&self) -> String {
        match self.model {
            Model::Bounds => format!("{}, {:.2} s", self.model.words(), self.seconds),
            _ if self.clauses == 0 => format!("no model built, {:.2} s", self.seconds),
            _ => format!(
                "{} ({} variables, {} clauses), {:.2} s",
                self.model.words(),
                self.variables,
                self.clauses,
                self.seconds
            ),
        }
    }
}

/// Why the exact mode gave no answer at all (an unknown is an answer).
#[derive(Debug, thiserror::Error)]
pub enum ExactError {
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Solver(#[from] SolverError),
    #[error(
        "internal error: the exact model's design does not pass the checks ({uncovered} pairs uncovered; {violations})"
    )]
    InvalidDesign { uncovered: u64, violations: String },
}

impl ExactError {
    /// A proof (or its CNF) that could not be written to `path`.
    pub fn write(path: &Path, source: std::io::Error) -> ExactError {
        ExactError::Write {
            path: path.display().to_string(),
            source,
        }
    }
}

/// Finds a design for `cluster` or proves none exists, within the limits.
///
/// When both models apply they race on two threads and the first answer
/// wins: counting by NIC set settles large clusters on few switches fast,
/// the per-PC model with its lex ordering settles small clusters on many
/// switches fast, and neither does both.
pub fn solve(cluster: &Cluster, opts: &Options) -> Result<Outcome, ExactError> {
    solve_until(cluster, opts, &AtomicBool::new(false))
}

/// A model to run and what it is estimated to cost.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Plan {
    model: Model,
    size: Size,
}

/// The models that apply (or the one asked for), each with its estimate.
fn plans(cluster: &Cluster, only: Option<Model>) -> Vec<Plan> {
    let mut plans = Vec::new();
    if only != Some(Model::PerPc)
        && let Some(size) = types::estimate(cluster)
    {
        plans.push(Plan {
            model: Model::Types,
            size,
        });
    }
    if only != Some(Model::Types) || plans.is_empty() {
        plans.push(Plan {
            model: Model::PerPc,
            size: per_pc::estimate(cluster),
        });
    }
    plans
}

/// Each model that applies to `cluster`, with its estimated size: what
/// is checked against the memory budget before anything is built.
pub fn estimates(cluster: &Cluster) -> Vec<(Model, Size)> {
    plans(cluster, None).into_iter().map(|p| (p.model, p.size)).collect()
}

/// The plans that fit in `budget` bytes together (dropping the largest
/// first), and the smallest one refused, if any.
fn within(mut plans: Vec<Plan>, budget: u64) -> (Vec<Plan>, Option<Plan>) {
    plans.sort_by_key(|p| p.size.bytes());
    let mut refused = None;
    while plans.iter().map(|p| p.size.bytes()).fold(0u64, u64::saturating_add) > budget {
        refused = plans.pop();
    }
    (plans, refused)
}

/// [`solve`], giving up (an honest unknown) as soon as `interrupt` is set:
/// Ctrl-C in a sweep stops the solver instead of waiting out its budget.
///
/// Bounded: a model whose estimated size is over the machine's memory
/// budget is not built (the answer is unknown, with the estimate), and
/// the time limit holds while a model is built and loaded, not only
/// while it is solved.
pub fn solve_until(cluster: &Cluster, opts: &Options, interrupt: &AtomicBool) -> Result<Outcome, ExactError> {
    let start = Stopwatch::start();
    if let Some(refuted) = refuted_by_bounds(cluster, opts, start) {
        return Ok(refuted);
    }
    let deadline = opts.deadline;
    let stop = AtomicBool::new(false);
    let budget = crate::budget::memory();
    let (plans, refused) = within(plans(cluster, opts.only), budget);
    if plans.is_empty() {
        let big = refused.expect("a model was planned");
        return Ok(Outcome {
            verdict: Verdict::Unknown,
            model: big.model,
            // Nothing was built: the sizes are in the reason, as estimates.
            variables: 0,
            clauses: 0,
            seconds: start.seconds(),
            proof: None,
            unknown_because: Some(too_big(big, budget)),
        });
    }
    let flags = [&stop, interrupt];
    let (proof, count_only) = (opts.proof, opts.count_only);
    let mut attempts: Vec<Attempt> = std::thread::scope(|sc| {
        let others: Vec<_> = plans[1..]
            .iter()
            .map(|plan| sc.spawn(move || attempt(cluster, *plan, proof, deadline, flags, count_only)))
            .collect();
        let mut all = vec![attempt(cluster, plans[0], proof, deadline, flags, count_only)];
        all.extend(
            others
                .into_iter()
                .map(|h| h.join().expect("the solver thread does not panic")),
        );
        all.into_iter().collect::<Result<Vec<_>, ExactError>>()
    })?;
    let winner = attempts.iter().position(|a| a.verdict != Verdict::Unknown).unwrap_or(0);
    let a = attempts.swap_remove(winner);
    let unknown_because = (a.verdict == Verdict::Unknown).then(|| {
        let mut why = a
            .unknown_because
            .unwrap_or_else(|| "the time limit ran out first".to_string());
        if let Some(big) = refused {
            why.push_str(&format!(
                "; {} was not run: {}",
                big.model.words(),
                too_big(big, budget)
            ));
        }
        why
    });
    Ok(Outcome {
        verdict: a.verdict,
        model: a.model,
        variables: a.variables,
        clauses: a.clauses,
        seconds: start.seconds(),
        proof: a.proof,
        unknown_because,
    })
}

/// Why a model was not built, with its estimate.
fn too_big(plan: Plan, budget: u64) -> String {
    format!(
        "{} would need about {} ({} variables, {} clauses), more than the {} this machine can give it \
         (free memory, or {}); the GA (design without --exact) handles clusters this size",
        plan.model.words(),
        crate::budget::human(plan.size.bytes()),
        plan.size.variables,
        plan.size.clauses,
        crate::budget::human(budget),
        crate::budget::ENV
    )
}

/// One model's run: its answer, its size and, when asked, its proof of an
/// impossibility.
struct Attempt {
    verdict: Verdict,
    model: Model,
    variables: u32,
    clauses: usize,
    proof: Option<Proof>,
    unknown_because: Option<String>,
}

impl Attempt {
    fn stopped(plan: Plan, why: &str) -> Attempt {
        Attempt {
            verdict: Verdict::Unknown,
            model: plan.model,
            // Not finished: nothing to count.
            variables: 0,
            clauses: 0,
            proof: None,
            unknown_because: Some(why.to_string()),
        }
    }
}

/// Builds and solves one model until it answers, the deadline passes or
/// either flag is set (`stop`: another model answered first; `interrupt`:
/// the user); an answer sets `stop`. With a proof asked for, the CNF and
/// the DRAT proof are kept in memory.
fn attempt(
    cluster: &Cluster,
    plan: Plan,
    proof: bool,
    deadline: Deadline,
    [stop, interrupt]: [&AtomicBool; 2],
    count_only: bool,
) -> Result<Attempt, ExactError> {
    let halt = || stop.load(Ordering::Relaxed) || interrupt.load(Ordering::Relaxed) || deadline.passed();
    let built = match plan.model {
        Model::Types => types::build(cluster, &halt).map(|b| b.expect("planned only where it applies")),
        _ => per_pc::build(cluster, &halt),
    };
    let Ok(Built {
        instance,
        model,
        decode,
    }) = built
    else {
        return Ok(Attempt::stopped(
            plan,
            "the time limit ran out while the model was being built",
        ));
    };
    let Ok((cnf, vm)) = super::encode::to_cnf(instance, &halt) else {
        return Ok(Attempt::stopped(
            plan,
            "the time limit ran out while the model was being encoded",
        ));
    };
    let variables = rustsat::instances::ManageVars::n_used(&vm);
    let clauses = cnf.len();
    if count_only {
        return Ok(Attempt {
            verdict: Verdict::Unknown,
            model,
            variables,
            clauses,
            proof: None,
            unknown_because: Some("only counted, not solved".into()),
        });
    }
    let mut kept = match proof {
        true => Some(InMemory::new(&cnf, variables)?),
        false => None,
    };
    let drat = kept.as_ref().map(|k| (&k.drat, Path::new(IN_MEMORY)));
    tracing::info!(model = ?plan.model, variables, clauses, "exact: solving");
    let answer = cadical::solve(cnf, variables, drat, deadline.instant(), [stop, interrupt])?;
    let verdict = match answer {
        Answer::Sat(a) => {
            let design = decode(&a);
            check_design(cluster, &design)?;
            Verdict::Found(design)
        }
        Answer::Unsat => Verdict::Impossible(impossible_words(cluster)),
        Answer::Stopped => Verdict::Unknown,
    };
    if verdict != Verdict::Unknown {
        stop.store(true, Ordering::Relaxed);
    }
    let proof = match (&verdict, kept.take()) {
        (Verdict::Impossible(_), Some(k)) => Some(k.read()?),
        _ => None,
    };
    Ok(Attempt {
        verdict,
        model,
        variables,
        clauses,
        proof,
        unknown_because: None,
    })
}

/// The counting bounds' refusal, when they refuse the cluster. A proof
/// asked for, or one model asked for by name, means the SAT model runs
/// even where a bound already says no.
fn refuted_by_bounds(cluster: &Cluster, opts: &Options, start: Stopwatch) -> Option<Outcome> {
    if opts.proof || opts.only.is_some() {
        return None;
    }
    let e = check_feasible(cluster).err()?;
    Some(Outcome {
        // The verdict says "impossible" itself: only the reason.
        verdict: Verdict::Impossible(match e {
            SpecError::Infeasible { reason, .. } => reason,
            other => other.to_string(),
        }),
        model: Model::Bounds,
        variables: 0,
        clauses: 0,
        seconds: start.seconds(),
        proof: None,
        unknown_because: None,
    })
}

/// What the solver's proof is called in its messages: it has no file.
const IN_MEMORY: &str = "the DRAT proof (in memory)";

/// A proof being made: the CNF as text and an anonymous in-memory file
/// the solver writes its DRAT lines to (a file descriptor, as CaDiCaL
/// wants one; nothing in any folder).
struct InMemory {
    cnf: Vec<u8>,
    drat: std::fs::File,
}

impl InMemory {
    fn new(cnf: &rustsat::instances::Cnf, variables: u32) -> Result<InMemory, ExactError> {
        let cannot = |e: std::io::Error| ExactError::write(Path::new(IN_MEMORY), e);
        let mut text = Vec::new();
        cnf.write_dimacs(&mut text, variables).map_err(cannot)?;
        let fd = rustix::fs::memfd_create("fnn-drat", rustix::fs::MemfdFlags::CLOEXEC).map_err(|e| cannot(e.into()))?;
        Ok(InMemory {
            cnf: text,
            drat: std::fs::File::from(fd),
        })
    }

    /// The proof, once the solver has closed its stream.
    fn read(mut self) -> Result<Proof, ExactError> {
        let cannot = |e: std::io::Error| ExactError::write(Path::new(IN_MEMORY), e);
        let mut drat = Vec::new();
        self.drat.rewind().map_err(cannot)?;
        self.drat.read_to_end(&mut drat).map_err(cannot)?;
        Ok(Proof { cnf: self.cnf, drat })
    }
}

/// `FILE.cnf` beside the proof `FILE`: where a caller that writes a
/// proof to `FILE` puts its CNF.
pub fn cnf_path_of(proof: &Path) -> PathBuf {
    with_suffix(proof, ".cnf")
}

/// `path` with `suffix` appended to its file name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// What an unsatisfiable model proves, in words.
fn impossible_words(c: &Cluster) -> String {
    let what = match c.coverage {
        Coverage::Universal => "every pair of PCs sharing a switch",
        Coverage::Sparse => "every required pair sharing a switch",
    };
    let ports: Vec<String> = c.switches.iter().map(|s| s.ports.to_string()).collect();
    format!(
        "no wiring of {} PCs ({} NICs in all) to {} switches of {} usable ports has {what}{}",
        c.pcs(),
        c.total_nics(),
        c.switch_count(),
        summarize(&ports),
        if c.pins.is_empty() { "" } else { " within the pins" }
    )
}

/// "24" when every switch has 24 ports, else "24, 24, 8".
fn summarize(ports: &[String]) -> String {
    match ports.first() {
        Some(first) if ports.iter().all(|p| p == first) => first.clone(),
        _ => ports.join(", "),
    }
}

/// A found design must pass the ordinary checks: NIC and port limits,
/// pins, and every required pair covered. (Checked on the design as it
/// is: a round trip through a genome would also cable the NICs a valid
/// design leaves free, and then the two differ.)
fn check_design(c: &Cluster, d: &Design) -> Result<(), ExactError> {
    let m = crate::metrics::Metrics::compute(d, c);
    if m.valid {
        return Ok(());
    }
    Err(ExactError::InvalidDesign {
        uncovered: m.uncovered_pairs,
        violations: m.violations.join("; "),
    })
}
