//! The exit status, one table for every command: scripts branch on it, so
//! a command never invents its own meaning for a number. And the one
//! signal policy: SIGINT, SIGTERM and SIGHUP ask the command to stop; it
//! writes what it finished, then exits 128 + the signal, as the shell
//! reports a command a signal ended.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// Printed under every command's `--help` and in the man page.
pub const TABLE: &str = "\
Exit status:
  0    success: a valid design found, checked or written; no fault found
  1    no success: no valid design in the limits, pairs left uncovered, faults found
  2    bad input (the message names the file, field and what is allowed) or proved impossible
  3    inconclusive (emulate): no fault found, but its frame capture lost frames, so not every
       path was checked; rerun on an idle machine or with fewer PCs
  129  hung up (SIGHUP: the terminal or ssh session closed): stopped as on Ctrl-C
  130  interrupted by Ctrl-C (SIGINT): every command stops and first writes what it finished
       (design and compare the best design so far; cheapest the cheapest hardware found valid,
       if any; sweep its CSV and SVG; export the whole folder; the designer the unsaved work;
       check, verify, completions and man their output); emulate removes what it built
  143  terminated (SIGTERM: kill, timeout, a batch scheduler): stopped as on Ctrl-C
  A signal ignored when fnn-tui starts (nohup, a script's background job) stays ignored.
  A reader that goes away (| head) is no error: the work is finished, the status its own.";

/// The signals that stop a command; each ends it with 128 + its number.
const STOPPING: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// 0 when `ok`, else 1.
pub fn success_if(ok: bool) -> ExitCode {
    if ok { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

pub fn bad_input() -> ExitCode {
    ExitCode::from(2)
}

/// The status of a command a signal stopped: 128 + the signal (130 for
/// Ctrl-C when none is recorded).
pub fn interrupted() -> ExitCode {
    let signal = watched().which.load(Ordering::Relaxed);
    ExitCode::from(128 + if signal == 0 { libc::SIGINT as u8 } else { signal as u8 })
}

/// What the signal handlers set: the stop flag, and which signal came
/// (the last one, 0 for none).
struct Watched {
    stop: Arc<AtomicBool>,
    which: Arc<AtomicUsize>,
}

static WATCHED: OnceLock<Watched> = OnceLock::new();

/// Registers the handlers once, for the whole process. A signal ignored
/// when the process started stays ignored: `nohup` asks for SIGHUP to
/// pass by, and a script's background job for SIGINT.
fn watched() -> &'static Watched {
    WATCHED.get_or_init(|| {
        let watched = Watched {
            stop: Arc::new(AtomicBool::new(false)),
            which: Arc::new(AtomicUsize::new(0)),
        };
        for signal in STOPPING.into_iter().filter(|&s| !ignored(s)) {
            // Registering fails only for a signal that cannot be caught;
            // these three can.
            let _ = signal_hook::flag::register_usize(signal, watched.which.clone(), signal as usize);
            let _ = signal_hook::flag::register(signal, watched.stop.clone());
            unblock(signal);
        }
        watched
    })
}

/// Whether `signal` is ignored now (inherited from the parent): the
/// kernel's mask of ignored signals, bit n - 1 for signal n, read without
/// touching any signal's disposition.
fn ignored(signal: libc::c_int) -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| (mask >> (signal - 1)) & 1 == 1)
}

/// Lets `signal` through if a parent left it blocked (the mask is
/// inherited across exec), so one sent before the handlers were in place
/// arrives now and stops the command, as one sent later would.
fn unblock(signal: libc::c_int) {
    use nix::sys::signal::{SigSet, SigmaskHow, Signal, pthread_sigmask};
    let Ok(signal) = Signal::try_from(signal) else { return };
    let mut set = SigSet::empty();
    set.add(signal);
    let _ = pthread_sigmask(SigmaskHow::SIG_UNBLOCK, Some(&set), None);
}

/// Starts watching for SIGINT, SIGTERM and SIGHUP: from here on they
/// set [`interrupt_flag`] instead of killing the process.
pub fn watch_signals() {
    watched();
}

/// The flag SIGINT, SIGTERM and SIGHUP set, one for the process: long
/// commands stop at it and write what they have; the exit status then
/// says which signal cut them short.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    watched().stop.clone()
}

/// `code`, unless a signal stopped the command: then 128 + the signal,
/// whatever the command returned.
pub fn unless_interrupted(code: ExitCode) -> ExitCode {
    let stopped = WATCHED.get().is_some_and(|w| w.stop.load(Ordering::Relaxed));
    if stopped { interrupted() } else { code }
}
