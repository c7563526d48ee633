//! `fnn-tui design --exact`: a design, a proof that none exists, or an
//! honest "unknown" when the time limit runs out.

use super::DesignArgs;
use fnn_tui::exact::{self, Model, Options, Verdict};
use fnn_tui::metrics::Metrics;
use fnn_tui::report::{Report, RunInfo};
use fnn_tui::spec::Cluster;
use std::process::ExitCode;
use std::time::Duration;

/// Exit codes: 0 found (table and report written), 1 proved impossible,
/// 2 unknown (or an error).
pub fn run(args: &DesignArgs, cluster: &Cluster) -> anyhow::Result<ExitCode> {
    let limit = cluster.ga.time_limit_s;
    // Counted from the command's start, reading the spec included.
    let left = (limit - super::started().elapsed().as_secs_f64()).max(0.0);
    let opts = Options {
        time_limit: (limit > 0.0).then(|| Duration::from_secs_f64(left)),
        proof: args.proof.clone(),
        only: None,
    };
    let out = exact::solve(cluster, &opts)?;
    let how = match out.model {
        Model::Bounds => format!("{}, {:.2} s", out.model.words(), out.seconds),
        _ if out.clauses == 0 => format!("no model built, {:.2} s", out.seconds),
        _ => format!(
            "{} ({} variables, {} clauses), {:.2} s",
            out.model.words(),
            out.variables,
            out.clauses,
            out.seconds
        ),
    };
    match out.verdict {
        Verdict::Found(design) => {
            let report = Report::new(cluster, Metrics::compute(&design, cluster), RunInfo::default());
            let (table_path, report_path) = fnn_tui::export::write_design(&args.out, &design, &report)?;
            if !args.quiet {
                print!("{}", report.text());
                println!("exact: found a design by {how}");
                println!("wrote {} and {}", table_path.display(), report_path.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Verdict::Impossible(why) => {
            if !args.quiet {
                println!("exact: impossible: {why}");
                println!("proved by {how}");
                if let Some((cnf, proof)) = &out.proof {
                    println!(
                        "DRAT proof in {} for the CNF in {} (check: rate {} {})",
                        proof.display(),
                        cnf.display(),
                        cnf.display(),
                        proof.display()
                    );
                }
            }
            Ok(ExitCode::from(1))
        }
        Verdict::Unknown => {
            if !args.quiet {
                let why = out.unknown_because.as_deref().unwrap_or("the time limit ran out first");
                println!("exact: unknown: {why} (time limit {limit} s); {how}");
            }
            Ok(ExitCode::from(2))
        }
    }
}
