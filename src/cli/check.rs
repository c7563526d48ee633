//! `fnn-tui check`: validate a switch table against a spec (or against the
//! hardware the table itself implies) and print the report.

use super::CheckArgs;
use super::inputs;
use super::out;
use fnn_tui::design::parse_table;
use fnn_tui::metrics::Metrics;
use fnn_tui::report::{Report, RunInfo};
use std::process::ExitCode;

pub fn run(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let text = fnn_tui::input::read_text(&args.table)?;
    let source = fnn_tui::input::shown(&args.table);
    let cluster = inputs::table_cluster(args.spec.as_deref(), &args.quick, &text, &source)?;
    inputs::check_pins(&cluster)?;
    let design = parse_table(&text, &source, cluster.pcs(), cluster.switch_count())?;
    let report = Report::new(&cluster, Metrics::compute(&design, &cluster), RunInfo::default());
    if args.json {
        out::outln!("{}", report.to_json())?;
    } else {
        out::out!("{}", report.text())?;
    }
    Ok(exit_code(&report))
}

/// 0 valid, 1 within the limits but leaving required pairs uncovered,
/// 2 breaking a hardware limit or a pin.
fn exit_code(report: &Report) -> ExitCode {
    if !report.metrics.violations.is_empty() {
        ExitCode::from(2)
    } else if report.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
