//! End to end: the real binary in a pseudo-terminal, driven by keys as a
//! user would, with the screen read through a VT100 emulator and the files
//! it writes checked on disk.

#![cfg(feature = "tui")]

use crate::common::pty::{PROMPT, Tui};
use crate::common::{Need, Source, machine_has};
use std::time::{Duration, Instant};

/// The generation the status bar shows (`│ gen N │`).
fn status_generation(screen: &str) -> u64 {
    let after = screen.split("│ gen ").nth(1).expect("a generation in the status bar");
    after
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect::<String>()
        .parse()
        .unwrap()
}

const BACKSPACES: &str = "\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f";

#[test]
fn design_pin_export_save_quit_and_resume_in_a_real_terminal() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let mut tui = Tui::start(&[], h);
    let first = tui.wait_for("Population (200 members)");
    assert!(first.contains("Fitness") && first.contains("PC x switch") || first.contains("Scaled-down"));
    tui.wait_for("full │ gen");

    // Pause, move to PC 2 / switch 1 and pin it.
    tui.keys(" ");
    tui.wait_for("paused");
    tui.keys("jjlp");
    let s = tui.wait_for("pinned k02 on switch 1");
    let row = s.lines().find(|l| l.contains("k02 ")).expect("PC k02's row");
    assert!(row.contains('◆'), "the pinned cell shows ◆: {row}");

    // Weights form: set redundancy to 3 and apply.
    tui.keys("w");
    tui.wait_for("Weights and GA parameters");
    tui.keys("\x1b[B\x1b[B\x1b[B\x1b[B\x1b[B\x7f3\r");
    tui.wait_for("weights and GA parameters applied");

    // Let the search repair coverage around the pin, then pause and export.
    tui.keys(" ");
    tui.wait_for("│ VALID │");
    tui.keys(" ");
    tui.wait_for("paused");
    let paused = tui.text();
    assert!(paused.contains("│ VALID │"), "paused on a valid design:\n{paused}");
    // Export into ./out.
    tui.keys("e");
    tui.wait_for("Export");
    tui.keys(&format!("{BACKSPACES}out\r"));
    tui.wait_for("exported");
    let table = std::fs::read_to_string(h.join("out/switches.txt")).unwrap();
    assert_eq!(table.lines().count(), 9, "{table}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(h.join("out/report.json")).unwrap()).unwrap();
    assert_eq!(report["valid"], true);

    // Save as ./k.toml (a bare name would go to the sessions folder),
    // then quit (nothing unsaved: no question).
    tui.keys("S");
    tui.wait_for("Save session as");
    tui.keys(&format!("{BACKSPACES}./k.toml\r"));
    tui.wait_for("saved ./k.toml");
    let saved_at = tui.text();
    let gen_saved = status_generation(&saved_at);
    tui.keys("q");
    assert!(tui.exit_status().success());
    let session = std::fs::read_to_string(h.join("k.toml")).unwrap();
    assert!(
        session.contains("redundancy = 3.0"),
        "the session keeps the live weights"
    );

    // Resume: the saved generation, the pin, the weights.
    let mut tui = Tui::start(&["--resume", "k.toml"], h);
    let s = tui.wait_for("Population (200 members)");
    let gen_now = status_generation(&s);
    assert!(gen_now >= gen_saved, "resumed at {gen_now}, saved at {gen_saved}");
    let row = s.lines().find(|l| l.contains("k02 ")).expect("PC k02's row");
    assert!(row.contains('◆'), "the pin survived: {row}");
    // Ctrl-C leaves at once, keeps the progress made since (in the
    // recovery file, never over k.toml), and exits 130 as an interrupted
    // command does.
    tui.keys(" ");
    tui.keys("\x03");
    assert_eq!(tui.exit_status().exit_code(), 130);
    let after = std::fs::read_to_string(h.join("k.toml")).unwrap();
    assert!(fnn_tui::session::Session::from_toml(&after, "k.toml").is_ok());
}

#[test]
fn a_bad_resume_is_refused_before_the_terminal_is_touched() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("bad.toml"), "version = 7\n").unwrap();
    let out = assert_cmd::Command::cargo_bin("fnn-tui")
        .unwrap()
        .current_dir(home.path())
        .args(["--resume", "bad.toml"])
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("newer fnn-tui"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(home.path().join("bad.toml")).unwrap(),
        "version = 7\n"
    );
}

/// Sends `signal` (`TERM`, `HUP`, `TSTP` or `STOP`) as `kill` would,
/// without needing the `kill` program (a minimal Debian has none).
fn send_signal(pid: u32, signal: &str) {
    let number = match signal {
        "TERM" => libc::SIGTERM,
        "HUP" => libc::SIGHUP,
        "TSTP" => libc::SIGTSTP,
        "STOP" => libc::SIGSTOP,
        other => panic!("no signal {other} here"),
    };
    // SAFETY: kill has no memory preconditions; the pid is our child's.
    let sent = unsafe { libc::kill(pid as libc::pid_t, number) };
    assert_eq!(sent, 0, "kill -{signal} {pid}: {}", std::io::Error::last_os_error());
}

/// SIGTERM and SIGHUP are Ctrl-C: the terminal is restored
/// (main screen, no mouse capture) and the unsaved run is saved; the exit
/// status says which signal it was.
#[test]
fn sigterm_and_sighup_restore_the_terminal_and_save_the_run() {
    for signal in ["TERM", "HUP"] {
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        let mut tui = Tui::start(&[], h);
        tui.wait_for("full │ gen");
        {
            let parser = tui.screen.lock().unwrap();
            assert!(
                parser.screen().alternate_screen(),
                "the designer runs on the alternate screen"
            );
        }
        send_signal(tui.child.process_id().unwrap(), signal);
        // 128 + the signal, as every command.
        let code = if signal == "TERM" { 143 } else { 129 };
        assert_eq!(tui.exit_status().exit_code(), code, "SIG{signal}: interrupted");
        let text = tui.wait_for("unsaved work saved to");
        let parser = tui.screen.lock().unwrap();
        assert!(
            !parser.screen().alternate_screen(),
            "SIG{signal}: left on the alternate screen:\n{text}"
        );
        assert_eq!(
            parser.screen().mouse_protocol_mode(),
            vt100::MouseProtocolMode::None,
            "SIG{signal}: the mouse is still captured"
        );
        // An untitled run goes to a recovery file of its own.
        the_recovery_session(h, &format!("SIG{signal}"));
    }
}

/// Ctrl-C wrote the search's progress over the user's named session
/// (generation 1988 became 5580) while `q` kept it apart in a recovery
/// file. One rule for every way out now: the session's own file is
/// written only by a save; what changed since goes to the recovery file.
#[test]
fn ctrl_c_keeps_the_named_session_as_saved_and_the_progress_apart() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let mut tui = Tui::start(&[], h);
    tui.wait_for("full │ gen");
    tui.keys("S");
    tui.wait_for("Save session as");
    tui.keys(&format!("{BACKSPACES}./mine.toml\r"));
    tui.wait_for("saved ./mine.toml");
    let saved = std::fs::read_to_string(h.join("mine.toml")).unwrap();
    let saved_at = fnn_tui::session::Session::from_toml(&saved, "mine.toml")
        .unwrap()
        .engine
        .generation;
    // An edit of the user's: something a recovery file must keep.
    tui.keys("p");
    tui.wait_for("pinned k00 on switch 0");
    let deadline = Instant::now() + Duration::from_secs(30);
    while status_generation(&tui.text()) <= saved_at {
        assert!(Instant::now() < deadline, "the run did not go on:\n{}", tui.text());
        std::thread::sleep(Duration::from_millis(50));
    }
    tui.keys("\x03");
    assert_eq!(tui.exit_status().exit_code(), 130);
    let text = tui.wait_for("recovery file");
    assert_eq!(
        std::fs::read_to_string(h.join("mine.toml")).unwrap(),
        saved,
        "the named session is as the user saved it"
    );
    let (path, s) = the_recovery_session(h, &text);
    assert!(s.engine.generation > saved_at, "the recovery file has the newer work");
    assert!(s.spec.pins.iter().any(|p| p.pc == 0 && p.switch == 0), "and the edit");
    assert!(
        text.contains(&path.display().to_string()),
        "the message says where:\n{text}"
    );
}

/// Every `q` added a recovery file (16 files, 7.3 MB in 40 minutes): one
/// per session name now, replaced by the next run of that name.
#[test]
fn opening_and_quitting_the_default_three_times_leaves_one_recovery_file() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    for _ in 0..3 {
        let mut tui = Tui::start(&[], h);
        tui.wait_for("full │ gen");
        tui.keys("q");
        assert!(tui.exit_status().success());
    }
    the_recovery_session(h, "three runs of the default");
}

/// `q` asked every time during a live run (a live run is always
/// "unsaved"): with no edits of the user's it quits at once, exit 0, and
/// the search's progress is in a recovery file that --resume opens.
#[test]
fn q_without_edits_quits_at_once_and_keeps_the_progress() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let mut tui = Tui::start(&[], h);
    tui.wait_for("full │ gen");
    tui.keys("q");
    assert!(tui.exit_status().success(), "no question, exit 0");
    let text = tui.wait_for("--resume that file");
    assert!(!text.contains("Quit?"), "{text}");
    the_recovery_session(h, &text);
}

/// The one recovery file a run left in the data folder under `home`, and
/// it read as a session; `what` says which run in a failure.
fn the_recovery_session(home: &std::path::Path, what: &str) -> (std::path::PathBuf, fnn_tui::session::Session) {
    let dir = home.join("data/fnn-tui/sessions/recovery");
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{what}: {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{what}: {files:?}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let session = fnn_tui::session::Session::from_toml(&text, "recovery.toml").unwrap();
    (files[0].clone(), session)
}

/// The designer started from `shell` (a [`Tui::shell`]) and its process id,
/// once its search runs; paused, the cursor moved to PC k02, switch 1 (a
/// view of the user's own, not the one it opens on).
fn designer_in(shell: &mut Tui) -> u32 {
    shell.wait_for(PROMPT);
    shell.keys(&format!("'{}'\r", env!("CARGO_BIN_EXE_fnn-tui")));
    shell.wait_for("full │ gen");
    shell.keys(" ");
    shell.wait_for("⏸ paused");
    shell.keys("jjl");
    shell.wait_for("k02 switches");
    shell.wait_for("cursor on switch 1");
    child_of(shell.child.process_id().expect("the shell's pid"))
}

/// The one child process of `parent`, from /proc.
fn child_of(parent: u32) -> u32 {
    let children: Vec<u32> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            // The parent is the field after the state, after the command's
            // name in parentheses (which may hold spaces).
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let after = stat.rsplit_once(") ").map_or("", |(_, rest)| rest);
            after.split(' ').nth(1) == Some(&parent.to_string())
        })
        .collect();
    assert_eq!(children.len(), 1, "the children of {parent}: {children:?}");
    children[0]
}

/// The shell has the terminal as it gave it: main screen, no mouse
/// capture, a visible cursor, its prompt after "Stopped".
fn the_shell_has_the_terminal(shell: &Tui, what: &str) {
    let text = shell.wait_for("Stopped");
    let after = text.rsplit("Stopped").next().unwrap_or("");
    assert!(
        after.contains(PROMPT.trim_end()),
        "{what}: no prompt after Stopped:\n{text}"
    );
    let (alternate, mouse, hidden) = shell.modes();
    assert!(!alternate, "{what}: left on the alternate screen:\n{text}");
    assert_eq!(
        mouse,
        vt100::MouseProtocolMode::None,
        "{what}: the mouse is still captured"
    );
    assert!(!hidden, "{what}: the shell's cursor is hidden");
    assert!(!text.contains("Population"), "{what}: the designer's screen:\n{text}");
}

/// After `fg`: the designer's screen exactly as it was (`before`), on the
/// alternate screen with the mouse captured.
fn the_designer_is_back(shell: &Tui, before: &str, what: &str) {
    shell.wait_for("Population (200 members)");
    // The first frame may be drawing still: wait for the whole of it.
    let deadline = Instant::now() + Duration::from_secs(30);
    while shell.text() != before {
        assert!(
            Instant::now() < deadline,
            "{what}: the designer came back otherwise; before:\n{before}\nafter:\n{}",
            shell.text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let (alternate, mouse, _) = shell.modes();
    assert!(alternate, "{what}: not on the alternate screen");
    assert_ne!(
        mouse,
        vt100::MouseProtocolMode::None,
        "{what}: the mouse is not captured"
    );
}

/// The designer still takes single keys (raw mode: in the shell's line
/// mode a space would wait for Enter): space runs it, space pauses it,
/// `q` quits; the shell then sees exit status 0.
fn the_designer_goes_on_and_quits(shell: &mut Tui) {
    shell.keys(" ");
    shell.wait_for("▶ running");
    shell.keys(" ");
    shell.wait_for("⏸ paused");
    shell.keys("q");
    shell.wait_for("--resume that file");
    shell.keys("echo \"status=$?\"\r");
    shell.wait_for("status=0");
}

/// In bash, ctrl-z hands the terminal back to the shell, and `fg` brings
/// the designer back exactly as it was, still answering keys.
#[test]
fn ctrl_z_and_fg_in_bash_bring_the_designer_back_as_it_was() {
    const TEST: &str = "ctrl_z_and_fg_in_bash_bring_the_designer_back_as_it_was";
    if !machine_has(TEST, &[Need::Program("bash", Source::Apt("bash"))]) {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let mut shell = Tui::shell(home.path());
    designer_in(&mut shell);
    let before = shell.text();
    shell.keys("\x1a");
    the_shell_has_the_terminal(&shell, "ctrl-z");
    shell.keys("fg\r");
    the_designer_is_back(&shell, &before, "ctrl-z, fg");
    the_designer_goes_on_and_quits(&mut shell);
}

/// `kill -TSTP` from outside (no ctrl-z key: the designer's raw mode reads
/// that as a key) hands the terminal back too; and after a `kill -STOP`
/// (which no program can catch) the shell's `fg` finds the designer
/// taking its terminal again, whatever modes the shell left.
#[test]
fn kill_tstp_and_kill_stop_then_fg_bring_the_designer_back() {
    const TEST: &str = "kill_tstp_and_kill_stop_then_fg_bring_the_designer_back";
    if !machine_has(TEST, &[Need::Program("bash", Source::Apt("bash"))]) {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let mut shell = Tui::shell(home.path());
    let pid = designer_in(&mut shell);
    let before = shell.text();
    send_signal(pid, "TSTP");
    the_shell_has_the_terminal(&shell, "kill -TSTP");
    shell.keys("fg\r");
    the_designer_is_back(&shell, &before, "kill -TSTP, fg");

    send_signal(pid, "STOP");
    // The shell's note and prompt land on the designer's screen.
    shell.wait_for("Stopped");
    shell.wait_for(PROMPT);
    shell.keys("fg\r");
    the_designer_is_back(&shell, &before, "kill -STOP, fg");
    the_designer_goes_on_and_quits(&mut shell);
}

/// A session `mine` saved in the data folder under `home`, then a pin
/// left by Ctrl-C in its recovery file: (the session file, the recovery file).
fn mine_with_a_pin_in_recovery(h: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let mut tui = Tui::start(&[], h);
    tui.wait_for("full │ gen");
    tui.keys(" ");
    tui.wait_for("paused");
    tui.keys("S");
    tui.wait_for("Save session as");
    tui.keys(&format!("{BACKSPACES}mine\r"));
    tui.wait_for("saved /");
    tui.keys("p");
    tui.wait_for("pinned k00 on switch 0");
    tui.keys("\x03");
    assert_eq!(tui.exit_status().exit_code(), 130);
    let sessions = h.join("data/fnn-tui/sessions");
    let recovery = sessions.join("recovery/mine.toml");
    assert!(std::fs::read_to_string(&recovery).unwrap().contains("[[spec.pins]]"));
    (sessions.join("mine.toml"), recovery)
}

/// A run of the default (KLAT2) paused, given a pin (an unsaved edit) and
/// killed with Ctrl-C: it leaves `recovery/klat2.toml` holding the pin.
fn default_run_killed_with_a_pin(h: &std::path::Path) {
    let mut tui = Tui::start(&[], h);
    tui.wait_for("full │ gen");
    tui.keys(" ");
    tui.wait_for("paused");
    tui.keys("p");
    tui.wait_for("pinned k00 on switch 0");
    tui.keys("\x03");
    assert_eq!(tui.exit_status().exit_code(), 130);
}

/// Whether the session file at `path` pins PC k00 on switch 0.
fn pinned(path: &std::path::Path) -> bool {
    let text = std::fs::read_to_string(path).unwrap();
    let s = fnn_tui::session::Session::from_toml(&text, "mine.toml").unwrap();
    s.spec.pins.iter().any(|p| p.pc == 0 && p.switch == 0)
}

/// `s` in a run opened from `recovery/mine.toml` wrote into the recovery
/// file: it saves to the session's own file and removes the recovery file.
#[test]
fn saving_an_opened_recovery_file_writes_the_sessions_own_file() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let (session, recovery) = mine_with_a_pin_in_recovery(h);
    assert!(!pinned(&session));
    let mut tui = Tui::start(&["--resume", recovery.to_str().unwrap()], h);
    // The status line is the frame's last row: waiting for it, not for the
    // first pane, reads a whole frame.
    let opened = tui.wait_for("unsaved");
    assert!(
        opened.contains("Population (200 members)"),
        "the work is not in mine.toml yet:\n{opened}"
    );
    // Saved once the search has stopped: no progress after it to keep.
    tui.wait_for("stopped: no better design");
    tui.keys("s");
    let text = tui.wait_for("saved /");
    assert!(text.contains(&format!("saved {}", session.display())), "{text}");
    tui.keys("q");
    assert!(tui.exit_status().success());
    assert!(pinned(&session), "the session's own file has the pin");
    assert!(!recovery.exists(), "a save makes the recovery file moot");
}

/// `s` on a run opened from the recovery file of the default (KLAT2)
/// wrote `sessions/klat2.toml`: a shipped example's name, which
/// `--resume klat2` never opens. It saves under a free name instead.
#[test]
fn saving_the_defaults_recovery_file_takes_a_name_no_example_has() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    default_run_killed_with_a_pin(h);
    let sessions = h.join("data/fnn-tui/sessions");
    let recovery = sessions.join("recovery/klat2.toml");
    assert!(pinned(&recovery), "the pin is in {}", recovery.display());

    let mut tui = Tui::start(&["--resume", recovery.to_str().unwrap()], h);
    tui.wait_for("Population (200 members)");
    tui.keys("s");
    // "saved /": the status line's "unsaved edits" has "saved " in it.
    let text = tui.wait_for("saved /");
    let own = sessions.join("klat2-2.toml");
    assert!(text.contains(&format!("saved {}", own.display())), "{text}");
    tui.keys("q");
    let _ = tui.exit_status();
    assert!(
        !sessions.join("klat2.toml").exists(),
        "a session took the example's name"
    );
    assert!(pinned(&own), "the pin is in {}", own.display());
}

/// `--resume mine` while `recovery/mine.toml` held a pin: `q` (and any
/// autosave) replaced it and the pin was gone. The run says so and keeps
/// its own unsaved work in another recovery file.
#[test]
fn resuming_a_session_keeps_its_recovery_file_and_says_so() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let (_, recovery) = mine_with_a_pin_in_recovery(h);
    let before = std::fs::read(&recovery).unwrap();
    let mut tui = Tui::start(&["--resume", "mine"], h);
    tui.wait_for("mine has a recovery file from just now with unsaved work: o to open it");
    tui.keys("\x1b");
    std::thread::sleep(Duration::from_millis(300));
    tui.keys("q");
    assert!(tui.exit_status().success());
    assert_eq!(std::fs::read(&recovery).unwrap(), before, "q left it alone");

    // Unsaved work of this run goes to a recovery file of its own.
    let mut tui = Tui::start(&["--resume", "mine"], h);
    tui.wait_for("mine has a recovery file");
    tui.keys("\x1b");
    std::thread::sleep(Duration::from_millis(300));
    tui.keys("jp");
    tui.wait_for("pinned k01 on switch 0");
    tui.keys("\x03");
    assert_eq!(tui.exit_status().exit_code(), 130);
    let text = tui.wait_for("recovery file");
    assert_eq!(std::fs::read(&recovery).unwrap(), before, "Ctrl-C left it alone");
    let theirs = recovery.display().to_string();
    let mine = theirs.replace("mine.toml", "mine-");
    assert!(text.contains(&mine) && !text.contains(&theirs), "another file:\n{text}");
}

/// A fresh run of the default replaced klat2's recovery file, and with it
/// another run's unsaved pin. A recovery file holding user edits is kept:
/// the run says so and writes its own progress beside it.
#[test]
fn a_fresh_run_keeps_another_runs_pinned_recovery_file_and_says_so() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    default_run_killed_with_a_pin(h);
    let dir = h.join("data/fnn-tui/sessions/recovery");
    let theirs = dir.join("klat2.toml");
    assert!(pinned(&theirs), "the first run's pin is in {}", theirs.display());
    let before = std::fs::read(&theirs).unwrap();

    let mut tui = Tui::start(&[], h);
    tui.wait_for("has a recovery file from just now with unsaved work: o to open it");
    tui.keys("\x1b");
    let screen = tui.wait_for("● unsaved design");
    let status = screen.lines().last().unwrap_or("");
    assert!(
        status.contains("o to open it") && !status.contains("This run leaves"),
        "the status line has the short form:\n{screen}"
    );
    // A run's first design is not worth a recovery file, only a better one
    // (`q` right after the first generation rightly writes nothing): the
    // search has found better ones once it has stopped.
    tui.wait_for("stopped: no better design");
    tui.keys("q");
    assert!(tui.exit_status().success());
    assert!(
        std::fs::read(&theirs).unwrap() == before && pinned(&theirs),
        "the pinned recovery file was replaced"
    );
    let mine = std::fs::read_to_string(dir.join("klat2-2.toml")).expect("this run's progress in klat2-2.toml");
    let mine = fnn_tui::session::Session::from_toml(&mine, "klat2-2.toml").unwrap();
    assert!(mine.spec.pins.is_empty(), "{:?}", mine.spec.pins);
}

/// Run from a folder outside the repository (the PTY's working folder is a
/// fresh temporary one, with no `./saves`), the `o` list still offers the
/// shipped examples, built into the binary, and enter opens one.
#[test]
fn the_open_list_offers_the_shipped_examples_outside_the_repository() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    assert!(!h.join("saves").exists());
    let mut tui = Tui::start(&[], h);
    // Once the search has a design of its own, `o` first asks about it.
    tui.wait_for("● unsaved design");
    tui.keys("o");
    tui.wait_for("Open another session?");
    tui.keys("y");
    let list = tui.wait_for("kasy0-sparse");
    assert!(
        list.contains("klat2") && list.contains("(built into fnn-tui)"),
        "{list}"
    );
    // No sessions of the user's: klat2 then kasy0-sparse; down and enter
    // open the second.
    tui.keys("\x1b[B\r");
    // KASY0 names its PCs with three digits, KLAT2 with two.
    let opened = tui.wait_for("k001");
    assert!(!opened.contains("Not opened"), "{opened}");
    tui.keys("q");
    let _ = tui.exit_status();
}

/// The FILES and ENVIRONMENT entries of fnn-tui(1), each as it is named.
fn man_entries(section: &str) -> Vec<String> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fnn-tui"))
        .arg("man")
        .output()
        .unwrap();
    let page = String::from_utf8(out.stdout).unwrap().replace("\\-", "-");
    let body = page
        .split(&format!(".SH {section}\n"))
        .nth(1)
        .expect("the section")
        .split("\n.SH")
        .next()
        .unwrap();
    let lines: Vec<&str> = body.lines().collect();
    lines
        .windows(2)
        .filter(|w| w[0] == ".TP")
        .map(|w| {
            w[1].replace("\\fI", "")
                .replace("\\fB", "")
                .replace("\\fR", "")
                .replace("\\fP", "")
        })
        .collect()
}

/// Whether `--resume NAME` run in `cwd` with `env` finds the session: a
/// found one goes on to want a terminal, a missing one is "no session".
fn resume_finds(cwd: &std::path::Path, env: &[(&str, &std::path::Path)], unset: &[&str]) -> bool {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_fnn-tui"));
    cmd.current_dir(cwd).args(["--resume", "placed"]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    for k in unset {
        cmd.env_remove(k);
    }
    let err = String::from_utf8(cmd.output().unwrap().stderr).unwrap();
    assert!(
        err.contains("needs a terminal") || err.contains("no session `placed`"),
        "{err}"
    );
    err.contains("needs a terminal")
}

/// Every file and variable the designer's man page names is where and
/// what it says: a session placed in each folder FILES names is found,
/// the config file there is read, NO_COLOR takes the colour away and the
/// memory budget variable bounds a search.
#[test]
fn the_man_pages_files_and_environment_are_real() {
    let files = man_entries("FILES");
    assert_eq!(
        files,
        [
            "$XDG_CONFIG_HOME/fnn-tui/config.toml",
            "$XDG_DATA_HOME/fnn-tui/sessions/",
            "$XDG_DATA_HOME/fnn-tui/sessions/recovery/",
            "./saves/"
        ],
        "a FILES entry this test does not check"
    );
    let env = man_entries("ENVIRONMENT");
    assert_eq!(
        env,
        ["NO_COLOR", "XDG_CONFIG_HOME, XDG_DATA_HOME", "FNN_TUI_MEMORY_BUDGET"],
        "an ENVIRONMENT entry this test does not check"
    );
    let session = fnn_tui::session::EXAMPLES[0].1;
    // The session folders, with XDG_DATA_HOME set and (HOME's) without.
    for (folder, data_home) in [
        ("data/fnn-tui/sessions", true),
        ("data/fnn-tui/sessions/recovery", true),
        ("saves", true),
        (".local/share/fnn-tui/sessions", false),
    ] {
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        let data = h.join("data");
        let env: Vec<(&str, &std::path::Path)> = match data_home {
            true => vec![("HOME", h), ("XDG_DATA_HOME", &data)],
            false => vec![("HOME", h)],
        };
        let unset: &[&str] = if data_home { &[] } else { &["XDG_DATA_HOME"] };
        assert!(!resume_finds(h, &env, unset), "{folder}: found before it was placed");
        fnn_tui::fs::make_dirs(h.join(folder)).unwrap();
        fnn_tui::fs::write_in_place(h.join(folder).join("placed.toml"), session).unwrap();
        assert!(
            resume_finds(h, &env, unset),
            "{folder}: a session placed there is not found"
        );
    }
    // config.toml in $XDG_CONFIG_HOME/fnn-tui (the PTY sets it to home/config).
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    fnn_tui::fs::make_dirs(h.join("config/fnn-tui")).unwrap();
    fnn_tui::fs::write_in_place(
        h.join("config/fnn-tui/config.toml"),
        "[keys]\nno-such-action = [\"x\"]\n",
    )
    .unwrap();
    let mut tui = Tui::start(&[], h);
    let text = tui.wait_for("no-such-action");
    assert!(text.contains("config.toml"), "{text}");
    let _ = tui.exit_status();
    // NO_COLOR: set and not empty, the designer draws without colour.
    let home = tempfile::tempdir().unwrap();
    for (no_color, coloured) in [("", true), ("1", false)] {
        let mut tui = Tui::start_env(&[], home.path(), &[("NO_COLOR", no_color)]);
        tui.wait_for("full │ gen");
        assert_eq!(tui.coloured(), coloured, "NO_COLOR={no_color:?}");
        tui.keys("q");
        let _ = tui.exit_status();
    }
    // FNN_TUI_MEMORY_BUDGET bounds the memory a search may plan to use.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fnn-tui"))
        .current_dir(home.path())
        .env("FNN_TUI_MEMORY_BUDGET", "64M")
        .args([
            "design",
            "--exact",
            "--time-limit",
            "5",
            "-o",
            "out",
            "--pcs",
            "256",
            "--nics",
            "6",
            "--switches",
            "60x32",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("would need about"), "{text}");
}

/// Whether the session file at `path` pins PC `pc` on switch `switch`.
fn pins_in(path: &std::path::Path, pc: usize, switch: usize) -> bool {
    let text = std::fs::read_to_string(path).unwrap();
    let s = fnn_tui::session::Session::from_toml(&text, "recovery.toml").unwrap();
    s.spec.pins.iter().any(|p| p.pc == pc && p.switch == switch)
}

/// A pin made after the search had stopped was reported applied, but the
/// recovery file Ctrl-C wrote was said to hold no pins: what the user was
/// told is applied is in the recovery file.
#[test]
fn a_pin_made_after_the_search_stopped_is_in_the_recovery_file() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let mut tui = Tui::start(&[], h);
    tui.wait_for("stopped: no better design");
    tui.keys("jp");
    tui.wait_for("pinned k01 on switch 0");
    tui.keys("\x03");
    assert_eq!(tui.exit_status().exit_code(), 130);
    let text = tui.wait_for("recovery file");
    let (path, _) = the_recovery_session(h, &text);
    assert!(pins_in(&path, 1, 0), "the pin is not in {}", path.display());
}
