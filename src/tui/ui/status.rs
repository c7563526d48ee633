//! The status bar: phase, generation, evaluations/s, best, valid, elapsed,
//! unsaved marker, then the key hints from the keymap.

use super::super::app::App;
use crate::ga::Phase;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let t = &app.theme;
    let mut spans = Vec::new();
    if let Some(s) = &app.snapshot {
        let state = match (&app.worker_error, s.running, &s.stopped) {
            (Some(_), _, _) => Span::styled("✖ worker failed", t.bad),
            (None, true, _) => Span::styled("▶ running", t.good),
            (None, false, Some(why)) => Span::styled(format!("■ stopped: {}", stop_words(*why, s)), t.header),
            (None, false, None) => Span::styled("⏸ paused", t.header),
        };
        let phase = match s.phase {
            Phase::Scaled { width, pcs } => format!("scaled {pcs} PCs/{width} ports"),
            Phase::Full => "full".into(),
        };
        let best = s.members.first();
        let valid = if s.valid {
            Span::styled("VALID", t.good)
        } else {
            Span::styled(
                format!("NOT VALID ({} uncovered)", best.map_or(0, |m| m.terms.uncovered)),
                t.bad,
            )
        };
        let secs = s.elapsed_s as u64;
        spans.extend([
            state,
            Span::raw(format!(
                " │ {phase} │ gen {} │ {} evals, {}/s │ best {:.3} │ ",
                s.generation,
                rate(s.evaluations as f64),
                rate(s.evals_per_sec),
                best.map_or(0.0, |m| m.fitness)
            )),
            valid,
            Span::raw(format!(
                " │ {:02}:{:02}:{:02} │ {}",
                secs / 3600,
                secs / 60 % 60,
                secs % 60,
                app.session_name
            )),
        ]);
        if app.unsaved() {
            spans.push(Span::styled(" ● unsaved", t.header));
        }
    } else {
        spans.push(Span::raw("starting…"));
    }
    // The last message leads the second line while it is fresh; cut to
    // half the width so the key hints stay in view.
    let mut hints: Vec<Span> = match app.status_shown(std::time::Instant::now()) {
        Some((msg, err)) => {
            let room = (area.width as usize / 2).max(8);
            let shown: String = if msg.chars().count() > room {
                msg.chars().take(room - 1).chain(['…']).collect()
            } else {
                msg.clone()
            };
            vec![Span::styled(format!("{shown} │ "), if *err { t.bad } else { t.good })]
        }
        None => Vec::new(),
    };
    hints.extend(app.keymap.bindings.iter().filter(|b| !b.hint.is_empty()).flat_map(|b| {
        [
            Span::styled(app.keymap.keys_for(b.action), t.header),
            Span::styled(format!(" {}  ", b.hint), t.muted),
        ]
    }));
    frame.render_widget(
        Paragraph::new(vec![Line::from(spans), Line::from(hints)]).style(t.status),
        area,
    );
}

/// Counts and rates: whole below a thousand, else one decimal and a unit
/// (k, M, G, T), so a huge value stays short.
fn rate(r: f64) -> String {
    let units = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")];
    match units.iter().find(|(d, _)| r.abs() >= *d) {
        Some((d, u)) => format!("{:.1}{u}", r / d),
        None => format!("{r:.0}"),
    }
}

/// Why the run stopped, in words.
fn stop_words(why: crate::ga::StopReason, s: &crate::tui::worker::Snapshot) -> String {
    match why {
        crate::ga::StopReason::Stalled => format!(
            "valid; no better design in {} generations",
            s.cluster.ga.stall_generations
        ),
        other => other.words().to_string(),
    }
}
