//! The sweep as an SVG in the manner of the KLAT2 paper §7: one graph per NIC
//! count, ports per switch against PCs, the width found as a solid line
//! and the lower bound dashed.

use super::{Mark, Point};
use std::collections::BTreeMap;
use std::fmt::Write;

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
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"11\">\n<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"12\" y=\"22\" font-size=\"15\">{}</text>\n",
        escape(title),
        escape(title)
    );
    for (k, (nics, mut pts)) in by_nics.into_iter().enumerate() {
        pts.sort_by_key(|p| p.pcs);
        let x0 = PANEL_W * (k % 2) as f64;
        let y0 = 40.0 + PANEL_H * (k / 2) as f64;
        panel(&mut out, x0, y0, nics, &pts);
    }
    out.push_str("</svg>\n");
    out
}

fn panel(out: &mut String, x0: f64, y0: f64, nics: u32, pts: &[&Point]) {
    let max_x = pts.iter().map(|p| p.pcs).max().unwrap_or(1).max(1) as f64;
    let max_y = pts.iter().map(|p| p.width as u64).max().unwrap_or(1).max(1) as f64;
    let (left, top) = (x0 + MARGIN, y0 + 24.0);
    let (pw, ph) = (PANEL_W - MARGIN - 16.0, PANEL_H - MARGIN - 24.0);
    let sx = |v: f64| left + v / max_x * pw;
    let sy = |v: f64| top + ph - v / max_y * ph;
    let off = pts.iter().filter(|p| p.gap() > 0).count();
    let proved = pts.iter().filter(|p| p.gap() > 0 && p.mark == Mark::Optimal).count();
    let _ = writeln!(
        out,
        "<text x=\"{left}\" y=\"{}\" font-size=\"13\">{nics} NICs/PC ({} sizes, {off} over the bound, {proved} of them proved optimal)</text>",
        y0 + 16.0,
        pts.len()
    );
    let _ = writeln!(
        out,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{pw}\" height=\"{ph}\" fill=\"none\" stroke=\"#444\"/>"
    );
    for t in ticks(max_x) {
        let x = sx(t);
        let _ = writeln!(
            out,
            "<line x1=\"{x:.1}\" y1=\"{}\" x2=\"{x:.1}\" y2=\"{}\" stroke=\"#444\"/><text x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\">{t}</text>",
            top + ph,
            top + ph + 4.0,
            top + ph + 16.0
        );
    }
    for t in ticks(max_y) {
        let y = sy(t);
        let _ = writeln!(
            out,
            "<line x1=\"{}\" y1=\"{y:.1}\" x2=\"{left}\" y2=\"{y:.1}\" stroke=\"#444\"/><text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{t}</text>",
            left - 4.0,
            left - 6.0,
            y + 4.0
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">PCs</text><text transform=\"translate({},{}) rotate(-90)\" text-anchor=\"middle\">ports per switch</text>",
        left + pw / 2.0,
        top + ph + 32.0,
        x0 + 12.0,
        top + ph / 2.0
    );
    let line = |f: &dyn Fn(&Point) -> f64| -> String {
        pts.iter()
            .map(|p| format!("{:.1},{:.1}", sx(p.pcs as f64), sy(f(p))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = writeln!(
        out,
        "<polyline fill=\"none\" stroke=\"#999\" stroke-width=\"1.5\" stroke-dasharray=\"5,3\" points=\"{}\"><title>lower bound</title></polyline>",
        line(&|p| p.bound as f64)
    );
    let _ = writeln!(
        out,
        "<polyline fill=\"none\" stroke=\"#1f5fbf\" stroke-width=\"1.5\" points=\"{}\"><title>narrowest found</title></polyline>",
        line(&|p| p.width as f64)
    );
    // Cells over the bound: red while open, green once proved optimal,
    // purple when the exact search narrowed them without a proof.
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
        let _ = writeln!(
            out,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"{fill}\"><title>{} PCs: {} ports, bound {}, {}{}</title></circle>",
            sx(p.pcs as f64),
            sy(p.width as f64),
            p.pcs,
            p.width,
            p.bound,
            p.mark.as_str(),
            escape(&why)
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" fill=\"#1f5fbf\">— found</text><text x=\"{}\" y=\"{}\" fill=\"#777\">- - bound</text><text x=\"{}\" y=\"{}\"><tspan fill=\"#2a2\">● proved optimal</tspan> <tspan fill=\"#93c\">● improved</tspan> <tspan fill=\"#c33\">● open</tspan></text>",
        left + 8.0,
        top + 14.0,
        left + 8.0,
        top + 28.0,
        left + 8.0,
        top + 42.0
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

use crate::escape::xml as escape;

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
        let s = svg(&pts, "sweep");
        assert_eq!(s.matches("<polyline").count(), 4);
        assert!(s.contains("2 NICs/PC (2 sizes, 0 over the bound, 0 of them proved optimal)"));
        assert!(s.contains("3 NICs/PC (2 sizes, 1 over the bound, 0 of them proved optimal)"));
        assert!(s.contains("9 PCs: 5 ports, bound 4, open</title>"));
        assert_eq!(ticks(1024.0), vec![0.0, 500.0, 1000.0]);
    }
}
