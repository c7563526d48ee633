//! What the guide (docs/designer.md) and the help promise about the designer's keys and
//! status bar, held through the real event loop on a test terminal at the
//! sizes a user has (80x24 first), and through the real GA worker.

#![cfg(feature = "tui")]

use crate::tui::scaled_spec;
use fnn_tui::ga::Engine;
use fnn_tui::run::{Edit, Run};
use fnn_tui::spec::Spec;
use fnn_tui::tui::app::{App, Mode};
use fnn_tui::tui::keymap::{Keymap, key_name};
use fnn_tui::tui::theme::Theme;
use fnn_tui::tui::worker::{Command, Event, Snapshot, Worker, snapshot};
use fnn_tui::tui::{config, ui};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event as CtEvent, KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

fn ctrl(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
}

/// The KLAT2 default after `generations` generations (seed fixed), as
/// the designer shows it at `w`x`h`.
fn app_after(generations: usize, w: u16, h: u16) -> (App, Engine) {
    let spec = Spec::klat2();
    let mut engine = Engine::new(spec.resolve().unwrap());
    for _ in 0..generations {
        engine.step();
    }
    let mut app = App::new(spec, "KLAT2".into(), None, Keymap::default(), Theme::plain());
    app.size = Rect::new(0, 0, w, h);
    let _ = app.on_event(Event::Snapshot(Box::new(shot(&engine, true))));
    (app, engine)
}

/// The worker's snapshot of a run around a copy of `engine` (its
/// checkpoint restored), so the test steps on with the engine itself.
fn shot(engine: &Engine, running: bool) -> Snapshot {
    let copy = Engine::from_state(engine.cluster().clone(), &engine.state()).expect("its own state");
    snapshot(&Run::of_engine(Spec::default(), copy), 0, running, 0.0, Duration::ZERO)
}

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| ui::render(app, f)).unwrap();
    format!("{}", t.backend())
}

/// The screen's rows as they read, without the backend's quotes.
fn rows(screen: &str) -> Vec<String> {
    screen.lines().map(|l| l.trim_matches('"').to_string()).collect()
}

/// The real event loop on a `w`x`h` test terminal, the test as the
/// worker: keys and events go in, commands come out, and on leaving the
/// app and the last frame the loop drew come back.
struct Loop {
    keys: crossbeam_channel::Sender<CtEvent>,
    commands: crossbeam_channel::Receiver<Command>,
    events: crossbeam_channel::Sender<Event>,
    handle: std::thread::JoinHandle<(App, String)>,
}

impl Loop {
    fn start(mut app: App, w: u16, h: u16) -> Loop {
        let (keys, input) = crossbeam_channel::unbounded();
        let (cmd_tx, commands) = crossbeam_channel::unbounded();
        let (events, ev_rx) = crossbeam_channel::unbounded();
        let handle = std::thread::spawn(move || {
            let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
            fnn_tui::tui::event_loop(&mut terminal, &mut app, &cmd_tx, &ev_rx, &input, None).unwrap();
            let last = format!("{}", terminal.backend());
            (app, last)
        });
        Loop {
            keys,
            commands,
            events,
            handle,
        }
    }

    fn key(&self, k: KeyEvent) {
        self.keys.send(CtEvent::Key(k)).unwrap();
    }

    fn event(&self, e: Event) {
        self.events.send(e).unwrap();
    }

    /// The next command the loop sends the worker, the autosave's aside.
    fn command(&self) -> Command {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match self.commands.recv_deadline(deadline) {
                Ok(Command::Save { autosave: true, .. }) => {}
                Ok(c) => return c,
                Err(_) => panic!("the event loop sent the worker nothing"),
            }
        }
    }

    /// Waits until the loop has taken every key and event sent: the loop
    /// handles what it takes before it looks for more, so a key sent
    /// after this is handled after them.
    fn settle(&self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !(self.keys.is_empty() && self.events.is_empty()) {
            assert!(Instant::now() < deadline, "the event loop took nothing");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Leaves with ctrl-c (which changes nothing on screen but the exit):
    /// the app and the last frame drawn.
    fn quit(self) -> (App, String) {
        self.settle();
        self.key(ctrl('c'));
        self.handle.join().expect("the event loop ends")
    }
}

/// The last two rows: the status bar.
fn status_bar(screen: &str) -> String {
    let rows = rows(screen);
    rows[rows.len() - 2..].join("\n")
}

/// The backticked names in `text`.
fn backticked(text: &str) -> Vec<String> {
    text.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// The keys of the guide's key table (docs/designer.md): its first
/// column, as the help names them.
fn guide_keys() -> BTreeSet<String> {
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/designer.md")).unwrap();
    let table: Vec<&str> = guide
        .lines()
        .skip_while(|l| !l.starts_with("| keys |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert!(table.len() > 10, "the key table of docs/designer.md was not found");
    table
        .iter()
        .flat_map(|row| backticked(row.trim_start_matches('|').split(" | ").next().unwrap_or("")))
        .collect()
}

/// The keys the help popup shows, read off the screen: the first column
/// of each of its rows.
fn help_keys(app: &mut App) -> BTreeSet<String> {
    app.mode = Mode::Help;
    let rows: Vec<Vec<char>> = rows(&screen(app, 120, 200))
        .iter()
        .map(|r| r.chars().collect())
        .collect();
    let top = rows
        .iter()
        .position(|r| r.iter().collect::<String>().contains("┌ Help "))
        .expect("the help is open");
    let at = rows[top].iter().collect::<String>().find("┌ Help ").unwrap();
    let col = rows[top][..].iter().collect::<String>()[..at].chars().count();
    let mut keys = BTreeSet::new();
    for row in &rows[top + 1..] {
        if row[col] == '└' {
            break;
        }
        let first: String = row[col + 1..(col + 17).min(row.len())].iter().collect();
        keys.extend(first.split_whitespace().map(str::to_string));
    }
    assert!(keys.len() > 20, "the help's keys were not found: {keys:?}");
    keys
}

/// The help as it reads at 80x24, row by row inside its frame: scrolled a
/// row at a time until the scroll stops moving.
fn help_rows_at_80x24(app: &mut App) -> Vec<String> {
    app.mode = Mode::Help;
    let inside = |screen: &str| -> Vec<String> {
        let rows = rows(screen);
        let top = rows
            .iter()
            .position(|r| r.contains("┌ Help "))
            .expect("the help is open");
        let at = rows[top].find("┌ Help ").unwrap();
        let col = rows[top][..at].chars().count();
        rows[top + 1..]
            .iter()
            .take_while(|r| r.chars().nth(col) != Some('└'))
            .map(|r| r.chars().skip(col + 1).take_while(|&c| c != '│').collect())
            .collect()
    };
    let mut all = Vec::new();
    let mut last = Vec::new();
    for scroll in 0..1000 {
        app.help_scroll = scroll;
        let now = inside(&screen(app, 80, 24));
        if now == last {
            break;
        }
        all.push(now[0].clone());
        last = now;
    }
    all.extend(last.into_iter().skip(1));
    all
}

/// At 80 columns a description longer than its column wraps, and its
/// later lines hang under the description, never at the key column.
#[test]
fn the_help_hangs_wrapped_descriptions_under_their_column_at_80x24() {
    let (mut app, _) = app_after(3, 80, 24);
    let rows = help_rows_at_80x24(&mut app);
    let mut wrapped = 0;
    for b in &app.keymap.bindings {
        let keys: Vec<String> = b.keys.iter().map(key_name).collect();
        let keys = keys.join(" ");
        let first_word = b.help.split(' ').next().unwrap();
        let at = rows.iter().position(|r| {
            let (k, rest): (String, String) = (r.chars().take(16).collect(), r.chars().skip(16).collect());
            // The row's description is the start of this binding's (the
            // same key may mean something else in another context).
            k.trim() == keys && rest.starts_with(first_word) && b.help.starts_with(rest.trim_end())
        });
        let Some(at) = at else { continue };
        if b.help.chars().count() <= rows[at].trim_end().chars().count() - 16 {
            continue;
        }
        wrapped += 1;
        let next = &rows[at + 1];
        let lead: String = next.chars().take(16).collect();
        assert!(
            lead.trim().is_empty() && next.chars().nth(16).is_some_and(|c| c != ' '),
            "{keys}: the wrapped line is not under the description:\n{}\n{next}",
            rows[at]
        );
    }
    assert!(
        wrapped > 0,
        "no description wrapped at 80 columns:\n{}",
        rows.join("\n")
    );
}

/// Every key the designer obeys, named as the help names them: the
/// keymap's, ctrl-c (quit now) and the line editor's.
fn bound_keys(km: &Keymap) -> BTreeSet<String> {
    let mut keys: BTreeSet<String> = km.bindings.iter().flat_map(|b| b.keys.iter().map(key_name)).collect();
    keys.insert("ctrl-c".into());
    for (k, _) in fnn_tui::tui::line_edit::editing_keys() {
        // Bound for real: the line editor changes a line with it.
        let mut line = fnn_tui::tui::line_edit::TextInput::from("out/fnn export");
        let edited = fnn_tui::tui::line_edit::edit(&mut line, k, |_| true);
        assert_eq!(edited, fnn_tui::tui::line_edit::Edited::Changed, "{}", key_name(&k));
        assert_ne!(line.value(), "out/fnn export", "{} changed nothing", key_name(&k));
        keys.insert(key_name(&k));
    }
    keys
}

/// The guide's key table, the help and the keymap list the same keys:
/// every key of the table is shown in the help and obeyed, and every key
/// obeyed is in the table and the help (`v` was in the table only).
#[test]
fn the_guide_key_table_the_help_and_the_keymap_agree() {
    let (mut app, _) = app_after(3, 120, 40);
    let guide = guide_keys();
    let help = help_keys(&mut app);
    let bound = bound_keys(&app.keymap);
    let missing =
        |what: &BTreeSet<String>, from: &BTreeSet<String>| -> Vec<String> { what.difference(from).cloned().collect() };
    assert_eq!(
        missing(&guide, &help),
        Vec::<String>::new(),
        "keys of docs/designer.md not in the help"
    );
    assert_eq!(
        missing(&guide, &bound),
        Vec::<String>::new(),
        "keys of docs/designer.md bound to nothing"
    );
    assert_eq!(
        missing(&bound, &guide),
        Vec::<String>::new(),
        "bound keys not in docs/designer.md"
    );
    assert_eq!(
        missing(&bound, &help),
        Vec::<String>::new(),
        "bound keys not in the help"
    );
}

/// `v` toggles the watch pace, as the guide and `--watch` say: through
/// the real event loop, on and off, and the status bar says so.
#[test]
fn v_toggles_the_watch_pace_through_the_event_loop() {
    let (app, engine) = app_after(3, 80, 24);
    let ui = Loop::start(app, 80, 24);
    ui.key(key('v'));
    assert!(
        matches!(ui.command(), Command::Watch(true)),
        "v did not turn the pace on"
    );
    // The worker's answer: a snapshot at the watch pace.
    let mut s = shot(&engine, true);
    s.watch = true;
    ui.event(Event::Snapshot(Box::new(s)));
    ui.settle();
    ui.key(key('v'));
    assert!(matches!(ui.command(), Command::Watch(false)), "v did not turn it off");
    let (_, last) = ui.quit();
    let bar = status_bar(&last);
    assert!(bar.contains("full speed") && bar.contains("watch pace"), "{last}");
}

/// The pause key's hint reads "pause" while the run goes on and "resume"
/// once it is paused, through the real event loop.
#[test]
fn the_pause_hint_reads_resume_while_paused() {
    let (app, engine) = app_after(3, 200, 60);
    let ui = Loop::start(app, 200, 60);
    ui.event(Event::Snapshot(Box::new(shot(&engine, true))));
    ui.settle();
    ui.key(key(' '));
    assert!(matches!(ui.command(), Command::Pause), "space did not pause");
    ui.event(Event::Snapshot(Box::new(shot(&engine, false))));
    let (_, last) = ui.quit();
    let bar = status_bar(&last);
    assert!(bar.contains("space resume") && !bar.contains("space pause"), "{bar}");
    let (app, engine) = app_after(3, 200, 60);
    let ui = Loop::start(app, 200, 60);
    ui.event(Event::Snapshot(Box::new(shot(&engine, true))));
    let (_, last) = ui.quit();
    let bar = status_bar(&last);
    assert!(bar.contains("space pause") && !bar.contains("space resume"), "{bar}");
}

/// `[keys] watch = [...]` in config.toml rebinds the watch pace (it was
/// ignored: the action had no key); an action the designer does not
/// have is refused naming the file, never ignored.
#[test]
fn the_config_file_rebinds_the_watch_pace_and_refuses_unknown_actions() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, "[keys]\nwatch = [\"V\"]\n").unwrap();
    let (km, _) = config::load(Some(&path), false).unwrap();
    assert_eq!(km.action(&key('V')), Some(fnn_tui::tui::keymap::Action::Watch));
    assert_eq!(km.action(&key('v')), None, "the old key is replaced");
    let mut app = App::new(Spec::klat2(), "t".into(), None, km, Theme::plain());
    let engine = Engine::new(Spec::klat2().resolve().unwrap());
    let _ = app.on_event(Event::Snapshot(Box::new(shot(&engine, true))));
    assert!(matches!(app.on_key(key('V')).as_slice(), [Command::Watch(true)]));
    assert!(help_keys(&mut app).contains("V"), "the help shows the key in force");
    std::fs::write(&path, "[keys]\nwach = [\"v\"]\n").unwrap();
    let e = config::load(Some(&path), false).unwrap_err().to_string();
    assert!(
        e.contains("config.toml") && e.contains("wach") && e.contains("watch"),
        "{e}"
    );
}

fn worker_on(spec: Spec, running: bool) -> Worker {
    let engine = Engine::new(spec.resolve().unwrap());
    Worker::spawn(fnn_tui::run::Run::of_engine(spec, engine), "t".into(), running, None)
}

/// The next snapshot the worker sends that `pick` accepts.
fn next_snapshot(worker: &Worker, pick: impl Fn(&Snapshot) -> bool) -> Snapshot {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match worker.rx.recv_deadline(deadline) {
            Ok(Event::Snapshot(s)) if pick(&s) => return *s,
            Ok(_) => {}
            Err(_) => panic!("no such snapshot from the worker"),
        }
    }
}

/// The clock is wall time while the run runs: at the watch pace the
/// scaled-down generations come one per WATCH_SCALED, so after four of
/// them it reads at least three paces (it read compute time only, a
/// fraction of that: 00:00:01 after 20 s).
#[test]
fn the_clock_counts_wall_time_at_the_watch_pace() {
    use fnn_tui::tui::worker::WATCH_SCALED;
    let worker = worker_on(scaled_spec(), false);
    worker.send(Command::Watch(true));
    worker.send(Command::Resume);
    let first = next_snapshot(&worker, |s| s.running && s.watch).generation;
    let s = next_snapshot(&worker, |s| s.generation >= first + 4);
    assert!(
        matches!(s.phase, fnn_tui::ga::Phase::Scaled { .. }),
        "still in the scaled-down phase"
    );
    let paces = (s.generation - first - 1) as f64;
    let least = paces * WATCH_SCALED.as_secs_f64();
    assert!(
        s.elapsed_s >= least * 0.99,
        "{} generations at the watch pace, yet the clock reads {:.2} s (at least {least:.2} s passed)",
        s.generation - first,
        s.elapsed_s
    );
}

/// A resumed session read "257.8k evals, 0/s ... 00:00:00": its count
/// carried the runs before it, the clock and the rate did not. The
/// evaluations, the rate and the clock all count this run.
#[test]
fn a_resumed_session_counts_evaluations_as_its_clock_does() {
    let spec = Spec::klat2();
    let mut run = fnn_tui::run::Run::new(spec).unwrap();
    for _ in 0..30 {
        run.step();
    }
    assert!(run.engine().evaluations() > 0);
    let session = run.session("kept");
    let resumed = fnn_tui::run::Run::resume(&session).unwrap();
    let worker = Worker::spawn(resumed, "kept".into(), false, None);
    let s = next_snapshot(&worker, |s| !s.running);
    assert_eq!((s.evaluations, s.elapsed_s), (0, 0.0), "evaluations without time");
    let mut app = App::new(Spec::klat2(), "kept".into(), None, Keymap::default(), Theme::plain());
    app.size = Rect::new(0, 0, 200, 60);
    let _ = app.on_event(Event::Snapshot(Box::new(s)));
    let bar = status_bar(&screen(&app, 200, 60));
    assert!(bar.contains("│ 0 evals, 0/s │") && bar.contains("00:00:00"), "{bar}");
}

/// Once the run is paused its clock and evals/s stand still, however
/// long it stays paused, and the rate is the run's own (it kept falling:
/// evaluations over a clock still counting).
#[test]
fn the_clock_and_the_rate_stand_still_once_the_run_is_paused() {
    let worker = worker_on(Spec::klat2(), true);
    next_snapshot(&worker, |s| s.generation >= 20);
    worker.send(Command::Pause);
    let a = next_snapshot(&worker, |s| !s.running);
    std::thread::sleep(Duration::from_millis(600));
    worker.send(Command::Select(0));
    let b = next_snapshot(&worker, |s| !s.running);
    assert_eq!(a.generation, b.generation);
    assert!(a.evals_per_sec > 0.0, "a run that evaluated has a rate");
    assert_eq!(
        (a.elapsed_s, a.evals_per_sec),
        (b.elapsed_s, b.evals_per_sec),
        "the clock or the rate moved while paused"
    );
}

/// At 80x24, in the widest state there is (scaled-down phase, not
/// valid, stopped with its reason, the watch pace, unsaved edits and
/// design, a message), the bar still shows the state, the validity, the
/// generation, `? help` and `q quit`: the rest gives way first (help and
/// quit fell off the end of the hints, the generation off the status).
#[test]
fn the_status_bar_at_80x24_keeps_state_validity_generation_help_and_quit() {
    let spec = scaled_spec();
    let engine = Engine::new(spec.resolve().unwrap());
    let mut app = App::new(
        spec,
        "cluster-of-the-lab".into(),
        None,
        Keymap::default(),
        Theme::plain(),
    );
    let mut s = snapshot(
        &Run::of_engine(Spec::default(), engine),
        0,
        false,
        123_456.0,
        Duration::from_secs(3725),
    );
    s.stopped = Some(fnn_tui::run::StopReason::Stalled);
    s.watch = true;
    let generation = s.generation;
    let _ = app.on_event(Event::Snapshot(Box::new(s)));
    for (w, h) in [(80, 24), (200, 60)] {
        let ui = Loop::start(
            App::new(
                scaled_spec(),
                app.session_name.clone(),
                None,
                Keymap::default(),
                Theme::plain(),
            ),
            w,
            h,
        );
        ui.event(Event::Snapshot(Box::new(app.snapshot.clone().unwrap())));
        ui.settle();
        ui.key(key('p'));
        assert!(matches!(ui.command(), Command::Edit(Edit::Pin { .. })));
        ui.event(Event::Applied(Ok("pinned k00 on switch 0".into())));
        ui.key(key('v'));
        assert!(matches!(ui.command(), Command::Watch(false)));
        let (_, last) = ui.quit();
        let bar = status_bar(&last);
        for want in [
            "■ stopped",
            "NOT VALID",
            &format!("gen {generation}"),
            "watch pace",
            "● unsaved edits, design",
            "? help",
            "q quit",
        ] {
            assert!(bar.contains(want), "{w}x{h}: no {want:?} in the status bar:\n{bar}");
        }
        if w == 200 {
            for want in ["01:02:05", "cluster-of-the-lab", "no better design in"] {
                assert!(bar.contains(want), "{w}x{h}: no {want:?} in the status bar:\n{bar}");
            }
        }
    }
}

/// "● unsaved" goes out once the save is done, stays out while the run
/// goes on finding nothing better, and comes back when it finds a better
/// design or the user edits (it came back with the next generation).
#[test]
fn the_unsaved_marker_goes_out_on_save_and_returns_only_with_something_unsaved() {
    let (mut app, mut engine) = app_after(60, 80, 24);
    app.session_path = Some("/tmp/kept.toml".into());
    let best = |e: &Engine| e.population()[0].fitness();
    let frame = |app: App, step: &dyn Fn(&Loop)| -> (App, String) {
        let mut app = app;
        app.quit = false;
        app.interrupted = false;
        let ui = Loop::start(app, 80, 24);
        step(&ui);
        ui.quit()
    };
    let (app, before) = frame(app, &|_| {});
    assert!(
        status_bar(&before).contains("● unsaved design"),
        "never saved:\n{before}"
    );
    // Saved at generation 60; as the worker does, the saved generation's
    // snapshot follows.
    let saved = shot(&engine, true);
    let (app, after_save) = frame(app, &|ui| {
        ui.key(key('s'));
        assert!(matches!(ui.command(), Command::Save { autosave: false, .. }));
        ui.event(Event::Saved(Ok(("/tmp/kept.toml".into(), 60))));
        ui.event(Event::Snapshot(Box::new(saved.clone())));
    });
    assert!(!status_bar(&after_save).contains("unsaved"), "{after_save}");
    // Generations that find nothing better leave nothing unsaved.
    let at_save = best(&engine);
    let mut same = None;
    for _ in 0..2000 {
        engine.step();
        if best(&engine) != at_save {
            break;
        }
        same = Some(shot(&engine, true));
    }
    let same = same.expect("a generation that found nothing better");
    assert!(same.generation > 60);
    let (app, running_on) = frame(app, &|ui| ui.event(Event::Snapshot(Box::new(same.clone()))));
    assert!(
        !status_bar(&running_on).contains("unsaved"),
        "generation {} found nothing better, yet:\n{running_on}",
        same.generation
    );
    // A better design is unsaved.
    while best(&engine) == at_save {
        engine.step();
    }
    let better = shot(&engine, true);
    let (app, found) = frame(app, &|ui| ui.event(Event::Snapshot(Box::new(better.clone()))));
    assert!(status_bar(&found).contains("● unsaved design"), "{found}");
    // And an edit of the user's.
    let (_, edited) = frame(app, &|ui| {
        ui.key(key('x'));
        assert!(matches!(ui.command(), Command::Edit(Edit::Pin { .. })));
        ui.event(Event::Applied(Ok("forbade k00 on switch 0".into())));
    });
    assert!(status_bar(&edited).contains("● unsaved edits, design"), "{edited}");
}

/// A pin the worker refused changed nothing, yet it was counted as an
/// unsaved edit (the marker lit, `q` asked, a recovery file was written):
/// an edit counts once the worker has applied it.
#[test]
fn a_pin_the_worker_refuses_leaves_nothing_unsaved() {
    let (mut app, engine) = app_after(60, 80, 24);
    let _ = app.on_event(Event::Saved(Ok(("/tmp/kept.toml".into(), 60))));
    let _ = app.on_event(Event::Snapshot(Box::new(shot(&engine, true))));
    let ui = Loop::start(app, 80, 24);
    ui.key(key('p'));
    assert!(matches!(ui.command(), Command::Edit(Edit::Pin { .. })));
    let refused = fnn_tui::spec::SpecError::infeasible("edit", "n0 and n1 must share a switch");
    ui.event(Event::Applied(Err(fnn_tui::tui::worker::JobError::Refused(refused))));
    ui.settle();
    ui.key(key('q'));
    let (app, last) = ui.quit();
    assert_eq!(app.unsaved_parts().edits, None, "a refused pin counted as an edit");
    assert!(!app.worth_recovering(), "a refused pin is worth a recovery file");
    assert!(!status_bar(&last).contains("unsaved"), "{last}");
    assert!(!matches!(app.mode, Mode::Confirm(_)), "q asked about a refused pin");
}

/// The question before quitting names what is unsaved: the user's pins
/// and forbids, not "the search has moved on".
#[test]
fn the_quit_question_names_the_users_unsaved_edits() {
    let (mut app, engine) = app_after(60, 80, 24);
    let _ = app.on_event(Event::Saved(Ok(("/tmp/kept.toml".into(), 60))));
    let _ = app.on_event(Event::Snapshot(Box::new(shot(&engine, true))));
    let ui = Loop::start(app, 80, 24);
    ui.key(key('p'));
    assert!(matches!(ui.command(), Command::Edit(Edit::Pin { .. })));
    ui.event(Event::Applied(Ok("pinned k00 on switch 0".into())));
    ui.key(key('l'));
    ui.key(key('x'));
    assert!(matches!(ui.command(), Command::Edit(Edit::Pin { .. })));
    ui.event(Event::Applied(Ok("forbade k00 on switch 1".into())));
    ui.settle();
    ui.key(key('q'));
    let (app, last) = ui.quit();
    assert!(matches!(app.mode, Mode::Confirm(_)), "q asked nothing");
    let text = rows(&last).join("\n");
    assert!(
        text.contains("not saved: pins and forbids"),
        "the question does not name the edits:\n{text}"
    );
    assert!(!text.contains("moved on"), "{text}");
}

/// The fitness chart's legend sits on its top border, at every size:
/// the plot under it is free (the boxed legend covered most of the plot
/// at 80x26 and 120x40, and at 80x24 did not fit and was gone).
#[test]
fn the_fitness_legend_never_covers_the_plot() {
    for (w, h) in [(80, 24), (120, 40), (200, 60)] {
        let (app, _) = app_after(60, w, h);
        let text = screen(&app, w, h);
        let rows: Vec<Vec<char>> = rows(&text).iter().map(|r| r.chars().collect()).collect();
        let top = rows
            .iter()
            .position(|r| r.iter().collect::<String>().contains("┌ Fitness"))
            .expect("the fitness pane");
        let line: String = rows[top].iter().collect();
        let col = line[..line.find("┌ Fitness").unwrap()].chars().count();
        let border: String = rows[top][col..].iter().collect();
        assert!(
            border.contains("best") && border.contains("mean"),
            "{w}x{h}: no legend on the border: {border}"
        );
        for row in &rows[top + 1..] {
            if row[col] == '└' {
                break;
            }
            let inside: String = row[col + 1..].iter().collect();
            assert!(
                !inside.contains("best") && !inside.contains("mean") && !inside.contains('┌'),
                "{w}x{h}: the legend covers the plot:\n{text}"
            );
        }
    }
}
