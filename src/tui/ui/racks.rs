//! The rack view: racks side by side, a line per rack unit from the top,
//! PCs by name, switches in their cable colour; the totals underneath.

use super::super::app::{App, Racks};
use crate::export::racks::{Item, totals};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Instead of the racks: why there are none (yet).
fn no_placement(app: &App, why: &str, frame: &mut Frame, area: Rect) {
    let block = super::block(app, "Rack placement (r: back to the designer)", true);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(Line::styled(why.to_string(), app.theme.bad)), inner);
}

/// `placement`: the rack plan, or why there is none yet.
pub fn render(app: &App, placement: &Racks, frame: &mut Frame, area: Rect) {
    let t = &app.theme;
    let p = match placement {
        Racks::Placed(p) => p,
        Racks::Placing => return no_placement(app, "placing the racks…", frame, area),
        Racks::Failed(why) => return no_placement(app, why, frame, area),
    };
    let summary_h = p.racks as u16 + 2;
    let rows = area.height.saturating_sub(2 + summary_h + 1) as u32;
    // Racks taller than the screen scroll (↑/↓, PgUp/PgDn, Home/End).
    let shown = p.units.min(rows);
    let top = app.rack_scroll.min(p.units - shown);
    let mut l = app.layout.get();
    l.rack_units = shown;
    app.layout.set(l);
    let title = if shown < p.units {
        format!(
            "Rack placement: units {}-{} of {} (↑/↓ scroll · r: back to the designer)",
            p.units - top,
            p.units - top - shown + 1,
            p.units
        )
    } else {
        "Rack placement (r: back to the designer)".to_string()
    };
    let block = super::block(app, &title, true);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(s) = &app.snapshot else { return };
    let col_w = 16u16;
    let per_rack = (inner.width / col_w).max(1) as usize;
    let mut lines = vec![Line::from(
        (0..p.racks.min(per_rack))
            .map(|r| Span::styled(format!("{:<16}", format!("rack {r}")), t.header))
            .collect::<Vec<_>>(),
    )];
    for row in top..top + shown {
        // Units count from 0 inside, from 1 (U1 at the bottom) on the rack.
        let unit = p.units - 1 - row;
        let printed = unit + 1;
        let spans: Vec<Span> = (0..p.racks.min(per_rack))
            .map(|r| {
                let here = p
                    .items
                    .iter()
                    .find(|it| it.rack == r && unit >= it.unit && unit < it.unit + it.units);
                match here {
                    Some(it) if unit == it.unit + it.units - 1 => match it.item {
                        Item::Pc(pc) => Span::styled(
                            format!("{:<16}", format!("{printed:>2}│{}", s.cluster.pc_name(pc))),
                            t.title,
                        ),
                        Item::Switch(sw) => Span::styled(
                            format!("{:<16}", format!("{printed:>2}│switch {sw}")),
                            t.cable(&s.cluster.cable_colors, sw),
                        ),
                        Item::Uplink => Span::styled(format!("{:<16}", format!("{printed:>2}│uplink")), t.header),
                    },
                    Some(_) => Span::styled(format!("{:<16}", format!("{printed:>2}│ ┆")), t.muted),
                    None => Span::styled(format!("{:<16}", format!("{printed:>2}│")), t.muted),
                }
            })
            .collect();
        lines.push(Line::from(spans));
    }
    lines.push(Line::raw(""));
    lines.extend(totals(p).lines().map(|l| Line::raw(l.to_string())));
    frame.render_widget(Paragraph::new(lines), inner);
}
