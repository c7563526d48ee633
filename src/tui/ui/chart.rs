//! The fitness curve: best and mean per generation as Braille lines, with
//! the scaled-down -> full phase change marked.

use super::super::app::{App, Pane};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::symbols::Marker;
use ratatui::text::Line;
use ratatui::widgets::{Axis, Chart, Dataset, GraphType};

pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let block = super::block(app, "Fitness", app.focus == Pane::Chart);
    let Some(s) = app.snapshot.as_ref().filter(|s| s.history.len() >= 2) else {
        frame.render_widget(block, area);
        return;
    };
    let t = &app.theme;
    let best: Vec<(f64, f64)> = s.history.iter().map(|g| (g.generation as f64, g.best)).collect();
    let mean: Vec<(f64, f64)> = s.history.iter().map(|g| (g.generation as f64, g.mean)).collect();
    let x0 = best[0].0;
    let x1 = best[best.len() - 1].0.max(x0 + 1.0);
    // Early generations of a hard search score far below the rest; scale
    // to the later three quarters so the curve stays readable.
    let tail = &s.history[s.history.len() / 4..];
    let mut y0 = tail.iter().map(|g| g.mean.min(g.best)).fold(f64::INFINITY, f64::min);
    let mut y1 = tail.iter().map(|g| g.best).fold(f64::NEG_INFINITY, f64::max);
    if (y1 - y0).abs() < 1e-9 {
        y0 -= 1.0;
        y1 += 1.0;
    }
    let marks: Vec<Vec<(f64, f64)>> = s
        .phase_changes
        .iter()
        .filter(|&&g| (g as f64) >= x0)
        .map(|&g| vec![(g as f64, y0), (g as f64, y1)])
        .collect();
    let mut datasets = vec![
        Dataset::default()
            .name("best")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(t.best)
            .data(&best),
        Dataset::default()
            .name("mean")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(t.mean)
            .data(&mean),
    ];
    for m in &marks {
        datasets.push(
            Dataset::default()
                .name("scaled→full")
                .marker(Marker::Braille)
                .graph_type(GraphType::Line)
                .style(t.phase)
                .data(m),
        );
    }
    let chart = Chart::new(datasets)
        .block(block)
        .x_axis(
            Axis::default()
                .style(t.muted)
                .bounds([x0, x1])
                .labels(vec![Line::from(format!("{x0:.0}")), Line::from(format!("gen {x1:.0}"))]),
        )
        .y_axis(
            Axis::default()
                .style(t.muted)
                .bounds([y0, y1])
                .labels(vec![Line::from(short(y0)), Line::from(short(y1))]),
        );
    frame.render_widget(chart, area);
}

fn short(v: f64) -> String {
    if v.abs() >= 10_000.0 {
        format!("{:.0}k", v / 1000.0)
    } else {
        format!("{v:.2}")
    }
}
