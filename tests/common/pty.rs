//! The real binary in a pseudo-terminal, driven by keys as a user would,
//! with the screen read through a VT100 emulator.

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The prompt of [`Tui::shell`].
pub const PROMPT: &str = "fnn-shell$ ";

pub struct Tui {
    pub screen: Arc<Mutex<vt100::Parser>>,
    writer: Box<dyn Write + Send>,
    pub child: Box<dyn portable_pty::Child + Send + Sync>,
}

impl Tui {
    /// `fnn-tui ARGS` in a 40x130 pseudo-terminal, with HOME and the XDG
    /// folders in `home` (its working directory too).
    pub fn start(args: &[&str], home: &Path) -> Tui {
        Tui::start_program(Path::new(env!("CARGO_BIN_EXE_fnn-tui")), args, home)
    }

    /// `fnn-tui ARGS`, as [`Tui::start`], with `env` set as well.
    #[allow(dead_code)]
    pub fn start_env(args: &[&str], home: &Path, env: &[(&str, &str)]) -> Tui {
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_fnn-tui"));
        cmd.args(args);
        for (k, v) in env {
            cmd.env(k, v);
        }
        Tui::spawn(cmd, home)
    }

    /// Whether any cell on screen has a colour of its own.
    #[allow(dead_code)]
    pub fn coloured(&self) -> bool {
        let p = self.screen.lock().unwrap();
        let s = p.screen();
        let (rows, cols) = s.size();
        let (rows, cols) = (u16::from(rows), u16::from(cols));
        (0..rows).any(|r| {
            (0..cols).any(|c| {
                s.cell(r, c)
                    .is_some_and(|x| x.fgcolor() != vt100::Color::Default || x.bgcolor() != vt100::Color::Default)
            })
        })
    }

    /// `program ARGS`, as [`Tui::start`].
    pub fn start_program(program: &Path, args: &[&str], home: &Path) -> Tui {
        let mut cmd = CommandBuilder::new(program);
        cmd.args(args);
        Tui::spawn(cmd, home)
    }

    /// An interactive bash with job control (ctrl-z, `fg`) in the same
    /// terminal, its prompt [`PROMPT`], no startup files read.
    pub fn shell(home: &Path) -> Tui {
        let mut cmd = CommandBuilder::new("bash");
        cmd.args(["--norc", "--noprofile", "-i"]);
        cmd.env("PS1", PROMPT);
        Tui::spawn(cmd, home)
    }

    /// `cmd` in a 40x130 pseudo-terminal, with HOME and the XDG folders in
    /// `home` (its working directory too).
    fn spawn(mut cmd: CommandBuilder, home: &Path) -> Tui {
        let pty = native_pty_system();
        let pair = pty
            .openpty(PtySize {
                rows: 40,
                cols: 130,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        cmd.cwd(home);
        cmd.env("TERM", "xterm-256color");
        cmd.env("HOME", home);
        cmd.env("XDG_DATA_HOME", home.join("data"));
        cmd.env("XDG_CONFIG_HOME", home.join("config"));
        let child = pair.slave.spawn_command(cmd).expect("the program starts");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().unwrap();
        let writer = pair.master.take_writer().unwrap();
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            std::num::NonZeroU16::new(40).unwrap(),
            std::num::NonZeroU16::new(130).unwrap(),
            0,
        )));
        let s = screen.clone();
        std::thread::spawn(move || {
            let _keep_master_open = pair.master;
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                s.lock().unwrap().process(&buf[..n]);
            }
        });
        Tui { screen, writer, child }
    }

    pub fn text(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    /// The terminal's modes: alternate screen, mouse capture, hidden
    /// cursor (read without holding the screen, so a failed assertion
    /// does not poison it for the reader thread).
    pub fn modes(&self) -> (bool, vt100::MouseProtocolMode, bool) {
        let parser = self.screen.lock().unwrap();
        let s = parser.screen();
        (s.alternate_screen(), s.mouse_protocol_mode(), s.hide_cursor())
    }

    pub fn wait_for(&self, what: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let t = self.text();
            if t.contains(what) {
                return t;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what:?}; screen:\n{t}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn keys(&mut self, s: &str) {
        self.writer.write_all(s.as_bytes()).unwrap();
        self.writer.flush().unwrap();
        std::thread::sleep(Duration::from_millis(150));
    }

    pub fn exit_status(&mut self) -> portable_pty::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "fnn-tui did not exit; screen:\n{}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}
