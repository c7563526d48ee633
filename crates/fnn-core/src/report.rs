//! What `design` and `check` write: `report.json` and a
//! plain-text summary of the same figures.

use crate::ga::Terms;
use crate::metrics::Metrics;
use crate::run::stop::StopReason;
use crate::spec::{Cluster, Coverage};
use serde::Serialize;
use std::fmt::Write as _;

/// Uncovered pairs the plain-text summary names.
const SHOWN_UNCOVERED: usize = 10;

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub name: String,
    pub valid: bool,
    pub coverage: Coverage,
    pub required_pairs: u64,
    pub uncovered_pairs: u64,
    pub switches_used: usize,
    pub nics_used: u64,
    pub avg_pairwise_links: f64,
    pub min_pairwise_links: u32,
    pub pairwise_upper_bound: f64,
    pub cost: f64,
    pub generations: u64,
    pub evaluations: u64,
    pub elapsed_s: f64,
    pub stop_reason: Option<StopReason>,
    /// When the search first held a valid design (none: never, or no search).
    pub first_valid_generation: Option<u64>,
    pub first_valid_s: Option<f64>,
    /// Each search of the portfolio: the generations it ran in, the
    /// moves it made and the seconds it took, in portfolio order (a
    /// search that holds its generation's time slice shows here).
    pub strategies: Vec<StrategyTime>,
    /// Lower bounds and the design's gap to them: for a universal FNN of
    /// this size, or for a sparse pattern its own (the universal ones do
    /// not apply to it).
    pub bounds: ReportBounds,
    /// What the shipped atlas knows of this size (a universal FNN, every
    /// PC with the same NICs), in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub atlas: Option<String>,
    /// The evaluation terms of the reported design, when it came from a search.
    pub terms: Option<Terms>,
    pub fitness: Option<f64>,
    pub metrics: Metrics,
    /// The first uncovered pairs by the PCs' names, for the summary
    /// (report.json lists the first `LISTED_UNCOVERED` by number).
    #[serde(skip)]
    pub uncovered_named: Vec<(String, String)>,
}

/// One search's account over a run, as a report gives it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StrategyTime {
    pub name: String,
    /// Generations it ran in (its seed counts as one).
    pub generations: u64,
    /// Designs it handed back.
    pub designs: u64,
    pub moves: u64,
    pub seconds: f64,
    /// Its seconds over its generations.
    pub seconds_per_generation: f64,
}

impl StrategyTime {
    fn of(s: &crate::ga::portfolio::Stats) -> StrategyTime {
        StrategyTime {
            name: s.name.to_string(),
            generations: s.runs,
            designs: s.finds,
            moves: s.moves,
            seconds: s.seconds,
            seconds_per_generation: if s.runs == 0 { 0.0 } else { s.seconds / s.runs as f64 },
        }
    }
}

/// The bounds a report gives.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ReportBounds {
    Universal(crate::design::bounds::Bounds),
    Pattern(crate::design::pattern_bounds::PatternBounds),
}

/// How a design was obtained, for the report.
#[derive(Clone, Debug, Default)]
pub struct RunInfo {
    pub generations: u64,
    pub evaluations: u64,
    pub elapsed_s: f64,
    pub stop_reason: Option<StopReason>,
    pub first_valid_generation: Option<u64>,
    pub first_valid_s: Option<f64>,
    pub terms: Option<Terms>,
    pub fitness: Option<f64>,
    pub strategies: Vec<StrategyTime>,
}

impl crate::run::Run {
    /// The report of the run's best design so far.
    pub fn report(&self) -> Report {
        let design = self.best_design();
        let metrics = crate::metrics::Metrics::compute(&design, self.cluster());
        let mut run = RunInfo::of_engine(self.engine(), self.elapsed().as_secs_f64(), self.stopped());
        run.first_valid_s = self.first_valid_s();
        Report::new(self.cluster(), metrics, run)
    }
}

impl RunInfo {
    /// What an engine has done so far, its best member's terms included.
    pub fn of_engine(engine: &crate::ga::Engine, elapsed_s: f64, stop_reason: Option<StopReason>) -> RunInfo {
        let best = engine.best();
        RunInfo {
            generations: engine.generation(),
            evaluations: engine.evaluations(),
            elapsed_s,
            stop_reason,
            first_valid_generation: engine.first_valid(),
            first_valid_s: None,
            terms: Some(*best.terms()),
            fitness: Some(best.fitness()),
            strategies: engine.strategy_stats().iter().map(StrategyTime::of).collect(),
        }
    }
}

impl Report {
    pub fn new(cluster: &Cluster, metrics: Metrics, run: RunInfo) -> Report {
        let widest = cluster.switches.iter().map(|s| s.ports as u64).max().unwrap_or(0);
        let (available, used) = (cluster.switch_count() as u64, metrics.switches_used as u64);
        let bounds = match cluster.coverage {
            Coverage::Universal => ReportBounds::Universal(crate::design::bounds::bounds(
                cluster.pcs() as u64,
                cluster.max_nics() as u64,
                widest,
                available,
                used,
            )),
            Coverage::Sparse => ReportBounds::Pattern(crate::design::pattern_bounds::pattern_bounds(
                &cluster.pattern,
                &cluster.nics,
                widest,
                available,
                used,
            )),
        };
        let same_nics = cluster.nics.iter().all(|&n| n == cluster.max_nics());
        let atlas = (metrics.coverage == Coverage::Universal && same_nics)
            .then(|| crate::atlas::lookup(cluster.pcs(), cluster.max_nics()))
            .flatten()
            .map(crate::atlas::Cell::words);
        Report {
            bounds,
            atlas,
            name: cluster.name.clone(),
            valid: metrics.valid,
            coverage: metrics.coverage,
            required_pairs: metrics.required_pairs,
            uncovered_pairs: metrics.uncovered_pairs,
            switches_used: metrics.switches_used,
            nics_used: metrics.nics_used,
            avg_pairwise_links: metrics.avg_pairwise_links,
            min_pairwise_links: metrics.min_pairwise_links,
            pairwise_upper_bound: metrics.pairwise_upper_bound,
            cost: metrics.cost.total,
            generations: run.generations,
            evaluations: run.evaluations,
            elapsed_s: run.elapsed_s,
            stop_reason: run.stop_reason,
            first_valid_generation: run.first_valid_generation,
            first_valid_s: run.first_valid_s,
            strategies: run.strategies,
            terms: run.terms,
            fitness: run.fitness,
            uncovered_named: metrics
                .uncovered
                .iter()
                .take(SHOWN_UNCOVERED)
                .map(|&(a, b)| (cluster.pc_name(a), cluster.pc_name(b)))
                .collect(),
            metrics,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serializes")
    }

    /// A short human-readable summary, written beside report.json.
    pub fn text(&self) -> String {
        self.text_listing_rest("report.json")
    }

    /// The summary; `listing` names where the uncovered pairs it leaves out
    /// are listed ("report.json").
    pub fn text_listing_rest(&self, listing: &str) -> String {
        let m = &self.metrics;
        let mut s = String::new();
        let verdict = if self.valid { "VALID" } else { "NOT VALID" };
        let coverage = match self.coverage {
            Coverage::Universal => "universal: every pair of PCs must share a switch",
            Coverage::Sparse => "sparse: only the pattern pairs must share a switch",
        };
        let _ = writeln!(s, "{}: {verdict} ({coverage})", self.name);
        for v in &m.violations {
            let _ = writeln!(s, "  limit broken: {v}");
        }
        let _ = writeln!(
            s,
            "  required pairs       {} ({} uncovered)",
            self.required_pairs, self.uncovered_pairs
        );
        for (a, b) in &self.uncovered_named {
            let _ = writeln!(s, "    uncovered: {a} - {b}");
        }
        if m.uncovered.len() > SHOWN_UNCOVERED {
            let more = self.uncovered_pairs - SHOWN_UNCOVERED as u64;
            let listed = crate::metrics::LISTED_UNCOVERED;
            if self.uncovered_pairs as usize <= listed {
                let _ = writeln!(s, "    ... {more} more in {listing}");
            } else {
                let _ = writeln!(s, "    ... {more} more ({listing} lists the first {listed})");
            }
        }
        self.write_links(&mut s);
        self.write_bounds(&mut s);
        self.write_cost_and_search(&mut s);
        s
    }

    /// What the design gives: switches and NICs used, links, bisection,
    /// latency.
    fn write_links(&self, s: &mut String) {
        let m = &self.metrics;
        let _ = writeln!(s, "  switches used        {}", self.switches_used);
        let _ = writeln!(s, "  NICs used            {}", self.nics_used);
        let _ = writeln!(
            s,
            "  pairwise links       avg {:.4} (upper bound {:.4}), min {}, max {}",
            self.avg_pairwise_links, self.pairwise_upper_bound, self.min_pairwise_links, m.max_pairwise_links
        );
        let _ = writeln!(s, "  link histogram       {:?}", m.link_histogram);
        if let (Some(avg), Some(min)) = (m.pattern_avg_links, m.pattern_min_links) {
            let _ = writeln!(s, "  pattern pairs        avg {avg:.4} links, weakest {min}");
        }
        let b = &m.bisection;
        let _ = writeln!(
            s,
            "  bisection            best case {:.1} Gb/s, random permutation {:.1} Gb/s, uplink adds {:.1} Gb/s",
            b.best_case_mbps / 1000.0,
            b.random_permutation_mbps / 1000.0,
            b.uplink_mbps / 1000.0
        );
        let l = &m.latency;
        let _ = writeln!(
            s,
            "  latency              avg {:.3} switch hops, max {} ({} pairs via uplink, {} via a PC, {} unreachable)",
            l.avg_switch_hops, l.max_switch_hops, l.via_uplink_pairs, l.via_pc_pairs, l.unreachable_pairs
        );
    }

    /// The lower bounds on the switches: the universal ones, with what the
    /// atlas knows, or a sparse pattern's own.
    fn write_bounds(&self, s: &mut String) {
        match &self.bounds {
            ReportBounds::Universal(bd) => {
                let _ = writeln!(
                    s,
                    "  bounds               switches of at least {} ports ({}-port here); at least {} switches of {} ports ({} used)",
                    bd.min_switch_width,
                    bd.widest_ports,
                    bd.min_switches_at_widest,
                    bd.widest_ports,
                    self.switches_used
                );
                if let Some(known) = &self.atlas {
                    let _ = writeln!(s, "  narrowest known      {known}");
                }
            }
            ReportBounds::Pattern(bd) => {
                let _ = writeln!(
                    s,
                    "  bounds               the pattern's: switches of at least {} ports ({}-port here; a PC has up to {} partners, a clique of {} found); at least {} switches of {} ports ({} used). The universal bounds do not apply: only the pattern's pairs must meet",
                    bd.min_switch_width,
                    bd.widest_ports,
                    bd.max_degree,
                    bd.clique,
                    bd.min_switches_at_widest,
                    bd.widest_ports,
                    self.switches_used
                );
            }
        }
    }

    fn write_cost_and_search(&self, s: &mut String) {
        let m = &self.metrics;
        let c = &m.cost;
        let _ = writeln!(
            s,
            "  cost                 {:.2} (switches {:.2}, uplink switch {:.2}, NICs {:.2}, cables {:.2})",
            c.total, c.switches, c.uplink_switch, c.nics, c.cables
        );
        if self.generations > 0 {
            let _ = writeln!(
                s,
                "  search               {}, {}, {:.3} s{}",
                crate::words::count(self.generations as usize, "generation"),
                crate::words::count(self.evaluations as usize, "evaluation"),
                self.elapsed_s,
                self.stop_reason
                    .map(|r| format!(", stopped: {}", r.words()))
                    .unwrap_or_default()
            );
        }
        if let (Some(g), Some(t)) = (self.first_valid_generation, self.first_valid_s) {
            let _ = writeln!(s, "  first valid          generation {g}, after {t:.3} s");
        }
        let ran: Vec<String> = self
            .strategies
            .iter()
            .filter(|t| t.generations > 0)
            .map(|t| format!("{} {:.3} s a generation", t.name, t.seconds_per_generation))
            .collect();
        if !ran.is_empty() {
            let _ = writeln!(s, "  searches             {}", ran.join(", "));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::Design;
    use crate::spec::{PatternSpec, sparse_spec};

    /// Which search held a generation was visible nowhere: the report
    /// gives each search's generations, moves and seconds a generation.
    #[test]
    fn a_report_gives_each_searchs_time_a_generation() {
        // An 8x8 torus on 2 NICs and every port: the first design leaves
        // pairs for the walks.
        let grid = PatternSpec::Grid {
            dims: vec![8, 8],
            torus: true,
            weight: 1.0,
        };
        let mut spec = sparse_spec("torus", 64, 2, &[(4, 32)], vec![grid]);
        spec.ga.generations = 3;
        spec.ga.constructions = false;
        let mut run = crate::run::Run::new(spec).unwrap();
        run.run(&std::sync::atomic::AtomicBool::new(false), |_| {});
        let names = run.engine().strategy_stats().iter().map(|s| s.name).collect::<Vec<_>>();
        let report = run.report();
        let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        let listed = json["strategies"].as_array().expect("a list of searches");
        let listed_names: Vec<&str> = listed.iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(listed_names, names);
        let tabu = listed.iter().find(|t| t["name"] == "tabu").expect("the tabu walks");
        let generations = tabu["generations"].as_u64().unwrap();
        assert!(generations > 0 && tabu["moves"].as_u64().unwrap() > 0, "{tabu}");
        let (seconds, each) = (
            tabu["seconds"].as_f64().unwrap(),
            tabu["seconds_per_generation"].as_f64().unwrap(),
        );
        assert!((each * generations as f64 - seconds).abs() < 1e-9, "{tabu}");
        let text = report.text();
        assert!(
            text.contains("  searches             ") && text.contains("tabu "),
            "{text}"
        );
    }

    /// A ring of 64 PCs on 2 NICs: the universal bounds (switches of 33
    /// ports) say nothing of it; its own (2 partners a PC) do.
    #[test]
    fn a_sparse_report_gives_the_patterns_bounds_and_says_the_universal_ones_do_not_apply() {
        let pairs = (0..64).map(|i| vec![i as f64, ((i + 1) % 64) as f64]).collect();
        let spec = sparse_spec(
            "ring",
            64,
            2,
            &[(4, 32)],
            vec![PatternSpec::Pairs { pairs, weight: 1.0 }],
        );
        let cluster = spec.resolve().unwrap();
        let blocks: Vec<Vec<usize>> = (0..32).map(|k| vec![2 * k, 2 * k + 1, (2 * k + 2) % 64]).collect();
        let metrics = Metrics::compute(&Design::from_blocks(64, &blocks), &cluster);
        let report = Report::new(&cluster, metrics, RunInfo::default());
        let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        let bounds = &json["bounds"];
        assert_eq!(bounds["max_degree"], 2, "{bounds}");
        assert_eq!(bounds["min_switch_width"], 2, "a PC's 2 partners over 2 NICs: {bounds}");
        assert!(
            bounds["universal_bounds"].as_str().unwrap().starts_with("do not apply"),
            "{bounds}"
        );
        let text = report.text();
        assert!(text.contains("The universal bounds do not apply"), "{text}");
        assert!(!text.contains("33 ports"), "{text}");
    }
}
