//! The sweep tab: the narrowest switch width found against PCs, one line
//! per NIC count (the highlighted one with its lower bound), the open
//! spec marked, and the figures for the highlighted NIC count below.

use super::super::app::App;
use super::super::sweep::SweepView;
use crate::sweep::{Mark, Point};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::Line;
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, LegendPosition, Paragraph};

const PALETTE: [Color; 6] = [
    Color::LightBlue,
    Color::LightGreen,
    Color::LightYellow,
    Color::LightMagenta,
    Color::LightCyan,
    Color::LightRed,
];

pub fn render(app: &App, run: &SweepView, selected: u32, frame: &mut Frame, area: Rect) {
    let [chart_area, text_area] = Layout::vertical([Constraint::Fill(1), Constraint::Length(5)]).areas(area);
    let points = &run.points;
    let t = &app.theme;
    let series: Vec<(u32, Vec<(f64, f64)>)> = run
        .plan
        .nics
        .iter()
        .map(|&n| (n, line(points, n, |p| p.width as f64)))
        .collect();
    let bound = line(points, selected, |p| p.bound as f64);
    let (spec_pcs, _, widest) = run.plan.spec;
    let mark = [(spec_pcs as f64, widest as f64)];
    let x1 = run.plan.pcs.iter().copied().max().unwrap_or(1).max(spec_pcs) as f64;
    let y1 = points
        .iter()
        .map(|p| p.width as f64)
        .fold(widest as f64, f64::max)
        .max(2.0);
    let names: Vec<String> = series.iter().map(|(n, _)| format!("{n} NICs")).collect();
    let bound_name = format!("bound, {selected} NICs");
    let mut datasets = vec![dataset(&bound_name, Marker::Braille, GraphType::Line, t.muted, &bound)];
    for (i, ((n, data), name)) in series.iter().zip(&names).enumerate() {
        let style = series_style(app, i, *n == selected);
        datasets.push(dataset(name, Marker::Braille, GraphType::Line, style, data));
    }
    // The selected NIC count's cells over the bound, by what is known.
    let over = |m: Mark| -> Vec<(f64, f64)> {
        points
            .iter()
            .filter(|p| p.nics == selected && p.gap() > 0 && p.mark == m)
            .map(|p| (p.pcs as f64, p.width as f64))
            .collect()
    };
    let (proved, open) = (over(Mark::Optimal), over(Mark::Open));
    for (name, data, style) in [("proved optimal", &proved, t.good), ("open", &open, t.bad)] {
        if !data.is_empty() {
            datasets.push(dataset(name, Marker::Dot, GraphType::Scatter, style, data));
        }
    }
    datasets.push(dataset(
        "this spec",
        Marker::Block,
        GraphType::Scatter,
        t.problem,
        &mark,
    ));
    let title = title(run);
    let chart = Chart::new(datasets)
        .block(super::block(app, &title, true))
        .legend_position(Some(LegendPosition::TopLeft))
        // The marks add legend lines; keep the legend shown on short charts.
        .hidden_legend_constraints((Constraint::Ratio(1, 3), Constraint::Ratio(1, 2)))
        .x_axis(axis("PCs", x1, t.muted))
        .y_axis(axis("ports", y1, t.muted));
    frame.render_widget(chart, chart_area);
    frame.render_widget(Paragraph::new(figures(points, selected, run.plan.spec)), text_area);
}

fn title(run: &SweepView) -> String {
    match &run.failed {
        Some(e) => format!(
            "Sweep FAILED after {}/{} sizes: {e} (W: back)",
            run.finished(),
            run.total()
        ),
        None => format!(
            "Sweep: narrowest switches for a universal FNN, {}/{} sizes (W: back, Left/Right: NICs)",
            run.finished(),
            run.total()
        ),
    }
}

/// The `i`th NIC count's line: its palette colour (when colours are on),
/// bold when highlighted.
fn series_style(app: &App, i: usize, highlighted: bool) -> Style {
    let style = if app.theme.color {
        Style::new().fg(PALETTE[i % PALETTE.len()])
    } else {
        Style::new()
    };
    if highlighted {
        style.add_modifier(Modifier::BOLD)
    } else {
        style
    }
}

fn dataset<'a>(name: &'a str, marker: Marker, graph: GraphType, style: Style, data: &'a [(f64, f64)]) -> Dataset<'a> {
    Dataset::default()
        .name(name)
        .marker(marker)
        .graph_type(graph)
        .style(style)
        .data(data)
}

/// An axis from 0 to `max`, labelled at both ends and the middle.
fn axis(title: &str, max: f64, style: Style) -> Axis<'_> {
    Axis::default()
        .title(title)
        .style(style)
        .bounds([0.0, max])
        .labels(vec![
            Line::from("0"),
            Line::from(format!("{:.0}", max / 2.0)),
            Line::from(format!("{max:.0}")),
        ])
}

fn line(points: &[Point], nics: u32, y: impl Fn(&Point) -> f64) -> Vec<(f64, f64)> {
    points
        .iter()
        .filter(|p| p.nics == nics)
        .map(|p| (p.pcs as f64, y(p)))
        .collect()
}

/// The highlighted NIC count's figures and the open spec's own point.
fn figures(points: &[Point], selected: u32, spec: (usize, u32, u32)) -> Vec<Line<'static>> {
    let pts: Vec<&Point> = points.iter().filter(|p| p.nics == selected).collect();
    let count = |f: &dyn Fn(&Point) -> bool| pts.iter().filter(|p| f(p)).count();
    let at = count(&|p| p.gap() <= 0);
    let ga = count(&|p| p.method == "GA");
    let exact = count(&|p| p.method == "exact");
    let proved = count(&|p| p.gap() > 0 && p.mark == Mark::Optimal);
    let open = count(&|p| p.mark != Mark::Optimal);
    let largest = pts.iter().max_by_key(|p| p.pcs);
    let mut lines = vec![Line::from(format!(
        " {selected} NICs/PC: {} sizes, {at} at the bound, {proved} proved optimal over it, {open} open; narrowed: {ga} GA, {exact} exact",
        pts.len(),
    ))];
    if let Some(p) = largest {
        lines.push(Line::from(format!(
            " largest so far: {} PCs need {}-port switches (bound {}), {} switches (covering bound {}), {}",
            p.pcs, p.width, p.bound, p.switches, p.switch_bound, p.method
        )));
    }
    let (pcs, nics, widest) = spec;
    match points.iter().find(|p| p.pcs == pcs && p.nics == nics) {
        Some(p) => lines.push(Line::from(format!(
            " this spec: {pcs} PCs with {nics} NICs need {}-port switches at least (bound {}); its widest has {widest} usable ports",
            p.width, p.bound
        ))),
        None => lines.push(Line::from(format!(" this spec: {pcs} PCs with {nics} NICs, widest switch {widest} usable ports (not swept yet)"))),
    }
    if let Some(known) = crate::atlas::lookup(pcs, nics) {
        lines.push(Line::from(format!(" narrowest known: {}", known.words())));
    }
    lines
}
