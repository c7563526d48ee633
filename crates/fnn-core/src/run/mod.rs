//! One search run: the spec it started from, the engine, the
//! limits, the clock and why it stopped. The CLI commands, the sweep, the
//! cheapest-hardware search and the designer's worker all drive a `Run`,
//! so the stop rules, the edits a user may make and what a report or a
//! session holds are decided here, once, and tested without a thread.

use crate::deadline::Deadline;
use crate::design::Design;
use crate::exact::PinsVerdict;
use crate::ga::{Engine, Phase, Portfolio, StopReason, presets};
use crate::metrics::Metrics;
use crate::report::{Report, RunInfo};
use crate::session::{Session, SessionError};
use crate::spec::{Cluster, GaParams, PinKind, Preset, Spec, SpecError, Weights, check_feasible};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod limits;
pub use limits::Limits;

/// Where a run is, for a progress line.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub generation: u64,
    pub phase: Phase,
    /// The fitness and uncovered pairs of the best member of the current
    /// population (of the scaled-down problem during that phase).
    pub best_fitness: f64,
    pub best_uncovered: u64,
}

/// A change a user makes to a running search.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    Weights(Weights),
    Ga(GaParams),
    /// Pin (`Some(Must)`), forbid (`Some(Forbid)`) or clear (`None`) a cell.
    Pin {
        pc: usize,
        switch: usize,
        pin: Option<PinKind>,
    },
    /// Weights and GA parameters together (the designer's form): both
    /// apply, or, when either is refused, neither.
    Tune {
        weights: Weights,
        ga: GaParams,
    },
    /// A fresh population with this seed; spec, weights and pins kept.
    Restart(u64),
}

pub struct Run {
    spec: Spec,
    engine: Engine,
    limits: Limits,
    /// The live designer's run: no limits, whatever the spec says.
    unlimited: bool,
    /// Search time so far (stepping only, not time spent paused).
    elapsed: Duration,
    /// When the run was created: a time limit counts from here.
    started: Instant,
    stopped: Option<StopReason>,
    first_valid_s: Option<f64>,
    /// How long a pin's joint check may take (the exact model's budget).
    pins_budget: Duration,
}

impl Run {
    /// A run of `spec` with the spec's own limits (`ga.generations`,
    /// `ga.time_limit_s`), which hold from this moment: the first
    /// population stops spreading when the time is up.
    /// The exact mode alone needs neither check: a bound that refutes the
    /// spec is its answer, and it keeps no population.
    pub fn new(spec: Spec) -> Result<Run, SpecError> {
        let cluster = spec.resolve()?;
        if cluster.ga.preset() != Preset::Exact {
            check_feasible(&cluster)?;
            cluster.check_search_memory()?;
        }
        Ok(Run::of_cluster(spec, cluster))
    }

    /// A run of an already resolved and checked cluster of `spec`.
    pub fn of_cluster(spec: Spec, cluster: Cluster) -> Run {
        Run::of_cluster_since(spec, cluster, Instant::now())
    }

    /// [`Run::of_cluster`] with its time limit counted from `started`: a
    /// command's limit holds from the moment it started, reading the spec
    /// included (its millions of pairs can take a second).
    pub fn of_cluster_since(spec: Spec, cluster: Cluster, started: Instant) -> Run {
        let portfolio = presets::of_params(&cluster.ga);
        Run::with_portfolio(spec, cluster, portfolio, started)
    }

    /// [`Run::of_cluster_since`] running `portfolio` rather than the
    /// spec's preset (the exact mode writing a proof, tests adding a
    /// strategy).
    pub fn with_portfolio(spec: Spec, cluster: Cluster, portfolio: Portfolio, started: Instant) -> Run {
        let limits = Limits::from_params(&cluster.ga);
        let deadline = limits.deadline(started);
        tracing::info!(
            spec = %cluster.source,
            pcs = cluster.pcs(),
            switches = cluster.switch_count(),
            seed = cluster.ga.seed,
            strategies = ?portfolio.names(),
            "run started"
        );
        let engine = Engine::with_portfolio(cluster, portfolio, deadline, limits.slice(started));
        Run::around(spec, engine, limits, started)
    }

    /// A saved run, continuing where it stopped.
    pub fn resume(session: &Session) -> Result<Run, SessionError> {
        let (_, engine) = session.restore()?;
        Ok(Run::of_engine(session.spec.clone(), engine))
    }

    /// A run around an engine already built (the designer's start, a
    /// restored session), with the engine's own limits.
    pub fn of_engine(spec: Spec, engine: Engine) -> Run {
        let limits = Limits::from_params(&engine.cluster().ga);
        Run::around(spec, engine, limits, Instant::now())
    }

    fn around(spec: Spec, engine: Engine, limits: Limits, started: Instant) -> Run {
        // Search time counts the setup (seeding, constructions) too, and
        // the first valid design is timed on the same clock, so it is
        // never reported later than the search's end.
        let elapsed = started.elapsed();
        let first_valid_s = engine.is_valid().then_some(elapsed.as_secs_f64());
        Run {
            spec,
            engine,
            limits,
            unlimited: false,
            elapsed,
            started,
            stopped: None,
            first_valid_s,
            pins_budget: crate::exact::PINS_BUDGET,
        }
    }

    /// How long the exact model may take to settle a pin with the others
    /// (tests give none, to see what an unsettled pin says).
    pub fn with_pins_budget(mut self, budget: Duration) -> Run {
        self.pins_budget = budget;
        self
    }

    /// No generation or time limit: the live designer runs until paused
    /// (or until the design is valid with nothing left to improve).
    pub fn unlimited(mut self) -> Run {
        self.unlimited = true;
        self.limits = Limits {
            generations: 0,
            time_limit_s: 0.0,
        };
        self
    }

    /// The same run under other limits than its spec's (tests and
    /// benchmarks that fix a generation budget).
    pub fn with_limits(mut self, limits: Limits) -> Run {
        self.limits = limits;
        self
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine, once the run is over.
    pub fn into_engine(self) -> Engine {
        self.engine
    }

    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    pub fn cluster(&self) -> &Cluster {
        self.engine.cluster()
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Search time so far.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    pub fn stopped(&self) -> Option<StopReason> {
        self.stopped
    }

    /// When the run's time is up, the one form every part of it reads.
    pub fn deadline(&self) -> Deadline {
        self.limits.deadline(self.started)
    }

    /// Why the run should not take another step, if it should not.
    fn stop_rule(&self) -> Option<StopReason> {
        self.limits.reached(&self.engine, self.started)
    }

    /// One generation, unless a stop rule holds already; returns the stop
    /// reason once one does (before or after the step).
    pub fn step(&mut self) -> Option<StopReason> {
        self.step_until(&AtomicBool::new(false))
    }

    /// [`Run::step`], whose searches give up as soon as `cancel` is set.
    fn step_until(&mut self, cancel: &AtomicBool) -> Option<StopReason> {
        if let Some(r) = self.stop_rule() {
            self.stop(r);
            return Some(r);
        }
        let t = Instant::now();
        self.engine.set_deadline(self.deadline());
        self.engine.set_slice(self.limits.slice(Instant::now()));
        self.engine.step_until(cancel);
        self.elapsed += t.elapsed();
        if self.first_valid_s.is_none() && self.engine.is_valid() {
            self.first_valid_s = Some(self.elapsed.as_secs_f64());
        }
        if let Some(r) = self.stop_rule() {
            self.stop(r);
        }
        self.stopped
    }

    fn stop(&mut self, r: StopReason) {
        if self.stopped != Some(r) {
            tracing::info!(
                generation = self.engine.generation(),
                valid = self.engine.is_valid(),
                "run stopped: {}",
                r.words()
            );
        }
        self.stopped = Some(r);
    }

    /// Continues after a stop: a generation limit reached grants as many
    /// generations again; a time limit as much time again.
    pub fn resume_after_stop(&mut self) {
        match self.stopped.take() {
            Some(StopReason::Generations) => {
                let more = self.cluster().ga.generations.max(1);
                self.limits.generations = self.engine.generation().saturating_add(more);
            }
            Some(StopReason::TimeLimit) => self.started = Instant::now(),
            _ => {}
        }
    }

    /// Steps until a stop rule holds or `interrupted` is set; `progress`
    /// sees the run after every generation.
    pub fn run(&mut self, interrupted: &AtomicBool, mut progress: impl FnMut(&Run)) -> StopReason {
        loop {
            if interrupted.load(Ordering::Relaxed) {
                self.stop(StopReason::Interrupted);
                return StopReason::Interrupted;
            }
            if let Some(r) = self.step_until(interrupted) {
                return r;
            }
            progress(self);
        }
    }

    /// Applies an edit, validated as a spec file would be; a pin that
    /// breaks a NIC or port limit, or that the population cannot be made
    /// to obey, is refused and nothing changes. Returns what was done.
    ///
    /// An edit that is applied lifts a stop: why the run stopped (valid,
    /// stalled, out of generations) was said of the problem before it.
    pub fn apply(&mut self, edit: Edit) -> Result<String, SpecError> {
        let r = self.apply_edit(edit);
        match &r {
            Ok(done) => {
                self.resume_after_stop();
                tracing::info!("edit: {done}");
            }
            Err(e) => tracing::warn!("edit refused: {e}"),
        }
        r
    }

    fn apply_edit(&mut self, edit: Edit) -> Result<String, SpecError> {
        match edit {
            Edit::Weights(w) => {
                self.tune(Some(w), None)?;
                Ok("weights applied".into())
            }
            Edit::Ga(ga) => {
                self.tune(None, Some(ga))?;
                Ok("GA parameters applied".into())
            }
            Edit::Tune { weights, ga } => {
                self.tune(Some(weights), Some(ga))?;
                Ok("weights and GA parameters applied".into())
            }
            Edit::Pin { pc, switch, pin } => self.pin(pc, switch, pin),
            Edit::Restart(seed) => {
                self.engine.restart(seed);
                self.elapsed = Duration::ZERO;
                self.started = Instant::now();
                self.stopped = None;
                self.first_valid_s = None;
                Ok(format!("restarted with seed {seed}"))
            }
        }
    }

    /// New weights and GA parameters, checked together before either is
    /// applied, so a refusal leaves both as they were.
    fn tune(&mut self, weights: Option<Weights>, ga: Option<GaParams>) -> Result<(), SpecError> {
        self.validated(|s| {
            if let Some(w) = &weights {
                s.weights = w.clone();
            }
            if let Some(g) = &ga {
                s.ga = g.clone();
            }
        })?;
        if let Some(w) = weights {
            self.engine.set_weights(w);
        }
        if let Some(ga) = ga {
            self.engine.set_ga(ga.clone());
            if !self.unlimited {
                self.limits = Limits::from_params(&ga);
            }
        }
        Ok(())
    }

    /// Checks `change` applied to the spec (with the live weights, GA
    /// parameters and pins) exactly as a spec file would be checked.
    fn validated(&self, change: impl FnOnce(&mut Spec)) -> Result<(), SpecError> {
        // The spec alone: capturing the whole population to check one
        // edit cost a serialisation of every member.
        let mut spec = crate::session::live_spec(&self.spec, self.engine.cluster());
        spec.source = "edit".into();
        change(&mut spec);
        let c = spec.resolve()?;
        check_feasible(&c)
    }

    fn pin(&mut self, pc: usize, switch: usize, pin: Option<PinKind>) -> Result<String, SpecError> {
        if self.engine.phase() != Phase::Full {
            // The scaled-down phase's PCs are not the cluster's.
            return Err(SpecError::field(
                "edit",
                "pin",
                "pins apply to the full-size design: wait for the scaled-down phase to end",
            ));
        }
        let c = self.cluster();
        if pc >= c.pcs() || switch >= c.switch_count() {
            return Err(SpecError::field(
                "edit",
                "pin",
                format!("PC number {pc} on switch {switch} is outside the design"),
            ));
        }
        let mut pins = c.pins.clone();
        match pin {
            Some(PinKind::Must) => pins.set_must(pc, switch),
            Some(PinKind::Forbid) => pins.set_forbid(pc, switch),
            None => pins.clear(pc, switch),
        }
        let mut trial = c.clone();
        trial.pins = pins.clone();
        trial.source = "edit".into();
        check_feasible(&trial)?;
        let name = c.pc_name(pc);
        // Clearing a pin only widens what the search may do.
        let (verdict, obeying) = match pin {
            Some(_) => crate::exact::check_pins_design(&trial, self.pins_budget),
            None => (PinsVerdict::Possible, None),
        };
        let unproved = match verdict {
            PinsVerdict::Impossible(why) => return Err(SpecError::infeasible("edit", why)),
            PinsVerdict::NotProved(why) => Some(why),
            PinsVerdict::Possible => None,
        };
        if self.engine.set_pins_from(pins, obeying.as_ref()).is_err() {
            // Not proved impossible: only the search's repair failed, so
            // say that rather than "impossible".
            return Err(SpecError::field(
                "edit",
                "pin",
                format!(
                    "the search could not rewire its designs to obey the pins of {name} and switch {switch} with the others, and the exact model did not settle them in time; try the pin again, or put the pins in the spec and run `fnn-tui design --exact`"
                ),
            ));
        }
        let done = match pin {
            Some(PinKind::Must) => format!("pinned {name} on switch {switch}"),
            Some(PinKind::Forbid) => format!("forbade {name} on switch {switch}"),
            None => format!("cleared {name} on switch {switch}"),
        };
        Ok(match unproved {
            Some(why) => format!("{done} ({why})"),
            None => done,
        })
    }

    /// Where the run is now.
    pub fn progress(&self) -> Progress {
        let e = &self.engine;
        let top = e.population().first();
        Progress {
            generation: e.generation(),
            phase: e.phase(),
            best_fitness: top.map_or(0.0, |m| m.fitness()),
            best_uncovered: top.map_or(0, |m| m.terms().uncovered),
        }
    }

    /// What the strategies said of their verdicts (the exact mode's
    /// answer and what it cost), by strategy name.
    pub fn said(&self) -> &[(&'static str, String)] {
        self.engine.said()
    }

    /// The best design so far.
    pub fn best_design(&self) -> Design {
        self.engine.best_design()
    }

    /// The report of the best design so far.
    pub fn report(&self) -> Report {
        let design = self.best_design();
        let metrics = Metrics::compute(&design, self.cluster());
        let mut run = RunInfo::of_engine(&self.engine, self.elapsed.as_secs_f64(), self.stopped);
        run.first_valid_s = self.first_valid_s;
        Report::new(self.cluster(), metrics, run)
    }

    /// The run as a session named `name`.
    pub fn session(&self, name: &str) -> Session {
        Session::capture(name, &self.spec, &self.engine)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::QuickFlags;

    fn spec(pcs: usize, nics: u32, switches: &str, edit: impl FnOnce(&mut Spec)) -> Spec {
        let mut s = QuickFlags {
            pcs: Some(pcs),
            nics: Some(nics),
            switches: Some(switches.into()),
            ..Default::default()
        }
        .apply(Spec::default())
        .unwrap();
        edit(&mut s);
        s
    }

    /// A strategy that keeps its generation until its budget's time is up.
    struct Hog;

    impl crate::ga::Strategy for Hog {
        fn name(&self) -> &'static str {
            "hog"
        }

        fn applies(&self, _: &crate::ga::Context<'_>) -> bool {
            true
        }

        fn search(&self, ctx: &crate::ga::Context<'_>, _: &mut crate::ga::Rng) -> crate::ga::Found {
            while !ctx.spent() {
                std::thread::yield_now();
            }
            crate::ga::Found::default()
        }
    }

    /// One strategy held a generation for most of a run (30 s of 60 s on
    /// a 2-NIC stencil the GA alone solved at once): under a time limit
    /// each generation's searches get a slice of it, so the run goes on
    /// past a strategy that would take all it is given.
    #[test]
    fn no_strategy_holds_a_generation_for_the_whole_time_limit() {
        let s = spec(24, 3, "12x8", |s| {
            s.ga.time_limit_s = 2.0;
            s.ga.portfolio = Preset::Papers;
            s.weights.redundancy = 1.0;
        });
        let cluster = s.resolve().unwrap();
        let portfolio = presets::of_params(&cluster.ga).with_first(Box::new(Hog));
        let mut r = Run::with_portfolio(s, cluster, portfolio, Instant::now());
        assert_eq!(r.run(&AtomicBool::new(false), |_| {}), StopReason::TimeLimit);
        let hog = &r.engine().strategy_stats()[0];
        assert!(hog.runs >= 2, "the hog ran in {} generation(s)", hog.runs);
    }

    /// `first valid after 0.031 s` was printed over `search ... 0.013 s`:
    /// the two were timed on different clocks (the command's start, the
    /// generations' own time).
    #[test]
    fn the_first_valid_design_is_never_timed_after_the_search_ends() {
        let s = spec(16, 3, "8x8", |s| s.ga.generations = 20);
        let cluster = s.resolve().unwrap();
        // As a command that spent a while reading its spec.
        let since = Instant::now() - Duration::from_millis(300);
        let mut r = Run::of_cluster_since(s, cluster, since);
        r.run(&AtomicBool::new(false), |_| {});
        let rep = r.report();
        let first = rep.first_valid_s.expect("a valid design");
        assert!(
            first <= rep.elapsed_s,
            "first valid {first} s after a search of {} s",
            rep.elapsed_s
        );
    }

    #[test]
    fn a_generation_limit_stops_the_run_and_resuming_grants_as_many_again() {
        let mut r = Run::new(spec(24, 3, "12x8", |s| {
            s.ga.generations = 3;
            s.ga.portfolio = Preset::Papers;
            s.weights.redundancy = 1.0;
        }))
        .unwrap();
        let stop = r.run(&AtomicBool::new(false), |_| {});
        assert_eq!((stop, r.engine().generation()), (StopReason::Generations, 3));
        assert_eq!(r.step(), Some(StopReason::Generations), "no step past the limit");
        r.resume_after_stop();
        assert_eq!(r.run(&AtomicBool::new(false), |_| {}), StopReason::Generations);
        assert_eq!(r.engine().generation(), 6);
    }

    #[test]
    fn an_unlimited_run_stops_only_when_nothing_is_left_or_interrupted() {
        let mut r = Run::new(spec(6, 2, "4x3", |s| s.ga.generations = 1))
            .unwrap()
            .unlimited();
        assert_eq!(r.run(&AtomicBool::new(false), |_| {}), StopReason::Valid);
        assert!(r.report().valid);
        let mut r = Run::new(spec(24, 3, "12x8", |s| s.weights.redundancy = 1.0))
            .unwrap()
            .unlimited();
        assert_eq!(r.run(&AtomicBool::new(true), |_| {}), StopReason::Interrupted);
    }

    #[test]
    fn a_time_limit_counts_from_the_start() {
        let mut r = Run::new(spec(24, 3, "12x8", |s| {
            s.ga.time_limit_s = 1e-9;
            s.weights.redundancy = 1.0;
        }))
        .unwrap();
        assert_eq!(r.step(), Some(StopReason::TimeLimit));
        assert_eq!(r.engine().generation(), 0);
    }

    /// Five must-pins on a 4-NIC PC were accepted.
    #[test]
    fn a_pin_beyond_a_pcs_nics_is_refused_and_changes_nothing() {
        let mut r = Run::new(spec(16, 4, "16x8", |_| {})).unwrap();
        for s in 0..4 {
            let done = r.apply(Edit::Pin {
                pc: 0,
                switch: s,
                pin: Some(PinKind::Must),
            });
            assert!(done.is_ok(), "{done:?}");
        }
        let e = r
            .apply(Edit::Pin {
                pc: 0,
                switch: 4,
                pin: Some(PinKind::Must),
            })
            .unwrap_err();
        assert!(e.to_string().contains("n00"), "{e}");
        assert!(!r.cluster().pins.is_must(0, 4));
        assert_eq!(r.cluster().pins.list().len(), 4);
        // The session still opens.
        let text = r.session("pins").to_toml();
        let back = Session::from_toml(&text, "pins.toml").unwrap();
        assert!(Run::resume(&back).is_ok());
    }

    /// Pins that leave a required pair no switch to share were accepted
    /// (the counts allow each pin), and the run stayed NOT VALID for ever.
    #[test]
    fn pins_that_strand_a_pair_are_refused_by_name() {
        let mut r = Run::new(spec(8, 3, "5x6", |_| {})).unwrap();
        while r.engine().phase() != crate::ga::Phase::Full {
            r.step();
        }
        let mut pin = |pc, switch| {
            r.apply(Edit::Pin {
                pc,
                switch,
                pin: Some(PinKind::Must),
            })
        };
        for sw in 0..3 {
            pin(0, sw).unwrap();
        }
        pin(1, 3).unwrap();
        pin(1, 4).unwrap();
        let e = pin(1, 5).unwrap_err().without_file();
        assert!(e.contains("must share a switch"), "{e}");
        assert!(!r.cluster().pins.is_must(1, 5), "refused, not applied");
    }

    /// A new user pinned n3 and n2 on switches 2, 1, 0 and n0 on 2, 1, then
    /// n0 on 0: refused as impossible, though the same pins in a spec
    /// opened valid. The members' repair is greedy and failed from the
    /// wiring the search had reached; the exact check had found a design.
    #[test]
    fn a_pin_the_exact_check_proves_possible_is_never_refused() {
        let text = "[uplink]\nmode = \"none\"\n[pcs]\ncount = 8\nnics = 3\n[[switches]]\nports = 5\ncount = 6\n";
        let mut s = Spec::from_toml(text, "base.toml").unwrap();
        s.ga.seed = 1;
        let mut r = Run::new(s).unwrap();
        while r.engine().phase() != crate::ga::Phase::Full {
            r.step();
        }
        let order = [(3, 2), (3, 1), (3, 0), (2, 2), (2, 1), (2, 0), (0, 2), (0, 1), (0, 0)];
        for (pc, switch) in order {
            let done = r.apply(Edit::Pin {
                pc,
                switch,
                pin: Some(PinKind::Must),
            });
            assert!(done.is_ok(), "n{pc} on switch {switch}: {done:?}");
            r.step();
        }
        for (pc, switch) in order {
            assert!(r.cluster().pins.is_must(pc, switch));
            assert!(
                r.best_design().switches_of(pc).contains(&switch),
                "the members obey the pins"
            );
        }
    }

    /// A pin neither proved impossible (no time for the exact model) nor
    /// obeyed by the search's repair is refused as exactly that: not
    /// "impossible", and with the way to settle it (`design --exact`).
    #[test]
    fn a_pin_neither_proved_nor_repaired_is_refused_honestly() {
        let text = "[uplink]\nmode = \"none\"\n[pcs]\ncount = 8\nnics = 3\n[[switches]]\nports = 5\ncount = 6\n";
        let mut s = Spec::from_toml(text, "base.toml").unwrap();
        s.ga.seed = 1;
        let mut r = Run::new(s).unwrap().with_pins_budget(Duration::ZERO);
        while r.engine().phase() != crate::ga::Phase::Full {
            r.step();
        }
        let order = [(3, 2), (3, 1), (3, 0), (2, 2), (2, 1), (2, 0), (0, 2), (0, 1), (0, 0)];
        let refused = order.into_iter().find_map(|(pc, switch)| {
            let done = r.apply(Edit::Pin {
                pc,
                switch,
                pin: Some(PinKind::Must),
            });
            r.step();
            done.err().map(|e| (pc, switch, e.to_string()))
        });
        let Some((pc, switch, why)) = refused else {
            panic!("every pin was repaired: the refusal was not reached")
        };
        assert!(
            why.contains("could not rewire") && why.contains("fnn-tui design --exact") && !why.contains("impossible"),
            "{why}"
        );
        assert!(!r.cluster().pins.is_must(pc, switch), "the refused pin stays out");
    }

    /// A pin the exact model could not settle in its budget is applied,
    /// and the message says it was not proved.
    #[test]
    fn a_pin_not_settled_in_the_budget_says_so() {
        let mut r = Run::new(spec(8, 3, "5x6", |_| {}))
            .unwrap()
            .with_pins_budget(Duration::ZERO);
        while r.engine().phase() != crate::ga::Phase::Full {
            r.step();
        }
        let done = r
            .apply(Edit::Pin {
                pc: 0,
                switch: 0,
                pin: Some(PinKind::Must),
            })
            .unwrap();
        assert!(done.starts_with("pinned") && done.contains("not proved"), "{done}");
        assert!(r.cluster().pins.is_must(0, 0));
    }

    /// The weights form is one edit: a refused GA value leaves the new
    /// weights out too.
    #[test]
    fn a_tune_with_one_bad_half_changes_neither() {
        let mut r = Run::new(spec(16, 4, "16x8", |_| {})).unwrap();
        let (weights, ga) = (r.cluster().weights.clone(), r.cluster().ga.clone());
        let mut w = weights.clone();
        w.redundancy = 2.0;
        let mut bad = ga.clone();
        bad.time_limit_s = f64::NAN;
        assert!(
            r.apply(Edit::Tune {
                weights: w.clone(),
                ga: bad
            })
            .is_err()
        );
        assert_eq!((&r.cluster().weights, &r.cluster().ga), (&weights, &ga));
        assert!(r.apply(Edit::Tune { weights: w.clone(), ga }).is_ok());
        assert_eq!(r.cluster().weights, w);
    }

    /// The scaled-down phase's PCs are not the cluster's: a pin waits for
    /// the full phase, refused by the run whichever front end sends it.
    #[test]
    fn a_pin_in_the_scaled_down_phase_is_refused_and_changes_nothing() {
        let mut r = Run::new(spec(64, 4, "25x11", |_| {})).unwrap();
        assert_ne!(r.engine().phase(), crate::ga::Phase::Full);
        let before = r.engine().state();
        let e = r
            .apply(Edit::Pin {
                pc: 0,
                switch: 0,
                pin: Some(PinKind::Must),
            })
            .unwrap_err();
        assert!(e.to_string().contains("scaled-down phase"), "{e}");
        assert_eq!(r.engine().state(), before);
        assert!(r.cluster().pins.list().is_empty());
    }

    /// The designer's run stays unlimited through the weights form and a
    /// restart: the spec's limits are for the headless commands.
    #[test]
    fn an_unlimited_run_stays_unlimited_through_edits_and_restarts() {
        let mut r = Run::new(spec(24, 3, "12x8", |s| s.weights.redundancy = 1.0))
            .unwrap()
            .unlimited();
        let mut ga = r.cluster().ga.clone();
        ga.time_limit_s = 1e-9;
        ga.generations = 1;
        r.apply(Edit::Ga(ga)).unwrap();
        assert_eq!(r.step(), None, "the form did not impose the spec's limits");
        assert_eq!(r.step(), None);
        r.apply(Edit::Restart(3)).unwrap();
        assert_eq!(r.step(), None, "nor did the restart");
        assert_eq!(r.step(), None);
    }

    #[test]
    fn edits_are_validated_like_a_spec() {
        let mut r = Run::new(spec(16, 4, "16x8", |_| {})).unwrap();
        let mut w = r.cluster().weights.clone();
        w.bandwidth = 1e300;
        assert!(
            r.apply(Edit::Weights(w))
                .unwrap_err()
                .to_string()
                .contains("weights.bandwidth")
        );
        let mut ga = r.cluster().ga.clone();
        ga.pc_swap_rate = 2.0;
        assert!(
            r.apply(Edit::Ga(ga))
                .unwrap_err()
                .to_string()
                .contains("ga.pc_swap_rate")
        );
        let mut ga = r.cluster().ga.clone();
        ga.population = 50;
        ga.keep = 10;
        r.apply(Edit::Ga(ga)).unwrap();
        assert_eq!(r.engine().population().len(), 50);
        assert!(r.apply(Edit::Restart(7)).unwrap().contains("seed 7"));
        assert_eq!(r.cluster().ga.seed, 7);
    }

    /// A session past the size a session may be (written, then refused on
    /// reading) keeps its best members that fit, and opens again with the
    /// population filled up.
    #[test]
    fn a_session_too_big_to_read_back_keeps_its_best_members() {
        let mut spec = QuickFlags {
            pcs: Some(40),
            nics: Some(3),
            switches: Some("20x12".into()),
            ..Default::default()
        }
        .apply(Spec::default())
        .unwrap();
        // Something left to improve, so the resumed run takes a generation.
        spec.weights.balance = 1.0;
        let session = Run::new(spec).unwrap().session("big");
        let whole = session.to_toml();
        let limit = whole.len() as u64 / 3;
        let text = session.fitting_toml(limit).expect("fits with fewer members");
        assert!(text.len() as u64 <= limit, "{} > {limit}", text.len());
        let back = crate::session::Session::from_toml(&text, "big.toml").expect("reads back");
        let kept = back.engine.population.len();
        assert!(kept > 1 && kept < session.engine.population.len(), "{kept}");
        let best = |s: &crate::session::Session| s.engine.population.first().map(|m| m.entries.clone());
        assert_eq!(best(&back), best(&session), "the best member is kept");
        let mut resumed = Run::resume(&back).expect("restores");
        let stop = resumed.step();
        assert_eq!(
            (stop, resumed.engine().population().len()),
            (None, session.engine.population.len()),
            "filled up again"
        );
        assert!(
            session
                .fitting_toml(10)
                .unwrap_err()
                .to_string()
                .contains("even with one member")
        );
    }
}
