//! Running a model: the solver, its time limit, the proof files, and the
//! check of a found design.

use super::cadical::{self, Answer};
use super::{per_pc, types};
use crate::design::Design;
use crate::spec::{Cluster, Coverage, check_feasible};
use rustsat::instances::SatInstance;
use rustsat::types::{Assignment, Lit};
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
}

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
}

/// A model ready for the solver: its instance and how to read a design
/// back from a satisfying assignment.
pub(super) struct Built {
    pub instance: SatInstance,
    pub model: Model,
    pub decode: Box<dyn Fn(&Assignment) -> Design + Send>,
}

/// The value of `l` in `a` (unassigned counts as false).
pub(super) fn is_true(a: &Assignment, l: Lit) -> bool {
    a.lit_value(l) == rustsat::types::TernaryVal::True
}

/// Finds a design for `cluster` or proves none exists, within the limits.
///
/// When both models apply they race on two threads and the first answer
/// wins: counting by NIC set settles large clusters on few switches fast,
/// the per-PC model with its lex ordering settles small clusters on many
/// switches fast, and neither does both.
pub fn solve(cluster: &Cluster, opts: &Options) -> anyhow::Result<Outcome> {
    solve_until(cluster, opts, &AtomicBool::new(false))
}

/// [`solve`], giving up (an honest unknown) as soon as `interrupt` is set:
/// Ctrl-C in a sweep stops the solver instead of waiting out its budget.
pub fn solve_until(cluster: &Cluster, opts: &Options, interrupt: &AtomicBool) -> anyhow::Result<Outcome> {
    let start = Instant::now();
    // A proof asked for, or one model asked for by name, means the SAT
    // model runs even where a bound already says no.
    if let Err(e) = check_feasible(cluster)
        && opts.proof.is_none()
        && opts.only.is_none()
    {
        return Ok(Outcome {
            verdict: Verdict::Impossible(e.to_string()),
            model: Model::Bounds,
            variables: 0,
            clauses: 0,
            seconds: start.elapsed().as_secs_f64(),
            proof: None,
        });
    }
    let deadline = opts.time_limit.map(|l| start + l);
    let stop = AtomicBool::new(false);
    // The models to run: the by-set one where it applies, the per-PC one
    // unless only the by-set one was asked for and applies.
    let mut models: Vec<Built> = Vec::new();
    if opts.only != Some(Model::PerPc) {
        models.extend(types::build(cluster));
    }
    if opts.only != Some(Model::Types) || models.is_empty() {
        models.push(per_pc::build(cluster));
    }
    let attempts: Vec<Attempt> = match <[Built; 2]>::try_from(models) {
        Err(mut one) => {
            let only = one.pop().expect("at least one model");
            vec![attempt(
                cluster,
                only,
                opts.proof.clone(),
                deadline,
                [&stop, interrupt],
            )?]
        }
        Ok([by_set, per_pc]) => {
            // Each racer writes its own proof; the winner's is renamed.
            let racer = |m: &str| opts.proof.as_ref().map(|p| with_suffix(p, &format!(".{m}")));
            let (a, b) = std::thread::scope(|sc| {
                let other = sc.spawn(|| attempt(cluster, per_pc, racer("per-pc"), deadline, [&stop, interrupt]));
                let mine = attempt(cluster, by_set, racer("by-set"), deadline, [&stop, interrupt]);
                (mine, other.join().expect("the solver thread does not panic"))
            });
            vec![a?, b?]
        }
    };
    let winner = attempts.iter().position(|a| a.verdict != Verdict::Unknown).unwrap_or(0);
    let mut proof = None;
    for (i, a) in attempts.iter().enumerate() {
        let Some((cnf, drat)) = &a.files else { continue };
        let keep = i == winner && matches!(a.verdict, Verdict::Impossible(_));
        match (&opts.proof, keep) {
            (Some(path), true) if drat != path => {
                let cnf_to = cnf_path_of(path);
                std::fs::rename(drat, path).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
                std::fs::rename(cnf, &cnf_to).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", cnf_to.display()))?;
                proof = Some((cnf_to, path.clone()));
            }
            (_, true) => proof = Some((cnf.clone(), drat.clone())),
            (_, false) => {
                let _ = std::fs::remove_file(cnf);
                let _ = std::fs::remove_file(drat);
            }
        }
    }
    let a = attempts.into_iter().nth(winner).expect("at least one attempt");
    Ok(Outcome {
        verdict: a.verdict,
        model: a.model,
        variables: a.variables,
        clauses: a.clauses,
        seconds: start.elapsed().as_secs_f64(),
        proof,
    })
}

/// One model's run: its answer, its size and the proof files it wrote.
struct Attempt {
    verdict: Verdict,
    model: Model,
    variables: u32,
    clauses: usize,
    files: Option<(PathBuf, PathBuf)>,
}

/// Solves one model until it answers, the deadline passes or either flag
/// is set (`stop`: another model answered first; `interrupt`: the user);
/// an answer sets `stop`.
fn attempt(
    cluster: &Cluster,
    built: Built,
    proof: Option<PathBuf>,
    deadline: Option<Instant>,
    [stop, interrupt]: [&AtomicBool; 2],
) -> anyhow::Result<Attempt> {
    let Built {
        instance,
        model,
        decode,
    } = built;
    let (cnf, vm) = instance.into_cnf();
    let variables = rustsat::instances::ManageVars::n_used(&vm);
    let clauses = cnf.len();
    let files = match &proof {
        Some(path) => {
            let cnf_path = cnf_path_of(path);
            cnf.write_dimacs_path(&cnf_path, variables)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", cnf_path.display()))?;
            Some((cnf_path, path.clone()))
        }
        None => None,
    };
    let answer = cadical::solve(cnf, variables, proof.as_deref(), deadline, [stop, interrupt])?;
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
    })
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
fn check_design(c: &Cluster, d: &Design) -> anyhow::Result<()> {
    let m = crate::design::Metrics::compute(d, c);
    anyhow::ensure!(
        m.valid,
        "internal error: the exact model's design does not pass the checks ({} pairs uncovered; {})",
        m.uncovered_pairs,
        m.violations.join("; ")
    );
    Ok(())
}
