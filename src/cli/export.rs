//! `fnn-tui export`: the translators from a saved session, or a spec (or
//! quick flags) plus a switch table.

use super::ExportArgs;
use super::inputs;
use super::out;
use anyhow::anyhow;
use fnn_tui::design::{Design, parse_table};
use fnn_tui::export::choices::{Choices, Rewire};
use fnn_tui::export::write_all;
use fnn_tui::input::read_text;
use fnn_tui::metrics::Metrics;
use fnn_tui::report::{Report, RunInfo};
use fnn_tui::session::{open_session, session_dirs};
use fnn_tui::spec::Cluster;
use std::process::ExitCode;

pub fn run(args: &ExportArgs) -> anyhow::Result<ExitCode> {
    let (cluster, design, run) = source(args)?;
    let report = Report::new(&cluster, Metrics::compute(&design, &cluster), run);
    let choices = Choices {
        only: args.only.clone(),
        probe_order: args.probe_order.clone(),
        macs: args.macs.clone(),
        rewire: args.from.clone().map(Rewire::Table),
    };
    let mut options = choices
        .resolve(&cluster, &session_dirs())
        .map_err(|e| anyhow!(e.for_command_line()))?;
    (options.force, options.allow_invalid) = (args.force, args.allow_invalid);
    options.max_size = args.max_size;
    let files = write_all(&args.out, &cluster, &design, &report, &options).map_err(|e| anyhow!(e))?;
    if args.json {
        let json = serde_json::json!({
            "out": args.out.display().to_string(),
            "files": files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>(),
            "valid": report.valid,
            "uncovered_pairs": report.uncovered_pairs,
        });
        out::outln!(
            "{}",
            serde_json::to_string_pretty(&json).expect("JSON values serialize")
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    out::outln!(
        "wrote {} into {}",
        fnn_tui::words::count(files.len(), "file"),
        args.out.display()
    )?;
    if !report.valid {
        out::errln!(
            "note: the design is not valid ({} required pairs uncovered)",
            report.uncovered_pairs
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The cluster and the design: a session's best, or a table under a spec.
fn source(args: &ExportArgs) -> anyhow::Result<(Cluster, Design, RunInfo)> {
    design_source(&args.source)
}

/// The cluster and design of `--session`, or of `--table` under a spec or
/// quick flags (`export`, `emulate`).
pub fn design_source(from: &super::DesignSource) -> anyhow::Result<(Cluster, Design, RunInfo)> {
    let (spec, quick) = (from.spec.as_deref(), &from.quick);
    let table = from.table.as_deref();
    if let Some(name) = &from.session {
        let (session, _) = open_session(name, &session_dirs())?;
        let (cluster, engine) = session.restore_best()?;
        let run = RunInfo::of_engine(&engine, 0.0, None);
        return Ok((cluster, engine.best_design(), run));
    }
    let table = table.ok_or_else(|| anyhow!("give --table FILE or --session NAME|PATH"))?;
    let text = read_text(table)?;
    let source = fnn_tui::input::shown(table);
    let cluster = inputs::table_cluster(spec, quick, &text, &source)?;
    let design = parse_table(&text, &source, cluster.pcs(), cluster.switch_count())?;
    Ok((cluster, design, RunInfo::default()))
}
