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
    let width = area.width as usize;
    let first = match &app.snapshot {
        Some(s) => fitted(run_segments(app, s), width),
        None => Line::from("starting…"),
    };
    // The last message leads the second line while it is fresh; cut to
    // half the width so the key hints stay in view (errors also open a
    // popup, and every message stays in the history).
    let mut hints: Vec<Span> = match app.status_shown(std::time::Instant::now()) {
        Some((msg, err)) => {
            let room = (width / 2).max(8);
            vec![Span::styled(
                format!("{} │ ", super::cut(msg, room)),
                if *err { t.bad } else { t.good },
            )]
        }
        None => Vec::new(),
    };
    // Whole hints only: one cut in half reads as another key. Help and
    // quit always stay, last; the others fill the room before them.
    // While paused, the pause key's hint says what it does now.
    let paused = app.snapshot.as_ref().is_some_and(|s| !s.running && s.stopped.is_none());
    let hint = |b: &crate::tui::keymap::Binding| {
        let keys = app.keymap.keys_for(b.action);
        let label = match b.action {
            crate::tui::keymap::Action::TogglePause if paused => " resume  ".to_string(),
            _ => format!(" {}  ", b.hint),
        };
        let w = keys.chars().count() + label.chars().count();
        (w, [Span::styled(keys, t.header), Span::styled(label, t.muted)])
    };
    let (kept, rest): (Vec<_>, Vec<_>) = app
        .keymap
        .bindings
        .iter()
        .filter(|b| !b.hint.is_empty())
        .partition(|b| ALWAYS_HINTED.contains(&b.action));
    let kept: Vec<_> = kept.into_iter().map(hint).collect();
    let mut used: usize = hints.iter().map(|s| s.width()).sum::<usize>() + kept.iter().map(|(w, _)| w).sum::<usize>();
    for (w, spans) in rest.into_iter().map(hint) {
        if used + w > width + 2 {
            break;
        }
        used += w;
        hints.extend(spans);
    }
    hints.extend(kept.into_iter().flat_map(|(_, spans)| spans));
    frame.render_widget(Paragraph::new(vec![first, Line::from(hints)]).style(t.status), area);
}

/// The hints shown at any width: how to learn the rest, and how to leave.
const ALWAYS_HINTED: [crate::tui::keymap::Action; 2] =
    [crate::tui::keymap::Action::Help, crate::tui::keymap::Action::Quit];

/// One part of the status line: how much it matters (lower stays
/// longer), its full form and, when it has one, a shorter form tried
/// before it is dropped.
struct Segment<'a> {
    rank: u8,
    full: Vec<Span<'a>>,
    /// The shorter form and the rank at which the full one gives way.
    short: Option<(u8, Vec<Span<'a>>)>,
}

impl Segment<'_> {
    /// The rank of the next thing to go: the full form, or the part.
    fn next_rank(&self) -> u8 {
        self.short.as_ref().map_or(self.rank, |(r, _)| *r)
    }
}

/// The run's state, validity and figures, all from the one snapshot, so
/// the state and the validity cannot disagree.
fn run_segments<'a>(app: &'a App, s: &'a crate::tui::worker::Snapshot) -> Vec<Segment<'a>> {
    let t = &app.theme;
    let seg = |rank, full: Vec<Span<'a>>, short: Option<(u8, Vec<Span<'a>>)>| Segment { rank, full, short };
    let resume = app.keymap.keys_for(crate::tui::keymap::Action::TogglePause);
    let state = match (&app.worker_error, s.running, &s.stopped) {
        (Some(_), _, _) => seg(0, vec![Span::styled("✖ worker failed", t.bad)], None),
        (None, true, _) => seg(0, vec![Span::styled("▶ running", t.good)], None),
        (None, false, Some(why)) => seg(
            0,
            vec![Span::styled(format!("■ stopped: {}", stop_words(*why, s)), t.header)],
            Some((2, vec![Span::styled("■ stopped", t.header)])),
        ),
        (None, false, None) => seg(
            0,
            vec![Span::styled(format!("⏸ paused ({resume} resumes)"), t.header)],
            Some((2, vec![Span::styled("⏸ paused", t.header)])),
        ),
    };
    let best = s.members.first();
    let valid = match (s.valid, &s.phase) {
        (true, _) => seg(0, vec![Span::styled("VALID", t.good)], None),
        // The members are the scaled-down problem's: their uncovered
        // pairs are not the cluster's.
        (false, Phase::Scaled { .. }) => seg(
            0,
            vec![Span::styled("NOT VALID (scaled-down phase)", t.bad)],
            Some((2, vec![Span::styled("NOT VALID", t.bad)])),
        ),
        (false, Phase::Full) => seg(
            0,
            vec![Span::styled(
                format!("NOT VALID ({} uncovered)", best.map_or(0, |m| m.terms.uncovered)),
                t.bad,
            )],
            Some((2, vec![Span::styled("NOT VALID", t.bad)])),
        ),
    };
    let pace = if s.watch { " · watch pace" } else { "" };
    let phase = match s.phase {
        Phase::Scaled { width, pcs } => format!("scaled {pcs} PCs/{width} ports{pace}"),
        Phase::Full => format!("full{pace}"),
    };
    let short_phase = match s.phase {
        Phase::Scaled { .. } => format!("scaled{pace}"),
        Phase::Full => format!("full{pace}"),
    };
    let secs = s.elapsed_s as u64;
    let clock = format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    let plain = |rank, text: String| seg(rank, vec![Span::raw(text)], None);
    // State, validity and generation stay at any width; then what is
    // unsaved, the phase (and pace), the clock, the best, the name, the rate.
    let mut v = vec![
        state,
        valid,
        seg(2, vec![Span::raw(phase)], Some((3, vec![Span::raw(short_phase)]))),
        plain(0, format!("gen {}", s.generation)),
        seg(
            6,
            vec![Span::raw(format!(
                "{} evals, {}/s",
                rate(s.evaluations as f64),
                rate(s.evals_per_sec)
            ))],
            Some((6, vec![Span::raw(format!("{}/s", rate(s.evals_per_sec)))])),
        ),
        plain(
            4,
            format!("best {}", super::compact(best.map_or(0.0, |m| m.fitness), 10)),
        ),
        plain(4, clock),
        plain(5, app.session_name.clone()),
    ];
    if let Some(marker) = app.unsaved_parts().marker() {
        v.push(seg(1, vec![Span::styled(marker, t.header)], None));
    }
    v
}

/// The segments joined by bars, shortening and then dropping the least
/// important until the line fits `width`.
fn fitted(mut segments: Vec<Segment<'_>>, width: usize) -> Line<'_> {
    const BAR: &str = " │ ";
    let len = |segs: &[Segment]| -> usize {
        let parts: usize = segs
            .iter()
            .map(|s| s.full.iter().map(|x| x.width()).sum::<usize>())
            .sum();
        parts + 3 * segs.len().saturating_sub(1)
    };
    while len(&segments) > width {
        // The least important part: shorten it if it can be, else drop it.
        let next = |k: usize| (segments[k].next_rank(), segments[k].short.is_some(), k);
        let Some(k) = (0..segments.len()).max_by_key(|&k| next(k)) else {
            break;
        };
        match segments[k].short.take() {
            Some((_, short)) => segments[k].full = short,
            None if segments[k].rank == 0 => break,
            None => {
                segments.remove(k);
            }
        }
    }
    let mut spans = Vec::new();
    for (k, s) in segments.into_iter().enumerate() {
        if k > 0 {
            spans.push(Span::raw(BAR));
        }
        spans.extend(s.full);
    }
    Line::from(spans)
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
fn stop_words(why: crate::run::StopReason, s: &crate::tui::worker::Snapshot) -> String {
    match why {
        crate::run::StopReason::Stalled => {
            format!("no better design in {} generations", s.cluster.ga.stall_generations)
        }
        other => other.words().to_string(),
    }
}
