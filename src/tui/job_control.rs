//! Job control: the terminal handed back before the process stops (ctrl-z,
//! or SIGTSTP from outside, which raw mode does not turn into a key) and
//! taken again when it goes on (SIGCONT: `fg`, `kill -CONT`, whoever
//! stopped it, even with a SIGSTOP no program can catch).
//!
//! The signals thread only notes what came and wakes the UI thread, which
//! alone writes to the terminal: a stop in the middle of a frame would
//! otherwise interleave the two threads' escape sequences.

use signal_hook::consts::{SIGCONT, SIGTSTP};
use std::sync::atomic::{AtomicBool, Ordering};

/// A SIGTSTP came: the UI thread is to hand the terminal back and stop.
static STOP_ASKED: AtomicBool = AtomicBool::new(false);
/// A SIGCONT came: the UI thread is to take the terminal again.
static CONTINUED: AtomicBool = AtomicBool::new(false);

/// Listens for SIGTSTP and SIGCONT on a thread of its own; `wake` gets the
/// UI thread to look (false once it is gone).
pub fn watch(wake: impl Fn() -> bool + Send + 'static) -> std::io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new([SIGTSTP, SIGCONT])?;
    std::thread::Builder::new().name("job-control".into()).spawn(move || {
        for signal in signals.forever() {
            let flag = if signal == SIGTSTP { &STOP_ASKED } else { &CONTINUED };
            flag.store(true, Ordering::SeqCst);
            if !wake() {
                return;
            }
        }
    })?;
    Ok(())
}

/// Whether a SIGTSTP came since the last call.
pub fn stop_asked() -> bool {
    STOP_ASKED.swap(false, Ordering::SeqCst)
}

/// Whether a SIGCONT came since the last call.
pub fn continued() -> bool {
    CONTINUED.swap(false, Ordering::SeqCst)
}

/// Stops the process as SIGTSTP's default action does, so the shell says
/// "Stopped" (SIGSTOP would read "Stopped (signal)"); returns once it goes
/// on. SIGTSTP is caught (to hand the terminal back first), so its default
/// action is put back for this one signal only.
pub fn stop_process() -> std::io::Result<()> {
    // SAFETY: sigaction and raise have no memory preconditions beyond
    // valid pointers, which these are (a zeroed sigaction is SIG_DFL with
    // an empty mask).
    unsafe {
        let mut default: libc::sigaction = std::mem::zeroed();
        default.sa_sigaction = libc::SIG_DFL;
        let mut caught: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(SIGTSTP, &default, &mut caught) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let raised = libc::raise(SIGTSTP);
        // Whatever raise did, SIGTSTP is caught again.
        if libc::sigaction(SIGTSTP, &caught, std::ptr::null_mut()) != 0 || raised != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}
