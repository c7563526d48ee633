//! The PC x switch grid, drawn cell by cell into the buffer so that only
//! the visible window costs anything (1024 PCs x 128 switches stays fast).
//! A cell is a NIC connection in its switch's cable colour; pinned cells are
//! ◆ (◇ when the pin is not yet satisfied), forbidden ones ×; PCs lacking a
//! required partner (problem spots) have their names highlighted.

use super::super::app::{App, Pane};
use super::super::worker::Snapshot;
use crate::design::bits;
use crate::ga::Phase;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Columns per switch cell: at least two, and up to six when there are
/// few switches, so the grid uses the pane's width.
const CELL_W: (u16, u16) = (2, 6);
/// Lines of PC detail under the grid.
const DETAIL_H: u16 = 2;

/// The grid's geometry for the current window; shared by drawing and the
/// mouse so a click always lands on the cell drawn under it.
pub struct Geometry {
    pub cells: Rect,
    pub label_w: u16,
    pub cell_w: u16,
    /// Rows of switch numbers above the cells: one when a number fits
    /// across a cell, else two digits stacked.
    pub header_h: u16,
    pub rows: usize,
    pub cols: usize,
    pub offset: (usize, usize),
}

pub fn geometry(area: Rect, app: &App, pcs: usize, switches: usize) -> Geometry {
    let inner = Rect::new(
        area.x + 1,
        area.y + 1,
        area.width.saturating_sub(2),
        area.height.saturating_sub(2),
    );
    let label_w = (pcs.max(2) - 1).to_string().len() as u16
        + app.snapshot.as_ref().map_or(1, |s| s.cluster.name_prefix.len() as u16)
        + 2;
    let free = inner.width.saturating_sub(label_w);
    let cell_w = (free / switches.max(1) as u16).clamp(CELL_W.0, CELL_W.1);
    let header_h = if cell_w >= 3 { 1 } else { 2 };
    let cells = Rect::new(
        inner.x + label_w,
        inner.y + header_h,
        free,
        inner.height.saturating_sub(header_h + DETAIL_H),
    );
    Geometry {
        rows: (cells.height as usize).min(pcs),
        cols: ((cells.width / cell_w) as usize).min(switches),
        cells,
        label_w,
        cell_w,
        header_h,
        offset: app.grid_offset,
    }
}

impl Geometry {
    /// The (PC, switch) under a screen position.
    pub fn cell_at(&self, x: u16, y: u16) -> Option<(usize, usize)> {
        if x < self.cells.x || y < self.cells.y {
            return None;
        }
        let (r, c) = ((y - self.cells.y) as usize, ((x - self.cells.x) / self.cell_w) as usize);
        (r < self.rows && c < self.cols).then_some((self.offset.0 + r, self.offset.1 + c))
    }

    /// Where a switch's column draws its mark: the cell's middle.
    fn mark_x(&self, c: usize) -> u16 {
        self.cells.x + c as u16 * self.cell_w + (self.cell_w - 1) / 2
    }
}

pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Pane::Grid;
    let Some(s) = &app.snapshot else {
        frame.render_widget(super::block(app, "PC x switch", focused), area);
        return;
    };
    let scaled = s.phase != Phase::Full;
    let (pcs, switches) = (s.design.pcs(), s.design.switches());
    let title = if scaled {
        format!("Scaled-down design: {pcs} stand-in PCs x {switches} switches (plain connectivity)")
    } else {
        format!("PC x switch: member {} of {}", s.selected + 1, s.members.len())
    };
    frame.render_widget(super::block(app, &title, focused), area);
    let g = geometry(area, app, pcs, switches);
    let mut l = app.layout.get();
    (l.cells, l.cell_w, l.rows, l.cols) = (g.cells, g.cell_w, g.rows, g.cols);
    app.layout.set(l);
    let buf = frame.buffer_mut();
    switch_numbers(app, s, &g, buf);
    for r in 0..g.rows {
        pc_row(app, s, &g, g.offset.0 + r, buf);
    }
    let detail = Rect::new(
        area.x + 1,
        area.bottom().saturating_sub(1 + DETAIL_H),
        area.width.saturating_sub(2),
        DETAIL_H,
    );
    frame.render_widget(Paragraph::new(detail_lines(app)), detail);
}

fn put(buf: &mut Buffer, x: u16, y: u16, sym: &str, style: Style) {
    if let Some(cell) = buf.cell_mut((x, y)) {
        cell.set_symbol(sym).set_style(style);
    }
}

/// Switch numbers in cable colours: across the cell when it is wide
/// enough, else two digits stacked (the last two, past 99).
fn switch_numbers(app: &App, s: &Snapshot, g: &Geometry, buf: &mut Buffer) {
    for c in 0..g.cols {
        let sw = g.offset.1 + c;
        let style = app.theme.cable(&s.cluster.cable_colors, sw);
        if g.header_h == 1 {
            let label = sw.to_string();
            let x = (g.mark_x(c) + 1).saturating_sub(label.len().min(g.cell_w as usize) as u16);
            for (i, ch) in label.chars().take(g.cell_w as usize).enumerate() {
                put(buf, x + i as u16, g.cells.y - 1, &ch.to_string(), style);
            }
        } else {
            let label = format!("{:>2}", sw % 100);
            let x = g.mark_x(c);
            put(buf, x, g.cells.y - 2, &label[0..1], style);
            put(buf, x, g.cells.y - 1, &label[1..2], style);
        }
    }
}

/// PC `pc`'s row: its name (marked when it lacks partners), then a mark
/// per switch: connected, pinned, forbidden or not.
fn pc_row(app: &App, s: &Snapshot, g: &Geometry, pc: usize, buf: &mut Buffer) {
    let t = &app.theme;
    let scaled = s.phase != Phase::Full;
    let y = g.cells.y + (pc - g.offset.0) as u16;
    let name = if scaled {
        format!("g{pc}")
    } else {
        s.cluster.pc_name(pc)
    };
    let lacking = s.lacking.get(pc).copied().unwrap_or(0) > 0;
    let style = if lacking { t.problem } else { t.muted };
    for (i, ch) in name.chars().take(g.label_w as usize - 1).enumerate() {
        put(buf, g.cells.x - g.label_w + i as u16, y, &ch.to_string(), style);
    }
    let mask = s.design.mask(pc);
    let pins = &s.cluster.pins;
    for c in 0..g.cols {
        let sw = g.offset.1 + c;
        let (sym, mut style) = match (
            bits::test(mask, sw),
            !scaled && pins.is_must(pc, sw),
            !scaled && pins.is_forbidden(pc, sw),
        ) {
            (true, true, _) => ("◆", t.pin),
            (false, true, _) => ("◇", t.pin),
            (_, _, true) => ("×", t.forbid),
            (true, false, false) => ("■", t.cable(&s.cluster.cable_colors, sw)),
            (false, false, false) => ("·", t.muted),
        };
        if (pc, sw) == app.cursor && app.focus == Pane::Grid {
            style = style.patch(t.cursor);
        }
        put(buf, g.mark_x(c), y, sym, style);
    }
}

/// The PC under the cursor: its switches, the partners it lacks, its
/// pattern partners' links.
fn detail_lines(app: &App) -> Vec<Line<'static>> {
    let Some(s) = &app.snapshot else { return Vec::new() };
    let t = &app.theme;
    let d = &s.design;
    let (pc, sw) = app.cursor;
    if pc >= d.pcs() {
        return Vec::new();
    }
    if s.phase != Phase::Full {
        return vec![Line::styled(
            format!(
                "g{pc} stands for a group of real PCs while the scaled-down problem is solved; the grid shows the full design after scale-up."
            ),
            t.muted,
        )];
    }
    let c = &s.cluster;
    let name = |p: usize| c.pc_name(p);
    let switches: Vec<String> = d.switches_of(pc).iter().map(|s| s.to_string()).collect();
    let lacking: Vec<usize> = (0..d.pcs())
        .filter(|&j| c.is_required(pc, j) && d.links(pc, j) == 0)
        .collect();
    let mut first = vec![
        Span::styled(format!("{} ", name(pc)), t.title),
        Span::raw(format!("switches [{}] · cursor on switch {sw}", switches.join(" "))),
    ];
    if c.pins.is_must(pc, sw) {
        first.push(Span::styled(" (pinned)", t.pin));
    } else if c.pins.is_forbidden(pc, sw) {
        first.push(Span::styled(" (forbidden)", t.forbid));
    }
    let lacks = if lacking.is_empty() {
        Span::styled("shares a switch with every required partner", t.good)
    } else {
        let names: Vec<String> = lacking.iter().take(12).map(|&j| name(j)).collect();
        let more = if lacking.len() > 12 {
            format!(" +{}", lacking.len() - 12)
        } else {
            String::new()
        };
        Span::styled(format!("lacks {}: {}{more}", lacking.len(), names.join(" ")), t.problem)
    };
    let (partners, _) = c.pattern.row(pc);
    let pattern: Vec<String> = partners
        .iter()
        .take(10)
        .map(|&j| format!("{}×{}", name(j as usize), d.links(pc, j as usize)))
        .collect();
    let mut second = vec![lacks];
    if !pattern.is_empty() {
        second.push(Span::raw(format!(" · pattern links {}", pattern.join(" "))));
    }
    vec![Line::from(first), Line::from(second)]
}
