//! Invariants under random inputs: every operator keeps NIC and port limits
//! and pins, incremental evaluation equals full evaluation, the switch
//! table round-trips, and no input makes a parser panic.

use crate::common;

use fnn_tui::design::{Design, format_table, parse_table};
use fnn_tui::ga::{Eval, Genome, Problem, Rng, operators};
use fnn_tui::spec::{Cluster, Pins, Spec};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};

/// A small random cluster: PCs, NICs (with overrides), switch groups, pins.
fn arb_cluster() -> impl Strategy<Value = Cluster> {
    (
        2usize..24,
        1u32..5,
        prop::collection::vec((2u32..9, 1u32..4), 1..4),
        prop::collection::vec((0usize..24, 0u32..6), 0..4),
        prop::collection::vec((0usize..24, 0usize..12, any::<bool>()), 0..5),
        any::<bool>(),
        0usize..5,
    )
        .prop_map(|(pcs, nics, groups, overrides, pins, sparse, racks)| {
            let switches = groups
                .iter()
                .map(|(p, c)| format!("{p}x{c}"))
                .collect::<Vec<_>>()
                .join(",");
            common::quick_with(pcs, nics, &switches, |s: &mut Spec| {
                s.racks.count = racks;
                s.weights.rack_crossings = 0.5;
                for (pc, n) in overrides {
                    if pc < pcs && !s.pcs.overrides.iter().any(|o| o.pc == pc) {
                        s.pcs.overrides.push(fnn_tui::spec::NicOverride { pc, nics: n });
                    }
                }
                if sparse {
                    s.coverage = fnn_tui::spec::Coverage::Sparse;
                    s.patterns.push(fnn_tui::spec::PatternSpec::Ring { k: 1, weight: 2.0 });
                } else {
                    s.patterns.push(fnn_tui::spec::PatternSpec::Hypercube { weight: 1.0 });
                }
                let switch_count: usize = groups.iter().map(|(_, c)| *c as usize).sum();
                for (pc, sw, must) in pins {
                    if pc < pcs && sw < switch_count && !s.pins.iter().any(|p| p.pc == pc && p.switch == sw) {
                        let kind = if must {
                            fnn_tui::spec::PinKind::Must
                        } else {
                            fnn_tui::spec::PinKind::Forbid
                        };
                        s.pins.push(fnn_tui::spec::PinSpec { pc, switch: sw, kind });
                    }
                }
            })
        })
}

/// Checks the closed-representation invariants and the pins.
fn assert_invariants(problem: &Problem, g: &Genome) {
    let rebuilt = Genome::from_entries(problem, g.entries().to_vec()).expect("entries describe a closed wiring");
    assert_eq!(rebuilt.masks(), g.masks(), "masks out of step with entries");
    let design = g.design(problem);
    let c = &problem.cluster;
    for (s, used) in design.ports_used().iter().enumerate() {
        assert!(*used <= c.ports(s), "switch {s} over its ports");
    }
    for pc in 0..problem.pcs() {
        assert!(design.nics_used(pc) <= c.nics[pc], "PC {pc} over its NICs");
        for s in 0..problem.switches() {
            if c.pins.is_forbidden(pc, s) {
                assert!(!design.has(pc, s), "PC {pc} on forbidden switch {s}");
            }
        }
    }
}

/// Must-pins survive every operator once the construction placed them.
fn pins_held(problem: &Problem, start: &Genome, g: &Genome) {
    for (pc, s, must) in problem.cluster.pins.list() {
        if must && start.has(problem, pc, s) {
            assert!(g.has(problem, pc, s), "must-pin PC {pc} switch {s} lost");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Finding a PC by name directly (the readers of probe results and MAC
    /// files, millions of lines at thousands of PCs) answers exactly as
    /// comparing with every PC's name would.
    #[test]
    fn a_pc_is_found_by_name_as_by_comparing_every_name(
        pcs in 1usize..1200,
        prefix in "[a-z][a-z0-9-]{0,3}",
        probe in "[a-z0-9+ _-]{0,4}[0-9]{0,5}",
        digits in "[0-9]{0,5}",
        pick in any::<prop::sample::Index>(),
    ) {
        let c = common::quick_with(pcs, 1, &format!("{}x1", pcs + 1), |s: &mut Spec| s.pcs.name_prefix = prefix.clone());
        let linear = |s: &str| (0..pcs).find(|&p| c.pc_name(p) == s);
        let host_linear = |s: &str| (0..pcs).find(|&p| fnn_tui::escape::host_name(&c.pc_name(p)) == s);
        let named = c.pc_name(pick.index(pcs));
        let numbered = format!("{prefix}{digits}");
        for s in [named.as_str(), probe.as_str(), numbered.as_str()] {
            prop_assert_eq!(c.pc_named(s), linear(s), "{:?}", s);
            prop_assert_eq!(c.pc_host_named(s), host_linear(s), "{:?}", s);
        }
    }

    #[test]
    fn operators_are_closed_and_incremental_eval_matches_full(cluster in arb_cluster(), seed in any::<u64>(), ops in 1usize..60) {
        let problem = Problem::new(cluster);
        let mut rng = Rng::seed_from_u64(seed);
        let start = Genome::straightforward(&problem);
        assert_invariants(&problem, &start);
        let mut g = start.clone();
        let mut eval = Eval::full(&problem, &g);
        let other = {
            let mut o = start.clone();
            let mut e = Eval::full(&problem, &o);
            for _ in 0..20 { operators::swap_connection(&problem, &mut o, &mut e, &mut rng, 0.0); }
            o
        };
        for _ in 0..ops {
            match rng.random_range(0..4) {
                0 => { operators::swap_connection(&problem, &mut g, &mut eval, &mut rng, 0.75); }
                1 => { operators::swap_pcs(&problem, &mut g, &mut eval, &mut rng, 0.5); }
                2 => {
                    g = operators::crossover(&problem, &g, &other, &mut rng);
                    eval = Eval::full(&problem, &g);
                }
                _ => { operators::swap_connection(&problem, &mut g, &mut eval, &mut rng, 0.0); }
            }
            assert_invariants(&problem, &g);
            pins_held(&problem, &start, &g);
            let full = Eval::full(&problem, &g);
            prop_assert_eq!(&eval.terms, &full.terms);
            prop_assert_eq!(&eval.lacking, &full.lacking);
        }
    }

    #[test]
    fn repair_obeys_new_pins(cluster in arb_cluster(), seed in any::<u64>(), cells in prop::collection::vec((0usize..24, 0usize..12, any::<bool>()), 1..6)) {
        let mut problem = Problem::new(cluster);
        let mut rng = Rng::seed_from_u64(seed);
        let mut g = Genome::straightforward(&problem);
        let mut pins = Pins::new(problem.pcs(), problem.switches());
        for (pc, s, must) in cells {
            if pc < problem.pcs() && s < problem.switches() {
                if must { pins.set_must(pc, s) } else { pins.set_forbid(pc, s) }
            }
        }
        problem.cluster.pins = pins;
        let failed = operators::repair(&problem, &mut g, &mut rng);
        assert_invariants(&problem, &g);
        for (pc, s, must) in problem.cluster.pins.list() {
            if !failed.contains(&(pc, s)) {
                prop_assert_eq!(g.has(&problem, pc, s), must, "pin PC {} switch {}", pc, s);
            }
        }
    }

    #[test]
    fn table_round_trips(pcs in 1usize..40, switches in 1usize..140, cells in prop::collection::vec((0usize..40, 0usize..140), 0..200)) {
        let mut d = Design::new(pcs, switches);
        for (pc, s) in cells {
            if pc < pcs && s < switches { d.connect(pc, s); }
        }
        let text = format_table(&d);
        let back = parse_table(&text, "t", pcs, switches).unwrap();
        prop_assert_eq!(&back, &d);
        prop_assert_eq!(format_table(&back), text);
    }

    #[test]
    fn table_parser_never_panics(text in "(?s).{0,300}") {
        let _ = parse_table(&text, "t", 0, 0);
    }

    #[test]
    fn table_parser_never_panics_on_near_tables(lines in prop::collection::vec("[0-9]{0,3}[: ,x#-]{0,2}[0-9 ,a-]{0,20}", 0..12)) {
        let _ = parse_table(&lines.join("\n"), "t", 0, 0);
    }

    #[test]
    fn spec_parser_never_panics(text in "(?s).{0,400}") {
        if let Ok(spec) = Spec::from_toml(&text, "s.toml") {
            let _ = spec.resolve();
        }
    }

    #[test]
    fn spec_resolution_never_panics_on_odd_numbers(
        pcs in 0usize..200, nics in 0u32..80, ports in 0u32..70, count in prop::option::of(0u32..40),
        uplink in 0usize..3, spares in 0usize..40, dims in prop::collection::vec(0usize..20, 0..5),
        keep in 0usize..300, cross in 0usize..300, fudge in 0usize..300, weight in -2.0f64..3.0,
    ) {
        let mode = ["none", "separate", "folded"][uplink];
        let count = count.map(|c| format!("count = {c}\n")).unwrap_or_default();
        let text = format!(
            "[pcs]\ncount = {pcs}\nnics = {nics}\nhot_spares = {spares}\n[[switches]]\nports = {ports}\n{count}\
             [uplink]\nmode = \"{mode}\"\n[[patterns]]\nkind = \"grid\"\ndims = {dims:?}\nweight = {weight}\n\
             [ga]\nkeep = {keep}\ncross = {cross}\nfudge = {fudge}\n"
        );
        let spec = Spec::from_toml(&text, "s.toml").unwrap();
        if let Ok(c) = spec.resolve() {
            let _ = fnn_tui::spec::check_feasible(&c);
        }
    }
}

/// Every float field of a spec, as (table header, key).
const FLOAT_FIELDS: [(&str, &str); 18] = [
    ("[nic]", "price"),
    ("[nic]", "speed_mbps"),
    ("[[switches]]\nmodel = \"s\"\nports = 8\ncount = 6", "price"),
    ("[[switches]]\nmodel = \"s\"\nports = 8\ncount = 6", "power_w"),
    ("[uplink]", "speed_mbps"),
    ("[cables]", "price"),
    ("[cables]", "length_m"),
    ("[racks]", "width_m"),
    ("[weights]", "uncovered"),
    ("[weights]", "bandwidth"),
    ("[weights]", "weakest"),
    ("[weights]", "balance"),
    ("[weights]", "cost"),
    ("[weights]", "redundancy"),
    ("[weights]", "rack_crossings"),
    ("[ga]", "focus"),
    ("[ga]", "time_limit_s"),
    ("[[patterns]]\nkind = \"ring\"\nk = 1", "weight"),
];

/// A float as TOML writes it, specials included.
fn toml_float(v: f64) -> String {
    match v {
        v if v.is_nan() => "nan".into(),
        v if v == f64::INFINITY => "inf".into(),
        v if v == f64::NEG_INFINITY => "-inf".into(),
        v => format!("{v:e}"),
    }
}

fn any_float() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(1e308),
        Just(-0.0),
        Just(f64::MIN_POSITIVE),
        any::<f64>(),
        -10.0f64..1e10,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any float, finite or not, in any float field of a spec is refused
    /// naming the field, or it is finite, not negative and at most 1e9 (the
    /// README's largest range), and the evaluation of a design stays
    /// finite: a price of 1e308 once made the cost infinite and the fitness
    /// NaN.
    #[test]
    fn any_float_in_any_field_is_refused_or_in_range(field in 0..FLOAT_FIELDS.len(), v in any_float()) {
        let (table, key) = FLOAT_FIELDS[field];
        let switches = if table.starts_with("[[switches]]") {
            String::new()
        } else {
            "[[switches]]\nmodel = \"s\"\nports = 8\ncount = 6\n".into()
        };
        let text = format!(
            "[pcs]\ncount = 8\nnics = 3\n{switches}{table}\n{key} = {}\n",
            toml_float(v)
        );
        match Spec::from_toml(&text, "f.toml").and_then(|s| s.resolve()) {
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(msg.contains("f.toml") && msg.contains(key), "{text}\n{msg}");
            }
            Ok(c) => {
                prop_assert!(v.is_finite() && (0.0..=1e9).contains(&v), "{key} = {v} accepted");
                let problem = Problem::new(c);
                let g = Genome::straightforward(&problem);
                let e = Eval::full(&problem, &g);
                prop_assert!(e.total.is_finite(), "{key} = {v}: fitness {}", e.total);
            }
        }
    }
}
