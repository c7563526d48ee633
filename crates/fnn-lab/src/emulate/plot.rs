//! The bandwidth rehearsal as a picture: each flow's measured throughput
//! against the model's prediction (one dot a flow, a colour a transport),
//! with the line where the two agree, and each transport's aggregate.

use super::traffic::TrafficReport;
use crate::escape::xml;
use std::fmt::Write as _;

const W: f64 = 640.0;
const H: f64 = 480.0;
const MARGIN: f64 = 60.0;
const COLOURS: [&str; 6] = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];

/// The SVG of a traffic report, and of the same traffic on other networks.
pub fn svg(t: &TrafficReport, others: &[&TrafficReport], title: &str) -> String {
    let mbit = |b: f64| b / 1e6;
    let runs: Vec<(String, &super::traffic::Run)> = std::iter::once(t)
        .chain(others.iter().copied())
        .flat_map(|r| {
            let net = r.label();
            r.runs
                .iter()
                .map(move |run| (format!("{net} {}", run.transport.to_uppercase()), run))
        })
        .collect();
    let top = runs
        .iter()
        .map(|(_, r)| r)
        .flat_map(|r| r.flows.iter().flat_map(|f| [f.measured_bps, f.predicted_bps]))
        .fold(0.0f64, f64::max);
    // Round ticks: a step of 1, 2 or 5 times a power of ten, five or so.
    let raw = mbit(top).max(1.0) * 1.05;
    let magnitude = 10f64.powf((raw / 5.0).log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| raw / s <= 6.0)
        .unwrap_or(10.0 * magnitude);
    let ticks = (raw / step).ceil() as u32;
    let top = step * f64::from(ticks);
    let x = |v: f64| MARGIN + (W - 2.0 * MARGIN) * mbit(v) / top;
    let y = |v: f64| H - MARGIN - (H - 2.0 * MARGIN) * mbit(v) / top;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"24\" text-anchor=\"middle\" font-size=\"14\">{}</text>\n",
        W / 2.0,
        xml(title)
    );
    // Axes, ticks and the line of perfect agreement.
    let (x0, y0, x1, y1) = (MARGIN, H - MARGIN, W - MARGIN, MARGIN);
    let _ = writeln!(
        s,
        "<line x1=\"{x0}\" y1=\"{y0}\" x2=\"{x1}\" y2=\"{y0}\" stroke=\"black\"/><line x1=\"{x0}\" y1=\"{y0}\" x2=\"{x0}\" y2=\"{y1}\" stroke=\"black\"/>\n\
         <line x1=\"{x0}\" y1=\"{y0}\" x2=\"{x1}\" y2=\"{y1}\" stroke=\"#999\" stroke-dasharray=\"4 4\"/>"
    );
    for i in 0..=ticks {
        let v = step * f64::from(i) * 1e6;
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{:.0}</text><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{:.0}</text>",
            x(v),
            y0 + 18.0,
            mbit(v),
            x0 - 6.0,
            y(v) + 4.0,
            mbit(v)
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">predicted, Mbit/s</text>\n\
         <text x=\"16\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {})\">measured, Mbit/s</text>",
        W / 2.0,
        H - 18.0,
        H / 2.0,
        H / 2.0
    );
    for (i, (label, r)) in runs.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        for f in &r.flows {
            let _ = writeln!(
                s,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{colour}\" fill-opacity=\"0.6\"><title>{} -&gt; {}: {:.2} measured, {:.2} predicted</title></circle>",
                x(f.predicted_bps),
                y(f.measured_bps),
                xml(&f.from),
                xml(&f.to),
                mbit(f.measured_bps),
                mbit(f.predicted_bps)
            );
        }
        let _ = writeln!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{colour}\"/><text x=\"{:.1}\" y=\"{:.1}\">{}: {:.1} of {:.1} Mbit/s in all</text>",
            x0 + 16.0,
            y1 + 16.0 + 18.0 * i as f64,
            x0 + 26.0,
            y1 + 20.0 + 18.0 * i as f64,
            xml(label),
            mbit(r.measured_bps),
            mbit(r.predicted_bps)
        );
    }
    s.push_str("</svg>\n");
    s
}
