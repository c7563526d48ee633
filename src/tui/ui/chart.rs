//! The fitness curve: best and mean per generation as Braille lines, with
//! the scaled-down -> full phase change marked. The legend sits on the
//! pane's top border, never over the plot (at 80x24 the plot is a few
//! rows high: ratatui's boxed legend covered most of it).

use super::super::app::{App, Pane};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
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
    let mean = if clipped {
        ("mean ↓ off scale", "mean↓")
    } else {
        ("mean", "mean")
    };
    let mut entries = vec![(("best", "best"), t.best), (mean, t.mean)];
    if !marks.is_empty() {
        entries.push((("scaled→full", "scaled→full"), t.phase));
    }
    // Beside the title " Fitness " and the two corners.
    let room = (area.width as usize).saturating_sub(" Fitness ".len() + 3);
    let chart = Chart::new(datasets)
        .block(block.title_top(legend(&entries, room).right_aligned()))
        .legend_position(None)
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

/// The legend in at most `room` columns: the full names, else the short
/// ones, else fewer entries (the phase mark's first), else none.
fn legend<'a>(entries: &[((&'a str, &'a str), Style)], room: usize) -> Line<'a> {
    for n in (1..=entries.len()).rev() {
        for short in [false, true] {
            let names: Vec<(&str, Style)> = entries[..n]
                .iter()
                .map(|((full, brief), style)| (if short { *brief } else { *full }, *style))
                .collect();
            let gap = if short { " " } else { "  " };
            let width: usize =
                names.iter().map(|(n, _)| n.chars().count()).sum::<usize>() + gap.len() * (names.len() - 1) + 2;
            if width <= room {
                let mut spans = vec![Span::raw(" ")];
                for (k, (name, style)) in names.into_iter().enumerate() {
                    if k > 0 {
                        spans.push(Span::raw(gap));
                    }
                    spans.push(Span::styled(name, style));
                }
                spans.push(Span::raw(" "));
                return Line::from(spans);
            }
        }
    }
    Line::default()
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
