//! `fnn-tui emulate`: the design rehearsed on Linux network namespaces.

use super::EmulateArgs;
use super::out;
use anyhow::anyhow;
use fnn_tui::emulate::{Fault, Options, RUN_DIR, Sweep, emulate, sweep};
use fnn_tui::routing::Interfaces;
use indicatif::{ProgressBar, ProgressStyle};
use std::process::ExitCode;

/// The `--probe-order` given, or slot order.
pub fn interfaces(probe_order: Option<&str>, cluster: &fnn_tui::spec::Cluster) -> anyhow::Result<Interfaces> {
    Ok(match probe_order {
        Some(p) => Interfaces::parse(p).map_err(|e| anyhow!("--probe-order: {e}"))?,
        None => Interfaces {
            probe_order: (1..=cluster.max_nics().max(1) as usize).collect(),
        },
    })
}

/// What the run will do, so that root and every program it (or the
/// scripts it runs) will start are checked before anything else.
fn uses(args: &EmulateArgs) -> fnn_tui::emulate::Uses {
    fnn_tui::emulate::Uses {
        boot: match args.boot {
            super::BootWith::Networkd => fnn_tui::emulate::Boot::Networkd,
            super::BootWith::Script => fnn_tui::emulate::Boot::Script,
        },
        traffic: args.traffic.is_some(),
        probes: args.probe_results.is_some(),
        lldp: args.lldp.is_some(),
        clean: args.clean,
    }
}

pub fn run(args: &EmulateArgs) -> anyhow::Result<ExitCode> {
    fnn_tui::emulate::ready(&uses(args))?;
    if args.clean {
        return clean();
    }
    let (cluster, design, _) = super::export::design_source(&args.source)?;
    let ifaces = interfaces(args.probe_order.as_deref(), &cluster)?;
    let faults = args
        .miswire
        .iter()
        .map(|f| Fault::parse(f, &cluster, &design).map_err(|e| anyhow!("--miswire {e}")))
        .collect::<anyhow::Result<Vec<_>>>()?;
    // Ctrl-C, SIGTERM and SIGHUP stop the run between steps; the testbed
    // is then dropped, which removes everything it created.
    let cancel = super::exit::interrupt_flag();
    let bar = progress_bar();
    let progress = |what: &str, done: usize, of: usize| {
        bar.set_message(what.to_string());
        bar.set_length(of as u64);
        bar.set_position(done as u64);
    };
    let mut o = Options::new(ifaces);
    o.boot = uses(args).boot;
    o.nic_names = nic_names(args, &cluster)?;
    o.keep = args.keep;
    o.faults = faults;
    o.probe_results = args.probe_results.clone();
    o.traffic = args
        .traffic
        .as_deref()
        .map(|pattern| traffic_options(args, pattern, &cluster, &design))
        .transpose()?;
    o.lldp_out = args.lldp.clone();
    o.macs_out = args.macs.clone();
    o.cancel = Some(&cancel);
    o.progress = Some(&progress);
    let result = emulate(&cluster, &design, &o);
    bar.finish_and_clear();
    let (summary, testbed) = result?;
    if let (Some(path), Some(t)) = (&args.plot, &summary.traffic) {
        write_plot(path, t, &summary, design.pcs())?;
    }
    if args.json {
        out::outln!("{}", serde_json::to_string_pretty(&summary)?)?;
    } else {
        out::out!("{}", summary.text())?;
    }
    if let Some(dir) = &args.probe_results {
        out::errln!(
            "probe results in {0}; read them with: {1} --results {0}",
            dir.display(),
            verify_command(args)
        );
    }
    if args.keep {
        out::errln!("kept for inspection; remove with `fnn-tui emulate --clean`, or by hand:");
        for c in testbed.removal_commands() {
            out::errln!("  {c}");
        }
    }
    drop(testbed);
    Ok(exit_code(&summary))
}

/// `--clean`: removes what earlier runs left, kept testbeds included.
fn clean() -> anyhow::Result<ExitCode> {
    let removed = sweep(Sweep::DeadAndKept)?;
    if removed.is_empty() {
        out::outln!("nothing to remove: no earlier emulate run left anything in {RUN_DIR}")?;
    } else {
        out::outln!("{}", removed.text())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn progress_bar() -> ProgressBar {
    ProgressBar::new(0).with_style(
        ProgressStyle::with_template("{msg:>10} [{bar:40}] {pos}/{len}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    )
}

/// `--nic-names`, one name for each NIC the PCs may have.
fn nic_names(args: &EmulateArgs, cluster: &fnn_tui::spec::Cluster) -> anyhow::Result<Option<Vec<String>>> {
    let Some(list) = &args.nic_names else {
        return Ok(None);
    };
    let names = fnn_tui::routing::macs::name_list(list).map_err(|e| anyhow!("--nic-names: {e}"))?;
    if names.len() < cluster.max_nics() as usize {
        return Err(anyhow!(
            "--nic-names: {} names for PCs with up to {} NICs",
            names.len(),
            cluster.max_nics()
        ));
    }
    Ok(Some(names))
}

/// `--traffic PATTERN` and the options that go with it, checked against
/// the design now rather than after the testbed is built and pinged.
fn traffic_options(
    args: &EmulateArgs,
    pattern: &str,
    cluster: &fnn_tui::spec::Cluster,
    design: &fnn_tui::design::Design,
) -> anyhow::Result<fnn_tui::emulate::traffic::TrafficOptions> {
    use fnn_tui::emulate::traffic::{Pattern, TrafficOptions, parse_rate};
    let pattern = Pattern::parse(pattern, cluster, design.pcs()).map_err(|e| anyhow!("--traffic: {e}"))?;
    let rate = parse_rate(&args.link_rate).map_err(|e| anyhow!("--link-rate: {e}"))?;
    if !(args.traffic_seconds.is_finite() && (0.5..=600.0).contains(&args.traffic_seconds)) {
        return Err(anyhow!(
            "--traffic-seconds: {} is not from 0.5 to 600",
            args.traffic_seconds
        ));
    }
    let congestion =
        fnn_tui::emulate::traffic::parse_congestion(&args.congestion).map_err(|e| anyhow!("--congestion: {e}"))?;
    let against_fat_tree = match args.against_fat_tree {
        false => None,
        true => Some(
            fnn_tui::emulate::fattree::Shape::of(cluster)
                .map_err(|e| anyhow!("--against-fat-tree: compare designs no fat-tree here: {e}"))?,
        ),
    };
    let traffic = TrafficOptions {
        pattern,
        rate,
        transports: transports(args.transport),
        seconds: args.traffic_seconds,
        congestion,
        against_tree: args.against_tree,
        against_fat_tree,
    };
    traffic.check(cluster, design).map_err(|e| anyhow!(e))?;
    Ok(traffic)
}

/// The transports `--transport` measures, in order.
fn transports(t: super::Transport) -> Vec<fnn_tui::bandwidth::Transport> {
    use fnn_tui::bandwidth::Transport as T;
    match t {
        super::Transport::Tcp => vec![T::Tcp],
        super::Transport::Mptcp => vec![T::Mptcp],
        super::Transport::Multipath => vec![T::TcpMultipath],
        super::Transport::Both => vec![T::Tcp, T::Mptcp],
        super::Transport::All => vec![T::Tcp, T::Mptcp, T::TcpMultipath],
    }
}

/// `--plot`: the measured traffic against the prediction, as SVG.
fn write_plot(
    path: &std::path::Path,
    traffic: &fnn_tui::emulate::traffic::TrafficReport,
    summary: &fnn_tui::emulate::Summary,
    pcs: usize,
) -> anyhow::Result<()> {
    let title = format!("{pcs} PCs, {}: measured against predicted", traffic.pattern);
    let others: Vec<_> = summary.traffic_tree.iter().chain(&summary.traffic_fat_tree).collect();
    fnn_tui::atomic::write_atomic(path, fnn_tui::emulate::plot::svg(traffic, &others, &title).as_bytes())
        .map_err(|e| anyhow!("--plot {}: {e}", path.display()))
}

/// The `fnn-tui verify` command that reads this run's probe results.
fn verify_command(args: &EmulateArgs) -> String {
    let src = &args.source;
    let mut how = String::from("fnn-tui verify");
    if let Some(spec) = &src.spec {
        how.push_str(&format!(" {}", spec.display()));
    }
    if let Some(t) = &src.table {
        how.push_str(&format!(" --table {}", t.display()));
    }
    if let Some(s) = &src.session {
        how.push_str(&format!(" --session {s}"));
    }
    if let Some(p) = &args.probe_order {
        how.push_str(&format!(" --probe-order {p}"));
    }
    how
}

/// A run whose capture lost frames but found no fault proves neither.
fn exit_code(summary: &fnn_tui::emulate::Summary) -> ExitCode {
    if summary.ok() {
        ExitCode::SUCCESS
    } else if summary.inconclusive() {
        ExitCode::from(3)
    } else {
        ExitCode::from(1)
    }
}
