//! `fnn-tui check`: validate a switch table against a spec (or against the
//! hardware the table itself implies) and print the report.

use super::CheckArgs;
use super::inputs;
use super::out;
use fnn_tui::design::{Design, parse_table};
use fnn_tui::metrics::Metrics;
use fnn_tui::report::{Report, RunInfo};
use fnn_tui::spec::{Cluster, Coverage};
use std::process::ExitCode;

/// Where the summary sends the reader for the uncovered pairs it leaves
/// out: `check` writes no file, its JSON lists them.
const LISTING: &str = "the --json report";

pub fn run(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let text = fnn_tui::input::read_text(&args.table)?;
    let source = fnn_tui::input::shown(&args.table);
    let cluster = inputs::table_cluster(args.spec.as_deref(), &args.quick, &text, &source)?;
    inputs::check_pins(&cluster)?;
    let design = parse_table(&text, &source, cluster.pcs(), cluster.switch_count())?;
    let inferred = args.spec.is_none() && !inputs::quick_flags(&args.quick, &Default::default()).describes_hardware();
    let metrics = Metrics::compute(&design, &cluster);
    let note = unplaced(&design, &cluster, inferred).map(|n| format!("{n}; {}", placed_uncovered(&design, &cluster)));
    let report = Report::new(&cluster, metrics, RunInfo::default());
    if args.json {
        if let Some(note) = &note {
            out::errln!("note: {note}");
        }
        out::outln!("{}", report.to_json())?;
    } else {
        let summary = report.text_listing_rest(LISTING);
        // The verdict first, then why most of it may be so.
        let (verdict, rest) = summary.split_once('\n').unwrap_or((&summary, ""));
        out::outln!("{verdict}")?;
        if let Some(note) = &note {
            out::outln!("  on no switch         {note}")?;
        }
        out::out!("{rest}")?;
    }
    Ok(exit_code(&report))
}

/// The PCs no switch line names, and (when the table alone sets the
/// cluster's size) that its highest PC number may be a typo.
fn unplaced(design: &Design, cluster: &Cluster, inferred: bool) -> Option<String> {
    let missing: Vec<usize> = (0..design.pcs()).filter(|&pc| design.nics_used(pc) == 0).collect();
    let (&first, &last) = (missing.first()?, missing.last()?);
    let which = if missing.len() == 1 {
        format!("PC {first} ({})", cluster.pc_name(first))
    } else {
        format!(
            "PCs {} ({} to {}, {})",
            fnn_tui::words::runs(&missing),
            cluster.pc_name(first),
            cluster.pc_name(last),
            fnn_tui::words::count(missing.len(), "PC")
        )
    };
    let is_or_are = if missing.len() == 1 { "is" } else { "are" };
    if !inferred {
        return Some(format!(
            "{which} {is_or_are} on no switch: add {} to the switch lines",
            if missing.len() == 1 { "it" } else { "them" }
        ));
    }
    let highest = design.pcs() - 1;
    Some(format!(
        "{which} {is_or_are} on no switch: without a spec the table's highest PC number sets the cluster's \
         size ({}); is PC {highest} a typo? Give the spec, or --pcs N --nics K --switches ..., to check the \
         cluster you mean",
        fnn_tui::words::count(design.pcs(), "PC")
    ))
}

/// How many required pairs between PCs the table does place share no
/// switch: the ones left once the missing PCs are placed.
fn placed_uncovered(design: &Design, cluster: &Cluster) -> String {
    let placed = |pc: usize| design.nics_used(pc) > 0;
    let apart = |a: usize, b: usize| placed(a) && placed(b) && design.links(a, b) == 0;
    let n = match cluster.coverage {
        Coverage::Universal => (0..design.pcs())
            .map(|a| (a + 1..design.pcs()).filter(|&b| apart(a, b)).count())
            .sum(),
        Coverage::Sparse => cluster.pattern.pairs().filter(|&(a, b, _)| apart(a, b)).count(),
    };
    format!("{} between PCs on switches", fnn_tui::words::count(n, "uncovered pair"))
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
