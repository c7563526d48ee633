//! Drawing: one file per pane or popup; nothing here changes state.

mod chart;
pub mod grid;
mod population;
mod popups;
mod racks;
mod status;
mod sweep;

use super::app::App;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

/// Below this the panes cannot show anything useful.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Areas {
    pub population: Rect,
    pub chart: Rect,
    pub grid: Rect,
    pub status: Rect,
}

/// Where each pane goes; also used to hit-test the mouse.
pub fn areas(size: Rect) -> Areas {
    let [main, status] = Layout::vertical([Constraint::Fill(1), Constraint::Length(2)]).areas(size);
    let [top, grid] = Layout::vertical([Constraint::Percentage(38), Constraint::Fill(1)]).areas(main);
    let [population, chart] = Layout::horizontal([Constraint::Percentage(56), Constraint::Fill(1)]).areas(top);
    Areas {
        population,
        chart,
        grid,
        status,
    }
}

pub fn render(app: &App, frame: &mut Frame) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let msg = format!(
            "terminal too small: fnn-tui needs {MIN_WIDTH}x{MIN_HEIGHT}, this one is {}x{}",
            area.width, area.height
        );
        let y = area.y + area.height / 2;
        frame.render_widget(
            Paragraph::new(vec![Line::from(msg), Line::from("enlarge it, or press q to quit")]).centered(),
            Rect::new(area.x, y.saturating_sub(1), area.width, 2.min(area.height)),
        );
        return;
    }
    let a = areas(area);
    // Kept for the next key and click; the panes add what they fit.
    let mut l = app.layout.get();
    (l.population, l.chart, l.grid, l.status) = (a.population, a.chart, a.grid, a.status);
    l.population_rows = a.population.height.saturating_sub(3) as usize;
    app.layout.set(l);
    match &app.view {
        super::app::View::Designer => {
            population::render(app, frame, a.population);
            chart::render(app, frame, a.chart);
            grid::render(app, frame, a.grid);
        }
        super::app::View::Racks(placement, _) => {
            let main = Rect::new(area.x, area.y, area.width, a.status.y - area.y);
            racks::render(app, placement, frame, main);
        }
        super::app::View::Compare(rows, skipped, racks) => {
            let main = Rect::new(area.x, area.y, area.width, a.status.y - area.y);
            let mut text = crate::topology::compare::text(rows, skipped, None);
            if let Some(plan) = racks {
                text.push_str(&format!("fat-tree in racks: {plan}\n"));
            }
            let lines: Vec<Line> = text.lines().map(|l| Line::raw(l.to_string())).collect();
            let widest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0) as u16;
            let view = block(app, "", true).inner(main);
            let most = (
                widest.saturating_sub(view.width),
                (lines.len() as u16).saturating_sub(view.height),
            );
            let mut l = app.layout.get();
            l.compare_most = most;
            app.layout.set(l);
            let (x, y) = (app.compare_scroll.0.min(most.0), app.compare_scroll.1.min(most.1));
            let title = if most.0 > 0 {
                format!(
                    "Compare (←/→ scroll, columns {}-{} of {widest} · esc back)",
                    x + 1,
                    (x + view.width).min(widest)
                )
            } else {
                "Compare (esc: back to the designer)".to_string()
            };
            frame.render_widget(
                Paragraph::new(lines).scroll((y, x)).block(block(app, &title, true)),
                main,
            );
        }
        super::app::View::Sweep(run, nics) => {
            let main = Rect::new(area.x, area.y, area.width, a.status.y - area.y);
            sweep::render(app, run, *nics, frame, main);
        }
    }
    status::render(app, frame, a.status);
    popups::render(app, frame, area);
}

/// A rectangle of at most `w` x `h` centred in `area`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h)
}

/// The pane's border style: highlighted when focused.
pub fn block<'a>(app: &App, title: &'a str, focused: bool) -> ratatui::widgets::Block<'a> {
    let t = &app.theme;
    ratatui::widgets::Block::bordered()
        .title(Line::styled(format!(" {title} "), t.title))
        .border_style(if focused { t.border_focus } else { t.border })
}

/// `text` in at most `width` characters, an ellipsis marking a cut.
pub fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    text.chars().take(width.saturating_sub(1)).chain(['…']).collect()
}

/// `v` in at most `width` characters: rounded to as many decimals (up to
/// 3) as fit, then as a whole number, then with k / M / G / T.
pub fn compact(v: f64, width: usize) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    for decimals in (0..=3).rev() {
        let s = format!("{v:.decimals$}");
        if s.len() <= width {
            return s;
        }
    }
    // The unit that leaves at most three digits before the point.
    let units = [(1e3, "k"), (1e6, "M"), (1e9, "G"), (1e12, "T")];
    let (div, unit) = units
        .iter()
        .copied()
        .find(|(d, _)| v.abs() / d < 999.5)
        .unwrap_or(units[3]);
    for decimals in (0..=1).rev() {
        let s = format!("{:.decimals$}{unit}", v / div);
        if s.len() <= width {
            return s;
        }
    }
    format!("{v:.0e}")
}

#[cfg(test)]
mod tests {
    use super::compact;

    /// Numbers were cut, not rounded.
    #[test]
    fn numbers_are_rounded_to_fit_not_cut() {
        assert_eq!(compact(0.585, 3), "0.6");
        assert_eq!(compact(0.585, 5), "0.585");
        assert_eq!(compact(12.5859, 5), "12.59");
        assert_eq!(compact(-1773.84, 6), "-1774");
        assert_eq!(compact(4_027_793_844_752.4, 6), "4.0T");
        assert_eq!(compact(2_500_000.0, 5), "2.5M");
    }
}
