//! `fnn-tui sweep --slurm N`: the script that runs a sweep as N shards, a
//! Slurm job array, then merges them (or runs them here, one by one).

use super::SweepArgs;
use super::out;
use anyhow::Context;
use fnn_tui::atomic::write_atomic;
use fnn_tui::sweep::{SlurmJob, slurm_script};
use std::process::ExitCode;

pub fn write(args: &SweepArgs, shards: usize) -> anyhow::Result<ExitCode> {
    let program = std::env::current_exe().context("cannot find this program's path for the jobs to run")?;
    let out_dir = std::path::absolute(&args.out).with_context(|| format!("cannot resolve {}", args.out.display()))?;
    let text = |p: &std::path::Path| {
        p.to_str()
            .map(str::to_string)
            .with_context(|| format!("{} is not UTF-8: choose a plain path", fnn_tui::input::shown(p)))
    };
    let mut sweep = vec![
        "--pcs".to_string(),
        args.pcs.clone(),
        "--nics".into(),
        args.nics.clone(),
    ];
    for (flag, value) in [
        ("--generations", args.generations.to_string()),
        ("--ga-pcs", args.ga_pcs.to_string()),
        ("--seed", args.seed.to_string()),
        ("--exact-budget", args.exact_budget.to_string()),
        ("--anneal", args.anneal.to_string()),
        ("--threads", args.threads.to_string()),
    ] {
        sweep.extend([flag.to_string(), value]);
    }
    let job = SlurmJob {
        program: text(&program)?,
        out: text(&out_dir)?,
        shards,
        sweep,
    };
    let path = args.out.join("sweep-slurm.sh");
    write_atomic(&path, slurm_script(&job).as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
    if !args.quiet {
        let shown = fnn_tui::escape::sh_word(&path.display().to_string());
        out::outln!("wrote {shown}: submit with `bash {shown}`, or without Slurm run `bash {shown} local`")?;
    }
    Ok(ExitCode::SUCCESS)
}
