//! `fnn-tui cheapest`: the least-cost switches and NICs for a spec, by
//! search over a price list with the GA inside (`hardware::cheapest`).

use super::CheapestArgs;
use super::inputs;
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
    let prices = match &args.prices {
        Some(path) => {
            let text = fnn_tui::input::read_text_limited(path, fnn_tui::input::MAX_TOML_BYTES)?;
            PriceList::from_toml(&text, &path.display().to_string())?
        }
        None => PriceList::builtin(),
    };
    let budget = Budget {
        generations: args.generations,
        time_limit_s: args.time_limit,
        attempts: args.attempts,
        min_nics: args.min_nics,
        exact_s: args.exact_budget,
    };
    let start = Instant::now();
    let interrupted = super::design::interrupt_flag();
    let best = hardware::cheapest(&spec, &prices, budget, &interrupted)?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let report = Report::new(
        &best.cluster,
        best.metrics.clone(),
        RunInfo {
            elapsed_s: start.elapsed().as_secs_f64(),
            ..RunInfo::default()
        },
    );
    let header = ["nics", "model", "count", "cost_bound", "impossible", "outcome"].map(String::from);
    let rows = best.tried.iter().map(|t| {
        [
            t.nics.to_string(),
            t.model.clone(),
            t.count.to_string(),
            format!("{:.2}", t.cost_bound),
            t.impossible.to_string(),
            t.outcome.clone(),
        ]
    });
    let candidates = fnn_tui::escape::csv(std::iter::once(header).chain(rows));
    let files = [
        ("spec.toml".to_string(), best.spec.to_toml()),
        ("switches.txt".to_string(), format_table(&best.design)),
        ("report.json".to_string(), report.to_json()),
        ("candidates.csv".to_string(), candidates),
    ];
    fnn_tui::export::write_files(&args.out, "cheapest", &files)?;
    if !args.quiet {
        print!("{}", summary(&spec, &best));
        println!(
            "wrote spec.toml, switches.txt, report.json and candidates.csv into {}",
            args.out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn summary(spec: &fnn_tui::spec::Spec, best: &hardware::Cheapest) -> String {
    let c = &best.metrics.cost;
    let mut out = format!(
        "{}: cheapest hardware for {} PCs, {} candidates tried\n  NICs per PC          {}\n",
        spec.name,
        spec.pcs.count,
        best.tried.len(),
        best.spec.pcs.nics
    );
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
    if let Ok(own) = spec.resolve() {
        out.push_str(&format!(
            "  the spec's own hardware lists {:.2}\n",
            own.inventory_cost()
        ));
    }
    out
}

/// What is known about cheaper candidates: proved impossible, or only
/// searched (the exact search off or out of time).
fn below(best: &hardware::Cheapest) -> String {
    let cost = best.metrics.cost.total;
    let cheaper: Vec<&hardware::Tried> = best
        .tried
        .iter()
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
