//! CaDiCaL, the SAT solver behind both models: its C API, wrapped.
//!
//! The solver's source is in this crate's `vendor/cadical`, and its
//! `build.rs` compiles it with the `cc` crate, so a build needs a C++
//! compiler and nothing else (no libclang, no bindgen, no download). This
//! crate is the one place that knows its API: the models build a `rustsat` CNF, and this adapter
//! feeds it to the solver, stops it when asked, writes its DRAT proof and
//! reads the assignment back.

use rustsat::instances::Cnf;
use rustsat::types::Assignment;
use std::ffi::{CString, c_char, c_int, c_void};
use std::path::Path;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The solver behind `ccadical_init` (opaque).
#[repr(C)]
struct CCaDiCaL {
    _private: [u8; 0],
}

unsafe extern "C" {
    fn ccadical_init() -> *mut CCaDiCaL;
    fn ccadical_release(solver: *mut CCaDiCaL);
    fn ccadical_add(solver: *mut CCaDiCaL, lit: c_int);
    fn ccadical_solve(solver: *mut CCaDiCaL) -> c_int;
    fn ccadical_val(solver: *mut CCaDiCaL, lit: c_int) -> c_int;
    fn ccadical_set_terminate(
        solver: *mut CCaDiCaL,
        state: *mut c_void,
        terminate: Option<unsafe extern "C" fn(*mut c_void) -> c_int>,
    );
    fn ccadical_set_option(solver: *mut CCaDiCaL, name: *const c_char, val: c_int);
    fn ccadical_limit(solver: *mut CCaDiCaL, name: *const c_char, val: c_int);
    fn ccadical_trace_proof(solver: *mut CCaDiCaL, file: *mut libc::FILE, name: *const c_char) -> c_int;
    fn ccadical_close_proof(solver: *mut CCaDiCaL);
}

/// What one solver call ended with.
pub enum Answer {
    Sat(Assignment),
    Unsat,
    /// Stopped by the deadline or a raised flag.
    Stopped,
}

/// Why the solver could not be started.
#[derive(Debug, thiserror::Error)]
pub enum SolverError {
    #[error("cannot write the proof {path}: {reason}")]
    Proof { path: String, reason: String },
    #[error("the model has {0} variables, more than the solver takes (2^31 - 1)")]
    TooManyVariables(u32),
}

/// When to give up: at the deadline, or once any flag is raised.
struct Stopper<'a> {
    deadline: Option<Instant>,
    flags: [&'a AtomicBool; 2],
}

impl Stopper<'_> {
    fn stop(&self) -> bool {
        self.flags.iter().any(|f| f.load(Ordering::Relaxed)) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The solver's terminate callback: `state` is the `Stopper` that
/// [`solve`] keeps alive for as long as the solver runs.
unsafe extern "C" fn should_stop(state: *mut c_void) -> c_int {
    // SAFETY: `solve` passes a pointer to a live `Stopper` and clears the
    // callback before the `Stopper` goes.
    let stopper = unsafe { &*state.cast::<Stopper>() };
    c_int::from(stopper.stop())
}

/// One solver instance, released (and its proof file closed) on drop.
struct Solver {
    ptr: NonNull<CCaDiCaL>,
    proof: Option<NonNull<libc::FILE>>,
}

impl Solver {
    fn new() -> Solver {
        // SAFETY: no preconditions; a null pointer is an allocation failure.
        let ptr = NonNull::new(unsafe { ccadical_init() }).expect("CaDiCaL allocates its solver");
        Solver { ptr, proof: None }
    }

    /// Text DRAT into `file` (named `name` in messages), from the first
    /// clause on (so before any). The solver writes through its own
    /// duplicate of the descriptor: the caller's file was created
    /// exclusively, never opened by a name someone could have planted.
    fn trace_proof(&mut self, file: &std::fs::File, name: &Path) -> Result<(), SolverError> {
        use std::os::fd::AsRawFd;
        let error = |reason: String| SolverError::Proof {
            path: name.display().to_string(),
            reason,
        };
        let c_name =
            CString::new(name.as_os_str().as_encoded_bytes()).map_err(|_| error("a NUL byte in the path".into()))?;
        // SAFETY: `dup` of an open descriptor; `fdopen` takes ownership of
        // the duplicate (closed by `fclose` on drop), or it is closed here.
        let stream = unsafe {
            let fd = libc::dup(file.as_raw_fd());
            if fd < 0 {
                return Err(error(std::io::Error::last_os_error().to_string()));
            }
            let stream = libc::fdopen(fd, c"w".as_ptr());
            if stream.is_null() {
                libc::close(fd);
            }
            stream
        };
        let stream = NonNull::new(stream).ok_or_else(|| error(std::io::Error::last_os_error().to_string()))?;
        self.proof = Some(stream);
        // SAFETY: the solver is live and configuring; the option name and
        // the stream stay valid while it writes (the stream until drop).
        unsafe {
            ccadical_set_option(self.ptr.as_ptr(), c"binary".as_ptr(), 0);
            if ccadical_trace_proof(self.ptr.as_ptr(), stream.as_ptr(), c_name.as_ptr()) == 0 {
                return Err(error("the solver refused to trace".into()));
            }
        }
        Ok(())
    }

    fn set_option(&mut self, name: &std::ffi::CStr, value: c_int) {
        // SAFETY: the solver is live and configuring; the name is
        // NUL-terminated; unknown names are ignored by CaDiCaL.
        unsafe { ccadical_set_option(self.ptr.as_ptr(), name.as_ptr(), value) }
    }

    fn limit(&mut self, name: &std::ffi::CStr, value: c_int) {
        // SAFETY: the solver is live and not solving; the name is
        // NUL-terminated; CaDiCaL ignores names it has no limit for.
        unsafe { ccadical_limit(self.ptr.as_ptr(), name.as_ptr(), value) }
    }

    fn add(&mut self, lit: c_int) {
        // SAFETY: the solver is live; CaDiCaL takes any non-zero literal
        // and 0 to end a clause.
        unsafe { ccadical_add(self.ptr.as_ptr(), lit) }
    }

    /// Solves until an answer or until `stopper` says stop.
    fn solve(&mut self, stopper: &Stopper) -> c_int {
        let state = std::ptr::from_ref(stopper).cast_mut().cast::<c_void>();
        // SAFETY: `stopper` outlives the call, and the callback is
        // cleared before this returns, so the solver never keeps a
        // dangling state pointer.
        unsafe {
            ccadical_set_terminate(self.ptr.as_ptr(), state, Some(should_stop));
            let result = ccadical_solve(self.ptr.as_ptr());
            ccadical_set_terminate(self.ptr.as_ptr(), std::ptr::null_mut(), None);
            result
        }
    }

    /// Whether `var` is true in the model found (after a SAT answer).
    fn is_true(&mut self, var: c_int) -> bool {
        // SAFETY: called only after `solve` answered satisfiable.
        unsafe { ccadical_val(self.ptr.as_ptr(), var) > 0 }
    }
}

// SAFETY: a CaDiCaL instance belongs to no thread; it is only ever used
// from one thread at a time (moved whole, to be released elsewhere).
unsafe impl Send for Solver {}

impl Drop for Solver {
    fn drop(&mut self) {
        // SAFETY: the solver is live until here; the proof file is closed
        // by the solver (flushed) and then by us, after the release.
        unsafe {
            if self.proof.is_some() {
                ccadical_close_proof(self.ptr.as_ptr());
            }
            ccadical_release(self.ptr.as_ptr());
            if let Some(file) = self.proof {
                libc::fclose(file.as_ptr());
            }
        }
    }
}

/// How many clauses are handed to the solver between looks at the clock.
const CLAUSES_PER_CHECK: usize = 1 << 16;

/// Solves `cnf` over `variables` variables, giving up at `deadline` or
/// once either flag is raised (also while the clauses are still being
/// loaded). With `proof`, the solver writes a text DRAT proof into that
/// file (complete once this returns).
pub fn solve(
    cnf: Cnf,
    variables: u32,
    proof: Option<(&std::fs::File, &Path)>,
    deadline: Option<Instant>,
    flags: [&AtomicBool; 2],
) -> Result<Answer, SolverError> {
    solve_within(cnf, variables, proof, (deadline, None), flags)
}

/// As [`solve`] without a proof, giving up after `conflicts` conflicts
/// too: the same formula gets the same answer on any machine, however
/// fast, as long as the deadline does not come first.
pub fn solve_counted(
    cnf: Cnf,
    variables: u32,
    conflicts: u32,
    deadline: Option<Instant>,
    flags: [&AtomicBool; 2],
) -> Result<Answer, SolverError> {
    let conflicts = c_int::try_from(conflicts).unwrap_or(c_int::MAX);
    solve_within(cnf, variables, None, (deadline, Some(conflicts)), flags)
}

fn solve_within(
    cnf: Cnf,
    variables: u32,
    proof: Option<(&std::fs::File, &Path)>,
    (deadline, conflicts): (Option<Instant>, Option<c_int>),
    flags: [&AtomicBool; 2],
) -> Result<Answer, SolverError> {
    let vars = i32::try_from(variables).map_err(|_| SolverError::TooManyVariables(variables))?;
    let stopper = Stopper { deadline, flags };
    let mut solver = Solver::new();
    if cnf.len() > LARGE {
        // The light preprocessing before the search (fast elimination,
        // gate extraction) looks at the clock only between long steps: on
        // millions of clauses it overran a 5 s limit by 3 to 7 s, and on
        // 850,000 (200 PCs on 64-port switches) by 0.7 s. It pays off on
        // small, hard models, which keep it.
        solver.set_option(c"preprocesslight", 0);
        solver.set_option(c"fastelim", 0);
    }
    if let Some((file, name)) = proof {
        solver.trace_proof(file, name)?;
    }
    let mut clauses = cnf.into_iter();
    for (i, clause) in clauses.by_ref().enumerate() {
        if i % CLAUSES_PER_CHECK == 0 && stopper.stop() {
            dispose((solver, clauses));
            return Ok(Answer::Stopped);
        }
        for lit in clause {
            solver.add(lit.to_ipasir());
        }
        solver.add(0);
    }
    if let Some(n) = conflicts {
        solver.limit(c"conflicts", n);
    }
    let answer = match solver.solve(&stopper) {
        10 => Answer::Sat((1..=vars).map(|v| solver.is_true(v)).collect()),
        20 => Answer::Unsat,
        _ => Answer::Stopped,
    };
    if matches!(answer, Answer::Stopped) {
        dispose(solver);
    }
    Ok(answer)
}

/// Above this many clauses (262,144) a model counts as large.
const LARGE: usize = 1 << 18;

/// Frees a stopped solver (and what was not loaded into it) on a thread of
/// its own: tens of millions of small allocations take a second or more
/// to free, and a stopped answer is due now. A command that exits at once
/// leaves the freeing to the kernel.
pub fn dispose<T: Send + 'static>(what: T) {
    // Without a thread to be had, the closure (and `what` with it) is
    // dropped by `spawn` itself: freed here after all.
    let _ = std::thread::Builder::new().spawn(move || drop(what));
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustsat::instances::SatInstance;
    use rustsat::types::TernaryVal;

    static OFF: AtomicBool = AtomicBool::new(false);
    const CALM: [&AtomicBool; 2] = [&OFF, &OFF];

    /// holes + 1 pigeons, each in some hole, no two in one hole.
    fn pigeons(holes: usize) -> (Cnf, u32) {
        let mut inst: SatInstance = SatInstance::new();
        let x: Vec<Vec<_>> = (0..=holes)
            .map(|_| (0..holes).map(|_| inst.new_lit()).collect())
            .collect();
        for row in &x {
            inst.add_nary(row);
        }
        for h in 0..holes {
            let hole: Vec<_> = x.iter().map(|row| row[h]).collect();
            for (a, &first) in hole.iter().enumerate() {
                for &second in &hole[a + 1..] {
                    inst.add_binary(!first, !second);
                }
            }
        }
        let (cnf, vm) = inst.into_cnf();
        (cnf, rustsat::instances::ManageVars::n_used(&vm))
    }

    #[test]
    fn a_satisfiable_formula_gives_its_assignment() {
        let mut inst: SatInstance = SatInstance::new();
        let (a, b) = (inst.new_lit(), inst.new_lit());
        inst.add_binary(a, b);
        inst.add_unit(!a);
        let (cnf, vm) = inst.into_cnf();
        let n = rustsat::instances::ManageVars::n_used(&vm);
        let Ok(Answer::Sat(x)) = solve(cnf, n, None, None, CALM) else {
            panic!("satisfiable")
        };
        assert_eq!(x.lit_value(a), TernaryVal::False);
        assert_eq!(x.lit_value(b), TernaryVal::True);
    }

    #[test]
    fn pigeons_do_not_fit_and_the_proof_is_written() {
        let proof = tempfile::NamedTempFile::new().expect("proof file");
        let path = proof.path().to_path_buf();
        let (cnf, n) = pigeons(5);
        let answer = solve(cnf, n, Some((proof.as_file(), &path)), None, CALM).expect("starts");
        assert!(matches!(answer, Answer::Unsat));
        let text = std::fs::read_to_string(&path).expect("proof written");
        // A DRAT refutation ends by deriving the empty clause.
        assert!(text.lines().any(|l| l.trim() == "0"), "no empty clause in {text:.200}");
    }

    #[test]
    fn a_raised_flag_stops_the_solver() {
        let (cnf, n) = pigeons(11);
        let raised = AtomicBool::new(true);
        let answer = solve(cnf, n, None, None, [&AtomicBool::new(false), &raised]).expect("starts");
        assert!(matches!(answer, Answer::Stopped));
    }

    #[test]
    fn a_conflict_limit_stops_the_solver_and_a_wide_one_lets_it_finish() {
        let (cnf, n) = pigeons(9);
        let answer = solve_counted(cnf, n, 10, None, CALM).expect("starts");
        assert!(matches!(answer, Answer::Stopped));
        let (cnf, n) = pigeons(4);
        let answer = solve_counted(cnf, n, 100_000, None, CALM).expect("starts");
        assert!(matches!(answer, Answer::Unsat));
    }

    #[test]
    fn a_passed_deadline_stops_the_solver() {
        let (cnf, n) = pigeons(11);
        let answer = solve(cnf, n, None, Some(Instant::now()), CALM).expect("starts");
        assert!(matches!(answer, Answer::Stopped));
    }

    #[test]
    fn a_proof_file_that_cannot_be_written_is_an_error_with_the_reason() {
        let proof = tempfile::Builder::new()
            .suffix("p.drat")
            .tempfile()
            .expect("proof file");
        let path = proof.path().to_path_buf();
        let read_only = std::fs::File::open(&path).expect("opens");
        let (cnf, n) = pigeons(2);
        let err = solve(cnf, n, Some((&read_only, &path)), None, CALM)
            .err()
            .expect("refused");
        let text = err.to_string();
        assert!(text.contains("p.drat") && text.contains("Invalid argument"), "{text}");
    }
}
