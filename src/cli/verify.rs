//! `fnn-tui verify`: a cabled cluster's probe results and LLDP outputs
//! against its design.

use super::VerifyArgs;
use super::out;
use anyhow::anyhow;
use fnn_tui::routing::MacTable;
use fnn_tui::verify::lldp::audit_dir;
use fnn_tui::verify::verify_dir;
use std::process::ExitCode;

pub fn run(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let (cluster, design, _) = super::export::design_source(&args.source)?;
    let ifaces = super::emulate::interfaces(args.probe_order.as_deref(), &cluster)?;
    let macs = match &args.macs {
        Some(path) => {
            let names = |s: &str| cluster.pc_named(s);
            MacTable::read(path, &names, &ifaces).map_err(|e| anyhow!("--macs: {e}"))?
        }
        None => MacTable::default(),
    };
    let probes = match &args.results {
        Some(dir) => Some(verify_dir(dir, &cluster, &design, &ifaces)?),
        None => None,
    };
    let lldp = match &args.lldp {
        Some(dir) => Some(audit_dir(dir, &cluster, &design, &ifaces, &macs)?),
        None => None,
    };
    if args.json {
        // The probe report alone keeps the shape it always had.
        let json = match (&probes, &lldp) {
            (Some(p), None) => serde_json::to_value(p)?,
            _ => serde_json::json!({ "probes": probes, "lldp": lldp }),
        };
        out::outln!("{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        if let Some(p) = &probes {
            out::out!("{}", p.text())?;
        }
        if let Some(l) = &lldp {
            out::out!("{}", l.text())?;
        }
    }
    let ok = probes.as_ref().is_none_or(|p| p.ok()) && lldp.as_ref().is_none_or(|l| l.ok());
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
