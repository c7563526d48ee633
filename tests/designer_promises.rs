//! What the README and the help promise about the designer's keys and
//! status bar, held through the real event loop on a test terminal at the
//! sizes a user has (80x24 first), and through the real GA worker.

#![cfg(feature = "tui")]

use fnn_tui::ga::Engine;
use fnn_tui::spec::Spec;
use fnn_tui::tui::app::{App, Mode};
use fnn_tui::tui::keymap::{Keymap, key_name};
use fnn_tui::tui::theme::Theme;
use fnn_tui::tui::worker::{Command, Event, Snapshot, snapshot};
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

fn shot(engine: &Engine, running: bool) -> Snapshot {
    snapshot(engine, 0, running, None, 0.0, Duration::ZERO)
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

/// The keys of the README's key table: its first column, as the help
/// names them.
fn readme_keys() -> BTreeSet<String> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let table: Vec<&str> = readme
        .lines()
        .skip_while(|l| !l.starts_with("| keys |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert!(table.len() > 10, "the README's key table was not found");
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

/// The README's key table, the help and the keymap list the same keys:
/// every README key is shown in the help and obeyed, and every key
/// obeyed is in the README and the help (`v` was in the README only).
#[test]
fn the_readme_key_table_the_help_and_the_keymap_agree() {
    let (mut app, _) = app_after(3, 120, 40);
    let readme = readme_keys();
    let help = help_keys(&mut app);
    let bound = bound_keys(&app.keymap);
    let missing =
        |what: &BTreeSet<String>, from: &BTreeSet<String>| -> Vec<String> { what.difference(from).cloned().collect() };
    assert_eq!(
        missing(&readme, &help),
        Vec::<String>::new(),
        "README keys not in the help"
    );
    assert_eq!(
        missing(&readme, &bound),
        Vec::<String>::new(),
        "README keys bound to nothing"
    );
    assert_eq!(
        missing(&bound, &readme),
        Vec::<String>::new(),
        "bound keys not in the README"
    );
    assert_eq!(
        missing(&bound, &help),
        Vec::<String>::new(),
        "bound keys not in the help"
    );
}

/// `v` toggles the watch pace, as the README and `--watch` say: through
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
    assert!(status_bar(&last).contains("full speed"), "{last}");
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
    let e = config::load(Some(&path), false).unwrap_err();
    assert!(
        e.contains("config.toml") && e.contains("wach") && e.contains("watch"),
        "{e}"
    );
}
