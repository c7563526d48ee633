//! What the last frame laid out, kept for the next input: the
//! panes' rectangles, the grid's cells, and how much of the help and the
//! rack view fit. Drawing sets it once per frame; keys and mouse clicks
//! read it, so they act on exactly what is on screen and the app needs
//! no geometry of its own.

use ratatui::layout::Rect;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameLayout {
    pub population: Rect,
    pub chart: Rect,
    pub grid: Rect,
    pub status: Rect,
    /// Rows of members the population table shows.
    pub population_rows: usize,
    /// The grid's cells: where they start, and how many rows (PCs) and
    /// columns (switches) fit.
    pub cells: Rect,
    pub cell_w: u16,
    pub rows: usize,
    pub cols: usize,
    /// Help lines visible and in all.
    pub help: (usize, usize),
    /// Rack units visible.
    pub rack_units: u32,
    /// The compare table: how far it can scroll right and down (its
    /// widest line and its lines, less what the view shows).
    pub compare_most: (u16, u16),
}

impl FrameLayout {
    /// The grid cell (row, column on screen) under a screen position.
    pub fn cell_at(&self, x: u16, y: u16) -> Option<(usize, usize)> {
        if x < self.cells.x || y < self.cells.y || self.cell_w == 0 {
            return None;
        }
        let (r, c) = ((y - self.cells.y) as usize, ((x - self.cells.x) / self.cell_w) as usize);
        (r < self.rows && c < self.cols).then_some((r, c))
    }
}
