//! The population pane: rank, total fitness, every evaluation term, age.
//! Columns keep their width; when the pane is narrow the least telling
//! ones go (cross-rack share first), so no number is ever cut.

use super::super::app::{App, Pane};
use super::compact;
use crate::tui::worker::MemberRow;
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::widgets::{Cell, Row, Table};

/// One column: header, width, rank (lower stays longer) and its text.
struct Column {
    header: &'static str,
    width: u16,
    rank: u8,
    text: fn(&MemberRow, usize) -> String,
}

const COLUMNS: [Column; 9] = [
    col("fitness", 9, 0, |m, w| compact(m.fitness, w)),
    col("uncov", 6, 0, |m, w| whole(m.terms.uncovered, w)),
    col("bw", 5, 1, |m, w| compact(m.terms.bandwidth, w)),
    col("weak", 4, 3, |m, w| whole(u64::from(m.terms.weakest), w)),
    col("bal", 5, 4, |m, w| compact(m.terms.balance, w)),
    col("cost", 5, 5, |m, w| compact(m.terms.cost, w)),
    col("red", 5, 6, |m, w| compact(m.terms.redundancy, w)),
    col("xrack", 5, 7, |m, w| compact(m.terms.crossings, w)),
    col("age", 5, 2, |m, w| whole(m.age, w)),
];

const fn col(header: &'static str, width: u16, rank: u8, text: fn(&MemberRow, usize) -> String) -> Column {
    Column {
        header,
        width,
        rank,
        text,
    }
}

/// A count in `width` characters: whole, or with a unit (12.3k) when long.
fn whole(n: u64, width: usize) -> String {
    let s = n.to_string();
    if s.len() <= width { s } else { compact(n as f64, width) }
}

/// Width of the rank column (`▸` and up to three digits).
const RANK_W: u16 = 4;

/// The columns that fit `inner` cells (one space between columns).
fn fitting(inner: u16) -> Vec<&'static Column> {
    let mut shown: Vec<&Column> = COLUMNS.iter().collect();
    let total = |c: &[&Column]| RANK_W + c.iter().map(|c| c.width + 1).sum::<u16>();
    while total(&shown) > inner {
        let Some(k) = (0..shown.len())
            .filter(|&k| shown[k].rank > 0)
            .max_by_key(|&k| shown[k].rank)
        else {
            break;
        };
        shown.remove(k);
    }
    shown
}

pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Pane::Population;
    let Some(s) = &app.snapshot else {
        frame.render_widget(super::block(app, "Population", focused), area);
        return;
    };
    let t = &app.theme;
    let title = format!("Population ({} members)", s.members.len());
    let columns = fitting(area.width.saturating_sub(2));
    let header = Row::new(std::iter::once("#").chain(columns.iter().map(|c| c.header))).style(t.header);
    let visible = area.height.saturating_sub(3) as usize;
    let rows = s
        .members
        .iter()
        .enumerate()
        .skip(app.pop_offset)
        .take(visible)
        .map(|(i, m)| {
            let mark = if i == s.selected { "▸" } else { " " };
            let cells = columns.iter().map(|c| {
                let cell = Cell::from((c.text)(m, c.width as usize));
                match c.header {
                    "uncov" if m.terms.uncovered > 0 => cell.style(t.bad),
                    "uncov" => cell.style(t.good),
                    _ => cell.style(Style::default()),
                }
            });
            let row = Row::new(std::iter::once(Cell::from(format!("{mark}{}", i + 1))).chain(cells));
            if i == app.pop_cursor && focused {
                row.style(t.selected)
            } else {
                row
            }
        });
    let widths = std::iter::once(Constraint::Length(RANK_W)).chain(columns.iter().map(|c| Constraint::Length(c.width)));
    frame.render_widget(
        Table::new(rows, widths)
            .header(header)
            .block(super::block(app, &title, focused)),
        area,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Narrow panes drop whole columns, the least telling first; fitness
    /// and uncovered pairs always stay.
    #[test]
    fn narrow_panes_drop_whole_columns_never_cut_them() {
        let wide: Vec<_> = fitting(200).iter().map(|c| c.header).collect();
        assert_eq!(wide.len(), COLUMNS.len());
        let narrow: Vec<_> = fitting(41).iter().map(|c| c.header).collect();
        assert!(narrow.starts_with(&["fitness", "uncov"]), "{narrow:?}");
        assert!(!narrow.contains(&"xrack"), "{narrow:?}");
        let used: u16 = RANK_W + fitting(41).iter().map(|c| c.width + 1).sum::<u16>();
        assert!(used <= 41, "{used}");
        assert_eq!(compact(-29196.739, 9), "-29196.74");
        assert_eq!(compact(-29196.739, 6), "-29197");
        assert_eq!(compact(-29196.739, 5), "-29k");
        assert_eq!(whole(1_234_567, 6), "1.2M");
    }
}
