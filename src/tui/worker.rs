//! The GA worker thread (bottom's collection thread, DESIGN.md §5): it
//! steps the engine one generation at a time, takes commands between
//! generations, and sends owned snapshots; the UI only draws the newest.

use crate::design::{Design, Metrics};
use crate::ga::{Engine, GenStats, Phase, Terms};
use crate::report::{Report, RunInfo};
use crate::session::Session;
use crate::spec::{Cluster, GaParams, PinKind, Spec, Weights};
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub enum Command {
    Pause,
    Resume,
    Step,
    SetWeights(Weights),
    SetGa(GaParams),
    /// Pin (`Some(Must)`), forbid (`Some(Forbid)`) or clear (`None`) a cell.
    Pin {
        pc: usize,
        switch: usize,
        pin: Option<PinKind>,
    },
    Restart(u64),
    /// Which population member the snapshots show in the grid.
    Select(usize),
    Save {
        path: PathBuf,
        name: String,
    },
    Export {
        dir: PathBuf,
    },
    /// The comparison table and every other system's artifacts.
    ExportCompare {
        dir: PathBuf,
    },
    Load(Box<Session>),
    Quit,
}

pub enum Event {
    Snapshot(Box<Snapshot>),
    /// The path and the generation saved.
    Saved(Result<(PathBuf, u64), String>),
    Exported(Result<Vec<PathBuf>, String>),
    Loaded(Result<String, String>),
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
    pub evaluations: u64,
    pub evals_per_sec: f64,
    pub elapsed_s: f64,
    pub running: bool,
    /// Why the worker stopped on its own, if it did.
    pub stopped: Option<String>,
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
}

/// Points of history sent for the chart.
const CHART_POINTS: usize = 600;

pub struct Worker {
    pub tx: Sender<Command>,
    pub rx: Receiver<Event>,
    handle: Option<std::thread::JoinHandle<()>>,
}

/// The thread name the panic hook uses to tell worker panics from UI ones.
pub const THREAD_NAME: &str = "ga-worker";

impl Worker {
    /// `baseline`: the design as opened from a session, if it was.
    pub fn spawn(spec: Spec, engine: Engine, name: String, running: bool, baseline: Option<Design>) -> Worker {
        let (tx, cmd_rx) = unbounded();
        let (ev_tx, rx) = unbounded();
        let handle = std::thread::Builder::new()
            .name(THREAD_NAME.into())
            .spawn(move || {
                let failure = ev_tx.clone();
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
                    let mut state = State::new(spec, engine, name, running, ev_tx);
                    state.baseline = baseline;
                    state.run(cmd_rx)
                }));
                if let Err(p) = result {
                    let msg = p
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "unknown panic".into());
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

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.tx.send(Command::Quit);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

struct State {
    spec: Spec,
    engine: Engine,
    name: String,
    running: bool,
    stopped: Option<String>,
    selected: usize,
    /// The generation limit in force; resuming past it extends it.
    limit: u64,
    tx: Sender<Event>,
    run_time: Duration,
    rate: f64,
    last_send: Instant,
    last_evals: (Instant, u64),
    /// The design as last saved or opened: exports include the rewire plan
    /// from it to the design exported.
    baseline: Option<Design>,
}

/// The generation a run stops at: `ga.generations` more, or none (0).
fn generation_limit(engine: &Engine) -> u64 {
    match engine.cluster().ga.generations {
        0 => u64::MAX,
        g => engine.generation().saturating_add(g),
    }
}

/// Snapshots are sent at most this often while running flat out.
const SEND_EVERY: Duration = Duration::from_millis(40);

impl State {
    fn new(spec: Spec, engine: Engine, name: String, running: bool, tx: Sender<Event>) -> State {
        let limit = generation_limit(&engine);
        let evals = engine.evaluations();
        State {
            spec,
            engine,
            name,
            running,
            stopped: None,
            selected: 0,
            limit,
            tx,
            run_time: Duration::ZERO,
            rate: 0.0,
            last_send: Instant::now() - SEND_EVERY,
            last_evals: (Instant::now(), evals),
            baseline: None,
        }
    }

    fn run(mut self, rx: Receiver<Command>) {
        self.send_snapshot();
        loop {
            let command = if self.running {
                rx.try_recv().ok()
            } else {
                match rx.recv_timeout(Duration::from_millis(200)) {
                    Ok(c) => Some(c),
                    Err(crossbeam_channel::RecvTimeoutError::Timeout) => None,
                    Err(_) => return,
                }
            };
            if let Some(c) = command {
                if matches!(c, Command::Quit) {
                    return;
                }
                self.handle(c);
                self.send_snapshot();
                continue;
            }
            if self.running {
                self.step();
                if self.last_send.elapsed() >= SEND_EVERY || !self.running {
                    self.send_snapshot();
                }
            }
            if rx.is_empty() && !self.running && self.tx.is_empty() {
                // Idle: nothing to do until a command arrives.
            }
        }
    }

    fn step(&mut self) {
        let t = Instant::now();
        self.engine.step();
        self.run_time += t.elapsed();
        if self.engine.stalled() {
            self.running = false;
            self.stopped = Some(format!(
                "valid; no better design in {} generations",
                self.engine.cluster().ga.stall_generations
            ));
        } else if self.engine.done() {
            self.running = false;
            self.stopped = Some("valid, nothing else to optimise".into());
        } else if self.engine.generation() >= self.limit {
            self.running = false;
            self.stopped = Some(format!("generation limit {} reached", self.limit));
        }
    }

    fn handle(&mut self, c: Command) {
        match c {
            Command::Pause => self.running = false,
            Command::Resume => {
                if self.engine.generation() >= self.limit {
                    self.limit = generation_limit(&self.engine);
                }
                self.stopped = None;
                self.running = true;
                self.last_evals = (Instant::now(), self.engine.evaluations());
            }
            Command::Step => {
                self.running = false;
                self.step();
                self.stopped = None;
            }
            Command::SetWeights(w) => self.engine.set_weights(w),
            Command::SetGa(ga) => {
                self.engine.set_ga(ga);
                self.limit = generation_limit(&self.engine);
            }
            Command::Pin { pc, switch, pin } => {
                let mut pins = self.engine.cluster().pins.clone();
                match pin {
                    Some(PinKind::Must) => pins.set_must(pc, switch),
                    Some(PinKind::Forbid) => pins.set_forbid(pc, switch),
                    None => pins.clear(pc, switch),
                }
                self.engine.set_pins(pins);
            }
            Command::Restart(seed) => {
                self.engine.restart(seed);
                self.limit = generation_limit(&self.engine);
                self.run_time = Duration::ZERO;
                self.stopped = None;
            }
            Command::Select(k) => self.selected = k,
            Command::Save { path, name } => {
                self.name = name;
                let session = Session::capture(&self.name, &self.spec, &self.engine);
                let generation = self.engine.generation();
                let r = session
                    .save(&path)
                    .map(|_| (path, generation))
                    .map_err(|e| e.to_string());
                if r.is_ok() {
                    self.baseline = Some(self.engine.best_design());
                }
                let _ = self.tx.send(Event::Saved(r));
            }
            Command::ExportCompare { dir } => {
                let _ = self.tx.send(Event::Exported(self.export_compare(&dir)));
            }
            Command::Export { dir } => {
                let _ = self.tx.send(Event::Exported(self.export(&dir)));
            }
            Command::Load(session) => {
                let r = match session.restore() {
                    Ok((_, engine)) => {
                        self.spec = session.spec.clone();
                        self.name = session.name.clone();
                        self.engine = engine;
                        self.baseline = Some(self.engine.best_design());
                        self.limit = generation_limit(&self.engine);
                        self.selected = 0;
                        self.stopped = None;
                        Ok(session.name.clone())
                    }
                    Err(e) => Err(e.to_string()),
                };
                let _ = self.tx.send(Event::Loaded(r));
            }
            Command::Quit => {}
        }
    }

    /// Every translator's output for the best design so far.
    fn export(&self, dir: &std::path::Path) -> Result<Vec<PathBuf>, String> {
        let best = self.engine.best();
        let design = best.genome.design(self.engine.problem());
        let metrics = Metrics::compute(&design, self.engine.cluster());
        let report = Report::new(
            self.engine.cluster(),
            metrics,
            RunInfo::of_engine(&self.engine, self.run_time.as_secs_f64(), None),
        );
        crate::export::write_all(
            dir,
            self.engine.cluster(),
            &design,
            &report,
            &crate::export::Options {
                from: self.baseline.clone(),
                ..Default::default()
            },
        )
    }

    fn export_compare(&self, dir: &std::path::Path) -> Result<Vec<PathBuf>, String> {
        let c = self.engine.cluster();
        let mut files = crate::topology::artifacts::write_all(dir, c)?;
        let (rows, skipped) = crate::topology::compare::compare(c, &self.engine.best_design());
        let path = dir.join("compare.txt");
        crate::atomic::write_atomic(&path, crate::topology::compare::text(&rows, &skipped).as_bytes())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        files.push(path);
        Ok(files)
    }

    fn send_snapshot(&mut self) {
        let now = Instant::now();
        let (t0, e0) = self.last_evals;
        let dt = now.duration_since(t0).as_secs_f64();
        if dt >= 0.25 {
            let evals = self.engine.evaluations();
            self.rate = (evals - e0) as f64 / dt;
            self.last_evals = (now, evals);
        }
        let snapshot = snapshot(
            &self.engine,
            self.selected,
            self.running,
            self.stopped.clone(),
            self.rate,
            self.run_time,
        );
        self.last_send = now;
        let _ = self.tx.send(Event::Snapshot(Box::new(snapshot)));
    }
}

/// An owned picture of the engine for the UI.
pub fn snapshot(
    engine: &Engine,
    selected: usize,
    running: bool,
    stopped: Option<String>,
    evals_per_sec: f64,
    run_time: Duration,
) -> Snapshot {
    let pop = engine.population();
    let selected = selected.min(pop.len().saturating_sub(1));
    let member = &pop[selected];
    let history = engine.history();
    let stride = history.len().div_ceil(CHART_POINTS).max(1);
    let mut sampled: Vec<GenStats> = history.iter().step_by(stride).cloned().collect();
    if let Some(last) = history.last()
        && sampled.last() != Some(last)
    {
        sampled.push(last.clone());
    }
    Snapshot {
        cluster: Arc::new(engine.cluster().clone()),
        generation: engine.generation(),
        evaluations: engine.evaluations(),
        evals_per_sec,
        elapsed_s: run_time.as_secs_f64(),
        running,
        stopped,
        phase: engine.phase(),
        valid: engine.is_valid(),
        members: pop
            .iter()
            .map(|m| MemberRow {
                fitness: m.fitness(),
                terms: *m.terms(),
                age: m.age,
            })
            .collect(),
        history: sampled,
        phase_changes: engine.phase_changes().to_vec(),
        selected,
        design: member.genome.design(engine.active()),
        lacking: member.eval.lacking.clone(),
    }
}
