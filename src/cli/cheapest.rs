//! `fnn-tui cheapest`: the least-cost switches and NICs for a spec, by
//! search over a price list with the GA inside (`hardware::cheapest`).

use super::CheapestArgs;
use super::inputs;
use super::out;
use anyhow::Context;
use fnn_tui::design::format_table;
use fnn_tui::hardware::{self, Budget, PriceList};
use fnn_tui::report::{Report, RunInfo};
use std::process::ExitCode;
use std::time::Instant;

pub fn run(args: &CheapestArgs) -> anyhow::Result<ExitCode> {
    let flags = inputs::quick_flags(&args.quick, &Default::default());
    let spec = inputs::spec(args.spec.as_deref(), &flags)?;
    // The spec must make sense before its hardware is replaced.
    spec.resolve()?;
    let prices = prices(args)?;
    let budget = Budget {
        generations: args.generations,
        time_limit_s: args.time_limit,
        attempts: args.attempts,
        min_nics: args.min_nics,
        exact_s: args.exact_budget,
    };
    let start = Instant::now();
    let interrupted = super::exit::interrupt_flag();
    let best = hardware::cheapest(&spec, &prices, budget, &interrupted).map_err(|e| {
        if interrupted.load(std::sync::atomic::Ordering::Relaxed) {
            anyhow::anyhow!("interrupted before any candidate hardware gave a valid design: nothing written")
        } else {
            e.into()
        }
    })?;
    fnn_tui::fs::make_dirs(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let report = Report::new(
        &best.cluster,
        best.metrics.clone(),
        RunInfo {
            elapsed_s: start.elapsed().as_secs_f64(),
            ..RunInfo::default()
        },
    );
    let candidates = candidates_csv(&best);
    let files = [
        ("spec.toml".to_string(), best.spec.to_toml()),
        ("switches.txt".to_string(), format_table(&best.design)),
        ("report.json".to_string(), report.to_json()),
        ("candidates.csv".to_string(), candidates),
    ];
    fnn_tui::export::write_files(&args.out, "cheapest", &files)?;
    if args.json {
        out::outln!("{}", json(&spec, &best))?;
    } else if !args.quiet {
        let source = args.prices.as_deref().map_or_else(
            || "the built-in price list".to_string(),
            |p| fnn_tui::input::shown(p).to_string(),
        );
        out::out!("{}", summary(&spec, &best, report.atlas.as_deref()))?;
        if let Some(own) = &best.own {
            out::out!(
                "{}",
                own_hardware_lines(&spec, &prices, &source, own, best.metrics.cost.total)
            )?;
        }
        out::outln!(
            "wrote spec.toml, switches.txt, report.json and candidates.csv into {}",
            args.out.display()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `--prices`, or the built-in price list.
fn prices(args: &CheapestArgs) -> anyhow::Result<PriceList> {
    Ok(match &args.prices {
        Some(path) => {
            let text = fnn_tui::input::read_text_limited(path, fnn_tui::input::MAX_TOML_BYTES)?;
            PriceList::from_toml(&text, &fnn_tui::input::shown(path))?
        }
        None => PriceList::builtin(),
    })
}

/// candidates.csv: every hardware tried and how it went.
fn candidates_csv(best: &hardware::Cheapest) -> String {
    let header = ["nics", "model", "count", "cost_bound", "impossible", "outcome"].map(String::from);
    let rows = best.tried.iter().map(|t| {
        [
            t.nics.to_string(),
            t.model.clone(),
            t.count.to_string(),
            // A model no count of which can work has no bound to give.
            if t.cost_bound.is_finite() {
                format!("{:.2}", t.cost_bound)
            } else {
                String::new()
            },
            t.impossible.to_string(),
            t.outcome.clone(),
        ]
    });
    fnn_tui::escape::csv(std::iter::once(header).chain(rows))
}

/// The answer as JSON: the hardware chosen, its cost, what is known of
/// cheaper hardware and every candidate tried.
fn json(spec: &fnn_tui::spec::Spec, best: &hardware::Cheapest) -> String {
    let switches: Vec<serde_json::Value> = best
        .spec
        .switches
        .iter()
        .filter(|m| m.count.unwrap_or(0) > 0)
        .map(|m| serde_json::json!({ "model": m.model, "ports": m.ports, "count": m.count, "price": m.price }))
        .collect();
    let own = best.own.as_ref().map(|t| t.cost_bound).filter(|c| c.is_finite());
    let json = serde_json::json!({
        "name": spec.name,
        "pcs": spec.pcs.count,
        "nics_per_pc": best.spec.pcs.nics,
        "switches": switches,
        "cost": best.metrics.cost,
        "proved_cheapest": best.proved_cheapest,
        "spec_own_hardware_cost": own,
        "spec_own_hardware_cost_at_spec_prices": spec.resolve().ok().map(|c| hardware::priced(&c)),
        "candidates": best.tried,
    });
    serde_json::to_string_pretty(&json).expect("JSON values serialize")
}

/// The answer in words; `atlas`: what the atlas knows of its size.
fn summary(spec: &fnn_tui::spec::Spec, best: &hardware::Cheapest, atlas: Option<&str>) -> String {
    let c = &best.metrics.cost;
    let mut out = format!(
        "{}: cheapest hardware for {} PCs, {} candidates tried\n  NICs per PC          {}\n",
        spec.name,
        spec.pcs.count,
        best.tried.len(),
        best.spec.pcs.nics
    );
    if let Some(known) = atlas {
        out.push_str(&format!("  narrowest known      {known}\n"));
    }
    for m in &best.spec.switches {
        if m.count.unwrap_or(0) > 0 {
            out.push_str(&format!(
                "  switches             {} x {} ({} ports, {:.2} each)\n",
                m.count.unwrap_or(0),
                m.model,
                m.ports,
                m.price
            ));
        }
    }
    out.push_str(&format!(
        "  cost                 {:.2} (switches {:.2}, uplink switch {:.2}, NICs {:.2}, cables {:.2})\n",
        c.total, c.switches, c.uplink_switch, c.nics, c.cables
    ));
    out.push_str(&below(best));
    out
}

/// The spec's own hardware, priced as the answer is (the list's prices for
/// the models it has, with the list's NICs and cables), which prices those
/// are, and its cost at the spec's own prices (what `design` reports) when
/// that differs. It may be cheaper than the answer only when no valid
/// design was found on it, since it was tried first.
fn own_hardware_lines(
    spec: &fnn_tui::spec::Spec,
    prices: &PriceList,
    source: &str,
    own: &hardware::Tried,
    answer: f64,
) -> String {
    if !own.cost_bound.is_finite() {
        return format!("  spec's own hardware  not a candidate: {}\n", own.outcome);
    }
    let cost = own.cost_bound;
    let why = if cost >= answer - 1e-9 {
        String::new()
    } else {
        format!(
            " (less, but tried first: {}; a longer search (--generations, --time-limit) may find one)",
            own.outcome
        )
    };
    let mut out = format!(
        "  spec's own hardware  {cost:.2} at {source}'s prices, as every candidate{why}: {}\n",
        parts_priced(spec, prices, true)
    );
    let at_own = spec.resolve().map(|c| hardware::priced(&c)).ok();
    if let Some(at_own) = at_own.filter(|c| (c - cost).abs() > 0.005) {
        out.push_str(&format!(
            "                       {at_own:.2} at the spec's own prices, as `design` reports it: {}; \
             cheapest compares every candidate at one price list, so it uses the list's\n",
            parts_priced(spec, &PriceList::default(), false)
        ));
    }
    out
}

/// Each of the spec's switch models, its NIC and cable at the prices `prices`
/// gives, falling back to the spec's own where the list has none (tagged
/// so when `tag`).
fn parts_priced(spec: &fnn_tui::spec::Spec, prices: &PriceList, tag: bool) -> String {
    let from = |listed: bool| {
        if tag && !listed {
            " (the spec's: not on the list)"
        } else {
            ""
        }
    };
    let mut parts: Vec<String> = spec
        .switches
        .iter()
        .filter(|m| m.count != Some(0))
        .map(|m| {
            let listed = prices.switches.iter().find(|o| o.model == m.model);
            let price = listed.map_or(m.price, |o| o.price);
            format!("{} {price:.2}{}", m.model, from(listed.is_some()))
        })
        .collect();
    let nic = prices.nic.as_ref().map_or(spec.nic.price, |n| n.price);
    parts.push(format!("NIC {nic:.2}{}", from(prices.nic.is_some())));
    let cable = prices.cable_price.unwrap_or(spec.cables.price);
    parts.push(format!("cable {cable:.2}{}", from(prices.cable_price.is_some())));
    parts.join(", ")
}

/// Whether `t` is the hardware chosen (listed among those tried, never
/// among those cheaper than itself).
fn is_answer(best: &hardware::Cheapest, t: &hardware::Tried) -> bool {
    t.nics == best.spec.pcs.nics
        && best
            .spec
            .switches
            .iter()
            .any(|m| m.model == t.model && m.count == Some(t.count))
}

/// What is known about cheaper candidates: proved impossible, or only
/// searched (the exact search off or out of time).
fn below(best: &hardware::Cheapest) -> String {
    let cost = best.metrics.cost.total;
    let cheaper: Vec<&hardware::Tried> = best
        .tried
        .iter()
        .filter(|t| !is_answer(best, t))
        .filter(|t| t.count == 0 || t.cost_bound < cost - 1e-9)
        .collect();
    let name = |t: &&hardware::Tried| match t.count {
        0 => format!("{} NICs, any number of {}", t.nics, t.model),
        n => format!("{} NICs, {n} x {}", t.nics, t.model),
    };
    let proved: Vec<String> = cheaper.iter().filter(|t| t.impossible).map(name).collect();
    let searched: Vec<String> = cheaper.iter().filter(|t| !t.impossible).map(name).collect();
    let mut out = String::new();
    match best.proved_cheapest {
        Some(true) => {
            out.push_str("  cheaper hardware     none exists: every cheaper candidate was proved impossible\n")
        }
        Some(false) => {
            out.push_str("  cheaper hardware     not ruled out: some cheaper candidates were only searched\n")
        }
        None => out.push_str("  cheaper hardware     only searched (--exact-budget SECS tries to prove none exists)\n"),
    }
    if !proved.is_empty() {
        out.push_str(&format!("    proved impossible  {}\n", proved.join("; ")));
    }
    if !searched.is_empty() {
        out.push_str(&format!("    only searched      {}\n", searched.join("; ")));
    }
    out
}
