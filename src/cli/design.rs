//! `fnn-tui design`: search, then write the switch table and the report.

use super::DesignArgs;
use super::inputs;
use super::out;
use fnn_tui::ga::Phase;
use fnn_tui::run::Run;
use fnn_tui::run::StopReason;
use fnn_tui::run::{Limits, Progress};
use fnn_tui::spec::{Cluster, Preset, Spec};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::process::ExitCode;

pub fn run(args: &DesignArgs) -> anyhow::Result<ExitCode> {
    let flags = inputs::quick_flags(&args.quick, &args.search);
    let spec = inputs::spec(args.spec.as_deref(), &flags)?;
    if args.exact || args.proof.is_some() || spec.ga.preset() == Preset::Exact {
        return super::exact::run(args, spec);
    }
    let cluster = inputs::cluster(&spec)?;
    inputs::check_pins(&cluster)?;
    cluster.check_search_memory()?;
    let run = search(spec, cluster, !args.quiet && !args.json)?;
    let report = run.report();
    let (table_path, report_path) = fnn_tui::export::write_design(&args.out, &run.best_design(), &report)?;
    if args.json {
        out::outln!("{}", report.to_json())?;
    } else if !args.quiet {
        out::out!("{}", report.text())?;
        for (name, said) in run.said() {
            out::outln!("{name}: {said}")?;
        }
        out::outln!("wrote {} and {}", table_path.display(), report_path.display())?;
    }
    Ok(super::exit::success_if(report.valid))
}

/// Runs the search to its stopping rule (a [`Run`]: the spec's limits,
/// from the moment the command started) and returns the finished run.
pub fn search(spec: Spec, cluster: Cluster, show_progress: bool) -> anyhow::Result<Run> {
    let interrupted = super::exit::interrupt_flag();
    let limits = Limits::from_params(&cluster.ga);
    // The bar follows whichever limit is set: generations, else seconds.
    let by_time = limits.generations == 0;
    let (len, template) = if by_time {
        (
            (limits.time_limit_s * 10.0) as u64,
            "{elapsed_precise} [{bar:30}] {wide_msg}",
        )
    } else {
        (
            limits.generations,
            "{elapsed_precise} [{bar:30}] gen {pos}/{len} {wide_msg}",
        )
    };
    let bar = progress_bar(show_progress, len, template);
    let start = super::started();
    let mut run = Run::of_cluster_since(spec, cluster, start);
    let stop = run.run(&interrupted, |r| {
        let p = r.progress();
        bar.set_position(if by_time {
            (start.elapsed().as_secs_f64() * 10.0) as u64
        } else {
            p.generation
        });
        if p.generation % 8 == 0 {
            bar.set_message(progress_message(&p, by_time));
        }
    });
    bar.finish_and_clear();
    if stop == StopReason::Interrupted {
        out::errln!("interrupted: writing the best design so far");
    }
    Ok(run)
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

/// The bar's message, fitted to the terminal by the bar (`wide_msg`); the
/// generation only when the bar does not count generations itself.
fn progress_message(p: &Progress, with_generation: bool) -> String {
    let phase = match p.phase {
        Phase::Scaled { width, pcs } => format!("scaled {pcs} PCs/{width} ports"),
        Phase::Full => "full".into(),
    };
    let generation = if with_generation {
        format!("gen {} ", p.generation)
    } else {
        String::new()
    };
    format!(
        "{generation}{phase} best {:.3} uncovered {}",
        p.best_fitness, p.best_uncovered
    )
}
