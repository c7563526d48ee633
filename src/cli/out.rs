//! What every command prints, through one door. A reader that goes away
//! (`| head`, `| true`, a closed ssh) is no error, as for `grep`: the rest
//! of the output is dropped, the command finishes its work (every file it
//! writes is whole) and exits with its own status.
//!
//! Rust ignores SIGPIPE, so a print to a closed pipe fails with EPIPE,
//! which `println!` turns into a panic (exit 101). Restoring SIGPIPE's
//! default instead would kill the process where it stands: `emulate`
//! would leave its namespaces and bridges behind, and a note on a closed
//! stderr printed before a design is written would cost the design.

use std::io::{ErrorKind, Write};

/// Writes `bytes` to stdout. `Err` only for a real failure (a full disk
/// under `> file`), never for a reader gone.
pub fn stdout_bytes(bytes: &[u8]) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(std::io::Error::new(e.kind(), format!("cannot write to stdout: {e}"))),
        Ok(()) => Ok(()),
    }
}

/// Writes formatted text to stdout, as [`stdout_bytes`].
pub fn stdout(args: std::fmt::Arguments) -> std::io::Result<()> {
    stdout_bytes(std::fmt::format(args).as_bytes())
}

/// Writes formatted text to stderr. A failure there has nowhere to be
/// reported, and must not stop the work: it is dropped.
pub fn stderr(args: std::fmt::Arguments) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_fmt(args).and_then(|()| err.flush());
}

/// `print!`, through [`stdout`]: returns `io::Result<()>`.
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::out::stdout(format_args!($($arg)*)) };
}

/// `println!`, through [`stdout`]: returns `io::Result<()>`.
macro_rules! outln {
    ($($arg:tt)*) => { $crate::cli::out::stdout(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `eprintln!`, through [`stderr`].
macro_rules! errln {
    ($($arg:tt)*) => { $crate::cli::out::stderr(format_args!("{}\n", format_args!($($arg)*))) };
}

pub(crate) use {errln, out, outln};
