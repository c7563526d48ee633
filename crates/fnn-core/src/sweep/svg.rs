//! The sweep as an SVG in the manner of the KLAT2 paper §7: one graph per NIC
//! count, ports per switch against PCs, the width found as a solid line
//! and the lower bound dashed.

use super::{Mark, Point};
use crate::svg::{Element, Svg};
use std::collections::BTreeMap;

const PANEL_W: f64 = 440.0;
const PANEL_H: f64 = 300.0;
const MARGIN: f64 = 48.0;

pub fn svg(points: &[Point], title: &str) -> String {
    let mut by_nics: BTreeMap<u32, Vec<&Point>> = BTreeMap::new();
    for p in points {
        by_nics.entry(p.nics).or_default().push(p);
    }
    let columns = by_nics.len().clamp(1, 2);
    let rows = by_nics.len().div_ceil(2).max(1);
    let (w, h) = (PANEL_W * columns as f64, PANEL_H * rows as f64 + 40.0);
    let mut out = Svg::new(w, h, 11);
    out.push(Element::new("title").text(title));
    out.push(
        Element::new("rect")
            .attr("width", "100%")
            .attr("height", "100%")
            .attr("fill", "white"),
    );
    out.push(text(12.0, 22.0).attr("font-size", 15).text(title));
    for (k, (nics, mut pts)) in by_nics.into_iter().enumerate() {
        pts.sort_by_key(|p| p.pcs);
        let x0 = PANEL_W * (k % 2) as f64;
        let y0 = 40.0 + PANEL_H * (k / 2) as f64;
        panel(&mut out, x0, y0, nics, &pts);
    }
    out.finish()
}

/// A `<text>` at (x, y).
fn text(x: f64, y: f64) -> Element {
    Element::new("text").attr("x", x).attr("y", y)
}

/// A line from (x1, y1) to (x2, y2), axis grey.
fn line(x1: f64, y1: f64, x2: f64, y2: f64) -> Element {
    Element::new("line")
        .attr("x1", format!("{x1:.1}"))
        .attr("y1", format!("{y1:.1}"))
        .attr("x2", format!("{x2:.1}"))
        .attr("y2", format!("{y2:.1}"))
        .attr("stroke", "#444")
}

/// One NIC count's graph: frame, axes, the two lines and the marks.
fn panel(out: &mut Svg, x0: f64, y0: f64, nics: u32, pts: &[&Point]) {
    let max_x = pts.iter().map(|p| p.pcs).max().unwrap_or(1).max(1) as f64;
    let max_y = pts.iter().map(|p| p.width as u64).max().unwrap_or(1).max(1) as f64;
    let (left, top) = (x0 + MARGIN, y0 + 24.0);
    let (pw, ph) = (PANEL_W - MARGIN - 16.0, PANEL_H - MARGIN - 24.0);
    let sx = |v: f64| left + v / max_x * pw;
    let sy = |v: f64| top + ph - v / max_y * ph;
    let off = pts.iter().filter(|p| p.gap() > 0).count();
    let proved = pts.iter().filter(|p| p.gap() > 0 && p.mark == Mark::Optimal).count();
    out.push(text(left, y0 + 16.0).attr("font-size", 13).text(&format!(
        "{nics} NICs/PC ({} sizes, {off} over the bound, {proved} of them proved optimal)",
        pts.len()
    )));
    out.push(
        Element::new("rect")
            .attr("x", left)
            .attr("y", top)
            .attr("width", pw)
            .attr("height", ph)
            .attr("fill", "none")
            .attr("stroke", "#444"),
    );
    for t in ticks(max_x) {
        let x = sx(t);
        out.push(line(x, top + ph, x, top + ph + 4.0));
        out.push(
            Element::new("text")
                .attr("x", format!("{x:.1}"))
                .attr("y", top + ph + 16.0)
                .attr("text-anchor", "middle")
                .text(&t.to_string()),
        );
    }
    for t in ticks(max_y) {
        let y = sy(t);
        out.push(line(left - 4.0, y, left, y));
        out.push(
            Element::new("text")
                .attr("x", left - 6.0)
                .attr("y", format!("{:.1}", y + 4.0))
                .attr("text-anchor", "end")
                .text(&t.to_string()),
        );
    }
    out.push(
        text(left + pw / 2.0, top + ph + 32.0)
            .attr("text-anchor", "middle")
            .text("PCs"),
    );
    out.push(
        Element::new("text")
            .attr(
                "transform",
                format!("translate({},{}) rotate(-90)", x0 + 12.0, top + ph / 2.0),
            )
            .attr("text-anchor", "middle")
            .text("ports per switch"),
    );
    let points = |f: &dyn Fn(&Point) -> f64| -> String {
        pts.iter()
            .map(|p| format!("{:.1},{:.1}", sx(p.pcs as f64), sy(f(p))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let polyline = |stroke: &str, values: String| {
        Element::new("polyline")
            .attr("fill", "none")
            .attr("stroke", stroke)
            .attr("stroke-width", 1.5)
            .attr("points", values)
    };
    out.push(
        polyline("#999", points(&|p| p.bound as f64))
            .attr("stroke-dasharray", "5,3")
            .titled("lower bound"),
    );
    out.push(polyline("#1f5fbf", points(&|p| p.width as f64)).titled("narrowest found"));
    marks(out, pts, &sx, &sy);
    legend(out, left + 8.0, top);
}

/// Cells over the bound: red while open, green once proved optimal,
/// purple when the exact search narrowed them without a proof.
fn marks(out: &mut Svg, pts: &[&Point], sx: &dyn Fn(f64) -> f64, sy: &dyn Fn(f64) -> f64) {
    for p in pts.iter().filter(|p| p.gap() > 0 && pts.len() <= 200) {
        let fill = match p.mark {
            Mark::Optimal => "#2a2",
            Mark::Improved => "#93c",
            Mark::Open => "#c33",
        };
        let why = if p.proof.is_empty() {
            String::new()
        } else {
            format!(": {}", p.proof)
        };
        out.push(
            Element::new("circle")
                .attr("cx", format!("{:.1}", sx(p.pcs as f64)))
                .attr("cy", format!("{:.1}", sy(p.width as f64)))
                .attr("r", 2.5)
                .attr("fill", fill)
                .titled(&format!(
                    "{} PCs: {} ports, bound {}, {}{why}",
                    p.pcs,
                    p.width,
                    p.bound,
                    p.mark.as_str()
                )),
        );
    }
}

/// What the lines and the marks mean, at the panel's top left.
fn legend(out: &mut Svg, x: f64, top: f64) {
    out.push(text(x, top + 14.0).attr("fill", "#1f5fbf").text("— found"));
    out.push(text(x, top + 28.0).attr("fill", "#777").text("- - bound"));
    let tspan = |fill: &str, what: &str| Element::new("tspan").attr("fill", fill).text(what);
    out.push(
        text(x, top + 42.0)
            .child(tspan("#2a2", "● proved optimal"))
            .text(" ")
            .child(tspan("#93c", "● improved"))
            .text(" ")
            .child(tspan("#c33", "● open")),
    );
}

/// About five round tick values from 0 to `max`.
fn ticks(max: f64) -> Vec<f64> {
    let raw = max / 5.0;
    let mag = 10f64.powf(raw.max(1.0).log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag)
        .max(1.0);
    (0..).map(|i| i as f64 * step).take_while(|v| *v <= max).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_panel_per_nic_count_with_both_lines() {
        let pts: Vec<Point> = [
            (2u32, 9usize, 6u64, 6u32),
            (2, 30, 20, 20),
            (3, 9, 4, 5),
            (3, 30, 13, 13),
        ]
        .iter()
        .map(|&(nics, pcs, bound, width)| Point {
            pcs,
            nics,
            bound,
            width,
            switches: 3,
            switch_bound: 3,
            method: "x".into(),
            seconds: 0.0,
            mark: if width > bound as u32 {
                Mark::Open
            } else {
                Mark::Optimal
            },
            proof: String::new(),
        })
        .collect();
        let s = svg(&pts, "sweep <2 & 3>");
        let doc = roxmltree::Document::parse(&s).expect("sweep.svg is well-formed XML");
        let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
        assert_eq!(title.text(), Some("sweep <2 & 3>"));
        assert_eq!(s.matches("<polyline").count(), 4);
        assert!(s.contains("2 NICs/PC (2 sizes, 0 over the bound, 0 of them proved optimal)"));
        assert!(s.contains("3 NICs/PC (2 sizes, 1 over the bound, 0 of them proved optimal)"));
        assert!(s.contains("9 PCs: 5 ports, bound 4, open</title>"));
        assert_eq!(ticks(1024.0), vec![0.0, 500.0, 1000.0]);
    }
}
