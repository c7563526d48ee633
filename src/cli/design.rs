//! `fnn-tui design`: search, then write the switch table and the report.

use super::DesignArgs;
use super::inputs;
use fnn_tui::ga::{Engine, Limits, Phase, StopReason};
use fnn_tui::report::Report;
use fnn_tui::run::Run;
use fnn_tui::spec::{Cluster, Preset, Spec};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

pub fn run(args: &DesignArgs) -> anyhow::Result<ExitCode> {
    let flags = inputs::quick_flags(&args.quick, &args.search);
    let spec = inputs::spec(args.spec.as_deref(), &flags)?;
    if args.exact || args.proof.is_some() || spec.ga.preset() == Preset::Exact {
        return super::exact::run(args, spec);
    }
    let cluster = inputs::cluster(&spec)?;
    cluster.check_search_memory()?;
    let run = search(spec, cluster, !args.quiet)?;
    let report = run.report();
    let (table_path, report_path) = fnn_tui::export::write_design(&args.out, &run.best_design(), &report)?;
    if !args.quiet {
        print!("{}", report.text());
        if let Some(Ok(out)) = run.engine().exact() {
            println!("exact: {}", super::exact::verdict(out));
        }
        println!("wrote {} and {}", table_path.display(), report_path.display());
    }
    Ok(exit_code(&report))
}

fn exit_code(report: &Report) -> ExitCode {
    if report.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Runs the search to its stopping rule (a [`Run`]: the spec's limits,
/// from the moment the command started) and returns the finished run.
pub fn search(spec: Spec, cluster: Cluster, show_progress: bool) -> anyhow::Result<Run> {
    let interrupted = interrupt_flag();
    let limits = Limits::from_params(&cluster.ga);
    // The bar follows whichever limit is set: generations, else seconds.
    let by_time = limits.generations == 0;
    let (len, template) = if by_time {
        (
            (limits.time_limit_s * 10.0) as u64,
            "{elapsed_precise} [{bar:30}] {msg}",
        )
    } else {
        (limits.generations, "{elapsed_precise} [{bar:30}] gen {pos}/{len} {msg}")
    };
    let bar = progress_bar(show_progress, len, template);
    let start = super::started();
    let mut run = Run::of_cluster_since(spec, cluster, start);
    let stop = run.run(&interrupted, |r| {
        let e = r.engine();
        bar.set_position(if by_time {
            (start.elapsed().as_secs_f64() * 10.0) as u64
        } else {
            e.generation()
        });
        if e.generation() % 8 == 0 {
            bar.set_message(progress_message(e));
        }
    });
    bar.finish_and_clear();
    if stop == StopReason::Interrupted {
        eprintln!("interrupted: writing the best design so far");
    }
    Ok(run)
}

/// A flag Ctrl-C sets, so long commands stop and write what they have.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    let interrupted = Arc::new(AtomicBool::new(false));
    // Registering fails only for a signal that cannot be caught; SIGINT can.
    let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, interrupted.clone());
    interrupted
}

/// A progress bar on stderr when it is a terminal (hidden otherwise), in
/// indicatif's `template`.
pub fn progress_bar(show: bool, len: u64, template: &str) -> ProgressBar {
    if !show || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

fn progress_message(e: &Engine) -> String {
    let top = &e.population()[0];
    let phase = match e.phase() {
        Phase::Scaled { width, pcs } => format!("scaled {pcs} PCs/{width} ports"),
        Phase::Full => "full".into(),
    };
    format!(
        "gen {} {phase} best {:.3} uncovered {}",
        e.generation(),
        top.fitness(),
        top.terms().uncovered
    )
}
