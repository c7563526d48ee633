//! The exit status, one table for every command: scripts branch on it, so
//! a command never invents its own meaning for a number.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// Printed under every command's `--help` and in the man page.
pub const TABLE: &str = "\
Exit status:
  0    success: a valid design found, checked or written; no fault found
  1    no success: no valid design in the limits, pairs left uncovered, faults found
  2    bad input (the message names the file, field and what is allowed) or proved impossible
  130  interrupted by Ctrl-C (what was finished is written first)
  A reader that goes away (| head) is no error: the work is finished, the status its own.";

/// 0 when `ok`, else 1.
pub fn success_if(ok: bool) -> ExitCode {
    if ok { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

pub fn bad_input() -> ExitCode {
    ExitCode::from(2)
}

/// The shell's convention for a command ended by SIGINT (128 + 2).
pub fn interrupted() -> ExitCode {
    ExitCode::from(130)
}

static INTERRUPTED: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The flag Ctrl-C sets, one for the process: long commands stop at it
/// and write what they have; the exit status then says it was cut short.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    INTERRUPTED
        .get_or_init(|| {
            let flag = Arc::new(AtomicBool::new(false));
            // Registering fails only for a signal that cannot be caught; SIGINT can.
            let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, flag.clone());
            flag
        })
        .clone()
}

/// `code`, unless Ctrl-C ended the command first.
pub fn unless_interrupted(code: ExitCode) -> ExitCode {
    let flag = INTERRUPTED.get().is_some_and(|f| f.load(Ordering::Relaxed));
    if flag { interrupted() } else { code }
}
