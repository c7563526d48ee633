//! The bandwidth rehearsal as a picture: each flow's measured throughput
//! against the model's prediction (one dot a flow, a colour a transport),
//! with the line where the two agree, and each transport's aggregate.

use super::traffic::TrafficReport;
use fnn_core::svg::{Element, Svg};

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
    let (step, ticks) = scale(mbit(top));
    let top = step * f64::from(ticks);
    let x = |v: f64| MARGIN + (W - 2.0 * MARGIN) * mbit(v) / top;
    let y = |v: f64| H - MARGIN - (H - 2.0 * MARGIN) * mbit(v) / top;
    let mut s = Svg::new(W, H, 12);
    s.push(
        Element::new("rect")
            .attr("width", "100%")
            .attr("height", "100%")
            .attr("fill", "white"),
    );
    s.push(
        text(W / 2.0, 24.0)
            .attr("text-anchor", "middle")
            .attr("font-size", 14)
            .text(title),
    );
    axes(&mut s, step, ticks);
    let (x0, y1) = (MARGIN, MARGIN);
    for (i, (label, r)) in runs.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        for f in &r.flows {
            let what = format!(
                "{} -> {}: {:.2} measured, {:.2} predicted",
                f.from,
                f.to,
                mbit(f.measured_bps),
                mbit(f.predicted_bps)
            );
            let dot = circle(x(f.predicted_bps), y(f.measured_bps), 4.0, colour);
            s.push(dot.attr("fill-opacity", 0.6).titled(&what));
        }
        let row = 18.0 * i as f64;
        s.push(circle(x0 + 16.0, y1 + 16.0 + row, 5.0, colour));
        s.push(text(x0 + 26.0, y1 + 20.0 + row).text(&format!(
            "{label}: {:.1} of {:.1} Mbit/s in all",
            mbit(r.measured_bps),
            mbit(r.predicted_bps)
        )));
    }
    s.finish()
}

/// Round ticks for values up to `top` Mbit/s: a step of 1, 2 or 5 times
/// a power of ten, five or so; the step and the number of ticks.
fn scale(top: f64) -> (f64, u32) {
    let raw = top.max(1.0) * 1.05;
    let magnitude = 10f64.powf((raw / 5.0).log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| raw / s <= 6.0)
        .unwrap_or(10.0 * magnitude);
    (step, (raw / step).ceil() as u32)
}

/// Axes, ticks (every `step` Mbit/s), their titles and the line of
/// perfect agreement.
fn axes(s: &mut Svg, step: f64, ticks: u32) {
    let mbit = |b: f64| b / 1e6;
    let top = step * f64::from(ticks);
    let x = |v: f64| MARGIN + (W - 2.0 * MARGIN) * mbit(v) / top;
    let y = |v: f64| H - MARGIN - (H - 2.0 * MARGIN) * mbit(v) / top;
    let (x0, y0, x1, y1) = (MARGIN, H - MARGIN, W - MARGIN, MARGIN);
    s.push(line(x0, y0, x1, y0).attr("stroke", "black"));
    s.push(line(x0, y0, x0, y1).attr("stroke", "black"));
    s.push(
        line(x0, y0, x1, y1)
            .attr("stroke", "#999")
            .attr("stroke-dasharray", "4 4"),
    );
    for i in 0..=ticks {
        let v = step * f64::from(i) * 1e6;
        let label = format!("{:.0}", mbit(v));
        s.push(text(x(v), y0 + 18.0).attr("text-anchor", "middle").text(&label));
        s.push(text(x0 - 6.0, y(v) + 4.0).attr("text-anchor", "end").text(&label));
    }
    s.push(
        text(W / 2.0, H - 18.0)
            .attr("text-anchor", "middle")
            .text("predicted, Mbit/s"),
    );
    s.push(
        text(16.0, H / 2.0)
            .attr("text-anchor", "middle")
            .attr("transform", format!("rotate(-90 16 {})", H / 2.0))
            .text("measured, Mbit/s"),
    );
}

/// A `<text>` at (x, y).
fn text(x: f64, y: f64) -> Element {
    Element::new("text")
        .attr("x", format!("{x:.1}"))
        .attr("y", format!("{y:.1}"))
}

/// A line from (x1, y1) to (x2, y2), unstroked.
fn line(x1: f64, y1: f64, x2: f64, y2: f64) -> Element {
    Element::new("line")
        .attr("x1", x1)
        .attr("y1", y1)
        .attr("x2", x2)
        .attr("y2", y2)
}

/// A dot of radius `r` at (x, y).
fn circle(x: f64, y: f64, r: f64, fill: &str) -> Element {
    Element::new("circle")
        .attr("cx", format!("{x:.1}"))
        .attr("cy", format!("{y:.1}"))
        .attr("r", r)
        .attr("fill", fill)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emulate::traffic::{Flow, Pattern, Run};

    /// PC names a spec may hold (`<`, `&`, quotes) stay text: the plot
    /// parses, with a dot a flow and its tooltip as written.
    #[test]
    fn the_plot_parses_with_any_pc_name() {
        let flow = Flow {
            from: "a<b&\"c\"".into(),
            to: "n1".into(),
            shared: 1,
            subflows: None,
            measured_bps: 9e6,
            predicted_bps: 1e7,
        };
        let t = TrafficReport {
            network: "fnn",
            pattern: Pattern::All,
            link_rate_bps: 10_000_000,
            seconds: 1.0,
            congestion: "reno".into(),
            runs: vec![Run {
                transport: "tcp",
                congestion: "reno".into(),
                flows: vec![flow],
                measured_bps: 9e6,
                predicted_bps: 1e7,
            }],
        };
        let text = svg(&t, &[], "x < y");
        let doc = roxmltree::Document::parse(&text).expect("plot.svg is well-formed XML");
        let tips: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("title"))
            .filter_map(|n| n.text())
            .collect();
        assert_eq!(tips, ["a<b&\"c\" -> n1: 9.00 measured, 10.00 predicted"]);
        assert_eq!(doc.descendants().filter(|n| n.has_tag_name("circle")).count(), 2);
    }
}
