//! `fnn-tui cheapest`: the least-cost switches and NICs for a spec, by
//! search over a price list with the GA inside (`hardware::cheapest`).

use super::CheapestArgs;
use super::inputs;
use anyhow::Context;
use fnn_tui::atomic::write_atomic;
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
    let mut candidates = String::from("nics,model,count,cost_bound,outcome\n");
    for t in &best.tried {
        candidates.push_str(&format!(
            "{},{},{},{:.2},{}\n",
            t.nics,
            t.model.replace(',', ";"),
            t.count,
            t.cost_bound,
            t.outcome.replace(',', ";")
        ));
    }
    let files = [
        ("spec.toml", best.spec.to_toml()),
        ("switches.txt", format_table(&best.design)),
        ("report.json", report.to_json()),
        ("candidates.csv", candidates),
    ];
    for (name, text) in &files {
        let path = args.out.join(name);
        write_atomic(&path, text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
    }
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
    if let Ok(own) = spec.resolve() {
        out.push_str(&format!(
            "  the spec's own hardware lists {:.2}\n",
            own.inventory_cost()
        ));
    }
    out
}
