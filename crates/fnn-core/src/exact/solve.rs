//! Running a model: the solver, its time limit, the proof files, and the
//! check of a found design.

use super::cadical::{self, Answer, SolverError};
use super::model::{Built, Model};
use super::size::Size;
use super::{per_pc, types};
use crate::design::Design;
use crate::fs::temp::TempFile;
use crate::spec::{Cluster, Coverage, SpecError, check_feasible};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What the exact search was asked.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Give up (an honest "unknown") after this long.
    pub time_limit: Option<Duration>,
    /// Write the CNF to `FILE.cnf` and the solver's DRAT proof to `FILE`.
    pub proof: Option<PathBuf>,
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
    /// The CNF and proof written, when asked and the answer is impossible.
    pub proof: Option<(PathBuf, PathBuf)>,
    /// Why the answer is unknown, in words (the time limit ran out while
    /// solving or building, or the model would not fit in memory).
    pub unknown_because: Option<String>,
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
    fn write(path: &Path, source: std::io::Error) -> ExactError {
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
    let start = Instant::now();
    // A proof asked for, or one model asked for by name, means the SAT
    // model runs even where a bound already says no.
    if let Some(refuted) = refuted_by_bounds(cluster, opts, start) {
        return Ok(refuted);
    }
    let deadline = opts.time_limit.map(|l| start + l);
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
            seconds: start.elapsed().as_secs_f64(),
            proof: None,
            unknown_because: Some(too_big(big, budget)),
        });
    }
    let mut attempts = run_attempts(cluster, &plans, opts, deadline, [&stop, interrupt])?;
    let winner = attempts.iter().position(|a| a.verdict != Verdict::Unknown).unwrap_or(0);
    let a = attempts.swap_remove(winner);
    let proof = match (&opts.proof, a.files, &a.verdict) {
        (Some(path), Some(files), Verdict::Impossible(_)) => Some(keep_proof(path, files)?),
        _ => None,
    };
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
        seconds: start.elapsed().as_secs_f64(),
        proof,
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

/// One model's run: its answer, its size and the proof files it wrote
/// (temporaries beside the proof, kept only if this answer is used).
struct Attempt {
    verdict: Verdict,
    model: Model,
    variables: u32,
    clauses: usize,
    files: Option<(TempFile, TempFile)>,
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
            files: None,
            unknown_because: Some(why.to_string()),
        }
    }
}

/// Builds and solves one model until it answers, the deadline passes or
/// either flag is set (`stop`: another model answered first; `interrupt`:
/// the user); an answer sets `stop`. With a proof asked for, the CNF and
/// the DRAT proof go to temporaries beside `FILE`.
fn attempt(
    cluster: &Cluster,
    plan: Plan,
    proof: Option<(PathBuf, Model)>,
    deadline: Option<Instant>,
    [stop, interrupt]: [&AtomicBool; 2],
    count_only: bool,
) -> Result<Attempt, ExactError> {
    let halt = || {
        stop.load(Ordering::Relaxed)
            || interrupt.load(Ordering::Relaxed)
            || deadline.is_some_and(|d| Instant::now() >= d)
    };
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
            files: None,
            unknown_because: Some("only counted, not solved".into()),
        });
    }
    let files = proof_temporaries(proof.as_ref(), &cnf, variables)?;
    let proof_file = files
        .as_ref()
        .zip(proof.as_ref())
        .map(|((_, d), (p, _))| (d.as_file(), p.as_path()));
    tracing::info!(model = ?plan.model, variables, clauses, "exact: solving");
    let answer = cadical::solve(cnf, variables, proof_file, deadline, [stop, interrupt])?;
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
    Ok(Attempt {
        verdict,
        model,
        variables,
        clauses,
        files,
        unknown_because: None,
    })
}

/// The counting bounds' refusal, when they refuse the cluster. A proof
/// asked for, or one model asked for by name, means the SAT model runs
/// even where a bound already says no.
fn refuted_by_bounds(cluster: &Cluster, opts: &Options, start: Instant) -> Option<Outcome> {
    if opts.proof.is_some() || opts.only.is_some() {
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
        seconds: start.elapsed().as_secs_f64(),
        proof: None,
        unknown_because: None,
    })
}

/// Every planned model, the first on this thread and the others each on
/// its own, racing: the first answer stops the rest.
fn run_attempts(
    cluster: &Cluster,
    plans: &[Plan],
    opts: &Options,
    deadline: Option<Instant>,
    flags: [&AtomicBool; 2],
) -> Result<Vec<Attempt>, ExactError> {
    let proof_of = |m: Model| opts.proof.as_ref().map(|p| (p.clone(), m));
    let count_only = opts.count_only;
    std::thread::scope(|sc| {
        let others: Vec<_> = plans[1..]
            .iter()
            .map(|plan| sc.spawn(move || attempt(cluster, *plan, proof_of(plan.model), deadline, flags, count_only)))
            .collect();
        let mut all = vec![attempt(
            cluster,
            plans[0],
            proof_of(plans[0].model),
            deadline,
            flags,
            count_only,
        )];
        all.extend(
            others
                .into_iter()
                .map(|h| h.join().expect("the solver thread does not panic")),
        );
        all.into_iter().collect::<Result<Vec<_>, ExactError>>()
    })
}

/// Moves the winning attempt's CNF and DRAT proof to `FILE.cnf` and `FILE`.
fn keep_proof(path: &Path, (cnf_tmp, drat_tmp): (TempFile, TempFile)) -> Result<(PathBuf, PathBuf), ExactError> {
    let cnf_path = cnf_path_of(path);
    let saved = |tmp: TempFile, to: &Path| crate::atomic::persist(tmp, to).map_err(|e| ExactError::write(to, e));
    saved(cnf_tmp, &cnf_path)?;
    saved(drat_tmp, path)?;
    Ok((cnf_path, path.to_path_buf()))
}

/// With a proof asked for: the CNF written to a temporary beside
/// `FILE.cnf`, and an empty temporary beside `FILE` for the DRAT proof.
fn proof_temporaries(
    proof: Option<&(PathBuf, Model)>,
    cnf: &rustsat::instances::Cnf,
    variables: u32,
) -> Result<Option<(TempFile, TempFile)>, ExactError> {
    let Some((path, _)) = proof else {
        return Ok(None);
    };
    let cnf_path = cnf_path_of(path);
    let cannot = ExactError::write;
    let mut cnf_tmp = crate::atomic::temp_beside(&cnf_path).map_err(|e| cannot(&cnf_path, e))?;
    let mut w = std::io::BufWriter::new(cnf_tmp.as_file_mut());
    cnf.write_dimacs(&mut w, variables).map_err(|e| cannot(&cnf_path, e))?;
    w.into_inner().map_err(|e| cannot(&cnf_path, e.into_error()))?;
    let drat_tmp = crate::atomic::temp_beside(path).map_err(|e| cannot(path, e))?;
    Ok(Some((cnf_tmp, drat_tmp)))
}

/// `FILE.cnf` beside the proof `FILE`.
fn cnf_path_of(proof: &Path) -> PathBuf {
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
