//! The population pane: rank, total fitness, every evaluation term, age.

use super::super::app::{App, Pane};
use super::compact;
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::widgets::{Cell, Row, Table};

pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Pane::Population;
    let Some(s) = &app.snapshot else {
        frame.render_widget(super::block(app, "Population", focused), area);
        return;
    };
    let t = &app.theme;
    let title = format!("Population ({} members)", s.members.len());
    let header = Row::new([
        "#", "fitness", "uncov", "bw", "weak", "bal", "cost", "red", "xrack", "age",
    ])
    .style(t.header);
    let visible = area.height.saturating_sub(3) as usize;
    let rows = s
        .members
        .iter()
        .enumerate()
        .skip(app.pop_offset)
        .take(visible)
        .map(|(i, m)| {
            let x = &m.terms;
            let uncov = Cell::from(x.uncovered.to_string()).style(if x.uncovered > 0 { t.bad } else { t.good });
            let row = Row::new(vec![
                Cell::from(format!("{}{}", if i == s.selected { "▸" } else { " " }, i + 1)),
                // Rounded to fit each column, never cut (0.585 is not 0.5).
                Cell::from(compact(m.fitness, 10)),
                uncov,
                Cell::from(compact(x.bandwidth, 5)),
                Cell::from(x.weakest.to_string()),
                Cell::from(compact(x.balance, 6)),
                Cell::from(compact(x.cost, 6)),
                Cell::from(compact(x.redundancy, 6)),
                Cell::from(compact(x.crossings, 6)),
                Cell::from(m.age.to_string()),
            ]);
            if i == app.pop_cursor && focused {
                row.style(t.selected)
            } else {
                row
            }
        });
    let widths = [
        Constraint::Length(4),
        Constraint::Length(10),
        Constraint::Length(6),
        Constraint::Length(5),
        Constraint::Length(4),
        Constraint::Length(6),
        Constraint::Length(6),
        Constraint::Length(6),
        Constraint::Length(6),
        Constraint::Length(5),
    ];
    frame.render_widget(
        Table::new(rows, widths)
            .header(header)
            .block(super::block(app, &title, focused)),
        area,
    );
}
