//! The live designer: a thin layer over the core. A
//! worker thread runs the GA (`worker`), the UI keeps its own state
//! (`app`), draws it (`ui`), and multiplexes input, worker events and a
//! tick with `crossbeam_channel::select!`.

pub mod app;
pub mod clock;
pub mod config;
pub mod find;
pub mod form;
pub mod job_control;
pub mod job_error;
pub mod keymap;
pub mod layout;
pub mod line_edit;
pub mod sweep;
pub mod theme;
pub mod ui;
pub mod unsaved;
pub mod worker;

use crate::run::Run;
use crate::session::{data_dir, open_session, session_dirs};
use crate::spec::Spec;
use anyhow::{Context, anyhow};
use app::App;
use crossbeam_channel::{Receiver, Sender, select};
use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::crossterm::cursor::{Hide, Show};
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event as CtEvent, KeyEventKind};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use ratatui::{Terminal, layout::Rect};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use worker::{Command, Event, Worker};

/// What the designer opens.
pub struct Start {
    /// The run the designer drives: checked, built and (for a session)
    /// restored exactly as the headless commands do it.
    pub run: Run,
    pub name: String,
    pub session_path: Option<PathBuf>,
    /// Opened from a session (or a shipped example): as saved.
    pub opened: bool,
    /// Start at the watch pace (`--watch`).
    pub watch: bool,
}

/// Resolves `--resume` / `--spec` / the KLAT2 default, before the terminal
/// is touched, so errors print plainly.
pub fn prepare(spec_path: Option<&Path>, resume: Option<&str>) -> anyhow::Result<Start> {
    if let Some(arg) = resume {
        let (session, path) = open_session(arg, &session_dirs())?;
        let run = Run::resume(&session)?;
        // A shipped example is read-only: its saves go to the data folder
        // under a name of their own.
        let name = match &path {
            Some(_) => session.name.clone(),
            None => format!("{}-copy", session.name),
        };
        return Ok(Start {
            run,
            name,
            session_path: path,
            opened: true,
            watch: false,
        });
    }
    let spec = match spec_path {
        Some(p) => Spec::load(p)?,
        None => Spec::klat2(),
    };
    let name = if spec.name.is_empty() {
        "session".to_string()
    } else {
        spec.name.clone()
    };
    Ok(Start {
        run: Run::new(spec)?,
        name,
        session_path: None,
        opened: false,
        watch: false,
    })
}

pub fn run(start: Start) -> anyhow::Result<ExitCode> {
    if !std::io::stdout().is_terminal() {
        return Err(anyhow!(
            "the designer needs a terminal (stdout is not one); for scripts use `fnn-tui design`"
        ));
    }
    let (keymap, theme) = config::load(config::config_path().as_deref(), config::no_color()).map_err(|e| anyhow!(e))?;
    let mut app = App::new(
        start.run.spec().clone(),
        start.name.clone(),
        start.session_path.clone(),
        keymap,
        theme,
    );
    if start.opened {
        // As opened is as saved, even for a read-only example.
        app.saved_generation = Some(u64::MAX);
    }
    offer_recovery(&mut app);
    // A fresh run too: the name's recovery file may hold another run's edits.
    app.opened_session();
    app.suspend_hook = Some(suspend_process);
    app.resume_hook = Some(reenter_terminal);
    let baseline = start.opened.then(|| start.run.best_design());
    // At the watch pace from the first generation: paused until it is set.
    let worker = Worker::spawn(start.run, start.name, !start.watch, baseline);
    if start.watch {
        worker.send(Command::Watch(true));
        worker.send(Command::Resume);
    }
    clean_stale_temps();
    install_panic_hook();
    let mut terminal = setup_terminal().context("cannot set up the terminal")?;
    let input = spawn_input();
    let result = event_loop(&mut terminal, &mut app, &worker.tx, &worker.rx, &input, None);
    restore_terminal();
    // A failed draw (a terminal hung up) ends the loop too: that is a way
    // out like any other.
    let saved = save_on_leaving(&mut app, &worker);
    drop(worker);
    result?;
    match saved {
        Some(Ok(msg)) => eprintln!("{msg}"),
        Some(Err(msg)) => {
            eprintln!("{msg}");
            return Ok(ExitCode::FAILURE);
        }
        None => {}
    }
    // Ctrl-C (or a signal) ended it: the shell's convention, as every command.
    Ok(if app.interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

/// Runs that ended without a save left recovery files: say so at start.
fn offer_recovery(app: &mut App) {
    let Some(dir) = crate::session::recovery_dir() else {
        return;
    };
    let n = crate::session::list_sessions(std::slice::from_ref(&dir)).len();
    if n > 0 {
        app.set_status(
            format!(
                "{} from runs not saved, in {}: press o to open one",
                crate::words::count(n, "recovery file"),
                dir.display()
            ),
            false,
        );
    }
}

/// Removes what a crashed save left in the session folders.
fn clean_stale_temps() {
    for d in session_dirs().into_iter().chain(data_dir()) {
        crate::atomic::clean_stale_temps(&d);
        crate::atomic::clean_stale_temps(&d.join("recovery"));
    }
}

/// One rule for every way out (`q`, Ctrl-C, SIGTERM, SIGHUP, a terminal
/// gone), as an editor's auto-save file: the session's own file is
/// written only by a save the user asks for; whatever changed since it
/// was opened or saved goes to the one recovery file of the session's
/// name (replacing an earlier one), which `--resume` and `o` open. Nothing
/// is written when nothing changed. `None`: nothing to write; else what
/// was done, or why nothing could be saved.
pub fn save_on_leaving(app: &mut App, worker: &Worker) -> Option<Result<String, NotSaved>> {
    app.worth_recovering().then(|| autosave_now(app, worker))
}

/// Why unsaved work was not saved on the way out.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum NotSaved {
    /// The worker's own reason for one file.
    #[error("{0}")]
    Refused(String),
    #[error("the GA worker did not answer")]
    NoAnswer,
    /// Every place tried, with why.
    #[error("could not save unsaved work anywhere: {}", .0.join("; "))]
    Nowhere(Vec<String>),
}

/// Saves the run to its recovery file or, when that cannot be written, to
/// a private folder made for it, and says where.
fn autosave_now(app: &mut App, worker: &Worker) -> Result<String, NotSaved> {
    let recovery = app.recovery_file();
    let file_name = recovery.file_name().map_or("run.toml".into(), |n| n.to_os_string());
    // Last, a private folder made only if the recovery file fails (never
    // a name in the shared temporary folder someone could have made first).
    let spare = std::iter::once_with(|| crate::atomic::private_dir("fnn-tui-recovery-").map(|d| d.join(&file_name)))
        .filter_map(Result::ok);
    let mut failed: Vec<String> = Vec::new();
    for path in std::iter::once(recovery).chain(spare) {
        match save_and_wait(worker, &path, &app.session_name, app.holds_edits()) {
            Ok(()) => {
                let not_there = match failed.is_empty() {
                    true => String::new(),
                    false => format!("could not write {}; ", failed.join("; ")),
                };
                return Ok(format!(
                    "{not_there}unsaved work saved to the recovery file {} (fnn-tui --resume that file goes on from it)",
                    path.display()
                ));
            }
            Err(e) => failed.push(format!("{} ({e})", path.display())),
        }
    }
    Err(NotSaved::Nowhere(failed))
}

fn save_and_wait(worker: &Worker, path: &Path, name: &str, edits: bool) -> Result<(), NotSaved> {
    // An autosave: the run keeps its name, its session file and the design
    // a rewire plan starts from.
    worker.send(Command::Save {
        path: path.to_path_buf(),
        name: name.to_string(),
        autosave: true,
        edits,
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    while let Ok(ev) = worker.rx.recv_deadline(deadline) {
        match ev {
            Event::Autosaved(Ok(_)) => return Ok(()),
            Event::Autosaved(Err(e)) => return Err(NotSaved::Refused(e.to_string())),
            _ => {}
        }
    }
    Err(NotSaved::NoAnswer)
}

fn setup_terminal() -> std::io::Result<Terminal<CrosstermBackend<std::io::Stdout>>> {
    enable_raw_mode()?;
    let mut out = std::io::stdout();
    execute!(out, EnterAlternateScreen, EnableMouseCapture)?;
    Terminal::new(CrosstermBackend::new(out))
}

/// Ctrl-Z (or SIGTSTP): the terminal back as it was, the process stopped
/// (SIGTSTP, as the shell's job control expects), and on `fg` the
/// designer's terminal again.
fn suspend_process() -> std::io::Result<()> {
    restore_terminal();
    job_control::stop_process()?;
    reenter_terminal()
}

/// The designer's terminal modes again after a stop: raw mode, the
/// alternate screen, mouse capture, no cursor. The shell may have put its
/// own modes back meanwhile (after a SIGSTOP nothing of ours ran), so raw
/// mode is set afresh, not only when crossterm believes it off.
fn reenter_terminal() -> std::io::Result<()> {
    disable_raw_mode()?;
    enable_raw_mode()?;
    execute!(std::io::stdout(), EnterAlternateScreen, EnableMouseCapture, Hide)
}

pub fn restore_terminal() {
    let _ = disable_raw_mode();
    let _ = execute!(std::io::stdout(), DisableMouseCapture, LeaveAlternateScreen, Show);
}

/// Restores the terminal when the UI thread (the one installing the hook)
/// panics. Any other thread's panic is caught where it runs (the worker,
/// its pool, the sweep and emulate jobs: `worker::catching`) and shown in
/// the UI, so it must neither restore the terminal under the running UI
/// nor print over it; thread names are not trusted for this.
fn install_panic_hook() {
    let ui = std::thread::current().id();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().id() != ui {
            return;
        }
        restore_terminal();
        previous(info);
    }));
}

/// Terminal input, with SIGTERM, SIGHUP and SIGINT turned into Ctrl-C:
/// all of them restore the terminal and save before leaving. SIGTSTP and
/// SIGCONT wake the loop (`job_control`).
fn spawn_input() -> Receiver<CtEvent> {
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let (tx, rx) = crossbeam_channel::unbounded();
    let wake = tx.clone();
    // Any event wakes the loop; a focus change does nothing else. Without
    // this thread ctrl-z still works, so a failure to start it is not fatal.
    let _ = job_control::watch(move || wake.send(CtEvent::FocusGained).is_ok());
    if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT]) {
        let tx = tx.clone();
        let _ = std::thread::Builder::new().name("signals".into()).spawn(move || {
            for _ in signals.forever() {
                let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
                if tx.send(CtEvent::Key(ctrl_c)).is_err() {
                    return;
                }
            }
        });
    }
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            while let Ok(ev) = event::read() {
                if tx.send(ev).is_err() {
                    return;
                }
            }
        })
        .expect("the input thread starts");
    rx
}

/// Clears the screen and forgets the last frame, so the next one draws
/// every cell (and fits a terminal resized meanwhile). Not
/// `Terminal::clear`: it asks the terminal where its cursor is, and the
/// input thread, blocked reading the terminal, takes the answer.
fn redraw_all<B: Backend>(terminal: &mut Terminal<B>) -> Result<(), B::Error> {
    let size = terminal.size()?;
    terminal.resize(Rect::new(0, 0, size.width, size.height))
}

/// Draws when something changed, then waits for input, a worker event or
/// the tick. Every command the app returns, for a key, a click, a worker
/// event or the autosave tick, goes to the worker (`commands`); `events`
/// are the worker's. `frames` (for benchmarks) hears when each frame is
/// done and how many input events it reflects.
pub fn event_loop<B: Backend>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    commands: &Sender<Command>,
    events: &Receiver<Event>,
    input: &Receiver<CtEvent>,
    frames: Option<&Sender<(Instant, u64)>>,
) -> anyhow::Result<()>
where
    B::Error: std::error::Error + Send + Sync + 'static,
{
    let tick = crossbeam_channel::tick(Duration::from_millis(500));
    let mut events = events.clone();
    // A worker that has stopped is reported through its closed channel.
    let send = |cs: Vec<Command>| {
        for c in cs {
            let _ = commands.send(c);
        }
    };
    let mut inputs = 0u64;
    loop {
        // Every wake-up below changes something on screen.
        let size = terminal.size()?;
        app.size = Rect::new(0, 0, size.width, size.height);
        terminal.draw(|f| ui::render(app, f))?;
        if let Some(tx) = frames {
            let _ = tx.send((Instant::now(), inputs));
        }
        if app.quit {
            return Ok(());
        }
        // Ctrl-Z or SIGTSTP: hand the terminal back and stop; SIGCONT
        // (`fg`, also after a SIGSTOP): take it again.
        let stop = std::mem::take(&mut app.suspend) || job_control::stop_asked();
        if stop || job_control::continued() {
            if let Some(hook) = if stop { app.suspend_hook } else { app.resume_hook } {
                hook()?;
                // Whatever the shell drew is on screen now: draw it all.
                redraw_all(terminal)?;
            }
            continue;
        }
        select! {
            recv(input) -> ev => {
                let Ok(ev) = ev else { return Ok(()) };
                inputs += 1;
                send(match ev {
                    CtEvent::Key(k) if k.kind == KeyEventKind::Press => app.on_key(k),
                    CtEvent::Mouse(m) => app.on_mouse(m),
                    _ => Vec::new(),
                });
            }
            recv(events) -> ev => match ev {
                Ok(e) => {
                    send(app.on_event(e));
                    // Draw once for whatever else has arrived meanwhile.
                    while let Ok(more) = events.try_recv() {
                        send(app.on_event(more));
                    }
                    }
                Err(_) => {
                    if app.worker_error.is_none() {
                        send(app.on_event(Event::Failed("the GA worker stopped".into())));
                    }
                    events = crossbeam_channel::never();
                    }
            },
            recv(tick) -> _ => send(app.autosave(Instant::now()).into_iter().collect()),
        }
    }
}
