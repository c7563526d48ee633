//! `fnn-tui emulate`: the design rehearsed on Linux network namespaces.

use super::EmulateArgs;
use anyhow::anyhow;
use fnn_tui::emulate::{emulate, run_prefix};
use fnn_tui::routing::Interfaces;
use std::process::ExitCode;

pub fn run(args: &EmulateArgs) -> anyhow::Result<ExitCode> {
    let (cluster, design, _) = super::export::design_source(&args.source)?;
    let ifaces = match &args.probe_order {
        Some(p) => Interfaces::parse(p).map_err(|e| anyhow!("--probe-order: {e}"))?,
        None => Interfaces {
            probe_order: (1..=cluster.max_nics().max(1) as usize).collect(),
        },
    };
    // Ctrl-C must not leave namespaces behind: the testbed is dropped
    // (and removes everything) when this function returns.
    let (summary, testbed) = emulate(&cluster, &design, &ifaces, &run_prefix(), args.keep)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print!("{}", summary.text());
    }
    if args.keep {
        eprintln!("kept for inspection; remove with:");
        for c in testbed.removal_commands() {
            eprintln!("  {c}");
        }
    }
    drop(testbed);
    Ok(if summary.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
