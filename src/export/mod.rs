//! The translators (the FNN compiler paper "The FNN Translators"): what
//! it takes to build and run the cluster, written into a directory from the
//! TUI's export menu or `fnn-tui export`.

pub mod choices;
pub mod colors;
mod files;
pub mod formats;
pub mod labels;
pub mod racks;
pub mod rewire;

use crate::design::{Design, format_table};
use crate::report::Report;
use crate::routing::{BasicRouting, Interfaces, MacTable, advanced, scripts};
use crate::spec::Cluster;
pub use files::{ExportError, INCOMPLETE_MARKER, is_plain_relative, write_files};
use std::path::{Path, PathBuf};

/// The artifacts a user can ask for (`--only`).
pub const ARTIFACTS: &[&str] = &[
    "table", "report", "labels", "routing", "advanced", "racks", "dot", "csv", "json",
];

#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Artifacts to write; all when empty.
    pub only: Vec<String>,
    pub interfaces: Option<Interfaces>,
    pub macs: Option<MacTable>,
    /// A previous design of the same cluster: write the rewire plan.
    pub from: Option<Design>,
}

/// Writes the artifacts; returns the files written.
pub fn write_all(
    dir: &Path,
    c: &Cluster,
    d: &Design,
    report: &Report,
    o: &Options,
) -> Result<Vec<PathBuf>, ExportError> {
    let want = |a: &str| o.only.is_empty() || o.only.iter().any(|x| x == a);
    let mut files: Vec<(String, String)> = Vec::new();
    let mut add = |rel: &str, text: String| files.push((rel.to_string(), text));
    if want("table") {
        add("switches.txt", format_table(d));
    }
    if want("report") {
        add("report.json", report.to_json());
    }
    if want("labels") {
        add("labels.html", labels::html(c, d));
        add("labels.txt", labels::text(c, d));
    }
    let max_nics = (0..d.pcs()).map(|p| d.nics_used(p) as usize).max().unwrap_or(1).max(1);
    let ifaces = o.interfaces.clone().unwrap_or(Interfaces {
        probe_order: (1..=max_nics).collect(),
    });
    if want("routing") {
        if d.switches() > crate::routing::addresses::MAX_SWITCHES {
            return Err(ExportError::TooManySwitches(crate::routing::addresses::MAX_SWITCHES));
        }
        let r = BasicRouting::new(c, d);
        let macs = o.macs.clone().unwrap_or_default();
        add("routing/subnet-matrix.txt", r.matrix());
        add("routing/routes.txt", scripts::route_table(c, d, &r, &ifaces));
        add("routing/ip-plan.txt", scripts::ip_plan(c, d, &ifaces));
        for pc in 0..d.pcs() {
            let n = c.pc_name(pc);
            add(
                &format!("routing/scripts/fnn-setup-{n}.sh"),
                scripts::setup_script(c, d, &r, pc, &ifaces, &macs),
            );
            add(&format!("routing/hosts/hosts.{n}"), scripts::hosts(c, d, &r, pc));
            add(
                &format!("routing/probe/fnn-probe-{n}.sh"),
                crate::routing::probe::probe_script(c, d, &r, pc, &ifaces, &macs),
            );
        }
        if o.macs.is_some() {
            let problems = macs.check(d, &|p| c.pc_name(p));
            let text = if problems.is_empty() {
                "the MAC file matches the design\n".to_string()
            } else {
                problems.join("\n") + "\n"
            };
            add("routing/macs-check.txt", text);
        }
    }
    if want("advanced") {
        let (words, mac_table) = advanced::sizes(d);
        add("advanced/fnn_routes.h", advanced::c_header(d, &c.name));
        add("advanced/fnn_routes.rs", advanced::rust_module(d, &c.name));
        add(
            "advanced/fnn_mac_routes.h",
            advanced::mac_header(d, &c.name, &o.macs.clone().unwrap_or_default()),
        );
        add(
            "advanced/sizes.txt",
            format!(
                "per node: {words} bytes of NIC-number tuples ({} bits a field); {mac_table} bytes with MAC lookup\n",
                advanced::field_bits(max_nics)
            ),
        );
    }
    if want("racks") {
        let p = racks::place(c, d)?;
        add("racks/racks.svg", racks::svg(&p, c));
        add("racks/cables.csv", racks::cable_list(&p, c));
        add("racks/totals.txt", racks::totals(&p));
    }
    if want("dot") {
        add("design.dot", formats::dot(c, d));
    }
    if want("csv") {
        add("cables.csv", formats::csv(c, d));
    }
    if want("json") {
        add("design.json", formats::json(c, d, &report.metrics));
    }
    if let Some(old) = &o.from {
        let p = rewire::plan(old, d)?;
        let cable = |s: usize| colors::cable(&c.cable_colors, s).name();
        add("rewire.txt", rewire::text(&p, &|pc| c.pc_name(pc), &cable));
    }
    write_files(dir, &files)
}
