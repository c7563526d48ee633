//! The UI's state and its update (csvlens): a key becomes an [`Action`]
//! through the keymap, [`App::act`] changes the state and returns commands
//! for the worker; popups take raw keys. Drawing lives in `ui`.

use super::form::{ExportFormError, FormError};
use super::keymap::{Action, Context, Keymap};
use super::theme::Theme;
use super::worker::{Command, Event, Snapshot};
use crate::run::Edit;
use crate::session::{SessionEntry, data_dir};
use crate::spec::{GaParams, PinKind, Spec, Weights};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pane {
    Population,
    Chart,
    Grid,
}

/// Which full-screen view shows above the status bar.
#[derive(Clone, Debug, PartialEq)]
pub enum View {
    Designer,
    /// The rack placement of the design shown, at the generation it was made.
    Racks(Racks, u64),
    /// The comparison table for the design shown, and the systems not built.
    /// (and the fat-tree's rack plan, when it has one).
    Compare(
        Vec<crate::topology::compare::Row>,
        Vec<crate::topology::compare::Skipped>,
        Option<String>,
    ),
    /// The scalability sweep, running in the background; the NIC count
    /// highlighted (Left / Right change it).
    Sweep(super::sweep::SweepView, u32),
}

/// What the rack view shows: the worker places the racks off the UI thread.
#[derive(Clone, Debug, PartialEq)]
pub enum Racks {
    Placing,
    Placed(crate::export::racks::Placement),
    /// Why the design has no placement (the worker's words).
    Failed(String),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Mode {
    Normal,
    Help,
    Form(Form),
    /// The export form: folder, artifacts, MAC file, probe order, rewire source.
    Export(Form),
    Prompt(Prompt),
    Open(OpenList),
    /// Unsaved work would be lost: ask first (y / s save first / n).
    Confirm(Discard),
    Message(String),
}

/// What throws the current run away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Discard {
    Quit,
    Open,
    Restart,
}

/// The export form's rows.
pub const EXPORT_FIELDS: [&str; 5] = ["folder", "artifacts", "MAC file", "probe order", "rewire from"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    /// From the Compare tab: the comparison and the other systems' artifacts.
    ExportCompare,
    SaveAs,
    /// `/`: a PC or switch to put the grid's cursor on.
    Find,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Prompt {
    pub kind: PromptKind,
    pub input: super::line_edit::TextInput,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub label: &'static str,
    pub value: super::line_edit::TextInput,
}

/// The weights and GA parameters form.
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    pub fields: Vec<Field>,
    pub cursor: usize,
    pub error: Option<String>,
}

impl Form {
    /// Up / previous pane go to the field above, the others below.
    fn step(&mut self, a: Action) {
        self.cursor = match a {
            Action::Up | Action::PrevPane => self.cursor.saturating_sub(1),
            _ => (self.cursor + 1).min(self.fields.len() - 1),
        };
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct OpenList {
    pub entries: Vec<SessionEntry>,
    /// Each entry's generation, validity and age (read when the list opens).
    pub summaries: Vec<Option<crate::session::SessionSummary>>,
    pub cursor: usize,
    /// The recovery file asked to be deleted, waiting for a yes.
    pub deleting: Option<PathBuf>,
}

/// Unsaved work is autosaved this often.
pub const AUTOSAVE_EVERY: Duration = Duration::from_secs(120);
/// Messages kept for the history popup.
pub const HISTORY: usize = 200;
/// How long a status message stays, and an error message.
pub const STATUS_FOR: Duration = Duration::from_secs(8);
pub const STATUS_ERROR_FOR: Duration = Duration::from_secs(20);

pub struct App {
    pub snapshot: Option<Snapshot>,
    pub view: View,
    /// The spec the run started from (the form validates edits against it).
    pub spec: Spec,
    pub mode: Mode,
    pub focus: Pane,
    pub pop_cursor: usize,
    pub pop_offset: usize,
    /// (PC, switch) under the grid cursor.
    pub cursor: (usize, usize),
    /// First visible (PC row, switch column) of the grid.
    pub grid_offset: (usize, usize),
    pub session_path: Option<PathBuf>,
    pub session_name: String,
    pub saved_generation: Option<u64>,
    /// The best fitness at the last save or open (`None`: not known yet,
    /// the snapshot of the saved generation is on its way).
    saved_best: Option<f64>,
    /// Changes the user made since the last save.
    pub dirty: bool,
    /// Which kinds of change, to name them (meaningful while `dirty`).
    edits: super::unsaved::Edits,
    /// The kinds of the edits sent to the worker and not answered yet,
    /// oldest first.
    sent_edits: std::collections::VecDeque<super::unsaved::Edits>,
    pub status: Option<(String, bool)>,
    /// When the status message was set (it expires).
    pub status_at: Option<Instant>,
    pub quit: bool,
    /// Left with Ctrl-C: unsaved work is saved on the way out.
    pub interrupted: bool,
    /// Ctrl-Z: the event loop hands the terminal back and stops the
    /// process (`suspend_hook`), then redraws everything.
    pub suspend: bool,
    pub suspend_hook: Option<fn() -> std::io::Result<()>>,
    /// SIGCONT after a stop not of the designer's own (a SIGSTOP): the
    /// event loop takes the terminal again through it and redraws.
    pub resume_hook: Option<fn() -> std::io::Result<()>>,
    /// First line shown of the help popup, and first rack unit row shown
    /// of the rack view (both scroll with the movement keys).
    pub help_scroll: u16,
    pub rack_scroll: u32,
    /// The compare table's scroll: columns right, lines down.
    pub compare_scroll: (u16, u16),
    /// What the last frame laid out, kept for the next key or click.
    pub layout: std::cell::Cell<super::layout::FrameLayout>,
    /// What to do once the save asked for before it succeeds.
    after_save: Option<Discard>,
    pending_open: Option<PathBuf>,
    /// The session being opened is a shipped example (saved elsewhere).
    opened_read_only: bool,
    pub keymap: Keymap,
    pub theme: Theme,
    pub size: Rect,
    pub worker_error: Option<String>,
    /// Every message of this run, oldest first (at most [`HISTORY`]), with
    /// its time since the designer opened and whether it is an error.
    pub history: std::collections::VecDeque<(Duration, String, bool)>,
    opened: Instant,
    pub session_dirs: Vec<PathBuf>,
    last_autosave: Instant,
    /// This run's recovery file: the autosave writes it, never the
    /// session file, and never renames the run (removed once saved).
    pub recovery_path: Option<PathBuf>,
    /// The best fitness and validity as opened or last saved (from the
    /// first snapshot after): a run whose best has not moved since has
    /// nothing a recovery file would keep.
    pub kept_best: Option<(f64, bool)>,
    /// Opened from a recovery file: its work is not in the session's own
    /// file until a save.
    from_recovery: bool,
    /// The name's recovery file another run left, found when the session
    /// was opened: this run neither writes nor removes it (a save does).
    others_recovery: Option<PathBuf>,
}

impl App {
    pub fn new(spec: Spec, name: String, session_path: Option<PathBuf>, keymap: Keymap, theme: Theme) -> App {
        App {
            snapshot: None,
            view: View::Designer,
            spec,
            mode: Mode::Normal,
            focus: Pane::Grid,
            pop_cursor: 0,
            pop_offset: 0,
            cursor: (0, 0),
            grid_offset: (0, 0),
            saved_generation: session_path.as_ref().map(|_| u64::MAX),
            session_path,
            session_name: name,
            saved_best: None,
            dirty: false,
            edits: Default::default(),
            sent_edits: Default::default(),
            status: None,
            quit: false,
            interrupted: false,
            suspend: false,
            suspend_hook: None,
            resume_hook: None,
            after_save: None,
            status_at: None,
            help_scroll: 0,
            rack_scroll: 0,
            compare_scroll: (0, 0),
            layout: std::cell::Cell::new(Default::default()),
            pending_open: None,
            opened_read_only: false,
            keymap,
            theme,
            size: Rect::new(0, 0, 120, 40),
            worker_error: None,
            history: Default::default(),
            opened: Instant::now(),
            session_dirs: crate::session::session_dirs(),
            last_autosave: Instant::now(),
            recovery_path: None,
            kept_best: None,
            from_recovery: false,
            others_recovery: None,
        }
    }

    /// Whether leaving now would lose something: an edit of the user's,
    /// or a best design the search has improved since the run was opened
    /// or saved. Generations that found nothing better are not worth a
    /// recovery file.
    pub fn worth_recovering(&self) -> bool {
        let moved = match (&self.snapshot, self.kept_best) {
            (Some(s), Some(at)) => best_of(s) != at,
            _ => false,
        };
        self.unsaved() && (self.dirty || moved)
    }

    /// Whether this run's recovery file holds edits of the user's, which
    /// no other run of the name may replace: its own edits, or (not known
    /// otherwise) whatever the recovery file it was opened from held.
    pub fn holds_edits(&self) -> bool {
        self.dirty || self.from_recovery
    }

    /// Unsaved: the user changed something, or the search found a
    /// better design than the one saved.
    pub fn unsaved(&self) -> bool {
        self.unsaved_parts().any()
    }

    /// What is unsaved, each part named.
    pub fn unsaved_parts(&self) -> super::unsaved::Unsaved {
        let best = self.snapshot.as_ref().map(best_fitness);
        let better_design = match (self.saved_generation, self.saved_best, &self.snapshot) {
            (_, _, None) => false,
            (None, _, Some(_)) => true,
            // Just opened, its first snapshot not seen yet.
            (Some(u64::MAX), _, _) => false,
            (Some(_), Some(saved), Some(_)) => best != Some(saved),
            (Some(g), None, Some(s)) => s.generation != g,
        };
        super::unsaved::Unsaved {
            edits: self.dirty.then_some(self.edits),
            better_design: better_design || self.from_recovery,
            never_saved: self.saved_generation.is_none(),
        }
    }

    /// An edit of the user's, sent to the worker: unsaved once the worker
    /// applies it (`Event::Applied`), in the order sent.
    fn edited(&mut self, mark: impl FnOnce(&mut super::unsaved::Edits)) {
        let mut kind = super::unsaved::Edits::default();
        mark(&mut kind);
        self.sent_edits.push_back(kind);
    }

    /// The worker's answer to the oldest edit sent: one it refused changed
    /// nothing, so it leaves nothing unsaved.
    fn answered(&mut self, applied: bool) {
        let Some(kind) = self.sent_edits.pop_front() else {
            return;
        };
        if !applied {
            return;
        }
        if !self.dirty {
            self.edits = Default::default();
        }
        self.dirty = true;
        self.edits = self.edits.and(kind);
    }

    #[must_use = "the commands are the worker's to carry out"]
    pub fn on_event(&mut self, event: Event) -> Vec<Command> {
        match event {
            Event::Snapshot(s) => return self.on_snapshot(*s),
            Event::Saved(Ok((path, generation))) => return self.on_saved(path, generation),
            Event::Autosaved(Ok((path, _))) => {
                self.set_status(format!("autosaved to the recovery file {}", path.display()), false);
            }
            Event::Autosaved(Err(e)) => self.set_status(format!("autosave failed: {e}"), true),
            Event::SweepPoint(p) => {
                if let View::Sweep(view, _) = &mut self.view {
                    view.add(p);
                }
            }
            Event::SweepEnded(Err(e)) => {
                if let View::Sweep(view, _) = &mut self.view {
                    view.failed = Some(e.to_string());
                }
                self.set_status(format!("the sweep failed: {e}"), true);
            }
            Event::SweepEnded(Ok(())) => {}
            Event::RacksPlaced(placed, generation) => {
                if let View::Racks(..) = self.view {
                    let racks = match placed {
                        Ok(p) => Racks::Placed(p),
                        Err(why) => Racks::Failed(why.to_string()),
                    };
                    self.view = View::Racks(racks, generation);
                }
            }
            Event::Applied(Ok(done)) => {
                self.answered(true);
                self.set_status(done, false);
            }
            Event::Applied(Err(why)) => {
                self.answered(false);
                self.set_status(format!("refused: {why}"), true);
            }
            Event::Saved(Err(e)) => {
                self.after_save = None;
                self.popup(format!("Not saved: {e}"), true);
            }
            Event::Exported(Ok(files)) => {
                let dir = folder_of(&files).map(|d| d.display().to_string()).unwrap_or_default();
                self.set_status(
                    format!("exported {} into {dir}", crate::words::count(files.len(), "file")),
                    false,
                );
            }
            Event::Exported(Err(e)) => self.popup(format!("Export failed: {e}"), true),
            Event::EmulateProgress(what, done, of) => self.set_status(format!("emulate: {what} {done}/{of}"), false),
            Event::Emulated(Ok(summary)) => self.popup(format!("Emulate\n\n{summary}"), false),
            Event::Emulated(Err(e)) => self.popup(format!("Emulate failed: {e}"), true),
            Event::Loaded(Ok(name)) => self.on_loaded(name),
            Event::Loaded(Err(e)) => {
                self.pending_open = None;
                self.popup(format!("Not opened: {e}"), true);
            }
            Event::PinsChecked(Ok(note)) => {
                if let Some(note) = note {
                    self.set_status(format!("the spec's pins: {note}"), false);
                }
            }
            Event::PinsChecked(Err(why)) => {
                self.popup(
                    format!("The spec's pins cannot all be obeyed, so the run is not started: {why}. Clear a pin with c on its cell in the grid, or fix the spec's [[pins]]."),
                    true,
                );
            }
            Event::Failed(e) => {
                self.worker_error = Some(e.clone());
                self.popup(e, true);
            }
        }
        Vec::new()
    }

    fn on_snapshot(&mut self, s: Snapshot) -> Vec<Command> {
        if self.saved_generation == Some(u64::MAX) {
            // A resumed session is saved as it was opened.
            self.saved_generation = Some(s.generation);
        }
        // The worker sends the saved generation's snapshot right
        // after a save: its best design is the one saved.
        if self.saved_best.is_none() && self.saved_generation == Some(s.generation) {
            self.saved_best = Some(best_fitness(&s));
        }
        if self.kept_best.is_none() {
            self.kept_best = Some(best_of(&s));
        }
        self.snapshot = Some(s);
        self.clamp_cursors();
        // Keep the rack view in step with the design (every 50
        // generations): the worker places the racks, off this thread.
        if let View::Racks(_, at) = &mut self.view
            && self
                .snapshot
                .as_ref()
                .is_some_and(|s| s.generation >= *at + 50 || s.generation < *at)
        {
            *at = self.snapshot.as_ref().map_or(0, |s| s.generation);
            return vec![Command::PlaceRacks];
        }
        Vec::new()
    }

    /// Saved for real: the saved state is the snapshot's, and a question
    /// that waited for the save goes on.
    fn on_saved(&mut self, path: PathBuf, generation: u64) -> Vec<Command> {
        self.saved_generation = Some(generation);
        self.saved_best = self
            .snapshot
            .as_ref()
            .filter(|s| s.generation == generation)
            .map(best_fitness);
        self.kept_best = self.snapshot.as_ref().map(best_of);
        self.dirty = false;
        // Saved for real: the recovery files of this run and of its
        // name have done their job (unless one is the file just saved).
        let moot = [
            self.recovery_path.take(),
            self.others_recovery.take(),
            self.recovery_file_of_name(),
        ];
        for r in moot.into_iter().flatten().filter(|r| *r != path) {
            let _ = crate::fs::remove_file(&r);
        }
        self.from_recovery = false;
        self.session_name = stem(&path);
        self.set_status(format!("saved {}", path.display()), false);
        self.session_path = Some(path);
        match self.after_save.take() {
            Some(what) => self.proceed(what),
            None => Vec::new(),
        }
    }

    fn on_loaded(&mut self, name: String) {
        self.session_name = if std::mem::take(&mut self.opened_read_only) {
            format!("{name}-copy")
        } else {
            name
        };
        self.session_path = self.pending_open.take();
        self.recovery_path = None;
        self.saved_generation = Some(u64::MAX);
        self.saved_best = None;
        self.kept_best = None;
        self.dirty = false;
        self.pop_cursor = 0;
        self.set_status(format!("opened {}", self.session_name), false);
        self.opened_session();
    }

    /// Says `msg` on the status line and keeps it in the history; an error
    /// also opens in a popup, whole, unless a popup is open already.
    pub fn set_status(&mut self, msg: String, error: bool) {
        // Control characters shown as escapes: the text may quote an input.
        let text = crate::escape::terminal(&msg);
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back((self.opened.elapsed(), text.clone(), error));
        if error && self.mode == Mode::Normal {
            self.help_scroll = 0;
            self.mode = Mode::Message(text.clone());
        }
        self.status = Some((text.replace('\n', " "), error));
        self.status_at = Some(Instant::now());
    }

    /// A popup with `text` whole, kept in the history too.
    fn popup(&mut self, text: String, error: bool) {
        self.set_status(text.clone(), error);
        self.help_scroll = 0;
        self.mode = Mode::Message(crate::escape::terminal(&text));
    }

    /// The history as one message, newest first.
    fn history_message(&self) -> String {
        if self.history.is_empty() {
            return "Messages\n\nNo messages yet.".into();
        }
        let mut text = String::from("Messages, newest first\n");
        for (at, msg, error) in self.history.iter().rev() {
            let s = at.as_secs();
            let mark = if *error { "✖" } else { "·" };
            text.push_str(&format!(
                "\n{mark} {:02}:{:02}:{:02}  {msg}",
                s / 3600,
                s / 60 % 60,
                s % 60
            ));
        }
        text
    }

    /// The status message while it is fresh: a few seconds, errors longer.
    pub fn status_shown(&self, now: Instant) -> Option<&(String, bool)> {
        let status = self.status.as_ref()?;
        let keep = if status.1 { STATUS_ERROR_FOR } else { STATUS_FOR };
        let fresh = self.status_at.is_none_or(|at| now.duration_since(at) < keep);
        fresh.then_some(status)
    }

    #[must_use = "the commands are the worker's to carry out"]
    pub fn on_key(&mut self, key: KeyEvent) -> Vec<Command> {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            self.quit = true;
            self.interrupted = true;
            return Vec::new();
        }
        // Suspends from any mode, as in a shell; the event loop does it.
        if self.keymap.action(&key) == Some(Action::Suspend) {
            self.suspend = true;
            return Vec::new();
        }
        match self.mode.clone() {
            Mode::Normal => match self.keymap.action(&key) {
                Some(a) => self.act(a),
                // Esc backs out of a view, as it closes a popup.
                None if self.keymap.action_in(Context::Popup, &key) == Some(Action::Cancel) => self.close_view(),
                None => Vec::new(),
            },
            Mode::Help | Mode::Message(_) => {
                // Accept, cancel, help or quit close it; the movement keys
                // scroll the help; nothing leaks to the panes.
                let popup = self.keymap.action_in(Context::Popup, &key);
                match (popup, self.keymap.action(&key)) {
                    (Some(Action::Accept | Action::Cancel), _) | (_, Some(Action::Help | Action::Quit)) => {
                        self.mode = Mode::Normal
                    }
                    (Some(a), _) => {
                        let (page, lines) = self.layout.get().help;
                        let most = lines.saturating_sub(page);
                        self.help_scroll = step_index(self.help_scroll as usize, most + 1, a, page.max(1)) as u16;
                    }
                    _ => {}
                }
                Vec::new()
            }
            Mode::Form(form) => self.form_key(form, key),
            Mode::Export(form) => self.export_key(form, key),
            Mode::Prompt(prompt) => self.prompt_key(prompt, key),
            Mode::Open(list) => self.open_key(list, key),
            Mode::Confirm(what) => self.confirm_key(what, key),
        }
    }

    /// Back from the rack, compare or sweep view to the designer.
    fn close_view(&mut self) -> Vec<Command> {
        let sweeping = matches!(self.view, View::Sweep(..));
        self.view = View::Designer;
        if sweeping { vec![Command::StopSweep] } else { Vec::new() }
    }

    /// Applies one semantic action in normal mode.
    #[must_use = "the commands are the worker's to carry out"]
    pub fn act(&mut self, action: Action) -> Vec<Command> {
        let running = self.snapshot.as_ref().is_some_and(|s| s.running);
        match action {
            // The search's own progress goes to the run's recovery file on
            // the way out (`tui::run`): only the user's edits are worth a question.
            Action::Quit if !self.dirty => {
                self.quit = true;
                return Vec::new();
            }
            Action::Quit => return self.unless_unsaved(Discard::Quit),
            Action::Suspend => self.suspend = true,
            Action::Watch => return self.toggle_watch(),
            Action::Find => {
                self.mode = Mode::Prompt(Prompt {
                    kind: PromptKind::Find,
                    input: String::new().into(),
                })
            }
            Action::TogglePause | Action::Step if self.snapshot.as_ref().is_some_and(|s| s.stopped.is_some()) => {
                self.say_stopped()
            }
            Action::TogglePause => return vec![if running { Command::Pause } else { Command::Resume }],
            Action::Step => return vec![Command::Step],
            Action::NextPane | Action::PrevPane => {
                let order = [Pane::Population, Pane::Chart, Pane::Grid];
                let i = order.iter().position(|p| *p == self.focus).unwrap_or(0);
                let n = if action == Action::NextPane { i + 1 } else { i + 2 };
                self.focus = order[n % 3];
            }
            Action::Up
            | Action::Down
            | Action::Left
            | Action::Right
            | Action::PageUp
            | Action::PageDown
            | Action::Home
            | Action::End => {
                return self.navigate(action);
            }
            Action::Pin => return self.pin(Some(PinKind::Must)),
            Action::Forbid => return self.pin(Some(PinKind::Forbid)),
            Action::ClearPin => return self.pin(None),
            Action::Weights => self.mode = Mode::Form(self.new_form()),
            Action::Export if matches!(self.view, View::Compare(..)) => {
                self.mode = Mode::Prompt(Prompt {
                    kind: PromptKind::ExportCompare,
                    input: "fnn-compare".into(),
                })
            }
            Action::Export => self.mode = Mode::Export(self.new_export_form()),
            Action::Save => match self.session_path.clone() {
                Some(path) => return vec![self.save_command(path)],
                None => self.mode = Mode::Prompt(self.save_as_prompt()),
            },
            Action::SaveAs => self.mode = Mode::Prompt(self.save_as_prompt()),
            Action::Open => return self.unless_unsaved(Discard::Open),
            Action::Restart => return self.unless_unsaved(Discard::Restart),
            Action::Help => {
                self.help_scroll = 0;
                self.mode = Mode::Help
            }
            Action::Messages => {
                self.help_scroll = 0;
                self.mode = Mode::Message(self.history_message());
            }
            // Popup and question keys mean nothing on the panes.
            Action::Accept
            | Action::Cancel
            | Action::Emulate
            | Action::Delete
            | Action::Yes
            | Action::SaveFirst
            | Action::No => {}
            Action::Racks => return self.toggle_racks(),
            Action::Sweep => return self.toggle_sweep(),
            Action::Compare => self.toggle_compare(),
        }
        Vec::new()
    }

    fn toggle_watch(&mut self) -> Vec<Command> {
        let on = !self.snapshot.as_ref().is_some_and(|s| s.watch);
        let what = if on {
            "watch pace: slowed to follow the phases"
        } else {
            "full speed"
        };
        self.set_status(what.into(), false);
        vec![Command::Watch(on)]
    }

    /// A finished run has nothing to pause or step: say so, and how to
    /// search on, rather than let the key do nothing.
    fn say_stopped(&mut self) {
        let why = self.snapshot.as_ref().and_then(|s| s.stopped).map_or("", |r| r.words());
        let restart = self.keymap.keys_for(Action::Restart);
        self.set_status(
            format!("the run has stopped ({why}): nothing to pause or step; {restart} restarts it with a new seed"),
            false,
        );
    }

    fn toggle_racks(&mut self) -> Vec<Command> {
        self.rack_scroll = 0;
        if matches!(self.view, View::Racks(..)) {
            self.view = View::Designer;
        } else if let Some(s) = &self.snapshot {
            // Placing 1024 PCs takes most of a second: a worker job.
            self.view = View::Racks(Racks::Placing, s.generation);
            return vec![Command::PlaceRacks];
        }
        Vec::new()
    }

    fn toggle_sweep(&mut self) -> Vec<Command> {
        if matches!(self.view, View::Sweep(..)) {
            self.view = View::Designer;
            return vec![Command::StopSweep];
        }
        let plan = self.sweep_plan();
        let nics = plan.spec.1;
        self.view = View::Sweep(super::sweep::SweepView::new(plan.clone()), nics);
        vec![Command::Sweep(plan)]
    }

    fn toggle_compare(&mut self) {
        self.view = match (&self.view, &self.snapshot) {
            (View::Compare(..), _) | (_, None) => View::Designer,
            (_, Some(s)) if s.phase != crate::ga::Phase::Full => {
                self.set_status(
                    "the comparison uses the full-size design: wait for the scaled-down phase to end".into(),
                    true,
                );
                View::Designer
            }
            (_, Some(s)) => {
                let (rows, skipped) = crate::topology::compare::compare(&s.cluster, &s.design);
                // The fat-tree's rack plan, shown under the table.
                let racks = crate::topology::artifacts::fat_tree_racks(&s.cluster)
                    .ok()
                    .map(|(_, summary)| summary.trim().to_string());
                self.compare_scroll = (0, 0);
                View::Compare(rows, skipped, racks)
            }
        }
    }

    /// The sweep of the tab: the open design's cluster when there is one.
    pub fn sweep_plan(&self) -> super::sweep::SweepPlan {
        let (pcs, nics, widest) = match &self.snapshot {
            Some(s) => (
                s.cluster.pcs(),
                s.cluster.max_nics(),
                s.cluster.switches.iter().map(|w| w.ports).max().unwrap_or(0),
            ),
            None => (
                self.spec.pcs.count,
                self.spec.pcs.nics,
                self.spec.switches.iter().map(|m| m.ports).max().unwrap_or(0),
            ),
        };
        super::sweep::SweepPlan::for_spec(pcs, nics, widest)
    }

    fn save_command(&self, path: PathBuf) -> Command {
        Command::Save {
            name: stem(&path),
            path,
            autosave: false,
            edits: false,
        }
    }

    /// Save-as offers the session's own file, or for a first save a name
    /// of its own (never a shipped example's or another session's).
    fn save_as_prompt(&self) -> Prompt {
        let default = match &self.session_path {
            Some(p) => p.display().to_string(),
            None => crate::session::fresh_name(&self.session_name, &self.session_dirs),
        };
        Prompt {
            kind: PromptKind::SaveAs,
            input: default.into(),
        }
    }

    fn design_size(&self) -> (usize, usize) {
        self.snapshot
            .as_ref()
            .map_or((0, 0), |s| (s.design.pcs(), s.design.switches()))
    }

    fn navigate(&mut self, action: Action) -> Vec<Command> {
        // The rack and compare views own the movement keys: the hidden
        // population list must not move (it picks the design shown).
        match &self.view {
            View::Racks(placed, _) => {
                let units = match placed {
                    Racks::Placed(p) => p.units as usize,
                    Racks::Placing | Racks::Failed(_) => 0,
                };
                let page = self.layout.get().rack_units as usize;
                let most = units.saturating_sub(page);
                self.rack_scroll = step_index(self.rack_scroll as usize, most + 1, action, page.max(1)) as u32;
                return Vec::new();
            }
            View::Compare(..) => {
                // Wider than the screen: ←/→ scroll by a column's width.
                let (most_x, most_y) = self.layout.get().compare_most;
                let (x, y) = self.compare_scroll;
                self.compare_scroll = match action {
                    Action::Left => (x.saturating_sub(8), y),
                    Action::Right => ((x + 8).min(most_x), y),
                    Action::Home => (0, 0),
                    _ => (x, step_index(y as usize, most_y as usize + 1, action, 10) as u16),
                };
                return Vec::new();
            }
            _ => {}
        }
        if let View::Sweep(run, nics) = &mut self.view {
            let counts = &run.plan.nics;
            let i = counts.iter().position(|n| n == nics).unwrap_or(0);
            let j = match action {
                Action::Left | Action::Up => i.saturating_sub(1),
                Action::Right | Action::Down => (i + 1).min(counts.len() - 1),
                _ => i,
            };
            *nics = counts[j];
            return Vec::new();
        }
        match self.focus {
            Pane::Population => {
                let n = self.snapshot.as_ref().map_or(0, |s| s.members.len());
                let page = self.layout.get().population_rows.max(1);
                self.pop_cursor = step_index(self.pop_cursor, n, action, page);
                self.scroll_population();
                vec![Command::Select(self.pop_cursor)]
            }
            Pane::Grid => {
                let (pcs, switches) = self.design_size();
                let g = self.layout.get();
                let (pc, sw) = self.cursor;
                self.cursor = match action {
                    Action::Left => (pc, sw.saturating_sub(1)),
                    Action::Right => (pc, (sw + 1).min(switches.saturating_sub(1))),
                    _ => (step_index(pc, pcs, action, g.rows.max(1)), sw),
                };
                self.scroll_grid();
                Vec::new()
            }
            Pane::Chart => Vec::new(),
        }
    }

    fn scroll_population(&mut self) {
        let visible = self.layout.get().population_rows.max(1);
        if self.pop_cursor < self.pop_offset {
            self.pop_offset = self.pop_cursor;
        } else if self.pop_cursor >= self.pop_offset + visible {
            self.pop_offset = self.pop_cursor + 1 - visible;
        }
    }

    /// Keeps the grid cursor inside the visible window.
    pub fn scroll_grid(&mut self) {
        let g = self.layout.get();
        let (pc, sw) = self.cursor;
        let (mut r, mut c) = self.grid_offset;
        if pc < r {
            r = pc;
        } else if g.rows > 0 && pc >= r + g.rows {
            r = pc + 1 - g.rows;
        }
        if sw < c {
            c = sw;
        } else if g.cols > 0 && sw >= c + g.cols {
            c = sw + 1 - g.cols;
        }
        self.grid_offset = (r, c);
    }

    fn clamp_cursors(&mut self) {
        let (pcs, switches) = self.design_size();
        let n = self.snapshot.as_ref().map_or(0, |s| s.members.len());
        self.pop_cursor = self.pop_cursor.min(n.saturating_sub(1));
        self.cursor = (
            self.cursor.0.min(pcs.saturating_sub(1)),
            self.cursor.1.min(switches.saturating_sub(1)),
        );
        self.scroll_grid();
    }

    fn pin(&mut self, pin: Option<PinKind>) -> Vec<Command> {
        let Some(s) = &self.snapshot else { return Vec::new() };
        let (pc, switch) = self.cursor;
        if pc >= s.cluster.pcs() || switch >= s.cluster.switch_count() {
            return Vec::new();
        }
        // The worker's run says whether the pin holds (Event::Applied),
        // the scaled-down phase's refusal included.
        let forbid = match pin {
            Some(kind) => kind == PinKind::Forbid,
            None => s.cluster.pins.is_forbidden(pc, switch),
        };
        self.edited(|e| if forbid { e.forbids = true } else { e.pins = true });
        vec![Command::Edit(Edit::Pin { pc, switch, pin })]
    }

    #[must_use = "the commands are the worker's to carry out"]
    pub fn on_mouse(&mut self, m: MouseEvent) -> Vec<Command> {
        // Clicks act on the designer's panes only, as the last frame drew them.
        if self.mode != Mode::Normal || self.view != View::Designer {
            return Vec::new();
        }
        let a = self.layout.get();
        let at = |r: Rect| m.column >= r.x && m.column < r.right() && m.row >= r.y && m.row < r.bottom();
        match m.kind {
            MouseEventKind::Down(button) if at(a.grid) => {
                self.focus = Pane::Grid;
                let Some((r, c)) = a.cell_at(m.column, m.row) else {
                    return Vec::new();
                };
                let cell = (self.grid_offset.0 + r, self.grid_offset.1 + c);
                self.cursor = cell;
                let pinned = self.snapshot.as_ref().map(|s| &s.cluster.pins);
                let pin = match (button, pinned) {
                    (MouseButton::Left, Some(p)) if p.is_must(cell.0, cell.1) => None,
                    (MouseButton::Left, _) => Some(PinKind::Must),
                    (MouseButton::Right, Some(p)) if p.is_forbidden(cell.0, cell.1) => None,
                    (MouseButton::Right, _) => Some(PinKind::Forbid),
                    _ => return Vec::new(),
                };
                self.pin(pin)
            }
            MouseEventKind::Down(MouseButton::Left) if at(a.population) => {
                self.focus = Pane::Population;
                let row = m.row.saturating_sub(a.population.y + 2) as usize + self.pop_offset;
                let n = self.snapshot.as_ref().map_or(0, |s| s.members.len());
                if m.row >= a.population.y + 2 && row < n {
                    self.pop_cursor = row;
                    return vec![Command::Select(row)];
                }
                Vec::new()
            }
            MouseEventKind::Down(_) if at(a.chart) => {
                self.focus = Pane::Chart;
                Vec::new()
            }
            MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
                let down = m.kind == MouseEventKind::ScrollDown;
                let saved = self.focus;
                if at(a.grid) {
                    self.focus = Pane::Grid;
                } else if at(a.population) {
                    self.focus = Pane::Population;
                } else {
                    return Vec::new();
                }
                let mut out = Vec::new();
                for _ in 0..3 {
                    out = self.navigate(if down { Action::Down } else { Action::Up });
                }
                self.focus = saved;
                out
            }
            _ => Vec::new(),
        }
    }

    fn new_form(&self) -> Form {
        let (w, g) = self
            .snapshot
            .as_ref()
            .map_or((self.spec.weights.clone(), self.spec.ga.clone()), |s| {
                (s.cluster.weights.clone(), s.cluster.ga.clone())
            });
        Form {
            fields: super::form::rows(&w, &g)
                .into_iter()
                .map(|(label, value)| Field {
                    label,
                    value: value.into(),
                })
                .collect(),
            cursor: 0,
            error: None,
        }
    }

    fn form_key(&mut self, mut form: Form, key: KeyEvent) -> Vec<Command> {
        use super::line_edit::{Edited, edit};
        let number = |c: char| c.is_ascii_digit() || ".-+eE".contains(c);
        match edit(&mut form.fields[form.cursor].value, key, number) {
            // Said, not silently dropped.
            Edited::Refused(c) => {
                form.error = Some(format!(
                    "`{c}` cannot be part of a number: type digits, `.`, `-` or an exponent `e`"
                ))
            }
            Edited::Changed => form.error = None,
            // The pane keys move between fields.
            Edited::NotEditing => match self.keymap.action_in(Context::Popup, &key).or(self.keymap.action(&key)) {
                Some(Action::Cancel) => {
                    self.mode = Mode::Normal;
                    return Vec::new();
                }
                Some(a @ (Action::Up | Action::PrevPane | Action::Down | Action::NextPane)) => form.step(a),
                Some(Action::Accept) => match self.parse_form(&form) {
                    Ok((w, g)) => {
                        self.mode = Mode::Normal;
                        self.edited(|e| e.weights = true);
                        return vec![Command::Edit(Edit::Tune { weights: w, ga: g })];
                    }
                    Err(e) => form.error = Some(e.to_string()),
                },
                _ => {}
            },
        }
        self.mode = Mode::Form(form);
        Vec::new()
    }

    /// Parses the form and validates its values exactly as a spec file's
    /// would be. The spec is not resolved here: the worker's run resolves
    /// it once, with the edit, and says if it refuses it.
    fn parse_form(&self, form: &Form) -> Result<(Weights, GaParams), FormError> {
        let (mut w, mut g) = self
            .snapshot
            .as_ref()
            .map_or((self.spec.weights.clone(), self.spec.ga.clone()), |s| {
                (s.cluster.weights.clone(), s.cluster.ga.clone())
            });
        let values: Vec<String> = form.fields.iter().map(|f| f.value.value().to_string()).collect();
        super::form::read(&values, &mut w, &mut g)?;
        let mut spec = self.spec.clone();
        spec.weights = w.clone();
        spec.ga = g.clone();
        spec.source = "form".into();
        spec.check_tuning()?;
        Ok((w, g))
    }

    /// The export form, filled with what an export of the design at hand
    /// would use by default.
    fn new_export_form(&self) -> Form {
        let nics = self
            .snapshot
            .as_ref()
            .map_or(self.spec.pcs.nics, |s| s.cluster.max_nics())
            .max(1);
        let order: Vec<String> = (1..=nics).map(|n| n.to_string()).collect();
        let field = |label, value: &str| Field {
            label,
            value: value.into(),
        };
        Form {
            fields: vec![
                field(EXPORT_FIELDS[0], "fnn-export"),
                field(EXPORT_FIELDS[1], "all"),
                field(EXPORT_FIELDS[2], ""),
                field(EXPORT_FIELDS[3], &order.join(",")),
                field(EXPORT_FIELDS[4], "saved"),
            ],
            cursor: 0,
            error: None,
        }
    }

    fn export_key(&mut self, mut form: Form, key: KeyEvent) -> Vec<Command> {
        use super::line_edit::{Edited, edit};
        if edit(&mut form.fields[form.cursor].value, key, |c| !c.is_control()) != Edited::NotEditing {
            form.error = None;
            self.mode = Mode::Export(form);
            return Vec::new();
        }
        match self.keymap.action_in(Context::Popup, &key).or(self.keymap.action(&key)) {
            Some(Action::Cancel) => {
                self.mode = Mode::Normal;
                return Vec::new();
            }
            Some(a @ (Action::Up | Action::PrevPane | Action::Down | Action::NextPane)) => form.step(a),
            Some(Action::Accept) => match self.export_command(&form) {
                Ok(c) => {
                    self.mode = Mode::Normal;
                    return vec![c];
                }
                Err(e) => form.error = Some(e.to_string()),
            },
            Some(Action::Emulate) => match crate::emulate::available() {
                Ok(()) => {
                    self.mode = Mode::Normal;
                    self.set_status("emulate: building the network…".to_string(), false);
                    return vec![Command::Emulate {
                        probe_order: Some(form.fields[3].value.value().trim().to_string()).filter(|p| !p.is_empty()),
                    }];
                }
                Err(why) => form.error = Some(format!("emulate cannot run here: {why}")),
            },
            _ => {}
        }
        self.mode = Mode::Export(form);
        Vec::new()
    }

    /// The export the form asks for; the worker reads the files it names.
    fn export_command(&self, form: &Form) -> Result<Command, ExportFormError> {
        use crate::export::choices::{Choices, Rewire};
        let value = |i: usize| form.fields[i].value.value().trim().to_string();
        let dir = value(0);
        if dir.is_empty() {
            return Err(ExportFormError::NoFolder);
        }
        let only: Vec<String> = match value(1).as_str() {
            "" | "all" => Vec::new(),
            list => list
                .split(',')
                .map(|a| a.trim().to_string())
                .filter(|a| !a.is_empty())
                .collect(),
        };
        if let Some(bad) = only.iter().find(|a| !crate::export::ARTIFACTS.contains(&a.as_str())) {
            return Err(ExportFormError::NotAnArtifact(bad.clone()));
        }
        let probe_order = Some(value(3)).filter(|p| !p.is_empty());
        if let Some(p) = &probe_order {
            crate::routing::Interfaces::parse(p).map_err(ExportFormError::ProbeOrder)?;
        }
        let rewire = value(4);
        let (rewire, rewire_from_saved) = match rewire.as_str() {
            "saved" => (None, true),
            "" | "none" => (None, false),
            t if t.ends_with(".txt") => (Some(Rewire::Table(PathBuf::from(t))), false),
            name => (Some(Rewire::Session(name.to_string())), false),
        };
        Ok(Command::Export {
            dir: PathBuf::from(dir),
            choices: Choices {
                only,
                probe_order,
                macs: Some(value(2)).filter(|m| !m.is_empty()).map(PathBuf::from),
                rewire,
            },
            rewire_from_saved,
            session_dirs: self.session_dirs.clone(),
        })
    }

    fn prompt_key(&mut self, mut prompt: Prompt, key: KeyEvent) -> Vec<Command> {
        if super::line_edit::edit(&mut prompt.input, key, |c| !c.is_control()) != super::line_edit::Edited::NotEditing {
            self.mode = Mode::Prompt(prompt);
            return Vec::new();
        }
        match self.keymap.action_in(Context::Popup, &key) {
            Some(Action::Cancel) => {
                self.mode = Mode::Normal;
                return Vec::new();
            }
            Some(Action::Accept) if prompt.kind == PromptKind::Find => {
                self.mode = Mode::Normal;
                self.go_to(prompt.input.value());
                return Vec::new();
            }
            Some(Action::Accept) if !prompt.input.value().trim().is_empty() => {
                self.mode = Mode::Normal;
                let path = PathBuf::from(prompt.input.value().trim());
                return match prompt.kind {
                    PromptKind::Find => Vec::new(),
                    PromptKind::ExportCompare => vec![Command::ExportCompare { dir: path }],
                    PromptKind::SaveAs => {
                        let sessions = data_dir().unwrap_or_else(|| PathBuf::from("saves"));
                        match crate::session::save_target(prompt.input.value(), &sessions) {
                            Ok(path) => vec![self.save_command(path)],
                            Err(why) => {
                                self.popup(format!("Not saved: {why}"), true);
                                Vec::new()
                            }
                        }
                    }
                };
            }
            _ => {}
        }
        self.mode = Mode::Prompt(prompt);
        Vec::new()
    }

    /// The grid's cursor on what `query` names (`find::find`); a name
    /// that is not there opens a message saying what is.
    fn go_to(&mut self, query: &str) {
        let Some(s) = &self.snapshot else { return };
        let found = super::find::find(&s.cluster, query);
        let (pc, sw) = self.cursor;
        match found.map(|f| (f.pc.unwrap_or(pc), f.switch.unwrap_or(sw))) {
            Ok((pc, sw)) => {
                let name = s.cluster.pc_name(pc);
                self.cursor = (pc, sw);
                self.focus = Pane::Grid;
                self.view = View::Designer;
                self.scroll_grid();
                self.set_status(format!("cursor on {name}, switch {sw}"), false);
            }
            Err(why) => self.popup(format!("Not found: {why}"), true),
        }
    }

    fn open_key(&mut self, mut list: OpenList, key: KeyEvent) -> Vec<Command> {
        if let Some(path) = list.deleting.take() {
            if self.keymap.action_in(Context::Confirm, &key) == Some(Action::Yes) {
                self.delete_recovery(&mut list, &path);
            }
            self.mode = Mode::Open(list);
            return Vec::new();
        }
        let action = self
            .keymap
            .action_in(Context::Popup, &key)
            .or_else(|| self.keymap.action(&key).filter(|a| *a == Action::Quit));
        match action {
            Some(Action::Cancel | Action::Quit) => {
                self.mode = Mode::Normal;
                return Vec::new();
            }
            Some(Action::Delete) => match list.entries.get(list.cursor) {
                Some(e) if crate::session::is_recovery_file(&e.path) => list.deleting = Some(e.path.clone()),
                Some(e) => self.set_status(
                    format!(
                        "only recovery files are deleted from here; {} is a session (remove its file to drop it)",
                        e.path.display()
                    ),
                    false,
                ),
                None => {}
            },
            Some(Action::Accept) => {
                let Some(entry) = list.entries.get(list.cursor).cloned() else {
                    return Vec::new();
                };
                self.mode = Mode::Normal;
                // A built-in example is opened by its name.
                let arg = match entry.example {
                    true => entry.name.clone(),
                    false => entry.path.display().to_string(),
                };
                return match crate::session::open_session(&arg, &self.session_dirs) {
                    Ok((session, writable)) => {
                        // A shipped example opens read-only, as an untitled copy.
                        self.opened_read_only = writable.is_none();
                        self.pending_open = writable;
                        self.spec = session.spec.clone();
                        vec![Command::Load(Box::new(session))]
                    }
                    Err(e) => {
                        self.popup(format!("Not opened: {e}"), true);
                        Vec::new()
                    }
                };
            }
            Some(a) => list.cursor = step_index(list.cursor, list.entries.len(), a, 10),
            _ => {}
        }
        self.mode = Mode::Open(list);
        Vec::new()
    }

    /// Deletes the recovery file `path` and drops it from the list.
    fn delete_recovery(&mut self, list: &mut OpenList, path: &std::path::Path) {
        match crate::fs::remove_file(path) {
            Ok(()) => {
                if let Some(i) = list.entries.iter().position(|e| e.path == path) {
                    list.entries.remove(i);
                    if i < list.summaries.len() {
                        list.summaries.remove(i);
                    }
                }
                list.cursor = list.cursor.min(list.entries.len().saturating_sub(1));
                self.set_status(format!("deleted the recovery file {}", path.display()), false);
            }
            Err(e) => self.set_status(
                format!("cannot delete {}: {}", path.display(), crate::input::os_reason(&e)),
                false,
            ),
        }
    }

    /// Does `what` at once when nothing is unsaved, else asks first.
    fn unless_unsaved(&mut self, what: Discard) -> Vec<Command> {
        if self.unsaved() {
            self.mode = Mode::Confirm(what);
            Vec::new()
        } else {
            self.proceed(what)
        }
    }

    /// Quits, opens the session list, or restarts with the next seed.
    fn proceed(&mut self, what: Discard) -> Vec<Command> {
        self.mode = Mode::Normal;
        match what {
            Discard::Quit => self.quit = true,
            Discard::Open => {
                let entries = crate::session::list_with_examples(&self.session_dirs);
                let summaries = entries.iter().map(crate::session::entry_summary).collect();
                self.mode = Mode::Open(OpenList {
                    entries,
                    summaries,
                    cursor: 0,
                    deleting: None,
                })
            }
            Discard::Restart => {
                let seed = self
                    .snapshot
                    .as_ref()
                    .map_or(self.spec.ga.seed, |s| s.cluster.ga.seed)
                    .wrapping_add(1);
                self.edited(|e| e.restart = true);
                return vec![Command::Edit(Edit::Restart(seed))];
            }
        }
        Vec::new()
    }

    fn confirm_key(&mut self, what: Discard, key: KeyEvent) -> Vec<Command> {
        match self.keymap.action_in(Context::Confirm, &key) {
            Some(Action::Yes) => return self.proceed(what),
            Some(Action::SaveFirst) => {
                self.mode = Mode::Normal;
                self.after_save = Some(what);
                return match self.session_path.clone() {
                    Some(p) => vec![self.save_command(p)],
                    None => {
                        self.mode = Mode::Prompt(self.save_as_prompt());
                        Vec::new()
                    }
                };
            }
            Some(Action::No) => self.mode = Mode::Normal,
            _ => {}
        }
        Vec::new()
    }

    /// The recovery file of this run's name: one per session name,
    /// replaced by each run of it (an editor's auto-save file), never a
    /// session's own file. Without a data folder, a private folder of this
    /// run's.
    pub fn recovery_file(&mut self) -> PathBuf {
        if self.recovery_path.is_none() {
            let mine = self
                .recovery_file_of_name()
                .map(|r| match self.others_recovery == Some(r.clone()) {
                    true => free_beside(&r),
                    false => r,
                });
            self.recovery_path = Some(mine.unwrap_or_else(|| {
                crate::atomic::private_dir("fnn-tui-recovery-")
                    .unwrap_or_else(|_| PathBuf::from("."))
                    .join(self.recovery_file_name())
            }));
        }
        self.recovery_path.clone().unwrap_or_default()
    }

    /// After a session is opened (at start or by `o`). A recovery file
    /// becomes this run's recovery file and a save writes its session's own
    /// file (`recovery/NAME.toml` saves to `NAME.toml` beside the folder).
    /// A session whose recovery file another run left says so, as an
    /// editor's swap-file warning, and this run keeps its work apart.
    pub fn opened_session(&mut self) {
        self.from_recovery = false;
        self.others_recovery = None;
        match self.session_path.clone() {
            Some(path) if crate::session::is_recovery_file(&path) => return self.opened_recovery(path),
            _ => {}
        }
        let Some(theirs) = self.recovery_file_of_name().filter(|r| r.exists()) else {
            return;
        };
        // A fresh run may replace a search's progress alone, never edits.
        if self.session_path.is_none() && !crate::session::holds_user_edits(&theirs) {
            return;
        }
        let age = std::fs::metadata(&theirs)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .map_or_else(|| "earlier".into(), crate::session::ago);
        let first = format!(
            "{} has a recovery file from {age} with unsaved work: o to open it.",
            self.session_name
        );
        self.popup(
            format!(
                "{first}\n\n\
                 This run leaves it as it is: its own unsaved work goes to another\n\
                 recovery file, and a save (s) makes both moot."
            ),
            false,
        );
        // The status line has room for the news alone, not the whole popup.
        let short = format!("{} has a recovery file: o to open it", self.session_name);
        self.status = Some((crate::escape::terminal(&short), false));
        self.recovery_path = None;
        self.others_recovery = Some(theirs);
    }

    /// Opened from the recovery file `path`: it is this run's recovery
    /// file, and a save writes the session's own file.
    fn opened_recovery(&mut self, path: PathBuf) {
        self.from_recovery = true;
        self.recovery_path = Some(path.clone());
        self.session_path = own_file_of(&path, &self.session_name);
        let to = self.session_path.as_deref().unwrap_or(&path).display().to_string();
        self.set_status(
            format!("opened the recovery file {}: s saves it to {to}", path.display()),
            false,
        );
    }

    /// The name's recovery file in the data folder, if there is one.
    fn recovery_file_of_name(&self) -> Option<PathBuf> {
        crate::session::recovery_dir().map(|d| d.join(self.recovery_file_name()))
    }

    fn recovery_file_name(&self) -> String {
        // The same stem a first save offers (a 300-character name lost its
        // work before the stem was cut to fit).
        format!("{}.toml", crate::session::file_stem_of(&self.session_name))
    }

    /// A save when unsaved work has waited long enough: to this run's
    /// recovery file (the session's own file is written only by a save).
    #[must_use = "the command is the worker's to carry out"]
    pub fn autosave(&mut self, now: Instant) -> Option<Command> {
        if !self.worth_recovering() || now.duration_since(self.last_autosave) < AUTOSAVE_EVERY {
            return None;
        }
        self.last_autosave = now;
        let path = self.recovery_file();
        Some(Command::Save {
            path,
            name: self.session_name.clone(),
            autosave: true,
            edits: self.holds_edits(),
        })
    }
}

/// Moves an index in a list of `n` by one action.
fn step_index(i: usize, n: usize, action: Action, page: usize) -> usize {
    let last = n.saturating_sub(1);
    match action {
        Action::Up => i.saturating_sub(1),
        Action::Down => (i + 1).min(last),
        Action::PageUp => i.saturating_sub(page),
        Action::PageDown => (i + page).min(last),
        Action::Home => 0,
        Action::End => last,
        _ => i,
    }
}

/// The best member's fitness: what a save keeps of the search's progress.
fn best_fitness(s: &Snapshot) -> f64 {
    s.members.first().map_or(f64::NEG_INFINITY, |m| m.fitness)
}

/// The folder an export wrote into: the deepest folder holding every file
/// (the first file may sit in a subfolder), as the real absolute path.
fn folder_of(files: &[PathBuf]) -> Option<PathBuf> {
    let mut common = files.first()?.parent()?.to_path_buf();
    for f in &files[1..] {
        while !f.starts_with(&common) {
            common = common.parent()?.to_path_buf();
        }
    }
    std::fs::canonicalize(&common)
        .or_else(|_| std::path::absolute(&common))
        .ok()
}

/// The best fitness in a snapshot and whether it is valid.
fn best_of(s: &Snapshot) -> (f64, bool) {
    let best = s.members.iter().map(|m| m.fitness).fold(f64::NEG_INFINITY, f64::max);
    (best, s.valid)
}

/// The session's own file for the recovery file `recovery`: `NAME.toml`
/// in the folder that holds the recovery folder, or the first free
/// `NAME-2.toml`… when NAME is a shipped example's (`--resume NAME` always
/// opens the example, so a session of that name could not be reached).
fn own_file_of(recovery: &std::path::Path, name: &str) -> Option<PathBuf> {
    let sessions = recovery.parent()?.parent()?;
    let stem = crate::session::file_stem_of(name);
    let stem = if crate::session::is_example_name(&stem) {
        crate::session::fresh_name(&stem, &[sessions.to_path_buf()])
    } else {
        stem
    };
    Some(sessions.join(format!("{stem}.toml")))
}

/// A recovery file name beside `taken` that no file has (`NAME-2.toml`,
/// `NAME-3.toml`...), so another run's recovery file is never replaced.
fn free_beside(taken: &std::path::Path) -> PathBuf {
    let stem = taken
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    (2..u32::MAX)
        .map(|k| taken.with_file_name(format!("{stem}-{k}.toml")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| taken.with_file_name(format!("{stem}-run.toml")))
}

fn stem(p: &std::path::Path) -> String {
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "session".into())
}
