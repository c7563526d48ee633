//! Wiring labels (the FNN compiler paper "Physical Wiring", the KLAT2 paper §3): one label per
//! PC with a colour patch per NIC in NIC order showing its cable (switch)
//! colour, transparent colours marked with a double triangle, stripes once
//! switches outnumber colours; a sheet per switch listing its PCs and ports;
//! the uplink switch with its uplinks and hot spares. A self-contained HTML
//! page that prints cleanly on A4 and Letter, and a plain-text version.

use super::colors::{Cable, cable};
use fnn_core::design::Design;
use fnn_core::spec::{Cluster, UplinkMode};
use std::fmt::Write as _;

/// The port of each PC on a switch: ports are numbered from 1 in PC order,
/// the uplink port(s) last.
pub fn port_of(design: &Design, switch: usize, pc: usize) -> Option<usize> {
    design
        .pcs_on_switches()
        .get(switch)?
        .iter()
        .position(|&p| p == pc)
        .map(|i| i + 1)
}

use fnn_core::escape::{one_line, xml as esc};

fn patch(c: &Cable) -> String {
    let fill = match &c.stripe {
        Some(st) => format!(
            "background:repeating-linear-gradient(45deg,{b} 0 6px,{s} 6px 10px)",
            b = esc(&c.base.hex),
            s = esc(&st.hex)
        ),
        None => format!("background:{}", esc(&c.base.hex)),
    };
    let mark = if c.base.transparent {
        "<span class=\"tr\" title=\"transparent\">▲▼</span>"
    } else {
        ""
    };
    format!("<span class=\"patch\" style=\"{fill}\">{mark}</span>")
}

/// The printable HTML page.
pub fn html(cluster: &Cluster, design: &Design) -> String {
    let colors = &cluster.cable_colors;
    let mut h = head(cluster, design);
    for s in 0..design.switches() {
        let c = cable(colors, s);
        let _ = write!(h, "<div>{} switch {s}: {}</div>", patch(&c), esc(&c.name()));
    }
    h.push_str("</div>\n<div class=\"labels\">\n");
    pc_labels(&mut h, cluster, design);
    h.push_str("</div>\n<div class=\"sheet\"><h1>Switch port sheets</h1>\n");
    port_sheets(&mut h, cluster, design);
    if cluster.uplink.mode == UplinkMode::Separate {
        uplink_sheet(&mut h, cluster, design);
    }
    h.push_str("</div></body></html>\n");
    h
}

/// The page's head and style, its title, and the legend's start.
fn head(cluster: &Cluster, design: &Design) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{name}: FNN wiring labels</title>
<style>
@page {{ margin: 10mm; }}
body {{ font-family: "DejaVu Sans", Arial, sans-serif; font-size: 10pt; margin: 0; color: #000; }}
h1 {{ font-size: 14pt; margin: 0 0 4mm 0; }}
h2 {{ font-size: 12pt; margin: 6mm 0 3mm 0; }}
.labels {{ display: grid; grid-template-columns: repeat(3, 60mm); gap: 3mm; }}
.label {{ border: 0.3mm solid #000; padding: 2mm; height: 22mm; box-sizing: border-box; break-inside: avoid; page-break-inside: avoid; }}
.label .pc {{ font-weight: bold; font-size: 12pt; }}
.nics {{ display: flex; gap: 1.5mm; margin-top: 1.5mm; }}
.nic {{ text-align: center; font-size: 7pt; width: 12mm; }}
.patch {{ display: block; width: 12mm; height: 7mm; border: 0.3mm solid #000; position: relative;
  -webkit-print-color-adjust: exact; print-color-adjust: exact; }}
.tr {{ position: absolute; left: 0; right: 0; top: 0.5mm; font-size: 8pt; color: #000; }}
.sheet {{ break-before: page; page-break-before: always; }}
table {{ border-collapse: collapse; margin-bottom: 4mm; break-inside: avoid; page-break-inside: avoid; }}
td, th {{ border: 0.2mm solid #444; padding: 0.8mm 2mm; font-size: 9pt; }}
.legend {{ display: flex; flex-wrap: wrap; gap: 3mm; margin-bottom: 4mm; }}
.legend div {{ display: flex; align-items: center; gap: 1mm; }}
@media screen {{ body {{ margin: 8mm; }} }}
</style></head><body>
<h1>{name}: NIC cable labels ({pcs} PCs, {sw} FNN switches)</h1>
<div class="legend">"#,
        name = esc(&cluster.name),
        pcs = design.pcs(),
        sw = design.switches(),
    );
    h
}

/// A label per PC (a patch per NIC in its switch's colour), and one per
/// hot spare.
fn pc_labels(h: &mut String, cluster: &Cluster, design: &Design) {
    let colors = &cluster.cable_colors;
    for pc in 0..design.pcs() {
        let _ = write!(
            h,
            "<div class=\"label\" id=\"pc-{pc}\"><div class=\"pc\">{}</div><div class=\"nics\">",
            esc(&cluster.pc_name(pc))
        );
        for (nic, s) in design.switches_of(pc).into_iter().enumerate() {
            let c = cable(colors, s);
            let _ = write!(
                h,
                "<div class=\"nic\" data-switch=\"{s}\">{}NIC {nic}<br>sw {s}</div>",
                patch(&c)
            );
        }
        h.push_str("</div></div>\n");
    }
    for s in 0..cluster.hot_spares {
        let _ = writeln!(
            h,
            "<div class=\"label spare\"><div class=\"pc\">spare {s}</div><div class=\"nics\"><div class=\"nic\">NIC 0<br>uplink switch</div></div></div>"
        );
    }
}

/// A table per switch: which PC's NIC goes in each port.
fn port_sheets(h: &mut String, cluster: &Cluster, design: &Design) {
    let colors = &cluster.cable_colors;
    for (s, pcs) in design.pcs_on_switches().iter().enumerate() {
        let c = cable(colors, s);
        let _ = write!(
            h,
            "<table><tr><th colspan=\"3\">{} switch {s}: {} ({} PCs)</th></tr><tr><th>port</th><th>PC</th><th>NIC</th></tr>",
            patch(&c),
            esc(&c.name()),
            pcs.len()
        );
        for (i, &pc) in pcs.iter().enumerate() {
            let nic = design.nic_on(pc, s).unwrap_or(0);
            let _ = write!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{nic}</td></tr>",
                i + 1,
                esc(&cluster.pc_name(pc))
            );
        }
        if cluster.uplink.mode != UplinkMode::None {
            let _ = write!(h, "<tr><td>{}</td><td colspan=\"2\">uplink</td></tr>", pcs.len() + 1);
        }
        h.push_str("</table>\n");
    }
}

/// The separate uplink switch's ports: every FNN switch, then the spares.
fn uplink_sheet(h: &mut String, cluster: &Cluster, design: &Design) {
    h.push_str("<table><tr><th colspan=\"2\">uplink switch</th></tr><tr><th>port</th><th>connects</th></tr>");
    let mut port = 1;
    for s in 0..design.switches() {
        let _ = write!(h, "<tr><td>{port}</td><td>FNN switch {s} uplink</td></tr>");
        port += 1;
    }
    for sp in 0..cluster.hot_spares {
        let _ = write!(h, "<tr><td>{port}</td><td>hot spare {sp}</td></tr>");
        port += 1;
    }
    h.push_str("</table>\n");
}

/// The same information as plain text.
pub fn text(cluster: &Cluster, design: &Design) -> String {
    let colors = &cluster.cable_colors;
    // Plain text, one label a line: names cannot end a line early.
    let mut t = format!("{}: NIC cable labels\n\n", one_line(&cluster.name));
    for pc in 0..design.pcs() {
        let nics: Vec<String> = design
            .switches_of(pc)
            .into_iter()
            .enumerate()
            .map(|(nic, s)| {
                let c = cable(colors, s);
                let tr = if c.base.transparent { " ▲▼" } else { "" };
                format!("NIC {nic}: {}{tr} (switch {s})", one_line(&c.name()))
            })
            .collect();
        let _ = writeln!(t, "{:<8} {}", one_line(&cluster.pc_name(pc)), nics.join(" | "));
    }
    t.push_str("\nSwitch port sheets\n");
    for (s, pcs) in design.pcs_on_switches().iter().enumerate() {
        let _ = writeln!(t, "\nswitch {s} ({}):", one_line(&cable(colors, s).name()));
        for (i, &pc) in pcs.iter().enumerate() {
            let _ = writeln!(
                t,
                "  port {:>3}  {} NIC {}",
                i + 1,
                one_line(&cluster.pc_name(pc)),
                design.nic_on(pc, s).unwrap_or(0)
            );
        }
    }
    t
}
