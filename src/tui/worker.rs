//! The GA worker thread (bottom's collection thread): it
//! steps the run one generation at a time, takes commands between
//! generations, and sends owned snapshots; the UI only draws the newest.

pub use super::job_error::{JobError, Panicked};
use crate::design::Design;
use crate::ga::{GenStats, Phase, Terms};
use crate::run::{Edit, Run, StopReason};
use crate::session::Session;
use crate::spec::Cluster;
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

// `Crash` is hidden from the docs, not a non-exhaustive marker.
#[allow(clippy::manual_non_exhaustive)]
pub enum Command {
    Pause,
    Resume,
    Step,
    /// An edit for the run (the weights form, a pin, a restart), applied
    /// between generations; its outcome comes back as `Event::Applied`.
    Edit(Edit),
    /// Which population member the snapshots show in the grid.
    Select(usize),
    /// Save the run to `path`; an autosave (a recovery file) keeps the
    /// session's name and file, and says whether it holds user edits
    /// (`edits`), which no other run of the name may replace.
    Save {
        path: PathBuf,
        name: String,
        autosave: bool,
        edits: bool,
    },
    /// Export the best design with the export form's choices; with
    /// `rewire_from_saved`, the rewire plan starts from the design last
    /// saved or opened.
    Export {
        dir: PathBuf,
        choices: crate::export::choices::Choices,
        rewire_from_saved: bool,
        session_dirs: Vec<PathBuf>,
    },
    /// Rehearse the best design in network namespaces (a background job).
    Emulate {
        probe_order: Option<String>,
    },
    /// The comparison table and every other system's artifacts.
    ExportCompare {
        dir: PathBuf,
    },
    Load(Box<Session>),
    /// Place the selected design in racks (the rack view's job).
    PlaceRacks,
    /// Start the sweep tab's job (stopping one already running).
    Sweep(super::sweep::SweepPlan),
    StopSweep,
    /// The watch pace on or off: generations slowed so a person can follow
    /// both phases of the papers' GA (off: as fast as it goes).
    Watch(bool),
    Quit,
    /// Panics the worker: proves in tests that a worker panic reaches the
    /// UI as an event instead of killing the designer.
    #[doc(hidden)]
    Crash,
}

pub enum Event {
    Snapshot(Box<Snapshot>),
    /// The path and the generation saved.
    Saved(Result<(PathBuf, u64), JobError>),
    /// A recovery file written (or not) by the autosave.
    Autosaved(Result<(PathBuf, u64), JobError>),
    /// What an edit did, or why it was refused.
    Applied(Result<String, JobError>),
    /// The rack placement of the selected design, at a generation.
    RacksPlaced(Result<crate::export::racks::Placement, JobError>, u64),
    /// A size the sweep job finished.
    SweepPoint(crate::sweep::Point),
    /// The sweep job ended, or failed (a panic).
    SweepEnded(Result<(), Panicked>),
    Exported(Result<Vec<PathBuf>, JobError>),
    /// The emulate job's progress: what it is doing, done, of.
    EmulateProgress(String, usize, usize),
    /// The emulate job's summary, or why it could not run.
    Emulated(Result<String, JobError>),
    Loaded(Result<String, JobError>),
    /// The spec's own pins, checked together at start: `Err` when no
    /// wiring can obey them (the run stays paused), `Ok(Some(note))` when
    /// the check was not settled in its budget.
    PinsChecked(Result<Option<String>, JobError>),
    /// The worker died; the UI shows this and keeps running.
    Failed(String),
}

/// One member's line in the population table.
#[derive(Clone, Debug, PartialEq)]
pub struct MemberRow {
    pub fitness: f64,
    pub terms: Terms,
    pub age: u64,
}

/// Everything the UI draws, owned.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub cluster: Arc<Cluster>,
    pub generation: u64,
    /// This run's evaluations (since the designer started, opened a
    /// session or restarted), as the clock and the rate count: a resumed
    /// session's earlier runs took time this clock never saw.
    pub evaluations: u64,
    /// Recent evaluations per second while running; the run's own
    /// (its evaluations over `elapsed_s`) once paused or stopped.
    pub evals_per_sec: f64,
    /// Wall time the run has been running (paused and stopped time not
    /// counted): the status bar's clock.
    pub elapsed_s: f64,
    pub running: bool,
    /// Why the run stopped on its own, if it did.
    pub stopped: Option<StopReason>,
    pub phase: Phase,
    pub valid: bool,
    pub members: Vec<MemberRow>,
    pub history: Vec<GenStats>,
    pub phase_changes: Vec<u64>,
    pub selected: usize,
    /// The selected member's wiring (scaled-down while in the first phase).
    pub design: Design,
    /// Required partners each PC lacks in that wiring.
    pub lacking: Vec<u32>,
    /// At the watch pace (`Command::Watch`).
    pub watch: bool,
}

/// Points of history sent for the chart.
const CHART_POINTS: usize = 600;

pub struct Worker {
    pub tx: Sender<Command>,
    pub rx: Receiver<Event>,
    handle: Option<std::thread::JoinHandle<()>>,
}

/// The worker thread's name (in `top -H`, debuggers and panic messages).
pub const THREAD_NAME: &str = "ga-worker";

/// Runs a background job, turning a panic into an error message: a job
/// that dies must be reported to the UI, which otherwise waits for its
/// answer forever. (The UI's panic hook leaves the terminal alone for any
/// thread but its own.)
pub fn catching<T>(job: impl FnOnce() -> T) -> Result<T, Panicked> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).map_err(|p| {
        Panicked(
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into()),
        )
    })
}

impl Worker {
    /// `baseline`: the design as opened from a session, if it was.
    pub fn spawn(run: Run, name: String, running: bool, baseline: Option<Design>) -> Worker {
        let (tx, cmd_rx) = unbounded();
        let (ev_tx, rx) = unbounded();
        let handle = std::thread::Builder::new()
            .name(THREAD_NAME.into())
            .spawn(move || {
                let failure = ev_tx.clone();
                let result = catching(move || {
                    let run = run.unlimited();
                    let running = running && pins_can_hold(run.cluster(), &ev_tx);
                    let mut state = State::new(run, name, running, ev_tx);
                    state.baseline = baseline;
                    state.run(cmd_rx)
                });
                if let Err(msg) = result {
                    let _ = failure.send(Event::Failed(format!("the GA worker stopped: {msg}")));
                }
            })
            .expect("the worker thread starts");
        Worker {
            tx,
            rx,
            handle: Some(handle),
        }
    }

    pub fn send(&self, c: Command) {
        let _ = self.tx.send(c);
    }
}

/// A spec's own pins, checked together before the run searches, as the
/// designer checks a pin the user adds: pins no wiring can obey are said
/// at once and the run is not started (a search could never obey them).
fn pins_can_hold(cluster: &Cluster, tx: &Sender<Event>) -> bool {
    use crate::exact::{PINS_BUDGET, PinsVerdict, check_pins};
    let (holds, said) = match check_pins(cluster, PINS_BUDGET) {
        PinsVerdict::Possible => return true,
        PinsVerdict::NotProved(why) => (true, Ok(Some(why))),
        PinsVerdict::Impossible(why) => (false, Err(JobError::PinsImpossible(why))),
    };
    let _ = tx.send(Event::PinsChecked(said));
    holds
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.tx.send(Command::Quit);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// The worker's state: a [`Run`] and what only the designer needs. The
/// stop rules, limits and edits are the run's; this only pumps commands
/// in and snapshots out.
struct State {
    run: Run,
    name: String,
    running: bool,
    /// The watch pace, and when the last generation ran.
    watch: bool,
    last_step: Instant,
    selected: usize,
    tx: Sender<Event>,
    rate: f64,
    last_send: Instant,
    last_evals: (Instant, u64),
    /// The run's wall time and overall rate, for the status bar.
    clock: super::clock::RunClock,
    /// The design as last saved or opened: exports include the rewire plan
    /// from it to the design exported.
    baseline: Option<Design>,
    /// The sweep job's stop flag, while one runs.
    sweep: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The emulate job, while one runs: its cancel flag and thread (joined
    /// on quit, so the namespaces it built are removed before the designer exits).
    emulate: Option<(
        std::sync::Arc<std::sync::atomic::AtomicBool>,
        std::thread::JoinHandle<()>,
    )>,
}

/// The watch pace: a generation this often in the scaled-down phase (a few
/// generations for KLAT2) and in the full one.
pub const WATCH_SCALED: Duration = Duration::from_millis(400);
pub const WATCH_FULL: Duration = Duration::from_millis(50);

/// Snapshots are sent at most this often while running flat out.
const SEND_EVERY: Duration = Duration::from_millis(40);

impl State {
    fn new(run: Run, name: String, running: bool, tx: Sender<Event>) -> State {
        let evals = run.evaluations();
        State {
            run,
            name,
            running,
            watch: false,
            last_step: Instant::now(),
            selected: 0,
            tx,
            rate: 0.0,
            last_send: Instant::now() - SEND_EVERY,
            last_evals: (Instant::now(), evals),
            clock: super::clock::RunClock::new(running, evals, Instant::now()),
            baseline: None,
            sweep: None,
            emulate: None,
        }
    }

    fn run(mut self, rx: Receiver<Command>) {
        self.send_snapshot();
        loop {
            let command = if self.running {
                match self.wait_for_pace() {
                    // At the watch pace the wait is for commands too.
                    Some(wait) => match rx.recv_timeout(wait) {
                        Ok(c) => Some(c),
                        Err(crossbeam_channel::RecvTimeoutError::Timeout) => None,
                        Err(_) => return,
                    },
                    None => rx.try_recv().ok(),
                }
            } else {
                match rx.recv_timeout(Duration::from_millis(200)) {
                    Ok(c) => Some(c),
                    Err(crossbeam_channel::RecvTimeoutError::Timeout) => None,
                    Err(_) => return,
                }
            };
            if let Some(c) = command {
                if matches!(c, Command::Quit) {
                    self.stop_sweep();
                    self.stop_emulate();
                    return;
                }
                self.handle(c);
                self.send_snapshot();
                continue;
            }
            if self.running && self.wait_for_pace().is_none() {
                self.last_step = Instant::now();
                if self.run.step().is_some() {
                    self.running = false;
                }
                if self.last_send.elapsed() >= SEND_EVERY || !self.running {
                    self.send_snapshot();
                }
            }
        }
    }

    /// How long until the next generation is due at the watch pace
    /// (`None`: due now, or not at the watch pace). The scaled-down phase
    /// goes slower still: it lasts a few generations.
    fn wait_for_pace(&self) -> Option<Duration> {
        if !self.watch {
            return None;
        }
        let every = match self.run.phase() {
            Phase::Scaled { .. } => WATCH_SCALED,
            Phase::Full => WATCH_FULL,
        };
        every.checked_sub(self.last_step.elapsed()).filter(|d| !d.is_zero())
    }

    /// Sends the outcome of an edit: what was done, or why it was refused.
    /// A run a stop rule ended goes on with the edit (one the user paused
    /// stays paused).
    fn apply(&mut self, edit: Edit) {
        let stopped = !self.running && self.run.stopped().is_some();
        let r = self.run.apply(edit).map_err(JobError::Refused);
        if r.is_ok() && stopped {
            self.running = true;
            self.reset_rate();
        }
        let _ = self.tx.send(Event::Applied(r));
    }

    fn handle(&mut self, c: Command) {
        match c {
            Command::Pause => self.running = false,
            Command::Watch(on) => self.watch = on,
            Command::Resume => self.resume(),
            Command::Step => self.step_once(),
            Command::Edit(edit) => self.edit(edit),
            Command::Select(k) => self.selected = k,
            Command::Save {
                path,
                name,
                autosave,
                edits,
            } => self.save(path, name, autosave, edits),
            Command::ExportCompare { dir } => self.export_compare(&dir),
            Command::Export {
                dir,
                choices,
                rewire_from_saved,
                session_dirs,
            } => self.export_with(&dir, choices, rewire_from_saved, &session_dirs),
            Command::Emulate { probe_order } => self.start_emulate(probe_order),
            Command::Load(session) => self.load(&session),
            Command::Sweep(plan) => self.start_sweep(&plan),
            Command::StopSweep => self.stop_sweep(),
            Command::PlaceRacks => self.place_racks(),
            Command::Quit => {}
            Command::Crash => panic!("crash requested"),
        }
    }

    fn resume(&mut self) {
        self.run.resume_after_stop();
        self.running = true;
        self.reset_rate();
    }

    /// One generation, leaving the run paused.
    fn step_once(&mut self) {
        self.running = false;
        self.run.resume_after_stop();
        self.run.step();
    }

    /// An edit; a restart also restarts the rate and the clock.
    fn edit(&mut self, edit: Edit) {
        let restart = matches!(edit, Edit::Restart(_));
        self.apply(edit);
        if restart {
            self.reset_rate();
            self.clock.restart(self.run.evaluations(), Instant::now());
        }
    }

    /// Saves the run to `path`; a save the user asked for (not an
    /// autosave) takes `name` and becomes the rewire plan's baseline.
    fn save(&mut self, path: PathBuf, name: String, autosave: bool, edits: bool) {
        if !autosave {
            self.name = name;
        }
        let mut session = self.run.session(&self.name);
        session.user_edits = autosave.then_some(edits);
        let generation = self.run.generation();
        let r = session
            .save(&path)
            .map(|_| (path, generation))
            .map_err(JobError::Session);
        if r.is_ok() && !autosave {
            self.baseline = Some(self.run.best_design());
        }
        let _ = self
            .tx
            .send(if autosave { Event::Autosaved(r) } else { Event::Saved(r) });
    }

    fn export_compare(&self, dir: &std::path::Path) {
        let r = crate::topology::artifacts::write_all(dir, self.run.cluster(), &self.run.best_design());
        let _ = self.tx.send(Event::Exported(r.map_err(JobError::Artifacts)));
    }

    /// Exports the best design with the export form's `choices`.
    fn export_with(
        &self,
        dir: &std::path::Path,
        mut choices: crate::export::choices::Choices,
        rewire_from_saved: bool,
        session_dirs: &[PathBuf],
    ) {
        if rewire_from_saved {
            choices.rewire = self.baseline.clone().map(crate::export::choices::Rewire::Design);
        }
        let r = choices
            .resolve(self.run.cluster(), session_dirs)
            .map_err(JobError::Choice)
            .and_then(|options| self.export(dir, &options).map_err(JobError::Export));
        let _ = self.tx.send(Event::Exported(r));
    }

    /// Replaces the run with the one `session` saved.
    fn load(&mut self, session: &Session) {
        let r = match Run::resume(session) {
            Ok(run) => {
                self.run = run.unlimited();
                self.name = session.name.clone();
                self.baseline = Some(self.run.best_design());
                self.selected = 0;
                self.reset_rate();
                self.clock.restart(self.run.evaluations(), Instant::now());
                Ok(session.name.clone())
            }
            Err(e) => Err(JobError::Session(e)),
        };
        let _ = self.tx.send(Event::Loaded(r));
    }

    /// Starts the sweep of `plan`, stopping one already running.
    fn start_sweep(&mut self, plan: &super::sweep::SweepPlan) {
        self.stop_sweep();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        spawn_sweep(plan, self.tx.clone(), stop.clone());
        self.sweep = Some(stop);
    }

    /// Places the selected design in racks; a scaled-down design has no
    /// racks to go in.
    fn place_racks(&self) {
        let placed = match self.run.phase() {
            Phase::Full => {
                let design = self.run.member_design(self.selected);
                crate::export::racks::place(self.run.cluster(), &design).map_err(JobError::Placement)
            }
            Phase::Scaled { .. } => Err(JobError::ScaledPhase),
        };
        let _ = self.tx.send(Event::RacksPlaced(placed, self.run.generation()));
    }

    /// Every translator's output for the run's best design.
    fn export(
        &self,
        dir: &std::path::Path,
        options: &crate::export::Options,
    ) -> Result<Vec<std::path::PathBuf>, crate::export::ExportError> {
        let (c, design) = (self.run.cluster(), self.run.best_design());
        let r = crate::export::write_all(dir, c, &design, &self.run.report(), options);
        match &r {
            Ok(files) => tracing::info!(dir = %dir.display(), files = files.len(), "exported"),
            Err(e) => tracing::error!(dir = %dir.display(), "export failed: {e}"),
        }
        r
    }

    /// Runs emulate on the best design on its own thread; one at a time.
    fn start_emulate(&mut self, probe_order: Option<String>) {
        if self.emulate.as_ref().is_some_and(|(_, h)| !h.is_finished()) {
            let _ = self.tx.send(Event::Emulated(Err(JobError::EmulateRunning)));
            return;
        }
        let (cluster, design) = (self.run.cluster().clone(), self.run.best_design());
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (flag, tx) = (cancel.clone(), self.tx.clone());
        let handle = std::thread::Builder::new()
            .name("emulate".into())
            .spawn(move || {
                let r = catching(|| run_emulate(&cluster, &design, probe_order.as_deref(), &flag, &tx))
                    .unwrap_or_else(|panic| Err(JobError::EmulateStopped(panic)));
                let _ = tx.send(Event::Emulated(r));
            })
            .expect("the emulate thread starts");
        self.emulate = Some((cancel, handle));
    }

    fn stop_emulate(&mut self) {
        if let Some((cancel, handle)) = self.emulate.take() {
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
            let _ = handle.join();
        }
    }

    fn stop_sweep(&mut self) {
        if let Some(stop) = self.sweep.take() {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// The rate restarts from the current count: after a restart the count
    /// falls, and a rate from the old count was absurd (4e18 evals/s).
    fn reset_rate(&mut self) {
        self.last_evals = (Instant::now(), self.run.evaluations());
        self.rate = 0.0;
    }

    /// The snapshot's clock is wall time while running; its rate is the
    /// recent one while running, the run's own once it is not (a rate
    /// over a clock still counting would fall for ever).
    fn send_snapshot(&mut self) {
        let now = Instant::now();
        let evals = self.run.evaluations();
        let (t0, e0) = self.last_evals;
        let dt = now.duration_since(t0).as_secs_f64();
        if dt >= 0.25 {
            self.rate = evals.saturating_sub(e0) as f64 / dt;
            self.last_evals = (now, evals);
        }
        self.clock.set_running(self.running, now);
        let rate = if self.running {
            self.rate
        } else {
            self.clock.rate(evals, now)
        };
        let mut snapshot = snapshot(&self.run, self.selected, self.running, rate, self.clock.elapsed(now));
        snapshot.watch = self.watch;
        snapshot.evaluations = self.clock.evaluations(evals);
        self.last_send = now;
        let _ = self.tx.send(Event::Snapshot(Box::new(snapshot)));
    }
}

/// An owned picture of the run for the UI.
pub fn snapshot(run: &Run, selected: usize, running: bool, evals_per_sec: f64, run_time: Duration) -> Snapshot {
    let pop = run.population();
    let selected = selected.min(pop.len().saturating_sub(1));
    let member = &pop[selected];
    let history = run.history();
    let stride = history.len().div_ceil(CHART_POINTS).max(1);
    let mut sampled: Vec<GenStats> = history.iter().step_by(stride).cloned().collect();
    if let Some(last) = history.last()
        && sampled.last() != Some(last)
    {
        sampled.push(last.clone());
    }
    Snapshot {
        cluster: Arc::new(run.cluster().clone()),
        generation: run.generation(),
        evaluations: run.evaluations(),
        evals_per_sec,
        elapsed_s: run_time.as_secs_f64(),
        running,
        stopped: run.stopped(),
        phase: run.phase(),
        valid: run.is_valid(),
        members: pop
            .iter()
            .map(|m| MemberRow {
                fitness: m.fitness(),
                terms: *m.terms(),
                age: m.age,
            })
            .collect(),
        history: sampled,
        phase_changes: run.phase_changes().to_vec(),
        selected,
        design: run.member_design(selected),
        lacking: member.eval.lacking.clone(),
        watch: false,
    }
}

/// The emulate job: the summary's text, or why it could not run.
fn run_emulate(
    c: &crate::spec::Cluster,
    d: &crate::design::Design,
    probe_order: Option<&str>,
    cancel: &std::sync::atomic::AtomicBool,
    tx: &Sender<Event>,
) -> Result<String, JobError> {
    use crate::emulate::{Options, emulate};
    let ifaces = match probe_order {
        Some(p) => crate::routing::Interfaces::parse(p).map_err(JobError::ProbeOrder)?,
        None => crate::routing::Interfaces {
            probe_order: (1..=c.max_nics().max(1) as usize).collect(),
        },
    };
    let progress = |what: &str, done: usize, of: usize| {
        let _ = tx.send(Event::EmulateProgress(what.to_string(), done, of));
    };
    let mut o = Options::new(ifaces);
    o.cancel = Some(cancel);
    o.progress = Some(&progress);
    // The testbed is dropped here, removing everything, before the summary is shown.
    let (summary, _testbed) = emulate(c, d, &o)?;
    Ok(summary.text())
}

/// Runs the sweep of `plan` on its own thread as a job of the worker: its
/// points, then its end (or its failure, a panic included) arrive as
/// events on the worker's channel. Setting `stop` ends it early.
fn spawn_sweep(plan: &super::sweep::SweepPlan, tx: Sender<Event>, stop: Arc<std::sync::atomic::AtomicBool>) {
    let todo: Vec<(usize, u32)> = plan
        .nics
        .iter()
        .flat_map(|&n| plan.pcs.iter().map(move |&p| (p, n)))
        .collect();
    let budget = plan.budget;
    let _ = std::thread::Builder::new()
        .name("ga-worker-sweep".into())
        .spawn(move || {
            let points = tx.clone();
            let end = catching(|| {
                crate::sweep::run(&todo, budget, 1, &stop, |point| {
                    let _ = points.send(Event::SweepPoint(point));
                })
            });
            let _ = tx.send(Event::SweepEnded(end));
        });
}
