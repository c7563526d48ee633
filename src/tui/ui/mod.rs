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
        super::app::View::Compare(rows, skipped) => {
            let main = Rect::new(area.x, area.y, area.width, a.status.y - area.y);
            let text = crate::topology::compare::text(rows, skipped);
            let lines: Vec<Line> = text.lines().map(|l| Line::raw(l.to_string())).collect();
            frame.render_widget(
                Paragraph::new(lines).block(block(app, "Compare (C: back to the designer)", true)),
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
