//! `fnn-tui compare`: the FNN from the engine next to the fat-tree, tree,
//! Stack-Ring and Stack-Mesh for the same PCs and price list.

use super::CompareArgs;
use super::inputs;
use super::out;
use fnn_tui::topology::compare::{compare, csv, text};
use std::process::ExitCode;

pub fn run(args: &CompareArgs) -> anyhow::Result<ExitCode> {
    let flags = inputs::quick_flags(&args.quick, &args.search);
    let spec = inputs::spec(args.spec.as_deref(), &flags)?;
    let cluster = inputs::cluster(&spec)?;
    let json = args.json || args.format == "json";
    let design = super::design::search(spec.clone(), cluster.clone(), !json)?.best_design();
    let (rows, skipped) = compare(&cluster, &design);
    if let Some(dir) = &args.out {
        let files = fnn_tui::topology::artifacts::write_all(dir, &cluster, &design)?;
        out::errln!(
            "wrote {} into {}",
            fnn_tui::words::count(files.len(), "file"),
            dir.display()
        );
    }
    match args.format.as_str() {
        _ if json => out::outln!("{}", serde_json::json!({ "systems": rows, "not_built": skipped }))?,
        "csv" => out::out!("{}", csv(&rows))?,
        _ => {
            out::outln!("{}: {} PCs", cluster.name, cluster.pcs())?;
            out::out!("{}", text(&rows, &skipped, super::terminal_width()))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
