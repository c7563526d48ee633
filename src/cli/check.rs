//! `fnn-tui check`: validate a switch table against a spec (or against the
//! hardware the table itself implies) and print the report.

use super::CheckArgs;
use super::inputs::{self, Overrides};
use anyhow::Context;
use fnn_tui::design::{Design, Metrics, parse_table};
use fnn_tui::report::{Report, RunInfo};
use fnn_tui::spec::{Coverage, NicOverride, PatternSpec, Spec, SwitchModel, UplinkMode};
use std::process::ExitCode;

pub fn run(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.table).with_context(|| format!("cannot read {}", args.table.display()))?;
    let source = args.table.display().to_string();
    let flags = inputs::quick_flags(
        &args.quick,
        Overrides {
            seed: None,
            generations: None,
            time_limit: None,
            threads: None,
        },
    );
    let cluster = if args.spec.is_some() || flags.describes_hardware() {
        inputs::cluster(&inputs::spec(args.spec.as_deref(), &flags)?)?
    } else {
        let bare = parse_table(&text, &source, 0, 0)?;
        let mut spec = inferred_spec(&bare, &source);
        if let Some(p) = &args.quick.pairs {
            spec.patterns.push(PatternSpec::PairFile {
                path: p.display().to_string(),
                weight: 1.0,
            });
        }
        if args.quick.sparse {
            spec.coverage = Coverage::Sparse;
        }
        spec.resolve()?
    };
    let design = parse_table(&text, &source, cluster.pcs(), cluster.switch_count())?;
    let report = Report::new(&cluster, Metrics::compute(&design, &cluster), RunInfo::default());
    if args.json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.text());
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

/// The hardware a table implies when no spec is given: its PCs with as many
/// NICs as they use, one switch per line exactly as wide as its PC list.
pub fn inferred_spec(design: &Design, source: &str) -> Spec {
    let used = design.ports_used();
    let max_nics = (0..design.pcs()).map(|pc| design.nics_used(pc)).max().unwrap_or(0);
    let mut spec = Spec {
        name: format!("{source} (hardware inferred from the table)"),
        source: source.to_string(),
        ..Spec::default()
    };
    spec.pcs.count = design.pcs().max(1);
    spec.pcs.nics = max_nics;
    spec.pcs.overrides = (0..design.pcs())
        .filter(|&pc| design.nics_used(pc) != max_nics)
        .map(|pc| NicOverride {
            pc,
            nics: design.nics_used(pc),
        })
        .collect();
    spec.uplink.mode = UplinkMode::None;
    spec.switches = used
        .iter()
        .map(|&u| SwitchModel {
            ports: u.max(2),
            count: Some(1),
            ..SwitchModel::default()
        })
        .collect();
    spec
}
