//! The live designer without a terminal: key- and mouse-driven behaviour of
//! every mode (App::on_key / on_mouse return the worker commands), and
//! TestBackend snapshots of the screens at fixed sizes and seeds.

#![cfg(feature = "tui")]
// Most tests step the app and look at its state; the commands it returns
// are checked where they matter, and through the real event loop below.
#![allow(unused_must_use)]

use fnn_tui::ga::Engine;
use fnn_tui::run::Edit;
use fnn_tui::session::Session;
use fnn_tui::spec::{PinKind, Spec};
use fnn_tui::tui::app::{App, Discard, Mode, Pane, PromptKind};
use fnn_tui::tui::keymap::Keymap;
use fnn_tui::tui::theme::Theme;
use fnn_tui::tui::worker::{Command, Event, JobError, Snapshot, Worker, snapshot};
use fnn_tui::tui::{config, ui};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use std::time::Duration;

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

fn code(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

/// An app showing the KLAT2 default after `generations` generations, seed
/// fixed, with the volatile figures (rate, clock) fixed too.
fn app_after(generations: usize) -> (App, Engine) {
    app_for(Spec::klat2(), generations)
}

/// A spec no construction fits (64 PCs, 4 NICs, eleven 25-port switches),
/// run by the papers' GA (no local search), so it starts with a long
/// scaled-down phase: the default portfolio's cyclic search finds this
/// size's full design in the first generation.
pub(crate) fn scaled_spec() -> Spec {
    let flags = fnn_tui::spec::QuickFlags {
        pcs: Some(64),
        nics: Some(4),
        switches: Some("25x11".into()),
        local_search: Some(0),
        ..Default::default()
    };
    flags.apply(Spec::default()).unwrap()
}

/// A paused worker on [`scaled_spec`], still in its scaled-down phase.
fn scaled_worker() -> Worker {
    let spec = scaled_spec();
    Worker::spawn(
        fnn_tui::run::Run::of_engine(spec.clone(), Engine::new(spec.resolve().unwrap())),
        "t".into(),
        false,
        None,
    )
}

/// The worker's snapshot of a run around `engine`, which comes back for
/// the test to step on.
fn shot_of(engine: Engine, running: bool) -> (Snapshot, Engine) {
    let run = fnn_tui::run::Run::of_engine(Spec::default(), engine);
    (snapshot(&run, 0, running, 0.0, Duration::ZERO), run.into_engine())
}

fn app_for(spec: Spec, generations: usize) -> (App, Engine) {
    let mut engine = Engine::new(spec.resolve().unwrap());
    for _ in 0..generations {
        engine.step();
    }
    let mut app = App::new(spec, "KLAT2".into(), None, Keymap::default(), Theme::plain());
    app.size = Rect::new(0, 0, 120, 40);
    let (shot, engine) = shot_of(engine, true);
    app.on_event(Event::Snapshot(Box::new(shot)));
    // As in the designer, a frame is drawn before any key: its layout is
    // what the keys and clicks act on.
    screen(&app, 120, 40);
    (app, engine)
}

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| ui::render(app, f)).unwrap();
    format!("{}", t.backend())
}

#[test]
fn space_pauses_and_resumes_n_steps() {
    let (mut app, _) = app_after(3);
    assert!(matches!(app.on_key(key(' ')).as_slice(), [Command::Pause]));
    app.snapshot.as_mut().unwrap().running = false;
    assert!(matches!(app.on_key(key(' ')).as_slice(), [Command::Resume]));
    assert!(matches!(app.on_key(key('n')).as_slice(), [Command::Step]));
}

#[test]
fn grid_keys_move_the_cursor_and_pin_forbid_clear_the_cell() {
    let (mut app, _) = app_after(60);
    assert_eq!(app.focus, Pane::Grid);
    app.on_key(key('j'));
    app.on_key(key('j'));
    app.on_key(code(KeyCode::Right));
    assert_eq!(app.cursor, (2, 1));
    match app.on_key(key('p')).as_slice() {
        [
            Command::Edit(Edit::Pin {
                pc: 2,
                switch: 1,
                pin: Some(PinKind::Must),
            }),
        ] => {}
        _ => panic!("p should pin the cell under the cursor"),
    }
    assert!(matches!(
        app.on_key(key('x')).as_slice(),
        [Command::Edit(Edit::Pin {
            pin: Some(PinKind::Forbid),
            ..
        })]
    ));
    assert!(matches!(
        app.on_key(key('c')).as_slice(),
        [Command::Edit(Edit::Pin { pin: None, .. })]
    ));
    assert!(app.unsaved());
    // The cursor scrolls the grid to stay visible.
    app.on_key(key('G'));
    assert_eq!(app.cursor.0, 63);
    assert!(app.grid_offset.0 > 0);
    app.on_key(key('g'));
    assert_eq!(app.grid_offset.0, 0);
}

#[test]
fn pins_wait_for_the_full_phase() {
    // The run holds the rule; the app passes the pin on and shows the answer.
    let (mut app, _) = app_for(scaled_spec(), 0);
    assert!(matches!(
        app.on_key(key('p')).as_slice(),
        [Command::Edit(Edit::Pin { .. })]
    ));
    let worker = scaled_worker();
    worker.send(Command::Edit(Edit::Pin {
        pc: 0,
        switch: 0,
        pin: Some(PinKind::Must),
    }));
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let refusal = loop {
        if let Event::Applied(r) = worker.rx.recv_deadline(deadline).expect("the worker answers") {
            break r.expect_err("a pin in the scaled-down phase");
        }
    };
    assert!(refusal.to_string().contains("scaled-down phase"), "{refusal}");
    app.on_event(Event::Applied(Err(refusal)));
    assert!(app.status.as_ref().unwrap().1);
}

#[test]
fn tab_cycles_panes_and_population_selection_reaches_the_worker() {
    let (mut app, _) = app_after(60);
    app.on_key(code(KeyCode::Tab));
    assert_eq!(app.focus, Pane::Population);
    assert!(matches!(app.on_key(key('j')).as_slice(), [Command::Select(1)]));
    app.on_key(code(KeyCode::Tab));
    assert_eq!(app.focus, Pane::Chart);
    app.on_key(code(KeyCode::BackTab));
    assert_eq!(app.focus, Pane::Population);
}

#[test]
fn mouse_clicks_pin_forbid_and_select() {
    let (mut app, _) = app_after(60);
    screen(&app, 120, 40);
    let g = app.layout.get();
    let click = |kind, x, y| MouseEvent {
        kind,
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    };
    // The cell of PC 3, switch 4 is where the grid draws it.
    let (x, y) = (g.cells.x + 4 * g.cell_w, g.cells.y + 3);
    assert_eq!(
        g.cell_at(x, y),
        Some((3, 4)),
        "the clicked cell is where the last frame drew it"
    );
    match app
        .on_mouse(click(MouseEventKind::Down(MouseButton::Left), x, y))
        .as_slice()
    {
        [
            Command::Edit(Edit::Pin {
                pc: 3,
                switch: 4,
                pin: Some(PinKind::Must),
            }),
        ] => {}
        _ => panic!("a left click pins"),
    }
    assert!(matches!(
        app.on_mouse(click(MouseEventKind::Down(MouseButton::Right), x, y))
            .as_slice(),
        [Command::Edit(Edit::Pin {
            pc: 3,
            switch: 4,
            pin: Some(PinKind::Forbid)
        })]
    ));
    let row = g.population.y + 2 + 4;
    assert!(matches!(
        app.on_mouse(click(MouseEventKind::Down(MouseButton::Left), g.population.x + 3, row))
            .as_slice(),
        [Command::Select(4)]
    ));
    assert_eq!(app.focus, Pane::Population);
    app.on_mouse(click(MouseEventKind::ScrollDown, x, y));
    assert_eq!(app.cursor.0, 6, "the wheel scrolls the grid");
}

/// The weights form checks its own values on the UI thread and leaves the
/// spec to the worker's run, which resolves it once, with the edit: a
/// resolve (its millions of pairs) took a second on the thread that draws.
/// Here the spec could not be resolved at all (no PCs), so a resolve on
/// the UI thread shows as a form that refuses good values.
#[test]
fn the_weights_form_leaves_resolving_the_spec_to_the_worker() {
    let (mut app, _) = app_after(3);
    app.spec.pcs.count = 0;
    app.on_key(key('w'));
    let cmds = app.on_key(code(KeyCode::Enter));
    assert!(
        matches!(cmds.as_slice(), [Command::Edit(Edit::Tune { .. })]),
        "the form resolved the spec: {:?}",
        app.mode
    );
}

#[test]
fn weights_form_applies_valid_values_and_refuses_bad_ones() {
    let (mut app, _) = app_after(60);
    app.on_key(key('w'));
    assert!(matches!(app.mode, Mode::Form(_)));
    for _ in 0..5 {
        app.on_key(code(KeyCode::Down));
    }
    app.on_key(code(KeyCode::Backspace));
    app.on_key(key('7'));
    let cmds = app.on_key(code(KeyCode::Enter));
    match cmds.as_slice() {
        [Command::Edit(Edit::Tune { weights, .. })] => assert_eq!(weights.redundancy, 7.0),
        _ => panic!("enter applies weights and GA parameters"),
    }
    assert_eq!(app.mode, Mode::Normal);
    // ga.keep above the population is refused with the spec's own message.
    app.on_key(key('w'));
    // ga.keep, after the 7 weights and ga.population.
    for _ in 0..8 {
        app.on_key(code(KeyCode::Down));
    }
    app.on_key(key('9'));
    app.on_key(key('9'));
    assert!(app.on_key(code(KeyCode::Enter)).is_empty());
    match &app.mode {
        Mode::Form(f) => assert!(f.error.as_ref().unwrap().contains("ga.keep"), "{:?}", f.error),
        m => panic!("form closed: {m:?}"),
    }
    app.on_key(code(KeyCode::Esc));
    assert_eq!(app.mode, Mode::Normal);
}

/// Out-of-range weights and GA fields are refused in the form
/// with the spec's own message (a probability of 2.0 used to kill the
/// GA worker with a panic).
#[test]
fn weights_form_refuses_out_of_range_values_with_the_range() {
    let (mut app, _) = app_after(20);
    let set = |app: &mut App, field: usize, value: &str| {
        app.on_key(key('w'));
        for _ in 0..field {
            app.on_key(code(KeyCode::Down));
        }
        for _ in 0..12 {
            app.on_key(code(KeyCode::Backspace));
        }
        value.chars().for_each(|c| {
            app.on_key(key(c));
        });
        let cmds = app.on_key(code(KeyCode::Enter));
        let error = match &app.mode {
            Mode::Form(f) => f.error.clone().unwrap_or_default(),
            m => panic!("the form closed on {value}: {m:?}"),
        };
        assert!(cmds.is_empty());
        app.on_key(code(KeyCode::Esc));
        error
    };
    // weights.bandwidth is the second field, ga.pc_swap_rate the 13th.
    let e = set(&mut app, 1, "1e300");
    assert!(e.contains("weights.bandwidth") && e.contains("from 0 to 1e6"), "{e}");
    let e = set(&mut app, 12, "2.0");
    assert!(e.contains("ga.pc_swap_rate") && e.contains("from 0 to 1"), "{e}");
}

#[test]
fn export_form_and_save_as_prompt_send_their_commands() {
    use fnn_tui::export::choices::Rewire;
    let (mut app, _) = app_after(60);
    app.on_key(key('e'));
    assert!(matches!(&app.mode, Mode::Export(_)), "e opens the export form");
    let type_in = |app: &mut App, field: usize, text: &str| {
        let Mode::Export(form) = &mut app.mode else {
            panic!("the export form closed")
        };
        form.cursor = 0;
        for _ in 0..field {
            app.on_key(code(KeyCode::Down));
        }
        for _ in 0..40 {
            app.on_key(code(KeyCode::Backspace));
        }
        for ch in text.chars() {
            app.on_key(key(ch));
        }
    };
    type_in(&mut app, 0, "out/x");
    // A misspelt artifact is refused in the form, naming the field.
    type_in(&mut app, 1, "labels,routnig");
    assert!(app.on_key(code(KeyCode::Enter)).is_empty());
    match &app.mode {
        Mode::Export(f) => assert!(
            f.error.as_deref().is_some_and(|e| e.contains("artifacts: `routnig`")),
            "{:?}",
            f.error
        ),
        m => panic!("the form closed: {m:?}"),
    }
    type_in(&mut app, 1, "labels,routing");
    type_in(&mut app, 2, "macs.txt");
    type_in(&mut app, 3, "1,2,4,3");
    type_in(&mut app, 4, "old-table.txt");
    match app.on_key(code(KeyCode::Enter)).as_slice() {
        [
            Command::Export {
                dir,
                choices,
                rewire_from_saved,
                ..
            },
        ] => {
            assert_eq!(dir.to_str(), Some("out/x"));
            assert_eq!(choices.only, ["labels", "routing"]);
            assert_eq!(choices.macs.as_deref(), Some(std::path::Path::new("macs.txt")));
            assert_eq!(choices.probe_order.as_deref(), Some("1,2,4,3"));
            assert_eq!(choices.rewire, Some(Rewire::Table("old-table.txt".into())));
            assert!(!rewire_from_saved);
        }
        other => panic!("enter exports: {} commands", other.len()),
    }
    // F5 in the form rehearses the design (CI runs as root), or says why not.
    app.on_key(key('e'));
    let sent = app.on_key(code(KeyCode::F(5)));
    match fnn_tui::emulate::available() {
        Ok(()) => assert!(
            matches!(sent.as_slice(), [Command::Emulate { probe_order: Some(p) }] if p == "1,2,3,4"),
            "{} commands",
            sent.len()
        ),
        Err(_) => assert!(
            matches!(&app.mode, Mode::Export(f) if f.error.as_deref().is_some_and(|e| e.contains("emulate cannot run here"))),
            "{:?}",
            app.mode
        ),
    }
    app.mode = Mode::Normal;
    // No session file yet: s asks where to save.
    app.on_key(key('s'));
    assert!(matches!(&app.mode, Mode::Prompt(p) if p.kind == PromptKind::SaveAs));
    assert!(matches!(
        app.on_key(code(KeyCode::Enter)).as_slice(),
        [Command::Save { .. }]
    ));
    app.on_event(Event::Saved(Ok(("/tmp/k.toml".into(), 60))));
    assert!(!app.unsaved());
    assert_eq!(app.session_path.as_deref(), Some(std::path::Path::new("/tmp/k.toml")));
    // With a session file, s saves straight away.
    assert!(matches!(app.on_key(key('s')).as_slice(), [Command::Save { .. }]));
}

/// `o` and `R` threw unsaved work away unasked.
#[test]
fn open_and_restart_ask_first_when_work_is_unsaved() {
    let (mut app, _) = app_after(10);
    assert!(app.unsaved());
    assert!(app.on_key(key('R')).is_empty(), "no restart before the answer");
    assert_eq!(app.mode, Mode::Confirm(Discard::Restart));
    app.on_key(key('n'));
    assert_eq!(app.mode, Mode::Normal);
    app.on_key(key('R'));
    assert!(matches!(
        app.on_key(key('y')).as_slice(),
        [Command::Edit(Edit::Restart(_))]
    ));
    app.on_key(key('o'));
    assert_eq!(app.mode, Mode::Confirm(Discard::Open));
    app.on_key(key('y'));
    assert!(matches!(app.mode, Mode::Open(_)));
    // Save first, then the restart goes ahead.
    let (mut app, _) = app_after(10);
    app.session_path = Some("/tmp/r.toml".into());
    app.on_key(key('R'));
    assert!(matches!(
        app.on_key(key('s')).as_slice(),
        [Command::Save { autosave: false, .. }]
    ));
    let after = app.on_event(Event::Saved(Ok(("/tmp/r.toml".into(), 10))));
    assert!(
        matches!(after.as_slice(), [Command::Edit(Edit::Restart(_))]),
        "restarts once saved"
    );
}

/// The autosave renamed an untitled run "autosave"
/// and the next run's autosave overwrote it.
#[test]
fn the_autosave_writes_a_recovery_file_per_run_and_keeps_the_name() {
    let (mut app, _) = app_after(10);
    app.dirty = true;
    let name = app.session_name.clone();
    let later = std::time::Instant::now() + fnn_tui::tui::app::AUTOSAVE_EVERY * 2;
    let Some(Command::Save {
        path,
        name: saved_as,
        autosave,
        ..
    }) = app.autosave(later)
    else {
        panic!("an autosave is due")
    };
    assert!(autosave);
    assert_eq!(saved_as, name);
    assert!(path.parent().unwrap().ends_with("recovery"), "{}", path.display());
    app.on_event(Event::Autosaved(Ok((path.clone(), 10))));
    assert_eq!(app.session_name, name, "the run keeps its name");
    assert_eq!(app.session_path, None, "and stays untitled");
    assert!(app.unsaved(), "a recovery file is not a save");
    // Another run of the name replaces that file; another name has its own.
    let (mut other, _) = app_after(10);
    other.dirty = true;
    let Some(Command::Save { path: other_path, .. }) = other.autosave(later) else {
        panic!()
    };
    assert_eq!(other_path, path, "one recovery file per session name");
    let (mut third, _) = app_after(10);
    third.session_name = "other".into();
    third.dirty = true;
    assert_ne!(third.recovery_file(), path, "another name, another file");
}

/// The first save offered "KLAT2" while the recovery file was `klat2.toml`:
/// the offer and the file names come from one naming function.
#[test]
fn the_first_save_offers_the_stem_its_recovery_file_has() {
    for (name, offered) in [("Big Cluster_A", "big-cluster-a"), ("KLAT2", "klat2-2")] {
        let (mut app, _) = app_after(10);
        app.session_name = name.into();
        app.on_key(key('s'));
        let Mode::Prompt(p) = &app.mode else {
            panic!("{:?}", app.mode)
        };
        assert_eq!(p.input.value(), offered, "{name}");
        let recovery = app.recovery_file();
        let stem = recovery.file_stem().unwrap().to_str().unwrap();
        assert!(
            offered.starts_with(stem),
            "{name}: offers {offered}, recovery file {stem}.toml"
        );
    }
}

/// Every quit wrote a recovery file, even right after opening with no
/// change: generations that found nothing better are not worth one.
#[test]
fn nothing_changed_since_open_is_worth_no_recovery_file() {
    let (mut app, engine) = app_after(10);
    let later = std::time::Instant::now() + fnn_tui::tui::app::AUTOSAVE_EVERY * 2;
    let (mut moved, _) = shot_of(engine, true);
    moved.generation += 40;
    app.on_event(Event::Snapshot(Box::new(moved.clone())));
    assert!(app.unsaved(), "the search moved on");
    assert!(!app.worth_recovering(), "but found nothing better");
    assert!(app.autosave(later).is_none(), "so no recovery file");
    // A better best is worth keeping, and so is an edit.
    moved.members[0].fitness += 1.0;
    app.on_event(Event::Snapshot(Box::new(moved)));
    assert!(app.worth_recovering());
    let (mut edited, _) = app_after(10);
    edited.dirty = true;
    assert!(edited.autosave(later).is_some());
}

/// The open list called a valid generation-0 recovery file "(not a
/// readable session)"; it shows recovery files with their age, and `d`
/// then `y` deletes one.
#[test]
fn the_open_list_reads_a_generation_zero_recovery_file_and_deletes_it() {
    let home = tempfile::tempdir().unwrap();
    let recovery = home.path().join("recovery");
    std::fs::create_dir(&recovery).unwrap();
    let spec = Spec::klat2();
    let engine = Engine::new(spec.resolve().unwrap());
    assert_eq!(engine.generation(), 0);
    let file = recovery.join("klat2.toml");
    Session::capture("klat2", &spec, &engine).save(&file).unwrap();
    let (mut app, _) = app_after(10);
    app.session_dirs = vec![recovery.clone()];
    app.on_key(key('o'));
    if matches!(app.mode, Mode::Confirm(_)) {
        app.on_key(key('y'));
    }
    let Mode::Open(list) = &app.mode else {
        panic!("the open list: {:?}", app.mode)
    };
    let text = std::fs::read_to_string(&file).unwrap();
    let summary = list.summaries[0].clone().unwrap_or_else(|| {
        panic!(
            "not read as a session: {}",
            &text[text.find("[engine]").unwrap_or(0)..]
                .chars()
                .take(1500)
                .collect::<String>()
        )
    });
    assert_eq!(summary.generation, 0);
    // Its generation-0 state (nothing uncovered counted yet) reads back.
    assert!(Session::load(&file).unwrap().restore().is_ok());
    let shown = screen(&app, 120, 40);
    assert!(shown.contains("recovery") && shown.contains("just now"), "{shown}");
    assert!(!shown.contains("not a readable session"), "{shown}");
    app.on_key(key('d'));
    assert!(screen(&app, 120, 40).contains("Delete the recovery file"));
    assert!(file.exists(), "asks first");
    app.on_key(key('y'));
    assert!(!file.exists(), "deleted");
    let Mode::Open(list) = &app.mode else { panic!() };
    assert!(
        list.entries.iter().all(|e| e.example),
        "and gone from the list (only the built-in examples stay)"
    );
}

/// A run named with 300 characters got a recovery file name past the
/// file system's 255 bytes, so SIGTERM lost its work ("File name too
/// long"); the name is cut and the file can be written.
#[test]
fn a_long_session_name_still_gets_a_recovery_file_that_can_be_written() {
    let (mut app, _) = app_after(10);
    app.session_name = "a very long name ".repeat(18);
    assert!(app.session_name.len() >= 300);
    let path = app.recovery_file();
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.len() <= 255, "{} bytes: {name}", name.len());
    let dir = tempfile::tempdir().unwrap();
    fnn_tui::atomic::write_atomic(dir.path().join(&name), b"saved").expect("the recovery file can be written");
}

/// Messages quoting an input (an export's error naming a file, a
/// session's offending line) show control characters as escapes and cut a
/// long line, in popups and in the status line alike.
#[test]
fn messages_quoting_inputs_show_escapes_and_are_cut() {
    let (mut app, _) = app_after(10);
    let hostile = fnn_tui::output::OutputError::Io {
        path: format!("out/\x1b[2J\x1b]0;pwned\x07{}", "x".repeat(50_000)),
        reason: "no space left".into(),
    };
    app.on_event(Event::Exported(Err(JobError::Artifacts(hostile.into()))));
    let fnn_tui::tui::app::Mode::Message(text) = &app.mode else {
        panic!("an error popup")
    };
    assert!(!text.contains('\x1b') && !text.contains('\x07'), "{text:.200}");
    assert!(text.contains("\\u{1b}[2J"), "{text:.200}");
    assert!(text.len() < 2000, "cut: {} bytes", text.len());
    app.set_status(format!("saved a\x1b[31mb\nnext line {}", "y".repeat(5000)), false);
    let (status, _) = app.status.clone().unwrap();
    assert!(!status.contains('\x1b') && !status.contains('\n'), "{status:.200}");
    assert!(status.len() < 2000, "cut: {} bytes", status.len());
}

/// A pin beyond a PC's NICs was accepted; now the
/// run refuses it and the status says why.
#[test]
fn a_refused_pin_is_reported_and_not_shown() {
    let spec = fnn_tui::spec::QuickFlags {
        pcs: Some(16),
        nics: Some(4),
        switches: Some("16x8".into()),
        ..Default::default()
    }
    .apply(Spec::default())
    .unwrap();
    let engine = Engine::new(spec.resolve().unwrap());
    let worker = Worker::spawn(fnn_tui::run::Run::of_engine(spec, engine), "t".into(), false, None);
    for s in 0..5 {
        worker.send(Command::Edit(Edit::Pin {
            pc: 0,
            switch: s,
            pin: Some(PinKind::Must),
        }));
    }
    let mut applied = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while applied.len() < 5 {
        if let Event::Applied(r) = worker.rx.recv_deadline(deadline).expect("the worker answers every pin") {
            applied.push(r);
        }
    }
    assert!(applied[..4].iter().all(|r| r.is_ok()), "{applied:?}");
    let e = applied.swap_remove(4).unwrap_err();
    assert!(e.to_string().contains("n00"), "{e}");
    let mut app = App::new(Spec::klat2(), "t".into(), None, Keymap::default(), Theme::plain());
    app.on_event(Event::Applied(Err(e)));
    assert!(
        app.status
            .as_ref()
            .is_some_and(|(m, error)| *error && m.contains("refused"))
    );
}

/// After a restart the rate read 4027793844752.4M/s.
#[test]
fn the_rate_after_a_restart_is_sane() {
    let (spec, engine) = {
        let (_, e) = app_after(30);
        (Spec::klat2(), e)
    };
    let worker = Worker::spawn(fnn_tui::run::Run::of_engine(spec, engine), "t".into(), true, None);
    std::thread::sleep(std::time::Duration::from_millis(400));
    worker.send(Command::Edit(Edit::Restart(9)));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
    let mut worst = 0.0f64;
    while let Ok(ev) = worker.rx.recv_deadline(deadline) {
        if let Event::Snapshot(s) = ev {
            worst = worst.max(s.evals_per_sec);
        }
    }
    assert!(worst < 1e9, "{worst} evaluations per second");
}

#[test]
fn quit_asks_when_unsaved_and_ctrl_c_always_leaves() {
    // A live run is always "unsaved": the search's progress alone goes to
    // the recovery file on the way out, so q asks nothing.
    let (mut app, _) = app_after(10);
    assert!(app.unsaved());
    app.on_key(key('q'));
    assert!(app.quit, "no edits: q quits at once");
    // An edit of the user's is worth a question.
    let (mut app, _) = app_after(10);
    let _ = app.on_key(key('p'));
    let _ = app.on_event(Event::Applied(Ok("pinned k00 on switch 0".into())));
    assert!(app.dirty, "a pin the worker applied is an edit");
    app.on_key(key('q'));
    assert_eq!(app.mode, Mode::Confirm(Discard::Quit));
    app.on_key(key('n'));
    assert!(!app.quit && app.mode == Mode::Normal);
    app.on_key(key('q'));
    app.on_key(key('y'));
    assert!(app.quit && !app.interrupted);

    let (mut app, _) = app_after(10);
    app.on_key(key('p'));
    app.on_key(key('q'));
    assert!(matches!(app.on_key(key('s')).as_slice(), []), "no file yet: asks where");
    assert!(matches!(&app.mode, Mode::Prompt(p) if p.kind == PromptKind::SaveAs));
    app.on_key(code(KeyCode::Enter));
    app.on_event(Event::Saved(Ok(("/tmp/q.toml".into(), 10))));
    assert!(app.quit, "save and quit quits once saved");

    let (mut app, _) = app_after(10);
    app.on_key(key('w'));
    app.on_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(app.quit && app.interrupted, "ctrl-c quits from any mode");

    let (mut app, _) = app_after(10);
    app.on_event(Event::Saved(Ok(("/tmp/q.toml".into(), 10))));
    app.on_key(key('q'));
    assert!(app.quit, "nothing unsaved: q quits at once");
}

#[test]
fn help_open_and_messages() {
    let (mut app, engine) = app_after(10);
    app.on_key(key('?'));
    assert_eq!(app.mode, Mode::Help);
    app.on_key(code(KeyCode::Esc));
    assert_eq!(app.mode, Mode::Normal);

    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("a-good.toml");
    Session::capture("good", &Spec::klat2(), &engine).save(&good).unwrap();
    std::fs::write(dir.path().join("b-broken.toml"), "version = 1\nname = ").unwrap();
    app.session_dirs = vec![dir.path().to_path_buf()];
    app.on_key(key('o'));
    assert_eq!(app.mode, Mode::Confirm(Discard::Open), "the run is unsaved: asks first");
    app.on_key(key('y'));
    assert!(matches!(&app.mode, Mode::Open(l) if l.entries.iter().filter(|e| !e.example).count() == 2));
    // The list shows each session's generation, validity and age.
    let list = screen(&app, 140, 40);
    let good_row = list.lines().find(|l| l.contains("a-good")).unwrap();
    assert!(
        good_row.contains("gen 10") && good_row.contains("valid") && good_row.contains("just now"),
        "{good_row}"
    );
    assert!(
        list.lines()
            .any(|l| l.contains("b-broken") && l.contains("not a readable session")),
        "{list}"
    );
    assert!(matches!(
        app.on_key(code(KeyCode::Enter)).as_slice(),
        [Command::Load(_)]
    ));
    app.on_event(Event::Loaded(Ok("good".into())));
    assert_eq!(app.session_path.as_deref(), Some(good.as_path()));
    app.on_key(key('o'));
    app.on_key(key('j'));
    assert!(app.on_key(code(KeyCode::Enter)).is_empty());
    assert!(matches!(&app.mode, Mode::Message(m) if m.contains("b-broken.toml")));

    app.mode = Mode::Normal;
    app.on_event(Event::Failed("the GA worker stopped: boom".into()));
    assert!(matches!(&app.mode, Mode::Message(m) if m.contains("boom")));
    assert!(screen(&app, 120, 40).contains("worker failed"));
}

#[test]
fn config_file_overrides_keys_and_no_color_turns_colour_off() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(
        &path,
        "[keys]\ntoggle-pause = [\"P\"]\nquit = [\"ctrl-q\"]\n[theme]\npin = \"#00ff00\"\n",
    )
    .unwrap();
    let (km, theme) = config::load(Some(&path), false).unwrap();
    assert_eq!(km.action(&key('P')), Some(fnn_tui::tui::keymap::Action::TogglePause));
    assert_eq!(km.action(&key(' ')), None);
    assert!(theme.color);
    let (_, plain) = config::load(Some(&path), true).unwrap();
    assert!(!plain.color);
    std::fs::write(&path, "[keys]\nfly = [\"f\"]\n").unwrap();
    assert!(
        config::load(Some(&path), false)
            .unwrap_err()
            .to_string()
            .contains("config.toml")
    );
    std::fs::write(&path, "[keys]\nquit = [\"banana\"]\n").unwrap();
    assert!(
        config::load(Some(&path), false)
            .unwrap_err()
            .to_string()
            .contains("banana")
    );
    // A remapped key that collides would make forbid unreachable.
    std::fs::write(&path, "[keys]\ntoggle-pause = [\"x\"]\n").unwrap();
    let e = config::load(Some(&path), false).unwrap_err().to_string();
    assert!(
        e.contains("config.toml") && e.contains("toggle-pause") && e.contains("forbid"),
        "{e}"
    );
}

#[test]
fn snapshot_main_screen() {
    let (app, _) = app_after(60);
    insta::assert_snapshot!(screen(&app, 120, 40));
}

#[test]
fn snapshot_help() {
    let (mut app, _) = app_after(60);
    app.on_key(key('?'));
    insta::assert_snapshot!(screen(&app, 120, 40));
}

#[test]
fn snapshot_weights_form() {
    let (mut app, _) = app_after(60);
    app.on_key(key('w'));
    insta::assert_snapshot!(screen(&app, 120, 40));
}

#[test]
fn snapshot_export_menu() {
    let (mut app, _) = app_after(60);
    app.on_key(key('e'));
    insta::assert_snapshot!(screen(&app, 120, 40));
}

#[test]
fn snapshot_terminal_too_small() {
    let (app, _) = app_after(5);
    insta::assert_snapshot!(screen(&app, 60, 20));
}

#[test]
fn snapshot_scaled_phase() {
    let (app, _) = app_for(scaled_spec(), 1);
    insta::assert_snapshot!(screen(&app, 100, 30));
}

#[test]
fn a_panic_in_the_worker_reaches_the_ui_as_an_event() {
    use fnn_tui::tui::worker::Worker;
    let spec = Spec::klat2();
    let mut engine = Engine::new(spec.resolve().unwrap());
    // Pins wait for the full-size phase.
    while engine.phase() != fnn_tui::ga::Phase::Full {
        engine.step();
    }
    let worker = Worker::spawn(fnn_tui::run::Run::of_engine(spec, engine), "t".into(), false, None);
    // A PC that does not exist is refused, not a crash.
    worker.send(Command::Edit(Edit::Pin {
        pc: 10_000,
        switch: 0,
        pin: Some(PinKind::Must),
    }));
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        match worker.rx.recv_deadline(deadline) {
            Ok(Event::Applied(r)) => {
                assert!(r.unwrap_err().to_string().contains("outside the design"));
                break;
            }
            Ok(_) => continue,
            Err(e) => panic!("no answer to the pin: {e}"),
        }
    }
    worker.send(Command::Crash);
    loop {
        match worker.rx.recv_deadline(deadline) {
            Ok(Event::Failed(msg)) => {
                assert!(msg.contains("GA worker stopped"), "{msg}");
                break;
            }
            Ok(_) => continue,
            Err(e) => panic!("no failure event: {e}"),
        }
    }
}

/// At 80x24 the help was cut off (no way to see the
/// rest, nor "esc to close"); now it scrolls and keeps its keys in view.
#[test]
fn the_help_scrolls_and_always_shows_how_to_leave() {
    let (mut app, _) = app_after(5);
    app.size = Rect::new(0, 0, 80, 24);
    app.on_key(key('?'));
    let first = screen(&app, 80, 24);
    assert!(first.contains("esc close") && first.contains("scroll"), "{first}");
    assert!(!first.contains("◆ pinned"), "the legend is below the fold at 80x24");
    app.on_key(code(KeyCode::End));
    let last = screen(&app, 80, 24);
    assert!(last.contains("◆ pinned") && last.contains("esc close"), "{last}");
    assert_eq!(app.mode, Mode::Help, "movement keys scroll, they do not close");
    assert_eq!(app.pop_cursor, 0, "nor do they reach the panes");
}

/// The rack view showed units 41-6 only, and j/G
/// moved the hidden population list (G picked member 200). Its header
/// said `units 42-15` over rows numbered 41..14: rows are numbered as on
/// the rack, U1 at the bottom.
#[test]
fn the_rack_view_scrolls_and_keeps_its_keys() {
    let (mut app, _) = app_after(60);
    app.size = Rect::new(0, 0, 120, 30);
    open_racks(&mut app);
    let top = screen(&app, 120, 30);
    assert!(top.contains("units 42-"), "{top}");
    assert!(top.contains("42│") && !top.contains(" 0│"), "rows as the header: {top}");
    app.on_key(key('G'));
    app.on_key(key('j'));
    let bottom = screen(&app, 120, 30);
    assert!(bottom.contains(" 1│") && bottom.contains("-1 of 42"), "{bottom}");
    assert!(!bottom.contains(" 0│"), "no unit 0 on a rack: {bottom}");
    assert_eq!(app.pop_cursor, 0, "the population selection did not move");
}

/// Status messages never cleared, and a long one
/// pushed the key hints off; number fields dropped letters silently.
#[test]
fn status_messages_expire_and_leave_room_for_the_keys() {
    let (mut app, _) = app_after(5);
    app.set_status("exported 42 files into a-very-long-directory-name/".repeat(4), false);
    let now = std::time::Instant::now();
    assert!(app.status_shown(now).is_some());
    assert!(
        app.status_shown(now + Duration::from_secs(9)).is_none(),
        "a message expires"
    );
    let s = screen(&app, 100, 30);
    let last = s.lines().last().unwrap();
    assert!(last.contains('…') && last.contains("pause"), "the hints stay: {last}");
    app.set_status("refused: no".into(), true);
    assert!(
        app.status_shown(now + Duration::from_secs(9)).is_some(),
        "an error stays longer"
    );
    // It opens whole in a popup too; Esc closes it.
    assert_eq!(app.mode, Mode::Message("refused: no".into()));
    app.on_key(code(KeyCode::Esc));
    // A letter in a number field is refused with a message.
    app.on_key(key('w'));
    app.on_key(key('x'));
    match &app.mode {
        Mode::Form(f) => assert!(f.error.as_ref().unwrap().contains("`x` cannot be part of a number")),
        m => panic!("{m:?}"),
    }
    app.on_key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    match &app.mode {
        Mode::Form(f) => assert_eq!(f.fields[0].value.value(), "", "ctrl-u clears the field"),
        m => panic!("{m:?}"),
    }
}

/// The live designer stopped at the spec's
/// generation limit (3000 after ~19 s); it now runs until paused.
#[test]
fn the_live_designer_runs_past_the_specs_generation_limit() {
    let mut spec = Spec::klat2();
    spec.ga.generations = 3;
    let engine = Engine::new(spec.resolve().unwrap());
    let worker = Worker::spawn(fnn_tui::run::Run::of_engine(spec, engine), "t".into(), true, None);
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        match worker.rx.recv_deadline(deadline) {
            Ok(Event::Snapshot(s)) if s.generation > 10 => {
                assert!(s.running && s.stopped.is_none());
                break;
            }
            Ok(Event::Snapshot(s)) => assert!(s.stopped.is_none(), "stopped at {}: {:?}", s.generation, s.stopped),
            Ok(_) => {}
            Err(e) => panic!("no progress past the limit: {e}"),
        }
    }
}

/// One keymap for every mode: a popup's keys come from it (so a
/// user's config reaches them) and its footer names the keys it uses.
#[test]
fn popups_and_questions_use_the_one_keymap() {
    use fnn_tui::tui::keymap::Action;
    let (mut app, _) = app_after(5);
    let mut o = std::collections::BTreeMap::new();
    o.insert(Action::Cancel, vec!["f10".to_string()]);
    o.insert(Action::Yes, vec!["Y".to_string()]);
    app.keymap.apply_overrides(&o).unwrap();
    app.on_key(key('S'));
    let s = screen(&app, 120, 40);
    assert!(s.contains("enter confirm · f10 cancel"), "{s}");
    app.on_key(code(KeyCode::Esc));
    assert!(matches!(app.mode, Mode::Prompt(_)), "esc is no longer cancel");
    app.on_key(code(KeyCode::F(10)));
    assert_eq!(app.mode, Mode::Normal);
    // The export form's footer too.
    app.on_key(key('e'));
    let s = screen(&app, 120, 40);
    assert!(
        s.contains("enter export · f5 rehearse") && s.contains("f10 cancel"),
        "{s}"
    );
    app.on_key(code(KeyCode::Esc));
    assert!(matches!(app.mode, Mode::Export(_)), "esc is no longer cancel");
    app.on_key(code(KeyCode::F(10)));
    assert_eq!(app.mode, Mode::Normal);
    app.dirty = true;
    app.on_key(key('q'));
    assert_eq!(app.mode, Mode::Confirm(Discard::Quit));
    let s = screen(&app, 120, 40);
    assert!(s.contains("Y quit, keeping it in the recovery file"), "{s}");
    app.on_key(key('y'));
    assert!(!app.quit, "y is no longer yes");
    app.on_key(KeyEvent::new(KeyCode::Char('Y'), KeyModifiers::SHIFT));
    assert!(app.quit);
}

#[test]
fn r_toggles_the_rack_view_of_the_design() {
    use fnn_tui::tui::app::{Racks, View};
    let (mut app, _) = app_after(60);
    open_racks(&mut app);
    match &app.view {
        View::Racks(Racks::Placed(p), 60) => assert_eq!(p.cables.len(), 256),
        v => panic!("expected a placement, got {v:?}"),
    }
    insta::assert_snapshot!(screen(&app, 120, 40));
    app.on_key(key('r'));
    assert_eq!(app.view, View::Designer);
    // The worker places the racks (a second at 1024 PCs: not on the UI
    // thread), and refuses the scaled-down design.
    let worker = scaled_worker();
    worker.send(Command::PlaceRacks);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        match worker.rx.recv_deadline(deadline).expect("the worker answers") {
            Event::RacksPlaced(Err(e), _) => {
                assert!(e.to_string().contains("scaled-down"), "{e}");
                break;
            }
            Event::RacksPlaced(Ok(_), _) => panic!("a scaled-down design was placed"),
            _ => {}
        }
    }
}

/// `r`, answered as the worker would: the placement of the design shown.
fn open_racks(app: &mut App) {
    let cmds = app.on_key(key('r'));
    assert!(
        matches!(cmds.as_slice(), [Command::PlaceRacks]),
        "the worker places the racks"
    );
    let s = app.snapshot.as_ref().unwrap();
    let placed = fnn_tui::export::racks::place(&s.cluster, &s.design).map_err(JobError::Placement);
    let generation = s.generation;
    app.on_event(Event::RacksPlaced(placed, generation));
}

#[test]
fn exports_from_the_designer_include_the_rewire_plan_from_the_opened_design() {
    use fnn_tui::tui::worker::Worker;
    let spec = Spec::klat2();
    let mut engine = Engine::new(spec.resolve().unwrap());
    for _ in 0..40 {
        engine.step();
    }
    let opened = engine.best_design();
    let worker = Worker::spawn(
        fnn_tui::run::Run::of_engine(spec, engine),
        "t".into(),
        false,
        Some(opened),
    );
    for _ in 0..30 {
        worker.send(Command::Step);
    }
    let dir = tempfile::tempdir().unwrap();
    worker.send(Command::Export {
        dir: dir.path().to_path_buf(),
        choices: Default::default(),
        rewire_from_saved: true,
        session_dirs: Vec::new(),
    });
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        match worker.rx.recv_deadline(deadline).expect("an export result") {
            Event::Exported(Ok(files)) => {
                assert!(files.iter().any(|f| f.ends_with("rewire.txt")));
                assert!(files.iter().any(|f| f.ends_with("racks/racks.svg")));
                break;
            }
            Event::Exported(Err(e)) => panic!("{e}"),
            _ => {}
        }
    }
    let plan = std::fs::read_to_string(dir.path().join("rewire.txt")).unwrap();
    assert!(plan.starts_with("# Rewire plan:"), "{plan}");
}

#[test]
fn shift_c_toggles_the_comparison_table() {
    use fnn_tui::tui::app::View;
    let (mut app, _) = app_after(60);
    app.on_key(KeyEvent::new(KeyCode::Char('C'), KeyModifiers::SHIFT));
    // G here selected member 200 behind the table.
    app.focus = Pane::Population;
    assert!(app.on_key(key('G')).is_empty());
    assert_eq!(app.pop_cursor, 0, "the hidden population list did not move");
    match &app.view {
        View::Compare(rows, _, racks) => {
            assert!(racks.is_some(), "the fat-tree rack plan comes as data");
            let names: Vec<&str> = rows.iter().map(|r| r.system.as_str()).collect();
            assert_eq!(
                names,
                [
                    "FNN",
                    "fat-tree",
                    "tree",
                    "Stack-Ring",
                    "Stack-Mesh",
                    "3D torus",
                    "CLEX"
                ]
            );
        }
        v => panic!("expected the comparison, got {v:?}"),
    }
    insta::assert_snapshot!(screen(&app, 140, 40));
    app.on_key(KeyEvent::new(KeyCode::Char('C'), KeyModifiers::SHIFT));
    assert_eq!(app.view, View::Designer);
}

/// The compare table's note column was cut at 120x40 with no way to see
/// the rest: → scrolls it into view, ← back, and the title says where.
#[test]
fn the_compare_table_scrolls_sideways_to_its_cut_columns() {
    let (mut app, _) = app_after(60);
    app.size = Rect::new(0, 0, 80, 24);
    app.on_key(KeyEvent::new(KeyCode::Char('C'), KeyModifiers::SHIFT));
    let first = screen(&app, 80, 24);
    assert!(
        first.contains("FNN") && !first.contains("fat-tree paper's Algorithm"),
        "{first}"
    );
    assert!(
        first.contains("←/→ scroll, columns 1-"),
        "the title says it scrolls: {first}"
    );
    for _ in 0..40 {
        app.on_key(code(KeyCode::Right));
    }
    let right = screen(&app, 80, 24);
    assert!(right.contains("Algorithm 1)"), "the note's end is in view: {right}");
    app.on_key(code(KeyCode::Home));
    assert_eq!(screen(&app, 80, 24), first, "Home goes back to the first column");
}

#[test]
fn export_from_the_compare_tab_writes_the_other_systems() {
    use fnn_tui::tui::worker::Worker;
    let (mut app, engine) = app_after(60);
    app.on_key(KeyEvent::new(KeyCode::Char('C'), KeyModifiers::SHIFT));
    app.on_key(key('e'));
    assert!(matches!(&app.mode, Mode::Prompt(p) if p.kind == PromptKind::ExportCompare));
    let dir = tempfile::tempdir().unwrap();
    for _ in 0.."fnn-compare".len() {
        app.on_key(code(KeyCode::Backspace));
    }
    for ch in dir.path().to_str().unwrap().chars() {
        app.on_key(key(ch));
    }
    let cmds = app.on_key(code(KeyCode::Enter));
    let worker = Worker::spawn(
        fnn_tui::run::Run::of_engine(Spec::klat2(), engine),
        "t".into(),
        false,
        None,
    );
    for c in cmds {
        worker.send(c);
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        match worker.rx.recv_deadline(deadline).expect("an export result") {
            Event::Exported(Ok(files)) => {
                assert!(files.iter().any(|f| f.ends_with("fat-tree/bom.csv")));
                assert!(files.iter().any(|f| f.ends_with("compare.txt")));
                break;
            }
            Event::Exported(Err(e)) => panic!("{e}"),
            _ => {}
        }
    }
}

#[test]
fn shift_w_opens_the_sweep_which_fills_in_and_left_right_pick_the_nics() {
    use fnn_tui::sweep::Budget;
    use fnn_tui::tui::app::View;
    use fnn_tui::tui::sweep::{SweepPlan, SweepView};
    let (mut app, _) = app_after(60);
    let start = app.on_key(KeyEvent::new(KeyCode::Char('W'), KeyModifiers::SHIFT));
    assert!(
        matches!(start.as_slice(), [Command::Sweep(_)]),
        "the worker runs the sweep job"
    );
    match &app.view {
        // The plan covers 3..1024 PCs, 2..6 NICs, and marks KLAT2: 64 PCs, 4 NICs, 31 usable ports.
        View::Sweep(run, nics) => {
            assert_eq!(*nics, 4);
            assert_eq!(run.plan.spec, (64, 4, 31));
            assert_eq!((run.plan.pcs[0], *run.plan.pcs.last().unwrap()), (3, 1024));
            assert!(run.plan.pcs.contains(&64));
            assert_eq!(run.plan.nics, vec![2, 3, 4, 5, 6]);
        }
        v => panic!("expected the sweep, got {v:?}"),
    }
    let stop = app.on_key(KeyEvent::new(KeyCode::Char('W'), KeyModifiers::SHIFT));
    assert!(
        matches!(stop.as_slice(), [Command::StopSweep]),
        "leaving the tab stops it"
    );
    assert_eq!(app.view, View::Designer);
    // A small sweep run to the end, so the screen is deterministic.
    let plan = SweepPlan {
        pcs: vec![3, 10, 20, 40, 64, 80],
        nics: vec![3, 4, 5],
        budget: Budget {
            generations: 50,
            max_pcs: 16,
            seed: 1,
            exact_s: 0.0,
            anneal: 0,
        },
        spec: (64, 4, 31),
    };
    // Its points arrive as events, in any order; the tab keeps them sorted.
    app.view = View::Sweep(SweepView::new(plan.clone()), 4);
    let todo: Vec<(usize, u32)> = plan
        .nics
        .iter()
        .flat_map(|&n| plan.pcs.iter().map(move |&p| (p, n)))
        .collect();
    let points = std::sync::Mutex::new(Vec::new());
    fnn_tui::sweep::run(&todo, plan.budget, 1, &std::sync::atomic::AtomicBool::new(false), |p| {
        points.lock().unwrap().push(p)
    });
    for p in points.into_inner().unwrap().into_iter().rev() {
        app.on_event(Event::SweepPoint(p));
    }
    app.on_key(code(KeyCode::Right));
    assert!(matches!(app.view, View::Sweep(_, 5)));
    app.on_key(code(KeyCode::Right));
    assert!(matches!(app.view, View::Sweep(_, 5)), "stays on the last NIC count");
    app.on_key(code(KeyCode::Left));
    let text = screen(&app, 120, 40);
    assert!(text.contains("18/18 sizes"), "{text}");
    assert!(
        text.contains("this spec: 64 PCs with 4 NICs need 20-port switches at least (bound 20)"),
        "{text}"
    );
    // What the shipped atlas knows of the open spec's size.
    assert!(
        text.contains("narrowest known: 20 ports: at Füredi's bound (atlas)"),
        "{text}"
    );
    insta::assert_snapshot!(text);
    // A failed job is shown, not a tab that stalls silently.
    app.on_event(Event::SweepEnded(Err(fnn_tui::tui::worker::Panicked("boom".into()))));
    let failed = screen(&app, 120, 40);
    assert!(failed.contains("Sweep FAILED after 18/18 sizes: boom"), "{failed}");
}

/// A panic in the sweep job reaches the UI as an event.
#[test]
fn the_sweep_job_reports_through_the_workers_channel() {
    use fnn_tui::sweep::Budget;
    use fnn_tui::tui::sweep::SweepPlan;
    let spec = Spec::klat2();
    let engine = Engine::new(spec.resolve().unwrap());
    let worker = Worker::spawn(fnn_tui::run::Run::of_engine(spec, engine), "t".into(), false, None);
    let plan = SweepPlan {
        pcs: vec![3, 5],
        nics: vec![2],
        budget: Budget {
            generations: 10,
            max_pcs: 8,
            seed: 1,
            exact_s: 0.0,
            anneal: 0,
        },
        spec: (5, 2, 4),
    };
    worker.send(Command::Sweep(plan));
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let mut points = 0;
    loop {
        match worker.rx.recv_deadline(deadline).expect("the job ends") {
            Event::SweepPoint(_) => points += 1,
            Event::SweepEnded(r) => {
                assert_eq!(r, Ok(()));
                break;
            }
            _ => {}
        }
    }
    assert_eq!(points, 2);
}

/// F5 in the export form runs emulate as a worker job: progress comes as
/// events, then the summary, and nothing it built is left.
#[test]
fn the_worker_runs_emulate_and_reports_its_summary() {
    let flags = fnn_tui::spec::QuickFlags {
        pcs: Some(6),
        nics: Some(2),
        switches: Some("4x3".into()),
        ..Default::default()
    };
    let spec = flags.apply(Spec::default()).unwrap();
    let mut engine = Engine::new(spec.resolve().unwrap());
    for _ in 0..5000 {
        if engine.is_valid() {
            break;
        }
        engine.step();
    }
    assert!(engine.is_valid(), "six PCs on three 4-port switches are found");
    let worker = Worker::spawn(fnn_tui::run::Run::of_engine(spec, engine), "t".into(), false, None);
    worker.send(Command::Emulate { probe_order: None });
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    let mut progress = 0;
    let summary = loop {
        match worker.rx.recv_deadline(deadline).expect("an emulate result") {
            Event::EmulateProgress(..) => progress += 1,
            Event::Emulated(r) => break r,
            _ => {}
        }
    };
    let summary = summary.unwrap_or_else(|e| panic!("emulate could not run: {e}"));
    assert!(progress > 0, "progress is reported while it runs");
    assert!(
        summary.contains("30 answered, 0 failed") && summary.contains("OK:"),
        "{summary}"
    );
    // Every emulate namespace belongs to a run whose record is still
    // there (a live one): nothing was left behind.
    let namespaces = std::process::Command::new("ip")
        .args(["netns", "list"])
        .output()
        .unwrap();
    let left = String::from_utf8_lossy(&namespaces.stdout).into_owned();
    let records: Vec<String> = std::fs::read_dir(fnn_tui::emulate::RUN_DIR)
        .map(|it| {
            it.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    let orphan = |ns: &str| {
        ns.len() > 7
            && ns.starts_with("fe")
            && ns.as_bytes()[6] == b'-'
            && !records.iter().any(|r| r.starts_with(&ns[..6]))
    };
    assert!(!left.lines().any(orphan), "left behind: {left}");
}

/// Emulate's summary shows in a popup line by line, and its progress in
/// the status bar.
#[test]
fn emulate_progress_and_summary_reach_the_screen() {
    let (mut app, _) = app_after(5);
    app.on_event(Event::EmulateProgress("pinging".into(), 120, 4032));
    assert!(screen(&app, 120, 40).contains("emulate: pinging 120/4032"));
    app.on_event(Event::Emulated(Ok(
        "64 PCs, 4032 ordered pairs pinged: 4032 answered\nframes: 0 ARP, 0 broadcast\nOK: every pair answered".into(),
    )));
    let s = screen(&app, 120, 40);
    let rows: Vec<&str> = s.lines().collect();
    let at = |text: &str| rows.iter().position(|r| r.contains(text));
    let (a, b) = (at("4032 answered"), at("frames: 0 ARP"));
    assert!(a.is_some() && b == a.map(|a| a + 1), "one summary line a row:\n{s}");
    let setup = fnn_tui::emulate::EmulateError::Setup {
        command: "ip netns add".into(),
        reason: "it needs root".into(),
    };
    app.on_event(Event::Emulated(Err(JobError::Emulate(setup))));
    assert!(screen(&app, 120, 40).contains("Emulate failed: `ip netns add` failed: it needs root"));
}

/// The real event loop on a test terminal, with the test as the worker:
/// keys go in as the input thread sends them, the commands the loop sends
/// come out, and events go back in.
struct Loop {
    keys: crossbeam_channel::Sender<ratatui::crossterm::event::Event>,
    commands: crossbeam_channel::Receiver<Command>,
    events: crossbeam_channel::Sender<Event>,
    handle: std::thread::JoinHandle<App>,
}

impl Loop {
    fn start(mut app: App) -> Loop {
        let (keys, input) = crossbeam_channel::unbounded();
        let (cmd_tx, commands) = crossbeam_channel::unbounded();
        let (events, ev_rx) = crossbeam_channel::unbounded();
        let handle = std::thread::spawn(move || {
            let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
            fnn_tui::tui::event_loop(&mut terminal, &mut app, &cmd_tx, &ev_rx, &input, None).unwrap();
            app
        });
        Loop {
            keys,
            commands,
            events,
            handle,
        }
    }

    fn key(&self, k: KeyEvent) {
        self.keys.send(ratatui::crossterm::event::Event::Key(k)).unwrap();
    }

    /// The next command the loop sends the worker (the autosave's aside).
    fn command(&self) -> Command {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            match self.commands.recv_deadline(deadline) {
                Ok(Command::Save { autosave: true, .. }) => {}
                Ok(c) => return c,
                Err(_) => panic!("the event loop sent the worker nothing"),
            }
        }
    }

    fn quit(self) -> App {
        self.key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
        self.handle.join().expect("the event loop ends")
    }
}

/// The rack view follows the design: a snapshot 50 generations on makes
/// the loop ask the worker for a new placement.
#[test]
fn the_event_loop_refreshes_the_rack_view_as_the_design_moves_on() {
    let (app, mut engine) = app_after(60);
    let ui = Loop::start(app);
    ui.key(key('r'));
    assert!(matches!(ui.command(), Command::PlaceRacks));
    for _ in 0..50 {
        engine.step();
    }
    let (s, _) = shot_of(engine, true);
    let placed = fnn_tui::export::racks::place(&s.cluster, &s.design).map_err(JobError::Placement);
    ui.events.send(Event::RacksPlaced(placed, 60)).unwrap();
    ui.events.send(Event::Snapshot(Box::new(s))).unwrap();
    assert!(
        matches!(ui.command(), Command::PlaceRacks),
        "the rack view was not refreshed"
    );
    ui.quit();
}

/// No way to find a PC or switch in the grid but scrolling: `/` takes a
/// name and puts the cursor there, in view.
#[test]
fn slash_finds_a_pc_or_switch_in_the_grid() {
    let (mut app, _) = app_after(10);
    app.size = Rect::new(0, 0, 80, 24);
    let _ = screen(&app, 80, 24);
    app.on_key(key('/'));
    assert!(screen(&app, 80, 24).contains("Find in the grid"));
    for ch in "k50 s7".chars() {
        app.on_key(key(ch));
    }
    app.on_key(code(KeyCode::Enter));
    assert_eq!(app.cursor, (50, 7));
    assert_eq!(app.focus, Pane::Grid);
    let s = screen(&app, 80, 24);
    assert!(s.contains("k50"), "the found PC's row is in view: {s}");
    app.on_key(key('/'));
    for ch in "s99".chars() {
        app.on_key(key(ch));
    }
    app.on_key(code(KeyCode::Enter));
    match &app.mode {
        Mode::Message(m) => assert!(m.contains("no switch 99") && m.contains("s0..s"), "{m}"),
        m => panic!("expected a message, got {m:?}"),
    }
    assert_eq!(app.cursor, (50, 7), "a failed find leaves the cursor");
}

/// The weights form had no field descriptions: the field being edited
/// says what it does under the form.
#[test]
fn the_weights_form_explains_the_field_being_edited() {
    let (mut app, _) = app_after(5);
    app.on_key(key('w'));
    let s = screen(&app, 80, 24);
    assert!(s.contains("weights.uncovered: required pairs that share no"), "{s}");
    app.on_key(code(KeyCode::Down));
    let s = screen(&app, 80, 24);
    assert!(s.contains("weights.bandwidth: average links"), "{s}");
}

/// The default KLAT2 run was valid and in the full phase by 0.4 s: at the
/// watch pace (v, --watch) the scaled-down phase takes seconds and the
/// status bar says the pace; off, the run goes on at full speed.
#[test]
fn the_watch_pace_slows_the_scaled_phase_so_it_can_be_seen() {
    use fnn_tui::tui::worker::WATCH_SCALED;
    let spec = Spec::klat2();
    let worker = Worker::spawn(fnn_tui::run::Run::new(spec).unwrap(), "t".into(), false, None);
    worker.send(Command::Watch(true));
    worker.send(Command::Resume);
    let started = std::time::Instant::now();
    let watched = Duration::from_millis(1500);
    let mut last = None;
    while started.elapsed() < watched {
        if let Ok(Event::Snapshot(s)) = worker.rx.recv_timeout(Duration::from_millis(100)) {
            last = Some(s);
        }
    }
    let s = last.expect("snapshots while running");
    // At most one generation per WATCH_SCALED in the scaled-down phase
    // (and the first at once): the pace only ever slows it.
    let most = (watched.as_millis() / WATCH_SCALED.as_millis()) as u64 + 2;
    assert!(s.watch && s.running);
    assert!(
        s.generation <= most,
        "{} generations in {watched:?} at the watch pace",
        s.generation
    );
    assert!(
        matches!(s.phase, fnn_tui::ga::Phase::Scaled { .. }),
        "still in the scaled-down phase"
    );
    let (mut app, _) = app_after(5);
    app.snapshot = Some(*s);
    assert!(screen(&app, 120, 40).contains("watch pace"));
    worker.send(Command::Watch(false));
}

static SUSPENDS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn count_suspend() -> std::io::Result<()> {
    SUSPENDS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    Ok(())
}

/// No ctrl-z: now it suspends from any view or popup (the loop hands the
/// terminal back through its hook), and after `fg` the designer goes on
/// where it was.
#[test]
fn ctrl_z_suspends_from_any_view_and_the_designer_goes_on() {
    let (mut app, _) = app_after(10);
    app.suspend_hook = Some(count_suspend);
    let ui = Loop::start(app);
    ui.key(key('w'));
    ui.key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL));
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while SUSPENDS.load(std::sync::atomic::Ordering::SeqCst) == 0 {
        assert!(std::time::Instant::now() < deadline, "ctrl-z did not suspend");
        std::thread::sleep(Duration::from_millis(10));
    }
    let app = ui.quit();
    assert_eq!(SUSPENDS.load(std::sync::atomic::Ordering::SeqCst), 1);
    assert!(
        matches!(app.mode, Mode::Form(..)),
        "the form is open as it was: {:?}",
        app.mode
    );
    let mut app = app;
    app.mode = Mode::Help;
    app.on_key(code(KeyCode::End));
    let help = screen(&app, 120, 60);
    assert!(help.contains("ctrl-z") && help.contains("suspend"), "{help}");
}

/// "Save first" before a restart: once the worker says it saved, the loop
/// sends the restart.
#[test]
fn the_event_loop_restarts_after_saving_first() {
    let (mut app, _) = app_after(10);
    app.session_path = Some("/tmp/r.toml".into());
    let ui = Loop::start(app);
    ui.key(key('R'));
    ui.key(key('s'));
    assert!(matches!(ui.command(), Command::Save { autosave: false, .. }));
    ui.events.send(Event::Saved(Ok(("/tmp/r.toml".into(), 10)))).unwrap();
    assert!(
        matches!(ui.command(), Command::Edit(Edit::Restart(_))),
        "saved but never restarted"
    );
    let app = ui.quit();
    assert_eq!(app.session_path.as_deref(), Some(std::path::Path::new("/tmp/r.toml")));
}

/// A background job that panics is an error the UI can show, not a
/// silence it waits on forever.
#[test]
fn a_background_job_that_panics_becomes_an_error_message() {
    use fnn_tui::tui::worker::Panicked;
    use fnn_tui::tui::worker::catching;
    assert_eq!(catching(|| 7), Ok(7));
    assert_eq!(
        catching(|| -> u8 { panic!("lost {}", 1) }),
        Err(Panicked("lost 1".to_string()))
    );
    assert_eq!(catching(|| -> u8 { panic!("lost") }), Err(Panicked("lost".to_string())));
}

/// A stopped run whose design a pin made invalid: the status line must
/// not call it valid, and at 80 columns its validity and the unsaved
/// marker stay in view (the stop reason shortens first).
#[test]
fn the_status_line_tells_one_truth_and_keeps_validity_and_unsaved_at_80_columns() {
    let spec = scaled_spec();
    let engine = Engine::new(spec.resolve().unwrap());
    assert!(!engine.is_valid(), "the scaled spec starts invalid");
    let mut app = App::new(spec, "cluster-1024".into(), None, Keymap::default(), Theme::plain());
    app.dirty = true;
    let (mut stalled, engine) = shot_of(engine, false);
    stalled.stopped = Some(fnn_tui::run::StopReason::Stalled);
    app.on_event(Event::Snapshot(Box::new(stalled)));
    for (w, h) in [(80, 24), (200, 60)] {
        app.size = Rect::new(0, 0, w, h);
        let text = screen(&app, w, h);
        let status: Vec<&str> = text.lines().rev().skip(1).take(3).collect();
        let status = status.join("\n");
        assert!(status.contains("NOT VALID"), "{w}x{h}:\n{status}");
        assert!(status.contains("● unsaved"), "{w}x{h}:\n{status}");
        assert!(status.contains("■ stopped"), "{w}x{h}:\n{status}");
        assert!(!status.to_lowercase().contains("valid;"), "{w}x{h}:\n{status}");
    }
    // Paused by the user: the bar says which key goes on.
    let (paused, _) = shot_of(engine, false);
    app.on_event(Event::Snapshot(Box::new(paused)));
    app.size = Rect::new(0, 0, 200, 60);
    assert!(screen(&app, 200, 60).contains("⏸ paused (space resumes)"));
}

/// The status line's hints are whole keys: never a key without its label.
#[test]
fn the_key_hints_are_never_cut_in_half() {
    let (mut app, _) = app_after(1);
    app.size = Rect::new(0, 0, 80, 24);
    let text = screen(&app, 80, 24);
    let hints = text
        .lines()
        .rev()
        .nth(1)
        .unwrap()
        .trim_end_matches(['"', ' '])
        .to_string();
    let last = hints.split("  ").last().unwrap().trim();
    assert!(last.contains(' '), "the last hint is a key and its label: {hints:?}");
}

/// A pin on a run a stop rule ended goes on with the run at once.
#[test]
fn an_edit_on_a_stopped_run_resumes_it() {
    let spec = Spec::klat2();
    let worker = Worker::spawn(fnn_tui::run::Run::new(spec).unwrap(), "t".into(), true, None);
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let stopped = loop {
        if let Event::Snapshot(s) = worker.rx.recv_deadline(deadline).expect("the run stops")
            && s.stopped.is_some()
        {
            break s;
        }
    };
    assert!(!stopped.running);
    // Pin PC 0 to a switch it is not cabled to.
    let switch = (0..stopped.cluster.switch_count())
        .find(|&sw| !stopped.design.has(0, sw))
        .unwrap();
    worker.send(Command::Edit(Edit::Pin {
        pc: 0,
        switch,
        pin: Some(PinKind::Must),
    }));
    loop {
        match worker.rx.recv_deadline(deadline).expect("the worker answers") {
            Event::Applied(r) => {
                assert!(r.is_ok(), "{r:?}");
                break;
            }
            _ => continue,
        }
    }
    let Event::Snapshot(after) = worker.rx.recv_deadline(deadline).expect("a snapshot follows the edit") else {
        panic!("a snapshot follows the edit")
    };
    assert!(
        after.running && after.stopped.is_none(),
        "{:?} {}",
        after.stopped,
        after.running
    );
}

/// A refusal opens whole in a popup (Esc closes it) and stays in the
/// message history that `m` opens; the names are the grid's.
#[test]
fn a_refusal_opens_whole_in_a_popup_and_stays_in_the_history() {
    let (mut app, _) = app_after(1);
    app.size = Rect::new(0, 0, 80, 24);
    let why = "impossible: k00 is pinned to 5 switches but has only 4 NICs; a long explanation that goes on well past eighty columns so that the status line alone would cut it";
    let refused = fnn_tui::spec::SpecError::infeasible("edit", why.trim_start_matches("impossible: "));
    app.on_event(Event::Applied(Err(JobError::Refused(refused))));
    assert!(matches!(app.mode, Mode::Message(_)), "{:?}", app.mode);
    let text = screen(&app, 80, 24);
    let flat: String = text
        .lines()
        .map(|l| l.trim_matches(|c: char| c == '"' || c == '│' || c == ' '))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(flat.contains("cut it"), "the whole text shows:\n{text}");
    app.on_key(code(KeyCode::Esc));
    assert_eq!(app.mode, Mode::Normal);
    app.on_event(Event::Applied(Ok("pinned k01 on switch 3".into())));
    app.on_key(key('m'));
    let Mode::Message(history) = &app.mode else {
        panic!("m opens the history: {:?}", app.mode)
    };
    let newest = history.find("pinned k01").unwrap();
    let older = history.find("k00 is pinned").unwrap();
    assert!(newest < older, "newest first:\n{history}");
    app.on_key(code(KeyCode::Esc));
    assert_eq!(app.mode, Mode::Normal);
}

/// From the designer, a design that is not valid is not exported, and
/// the refusal says what to do there (not only the command line's flag).
#[test]
fn the_designer_refuses_to_export_a_design_that_is_not_valid() {
    let worker = scaled_worker();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    worker.send(Command::Export {
        dir: out.clone(),
        choices: Default::default(),
        rewire_from_saved: false,
        session_dirs: Vec::new(),
    });
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        match worker.rx.recv_deadline(deadline).expect("an export result") {
            Event::Exported(Err(e)) => {
                let e = e.to_string();
                assert!(e.contains("not valid") && e.contains("reach VALID"), "{e}");
                break;
            }
            Event::Exported(Ok(files)) => panic!("exported {} files of an invalid design", files.len()),
            _ => {}
        }
    }
    assert!(!out.exists(), "nothing written");
}

/// Esc backs out of the rack, compare and sweep views (the sweep's job
/// stops with it).
#[test]
fn esc_backs_out_of_every_view() {
    // Past the scaled-down phase: the comparison wants the full design.
    let (mut app, _) = app_after(60);
    for (k, stops) in [('r', false), ('C', false), ('W', true)] {
        app.on_key(key(k));
        assert_ne!(app.view, fnn_tui::tui::app::View::Designer, "{k} opens its view");
        let commands = app.on_key(code(KeyCode::Esc));
        assert_eq!(
            app.view,
            fnn_tui::tui::app::View::Designer,
            "esc leaves the view of {k}"
        );
        assert_eq!(
            commands.iter().any(|c| matches!(c, Command::StopSweep)),
            stops,
            "{k}: {} commands",
            commands.len()
        );
    }
    // On the designer itself, Esc does nothing.
    assert!(app.on_key(code(KeyCode::Esc)).is_empty());
    assert_eq!(app.mode, Mode::Normal);
}

/// Pins that leave a required pair no switch to share were accepted and
/// the run stayed NOT VALID for ever: the worker refuses the pin that
/// does it, naming the pair, and applies the others.
#[test]
fn the_designer_refuses_the_pin_that_strands_a_pair() {
    let spec = fnn_tui::spec::QuickFlags {
        pcs: Some(8),
        nics: Some(3),
        switches: Some("5x6".into()),
        ..Default::default()
    }
    .apply(Spec::default())
    .unwrap();
    let mut run = fnn_tui::run::Run::new(spec).unwrap();
    while run.engine().phase() != fnn_tui::ga::Phase::Full {
        run.step();
    }
    let worker = Worker::spawn(run, "pins".into(), false, None);
    let pins = [(0, 0), (0, 1), (0, 2), (1, 3), (1, 4), (1, 5)];
    for (pc, switch) in pins {
        worker.send(Command::Edit(Edit::Pin {
            pc,
            switch,
            pin: Some(PinKind::Must),
        }));
    }
    let mut answers = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while answers.len() < pins.len() {
        if let Event::Applied(r) = worker.rx.recv_deadline(deadline).expect("the worker answers every pin") {
            answers.push(r);
        }
    }
    let last = answers.pop().unwrap();
    assert!(answers.iter().all(Result::is_ok), "{answers:?}");
    let why = last.expect_err("the sixth pin strands n0 and n1");
    assert!(why.to_string().contains("n0 and n1 must share a switch"), "{why}");
}

/// A spec whose own pins strand a pair is said so when the designer
/// starts, and its run is not started: before, the search ran to no end
/// ("NOT VALID" for ever), as a pin added by hand no longer does.
#[test]
fn the_designer_says_at_start_when_the_spec_pins_strand_a_pair() {
    let mut text = String::from(
        "name = \"stranded\"\n[pcs]\ncount = 8\nnics = 3\n[uplink]\nmode = \"none\"\n[[switches]]\nmodel = \"five\"\nports = 5\ncount = 6\n",
    );
    for (pc, switch) in [(0, 0), (0, 1), (0, 2), (1, 3), (1, 4), (1, 5)] {
        text.push_str(&format!("[[pins]]\npc = {pc}\nswitch = {switch}\nkind = \"must\"\n"));
    }
    let spec = Spec::from_toml(&text, "stranded.toml").unwrap();
    let run = fnn_tui::run::Run::new(spec).unwrap();
    let worker = Worker::spawn(run, "stranded".into(), true, None);
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let why = loop {
        match worker
            .rx
            .recv_deadline(deadline)
            .expect("the worker says what the pins allow")
        {
            Event::PinsChecked(r) => break r.expect_err("n0 and n1 share no switch the pins allow"),
            Event::Snapshot(s) => assert!(!s.running, "the run started on pins no wiring obeys"),
            _ => {}
        }
    };
    assert!(why.to_string().contains("n0 and n1 must share a switch"), "{why}");
    let snapshot = loop {
        if let Event::Snapshot(s) = worker.rx.recv_deadline(deadline).expect("a snapshot") {
            break s;
        }
    };
    assert!(!snapshot.running, "the run started on pins no wiring obeys");
}

/// The export said "exported 787 files into fnn-export/advanced" (the
/// first file's folder, relative) when the files went to ./fnn-export: it
/// names the folder holding them all, as a real absolute path.
#[test]
fn an_export_names_the_absolute_folder_it_wrote_into() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fnn-export");
    std::fs::create_dir_all(out.join("advanced")).unwrap();
    let files = vec![out.join("advanced/k00.sh"), out.join("switches.txt")];
    let (mut app, _) = app_after(10);
    app.on_event(Event::Exported(Ok(files)));
    let (said, _) = app.status.clone().unwrap();
    let real = std::fs::canonicalize(&out).unwrap();
    assert_eq!(said, format!("exported 2 files into {}", real.display()));
}

/// `space` and `n` on a run that has stopped send the worker nothing and
/// say why, and which key searches on (before: nothing happened at all).
#[test]
fn pause_and_step_on_a_stopped_run_say_it_has_stopped() {
    let (app, engine) = app_after(60);
    let ui = Loop::start(app);
    let (mut stopped, _) = shot_of(engine, false);
    stopped.stopped = Some(fnn_tui::run::StopReason::Stalled);
    ui.events.send(Event::Snapshot(Box::new(stopped))).unwrap();
    ui.key(key(' '));
    ui.key(key('n'));
    let commands = ui.commands.clone();
    let app = ui.quit();
    let sent = commands
        .try_iter()
        .filter(|c| matches!(c, Command::Pause | Command::Resume | Command::Step))
        .count();
    assert_eq!(sent, 0, "a stopped run was sent pause, resume or step");
    let (status, _) = app.status.clone().expect("a status line");
    assert!(
        status.contains("the run has stopped") && status.contains("R restarts"),
        "{status}"
    );
}
