//! The translators (the FNN compiler paper "The FNN Translators"): what
//! it takes to build and run the cluster, written into a directory from the
//! TUI's export menu or `fnn-tui export`.

pub mod choices;
pub mod colors;
pub mod cut_list;
mod files;
pub mod formats;
pub mod labels;
pub mod racks;
pub mod rewire;
pub mod size;

use crate::routing::{BasicRouting, Interfaces, MacTable, advanced, networkd, scripts};
pub use files::{ExportError, write_design, write_files};
use fnn_core::design::{Design, format_table};
pub use fnn_core::output::{INCOMPLETE_MARKER, is_plain_relative};
use fnn_core::report::Report;
use fnn_core::spec::Cluster;
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
    /// Replace whatever the folder holds (`--force`).
    pub force: bool,
    /// Write labels and boot scripts for a design that is not valid
    /// (`--allow-invalid`); each file then says so first.
    pub allow_invalid: bool,
    /// The most an export may write, in bytes (`--max-size`); `None`:
    /// [`size::DEFAULT_MAX_SIZE`].
    pub max_size: Option<u64>,
}

/// The interface names to use: as resolved, or the NICs in slot order.
fn interfaces(d: &Design, o: &Options) -> Interfaces {
    let max_nics = (0..d.pcs()).map(|p| d.nics_used(p) as usize).max().unwrap_or(1).max(1);
    o.interfaces.clone().unwrap_or(Interfaces {
        probe_order: (1..=max_nics).collect(),
    })
}

/// The files of one PC (its scripts, hosts file and networkd files):
/// written by [`write_all`], sampled by the size estimate.
fn pc_files(
    c: &Cluster,
    d: &Design,
    r: &BasicRouting,
    pc: usize,
    ifaces: &Interfaces,
    macs: &MacTable,
) -> Vec<(String, String)> {
    let n = c.pc_name(pc);
    let mut files = vec![
        (
            format!("routing/scripts/fnn-setup-{n}.sh"),
            scripts::setup_script(c, d, r, pc, ifaces, macs),
        ),
        (format!("routing/hosts/hosts.{n}"), scripts::hosts(c, d, r, pc)),
        (
            format!("routing/probe/fnn-probe-{n}.sh"),
            crate::routing::probe::probe_script(c, d, r, pc, ifaces, macs),
        ),
    ];
    for nic in 0..d.nics_used(pc) as usize {
        let (link, network) = networkd::file_names(nic);
        files.push((
            format!("routing/networkd/{n}/{link}"),
            networkd::link_file(c, d, pc, nic, ifaces, macs),
        ));
        files.push((
            format!("routing/networkd/{n}/{network}"),
            networkd::network_file(c, d, r, pc, nic, macs),
        ));
    }
    files.push((
        format!("routing/networkd/{n}/fnn-announce.sh"),
        scripts::announce_script(c, d, r, pc, ifaces, macs),
    ));
    files
}

/// What an export is of, as its folder's list of files records it: an
/// export of another cluster is not overwritten without `--force`.
pub fn identity(c: &Cluster) -> String {
    format!("{} ({} PCs, {} FNN switches)", c.name, c.pcs(), c.switch_count())
}

/// The first lines of every file of an export of a design that is not
/// valid, in the file's own comment syntax (`None`: a format without
/// comments, whose data says it: report.json, design.json).
fn invalid_banner(rel: &str, uncovered: u64) -> Option<String> {
    let what = format!(
        "NOT VALID: {uncovered} required pair(s) share no switch in this design (exported with --allow-invalid); do not cable or boot from it as it is."
    );
    let ext = rel.rsplit('.').next().unwrap_or("");
    match ext {
        "sh" | "txt" | "dot" | "csv" => Some(format!("# {what}\n")),
        "h" | "rs" => Some(format!("// {what}\n")),
        "html" | "svg" => Some(format!("<!-- {what} -->\n")),
        _ => None,
    }
}

/// `text` with `banner` first, or second after a `#!` line (which must
/// stay first), or after an XML declaration or `<!DOCTYPE …>`.
fn with_banner(text: &str, banner: &str) -> String {
    let keep_first = ["#!", "<?xml", "<!DOCTYPE", "<!doctype"]
        .iter()
        .any(|p| text.starts_with(p));
    let at = if keep_first {
        text.find('\n').map_or(text.len(), |i| i + 1)
    } else {
        0
    };
    format!("{}{banner}{}", &text[..at], &text[at..])
}

/// The output being written, and the pairs no switch covers when the
/// design is not valid (every file then starts with the not-valid banner).
struct Writer {
    out: fnn_core::output::Staged,
    uncovered: Option<u64>,
}

impl Writer {
    /// Writes `text` (after the banner) as `rel`.
    fn add(&mut self, rel: &str, text: String) -> Result<(), ExportError> {
        let text = match self.uncovered.and_then(|u| invalid_banner(rel, u)) {
            Some(banner) => with_banner(&text, &banner),
            None => text,
        };
        Ok(self.out.write(rel, text.as_bytes())?)
    }

    /// Writes a file too big to hold whole (P² lines) straight to its
    /// place, after the banner.
    fn stream(
        &mut self,
        rel: &str,
        f: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) -> Result<(), ExportError> {
        let banner = self.uncovered.and_then(|u| invalid_banner(rel, u)).unwrap_or_default();
        let mut w = self.out.create(rel)?;
        std::io::Write::write_all(&mut w, banner.as_bytes())
            .and_then(|_| f(&mut w))
            .and_then(|_| std::io::Write::flush(&mut w))
            .map_err(|e| self.out.failed(rel, e))?;
        Ok(())
    }
}

/// Writes the artifacts, each as soon as it is made (memory does not grow
/// with the number of files), as one output swapped in whole; returns the
/// files written.
pub fn write_all(
    dir: &Path,
    c: &Cluster,
    d: &Design,
    report: &Report,
    o: &Options,
) -> Result<Vec<PathBuf>, ExportError> {
    let want = |a: &str| o.only.is_empty() || o.only.iter().any(|x| x == a);
    let placement = refusals_first(c, d, report, o, &want)?;
    let mut w = Writer {
        out: fnn_core::output::Staged::new_for(dir, "export", &identity(c), o.force)?,
        uncovered: (!report.valid).then_some(report.uncovered_pairs),
    };
    if want("table") {
        w.add("switches.txt", format_table(d))?;
    }
    if want("report") {
        w.add("report.json", report.to_json())?;
    }
    if want("labels") {
        w.add("labels.html", labels::html(c, d))?;
        w.add("labels.txt", labels::text(c, d))?;
    }
    let ifaces = interfaces(d, o);
    let macs = o.macs.clone().unwrap_or_default();
    if want("routing") {
        write_routing(&mut w, c, d, &ifaces, o.macs.as_ref())?;
    }
    if want("advanced") {
        write_advanced(&mut w, c, d, &macs)?;
    }
    if let Some(p) = placement.as_ref().filter(|_| want("racks")) {
        w.add("racks/racks.svg", racks::svg(p, c))?;
        w.add("racks/totals.txt", racks::totals(p))?;
    }
    if want("dot") {
        w.add("design.dot", formats::dot(c, d))?;
    }
    if let Some(p) = placement.as_ref().filter(|_| want("csv")) {
        w.add("cables.csv", cut_list::csv(c, d, p))?;
        w.add("switch-ports.csv", cut_list::port_plan(c, d, &ifaces, &macs))?;
    }
    if want("json") {
        w.add("design.json", formats::json(c, d, &report.metrics))?;
    }
    if let Some(old) = &o.from {
        let p = rewire::plan(old, d)?;
        let cable = |s: usize| colors::cable(&c.cable_colors, s).name();
        w.add("rewire.txt", rewire::text(&p, &|pc| c.pc_name(pc), &cable))?;
    }
    Ok(w.out.commit()?)
}

/// What can fail for want of validity or room, tried before anything is
/// written; the rack placement, when the artifacts asked for use it (the
/// cut list takes its lengths from it).
fn refusals_first(
    c: &Cluster,
    d: &Design,
    report: &Report,
    o: &Options,
    want: &dyn Fn(&str) -> bool,
) -> Result<Option<racks::Placement>, ExportError> {
    if !report.valid && !o.allow_invalid && (want("labels") || want("routing")) {
        return Err(ExportError::Invalid(report.uncovered_pairs));
    }
    let placement = if want("racks") || want("csv") {
        Some(racks::place(c, d)?)
    } else {
        None
    };
    let limit = o.max_size.unwrap_or(size::DEFAULT_MAX_SIZE);
    let estimate = size::estimate(c, d, o, want, limit);
    if estimate > limit {
        return Err(ExportError::TooBig { estimate, limit });
    }
    Ok(placement)
}

/// The routing artifacts: the subnet matrix, routes, IP plan, services,
/// each PC's files, and the MAC file's check when one is given.
fn write_routing(
    w: &mut Writer,
    c: &Cluster,
    d: &Design,
    ifaces: &Interfaces,
    given_macs: Option<&MacTable>,
) -> Result<(), ExportError> {
    if d.switches() > crate::routing::addresses::MAX_SWITCHES {
        return Err(ExportError::TooManySwitches(crate::routing::addresses::MAX_SWITCHES));
    }
    let r = BasicRouting::new(c, d);
    let macs = given_macs.cloned().unwrap_or_default();
    w.stream("routing/subnet-matrix.txt", |out| r.write_matrix(out))?;
    w.stream("routing/routes.txt", |out| {
        scripts::write_route_table(out, c, d, &r, ifaces, &macs)
    })?;
    w.add("routing/ip-plan.txt", scripts::ip_plan(c, d, ifaces, &macs))?;
    w.add("routing/fnn-setup.service", networkd::setup_service(c))?;
    w.add("routing/fnn-announce.service", networkd::announce_service(c))?;
    for pc in 0..d.pcs() {
        for (rel, text) in pc_files(c, d, &r, pc, ifaces, &macs) {
            w.add(&rel, text)?;
        }
    }
    if given_macs.is_some() {
        let problems = macs.check(d, &|p| c.pc_name(p));
        let text = if problems.is_empty() {
            "the MAC file matches the design\n".to_string()
        } else {
            problems.join("\n") + "\n"
        };
        w.add("routing/macs-check.txt", text)?;
    }
    Ok(())
}

/// The advanced routing's lookup tables (C, Rust, by MAC) and their sizes.
fn write_advanced(w: &mut Writer, c: &Cluster, d: &Design, macs: &MacTable) -> Result<(), ExportError> {
    let max_nics = (0..d.pcs()).map(|p| d.nics_used(p) as usize).max().unwrap_or(1).max(1);
    let (words, mac_table) = advanced::sizes(d);
    w.stream("advanced/fnn_routes.h", |out| advanced::write_c_header(out, d, &c.name))?;
    w.stream("advanced/fnn_routes.rs", |out| {
        advanced::write_rust_module(out, d, &c.name)
    })?;
    w.stream("advanced/fnn_mac_routes.h", |out| {
        advanced::write_mac_header(out, d, &c.name, macs)
    })?;
    w.add(
        "advanced/sizes.txt",
        format!(
            "per node: {words} bytes of NIC-number tuples ({} bits a field); {mac_table} bytes with MAC lookup\n",
            advanced::field_bits(max_nics)
        ),
    )
}
