//! Popups over the panes: help (from the keymap), the weights and GA
//! parameters form, the export and save-as prompts, the session list, the
//! quit confirmation and messages.

use super::super::app::{App, Discard, Form, Mode, OpenList, Prompt, PromptKind};
use super::super::keymap::{Action, key_name};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

/// A popup's title, its lines and its width.
type Popup<'a> = (&'a str, Vec<Line<'a>>, u16);

pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let (title, lines, w) = match &app.mode {
        Mode::Normal => return,
        // Rows wrap within the popup, hung under the description column.
        Mode::Help => ("Help", help(app, 70u16.min(area.width).saturating_sub(2) as usize), 70),
        Mode::Form(form) => tune_popup(app, form),
        Mode::Export(form) => export_popup(app, form),
        Mode::Prompt(p) => prompt_popup(app, p),
        Mode::Open(list) => open_popup(app, list),
        Mode::Confirm(what) => confirm_popup(app, *what),
        Mode::Message(m) => message_popup(app, m),
    };
    draw(app, frame, area, (title, lines, w));
}

/// Every key named in a footer comes from the keymap that dispatches it.
fn key(app: &App, a: Action) -> String {
    app.keymap.keys_for(a)
}

/// The popup centred in `area`, scrolled (help and messages) with the keys
/// to scroll and leave on its frame.
fn draw(app: &App, frame: &mut Frame, area: Rect, (title, lines, w): Popup) {
    let t = &app.theme;
    // Wrapped height, so a popup taller than the screen knows it is.
    let inner_w = w.min(area.width).saturating_sub(2).max(1) as usize;
    let wrapped: usize = lines.iter().map(|l| l.width().max(1).div_ceil(inner_w)).sum();
    let h = wrapped as u16 + 2;
    let r = super::centered(area, w, h);
    frame.render_widget(Clear, r);
    let mut block = Block::bordered()
        .title(Line::styled(format!(" {title} "), t.title))
        .border_style(t.border_focus);
    let visible = r.height.saturating_sub(2) as usize;
    let mut scroll = 0;
    if matches!(app.mode, Mode::Help | Mode::Message(_)) {
        // The keys to leave and scroll stay on the frame, whatever scrolls.
        scroll = (app.help_scroll as usize).min(wrapped.saturating_sub(visible));
        let mut l = app.layout.get();
        l.help = (visible, wrapped);
        app.layout.set(l);
        block = block.title_bottom(Line::styled(scroll_footer(app, scroll, visible, wrapped), t.muted).right_aligned());
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((scroll as u16, 0))
            .block(block),
        r,
    );
}

/// The frame's footer of a scrolling popup: where it is, and how to leave.
fn scroll_footer(app: &App, scroll: usize, visible: usize, wrapped: usize) -> String {
    let cancel = key(app, Action::Cancel);
    if wrapped > visible {
        format!(
            " {} {} scroll {}-{} of {} · {cancel} close ",
            key(app, Action::Up),
            key(app, Action::Down),
            scroll + 1,
            (scroll + visible).min(wrapped),
            wrapped
        )
    } else {
        format!(" {cancel} close ")
    }
}

fn tune_popup<'a>(app: &'a App, form: &'a Form) -> Popup<'a> {
    let t = &app.theme;
    let mut lines = form_lines(app, form);
    let field = form.fields.get(form.cursor).map_or("", |f| f.label);
    lines.push(Line::styled(
        format!("{field}: {}", crate::tui::form::description(form.cursor)),
        t.title,
    ));
    lines.push(Line::styled(
        format!(
            "{} {} field · type to edit · {} apply live · {} cancel",
            app.keymap.non_char_key_for(Action::Up),
            app.keymap.non_char_key_for(Action::Down),
            key(app, Action::Accept),
            key(app, Action::Cancel)
        ),
        t.muted,
    ));
    ("Weights and GA parameters", lines, 64)
}

fn export_popup<'a>(app: &'a App, form: &'a Form) -> Popup<'a> {
    let t = &app.theme;
    let mut lines = form_lines(app, form);
    lines.push(Line::styled(
        format!(
            "artifacts: all or {} · rewire from: saved, none, a session or a table .txt",
            crate::export::ARTIFACTS.join(",")
        ),
        t.muted,
    ));
    lines.push(Line::styled(
        format!(
            "{} {} field · {} export · {} rehearse in namespaces (emulate, root) · {} cancel",
            app.keymap.non_char_key_for(Action::Up),
            app.keymap.non_char_key_for(Action::Down),
            key(app, Action::Accept),
            key(app, Action::Emulate),
            key(app, Action::Cancel)
        ),
        t.muted,
    ));
    ("Export the best design", lines, 96)
}

fn prompt_popup<'a>(app: &'a App, p: &'a Prompt) -> Popup<'a> {
    let t = &app.theme;
    let (title, note) = match p.kind {
        PromptKind::ExportCompare => (
            "Export the comparison",
            "writes the comparison and the fat-tree, Stack-Ring and Stack-Mesh wiring, BOM, IP plans and forwarding tables",
        ),
        PromptKind::SaveAs => (
            "Save session as",
            "a session file (TOML); it can be reopened with o or --resume",
        ),
        PromptKind::Find => (
            "Find in the grid",
            "a PC (k10 or its number), a switch (s3 or switch 3), or both (k10 s3)",
        ),
    };
    let lines = vec![
        Line::styled(note, t.muted),
        Line::raw(""),
        Line::from(vec![Span::raw("> "), Span::styled(p.input.with_cursor(), t.title)]),
        Line::raw(""),
        Line::styled(
            format!(
                "{} confirm · {} cancel",
                key(app, Action::Accept),
                key(app, Action::Cancel)
            ),
            t.muted,
        ),
    ];
    (title, lines, 72)
}

fn open_popup<'a>(app: &'a App, list: &'a OpenList) -> Popup<'a> {
    let t = &app.theme;
    let mut lines: Vec<Line> = if list.entries.is_empty() {
        vec![Line::styled("no saved sessions in the data folder or ./saves", t.muted)]
    } else {
        (0..list.entries.len()).map(|i| open_row(app, list, i)).collect()
    };
    lines.push(Line::raw(""));
    match &list.deleting {
        Some(path) => lines.push(Line::styled(
            format!(
                "Delete the recovery file {}? {} delete · any other key keeps it",
                path.display(),
                key(app, Action::Yes)
            ),
            t.title,
        )),
        None => lines.push(Line::styled(
            format!(
                "{} {} choose · {} open · {} delete a recovery file · {} cancel",
                key(app, Action::Up),
                key(app, Action::Down),
                key(app, Action::Accept),
                key(app, Action::Delete),
                key(app, Action::Cancel)
            ),
            t.muted,
        )),
    }
    ("Open a session", lines, 110)
}

/// The session list's row `i`: name, whose, generation, validity, age, place.
fn open_row<'a>(app: &'a App, list: &OpenList, i: usize) -> Line<'a> {
    let e = &list.entries[i];
    let about = match list.summaries.get(i).cloned().flatten() {
        Some(s) => format!(
            "{:<8} gen {:<7} {:<9} {:<11}",
            if s.shipped {
                "shipped"
            } else if crate::session::is_recovery_file(&e.path) {
                "recovery"
            } else {
                "yours"
            },
            s.generation,
            if s.valid { "valid" } else { "not valid" },
            s.age.map(crate::session::ago).unwrap_or_default()
        ),
        None => format!("{:<38}", "(not a readable session)"),
    };
    let place = match e.example {
        true => "(built into fnn-tui)".to_string(),
        false => e.path.display().to_string(),
    };
    let text = format!("{:<20} {about} {place}", e.name);
    if i == list.cursor {
        Line::styled(text, app.theme.selected)
    } else {
        Line::raw(text)
    }
}

fn confirm_popup(app: &App, what: Discard) -> Popup<'_> {
    let t = &app.theme;
    let lines: Vec<Line> = app
        .unsaved_parts()
        .lines()
        .into_iter()
        .map(Line::raw)
        .chain([
            Line::raw(""),
            Line::from(vec![
                Span::styled(key(app, Action::Yes), t.header),
                Span::raw(match what {
                    Discard::Quit => " quit, keeping it in the recovery file   ",
                    Discard::Open => " open without saving   ",
                    Discard::Restart => " restart without saving   ",
                }),
                Span::styled(key(app, Action::SaveFirst), t.header),
                Span::raw(" save first   "),
                Span::styled(key(app, Action::No), t.header),
                Span::raw(" stay"),
            ]),
        ])
        .collect();
    // Wide enough for what is unsaved on one line each.
    let widest = lines.iter().map(Line::width).max().unwrap_or(0) as u16;
    let title = match what {
        Discard::Quit => "Quit?",
        Discard::Open => "Open another session?",
        Discard::Restart => "Restart the search?",
    };
    (title, lines, (widest + 2).clamp(60, 100))
}

fn message_popup<'a>(app: &'a App, m: &'a str) -> Popup<'a> {
    // A message keeps its own lines (emulate's summary has several).
    let mut lines: Vec<Line> = m.lines().map(|l| Line::raw(l.to_string())).collect();
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        format!("{} or {} to close", key(app, Action::Accept), key(app, Action::Cancel)),
        app.theme.muted,
    ));
    let widest = m.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    ("Message", lines, (widest as u16 + 2).clamp(70, 120))
}

/// The help's key column: descriptions start after it.
const KEY_COLUMN: usize = 16;

/// One help row: `key` in the key column and `what` wrapped to the rest
/// of `width`, its later lines hung under the description (a wrapped line
/// starting at the left edge reads as another key).
fn keyed(key: String, style: ratatui::style::Style, what: &str, width: usize) -> Vec<Line<'static>> {
    let room = width.saturating_sub(KEY_COLUMN).max(12);
    let mut lead = Some(Span::styled(format!("{key:<KEY_COLUMN$}"), style));
    words_within(what, room)
        .into_iter()
        .map(|text| {
            let first = lead.take().unwrap_or_else(|| Span::raw(" ".repeat(KEY_COLUMN)));
            Line::from(vec![first, Span::raw(text)])
        })
        .collect()
}

/// `text` broken at spaces into lines of at most `room` characters (a
/// longer word keeps a line of its own).
fn words_within(text: &str, room: usize) -> Vec<String> {
    let mut out = vec![String::new()];
    for word in text.split(' ') {
        let line = out.last_mut().expect("one line at least");
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > room {
            out.push(word.to_string());
        } else {
            if len > 0 {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    out
}

/// Generated from the keymap, so it can never disagree with the status bar;
/// `width` is the room inside the popup.
fn help(app: &App, width: usize) -> Vec<Line<'static>> {
    use crate::tui::keymap::Context;
    let t = &app.theme;
    let mut lines: Vec<Line> = Vec::new();
    // Grouped by where the keys apply, so a prompt's keys are not read as
    // the designer's.
    let sections = [
        (Context::Normal, "In the designer"),
        (Context::Any, "Moving (panes, lists, help, rack view)"),
        (Context::Popup, "In popups, prompts and forms"),
        (Context::Confirm, "When asked before unsaved work is lost"),
    ];
    for (context, title) in sections {
        if !lines.is_empty() {
            lines.push(Line::raw(""));
        }
        lines.push(Line::styled(title, t.title));
        for b in app.keymap.bindings.iter().filter(|b| b.context == context) {
            let keys: Vec<String> = b.keys.iter().map(key_name).collect();
            lines.extend(keyed(keys.join(" "), t.header, b.help, width));
        }
        if context == Context::Normal {
            lines.extend(keyed("ctrl-c".into(), t.header, crate::tui::keymap::CTRL_C_HELP, width));
        }
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled("Typing in prompts and forms", t.title));
    for (k, what) in crate::tui::line_edit::editing_keys() {
        lines.extend(keyed(key_name(&k), t.header, what, width));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled("The population's columns", t.title));
    for (name, what) in [
        ("fitness", "the weighted total the GA maximises (higher is better)"),
        ("uncov", "required pairs that share no switch (0: valid)"),
        (
            "bw",
            "average links shared by the pattern's pairs (all pairs without one)",
        ),
        ("weak", "links of the weakest required pair"),
        ("bal", "spread of switch fill, 0 = every switch as full as the others"),
        ("cost", "the hardware used, as a share of the whole inventory's cost"),
        ("red", "share of required pairs that share two or more switches"),
        ("xrack", "share of cables that leave their PC's rack"),
        ("age", "generations the member has survived"),
    ] {
        lines.extend(keyed(name.into(), t.header, what, width));
    }
    lines.push(Line::raw(""));
    lines.extend(keyed("mouse".into(), t.header, crate::tui::keymap::MOUSE_HELP, width));
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "◆ pinned  ◇ pinned, not yet cabled  × forbidden  ■ NIC in cable colour  red name: lacks a partner",
        t.muted,
    ));
    lines.push(Line::styled(
        format!(
            "{} or {} to close",
            app.keymap.keys_for(Action::Cancel),
            app.keymap.keys_for(Action::Help)
        ),
        t.muted,
    ));
    lines
}

/// A form's rows, the cursor's highlighted, then its error if any.
fn form_lines<'a>(app: &App, form: &Form) -> Vec<Line<'a>> {
    let t = &app.theme;
    let mut lines: Vec<Line> = form
        .fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let value = if i == form.cursor {
                f.value.with_cursor()
            } else {
                f.value.value().to_string()
            };
            let text = format!("{:<20} {value}", f.label);
            if i == form.cursor {
                Line::styled(text, t.selected)
            } else {
                Line::raw(text)
            }
        })
        .collect();
    lines.push(Line::raw(""));
    if let Some(e) = &form.error {
        lines.push(Line::styled(e.clone(), t.bad));
    }
    lines
}
