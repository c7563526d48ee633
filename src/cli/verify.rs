//! `fnn-tui verify`: a cabled cluster's probe results against its design.

use super::VerifyArgs;
use fnn_tui::verify::verify_dir;
use std::process::ExitCode;

pub fn run(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let (cluster, design, _) = super::export::design_source(&args.source)?;
    let ifaces = super::emulate::interfaces(args.probe_order.as_deref(), &cluster)?;
    let report = verify_dir(&args.results, &cluster, &design, &ifaces)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.text());
    }
    Ok(if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
