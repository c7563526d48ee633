//! `fnn-tui design --exact`: a design, a proof that none exists, or an
//! honest "unknown" when the time limit runs out. A run of the exact
//! preset, as any other search is a run.

use super::DesignArgs;
use super::exit;
use super::out;
use fnn_tui::exact::{ExactError, Proof, Verdict, cnf_path_of};
use fnn_tui::ga::{presets, sat::Exact};
use fnn_tui::run::Run;
use fnn_tui::spec::Spec;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit codes as every search: 0 found (table and report written),
/// 2 proved impossible, 1 unknown (the time limit ran out), 130 Ctrl-C.
pub fn run(args: &DesignArgs, spec: Spec) -> anyhow::Result<ExitCode> {
    // No bound check first: a bound that refutes the spec is a proof too.
    let cluster = spec.resolve()?;
    let limit = cluster.ga.time_limit_s;
    let exact = Exact::alone(args.proof.is_some());
    let settled = exact.settled();
    let portfolio = presets::exact(exact);
    // The time limit counts from the command's start, reading the spec included.
    let mut run = Run::with_portfolio(spec, cluster, portfolio, super::started());
    let stop = exit::interrupt_flag();
    run.run(&stop, |_| {});
    // The solver gives up at a signal; the run may end by its own rule then.
    let interrupted = stop.load(std::sync::atomic::Ordering::Relaxed);
    let (report, design) = (run.report(), run.best_design());
    let out = settled.lock().ok().and_then(|mut s| s.take());
    let out = match out {
        Some(out) => out?,
        None => {
            out::errln!("interrupted before the exact mode ran: nothing written");
            return Ok(exit::interrupted());
        }
    };
    let how = out.how();
    let proof = match (&args.proof, &out.proof) {
        (Some(path), Some(proof)) => Some(write_proof(path, proof)?),
        _ => None,
    };
    let (code, verdict, reason) = match &out.verdict {
        Verdict::Found(_) => {
            let (table_path, report_path) = fnn_tui::export::write_design(&args.out, &design, &report)?;
            if !args.quiet && !args.json {
                out::out!("{}", report.text())?;
                out::outln!("exact: found a design by {how}")?;
                out::outln!("wrote {} and {}", table_path.display(), report_path.display())?;
            }
            (exit::success_if(true), "found", None)
        }
        Verdict::Impossible(why) => {
            if !args.quiet && !args.json {
                out::outln!("exact: impossible: {why}")?;
                out::outln!("proved by {how}")?;
                if let Some((cnf, proof)) = &proof {
                    out::outln!(
                        "DRAT proof in {} for the CNF in {} (check: rate {} {})",
                        proof.display(),
                        cnf.display(),
                        cnf.display(),
                        proof.display()
                    )?;
                }
            }
            (exit::bad_input(), "impossible", Some(why.clone()))
        }
        Verdict::Unknown => {
            let why = match interrupted {
                true => "interrupted before the solver answered",
                false => out.unknown_because.as_deref().unwrap_or("the time limit ran out first"),
            };
            if !args.quiet && !args.json {
                out::outln!("exact: unknown: {why} (time limit {limit} s); {how}")?;
            }
            (exit::success_if(false), "unknown", Some(why.to_string()))
        }
    };
    if args.json {
        print_json(&out, verdict, reason, &how, proof.as_ref(), &report)?;
    }
    Ok(code)
}

/// Writes a proof of impossibility as asked: the DRAT proof to `path`, the
/// CNF it refutes to `path.cnf`; returns the two paths (CNF first).
fn write_proof(path: &Path, proof: &Proof) -> Result<(PathBuf, PathBuf), ExactError> {
    let cnf = cnf_path_of(path);
    fnn_tui::fs::atomic::write_atomic(&cnf, &proof.cnf).map_err(|e| ExactError::write(&cnf, e))?;
    fnn_tui::fs::atomic::write_atomic(path, &proof.drat).map_err(|e| ExactError::write(path, e))?;
    Ok((cnf, path.to_path_buf()))
}

/// `--json`: the verdict, how it was reached, the proof's files, and the
/// report when a design was found.
fn print_json(
    out: &fnn_tui::exact::Outcome,
    verdict: &str,
    reason: Option<String>,
    how: &str,
    proof: Option<&(PathBuf, PathBuf)>,
    report: &fnn_tui::report::Report,
) -> anyhow::Result<()> {
    let found = matches!(out.verdict, Verdict::Found(_));
    let json = serde_json::json!({
        "exact": {
            "verdict": verdict,
            "reason": reason,
            "how": how,
            "seconds": out.seconds,
            "proof": proof.map(|(cnf, proof)| serde_json::json!({
                "cnf": cnf.display().to_string(),
                "drat": proof.display().to_string(),
            })),
        },
        "report": found.then(|| serde_json::to_value(report).expect("a report serializes")),
    });
    out::outln!(
        "{}",
        serde_json::to_string_pretty(&json).expect("JSON values serialize")
    )?;
    Ok(())
}
