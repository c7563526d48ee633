//! The fitness curve: best and mean per generation as Braille lines, with
//! the scaled-down -> full phase change marked.

use super::super::app::{App, Pane};
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::symbols::Marker;
use ratatui::text::Line;
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, LegendPosition};

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
    let (y0, y1) = y_bounds(&s.history);
    // The mean runs off the bottom when hopeless mutants pull it down.
    let clipped = s.history.iter().any(|g| g.mean < y0);
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
            .name(if clipped { "mean ↓ off scale" } else { "mean" })
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
        // The legend always shows (ratatui hides it when it takes over a
        // quarter of the chart, i.e. below ~200 columns).
        .legend_position(Some(LegendPosition::BottomRight))
        .hidden_legend_constraints((Constraint::Min(0), Constraint::Min(0)))
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

/// The y-axis: the best line's range over the later three quarters of the
/// run (early generations of a hard search score far below the rest),
/// padded a little. The mean does not set it: mutants with uncovered pairs
/// pull it hundreds of points down and would flatten the best line.
pub fn y_bounds(history: &[crate::ga::GenStats]) -> (f64, f64) {
    let tail = &history[history.len() / 4..];
    let lo = tail.iter().map(|g| g.best).fold(f64::INFINITY, f64::min);
    let hi = tail.iter().map(|g| g.best).fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() || !hi.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.1).max(hi.abs().max(1.0) * 1e-3);
    (lo - pad, hi + pad)
}

fn short(v: f64) -> String {
    if v.abs() >= 10_000.0 {
        format!("{:.0}k", v / 1000.0)
    } else {
        format!("{v:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ga::GenStats;

    fn stats(generation: u64, best: f64, mean: f64) -> GenStats {
        GenStats {
            generation,
            full: true,
            best,
            mean,
            best_uncovered: 0,
        }
    }

    /// The axis ran from the mean (-600) to the best
    /// (3.7), so the best line was flat.
    #[test]
    fn the_axis_follows_the_best_line_not_the_hopeless_mean() {
        let h: Vec<GenStats> = (0..100).map(|g| stats(g, 3.0 + g as f64 * 0.007, -600.0)).collect();
        let (y0, y1) = y_bounds(&h);
        assert!(y0 > 3.0 && y0 < 3.2, "{y0}");
        assert!(y1 > 3.69 && y1 < 3.8, "{y1}");
        let flat: Vec<GenStats> = (0..10).map(|g| stats(g, 2.0, 1.0)).collect();
        let (y0, y1) = y_bounds(&flat);
        assert!(y0 < 2.0 && y1 > 2.0);
    }
}
