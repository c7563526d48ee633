//! The command line: clap definitions and the headless
//! commands. Exit codes and signals: one table and one policy for all
//! (`exit.rs`). Output: one door, where a reader gone is no error
//! (`out.rs`).
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod cheapest;
mod check;
mod compare;
mod design;
mod docs;
mod emulate;
mod exact;
mod exit;
mod export;
mod inputs;
mod man;
mod out;
mod sweep;
mod sweep_atlas;
mod sweep_slurm;
mod verify;

use clap::builder::TypedValueParser as _;
use clap::{Args, Parser, Subcommand};
use fnn_tui::spec::Preset;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "fnn-tui",
    version,
    about = "Design Flat Neighborhood Networks for clusters (KLAT2-style)"
)]
pub struct Cli {
    /// Spec to open in the designer (TOML); the built-in KLAT2 spec when omitted.
    #[arg(long)]
    pub spec: Option<PathBuf>,
    /// Resume a saved session: a file, or a name from the data folder or ./saves.
    #[arg(long, value_name = "NAME|PATH", conflicts_with = "spec")]
    pub resume: Option<String>,
    /// Start the designer at the watch pace (v toggles it): generations slowed so
    /// the scaled-down and full phases of the papers' GA can be followed.
    #[arg(long)]
    pub watch: bool,
    /// Append a diagnostic log (runs, stops, edits, saves, exports, errors) to FILE.
    #[arg(long, value_name = "FILE", global = true)]
    pub log: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Search for a design; write DIR/switches.txt and DIR/report.json.
    Design(DesignArgs),
    /// Validate a switch table (hand-written or edited) and print its report.
    Check(CheckArgs),
    /// Write the translators' outputs: labels, routing, advanced routing, DOT/CSV/JSON, rewire plan.
    Export(ExportArgs),
    /// Design the FNN and the networks it replaces for the same PCs and prices, side by side.
    Compare(CompareArgs),
    /// The narrowest switches a universal FNN needs, for a range of PCs and NICs per PC (CSV and SVG); resumable.
    Sweep(SweepArgs),
    /// The least-cost switch models, counts and NICs per PC that give a valid FNN for the spec.
    Cheapest(CheapestArgs),
    /// Rehearse the design on Linux network namespaces (root): a namespace per PC, a bridge per switch, the setup scripts run unmodified, every required pair pinged.
    Emulate(EmulateArgs),
    /// After cabling: read every PC's probe results (routing/probe/fnn-probe-PC.sh output) and name the miswired cables.
    Verify(VerifyArgs),
    /// Print the shell completion script for SHELL (e.g. `fnn-tui completions bash > /etc/bash_completion.d/fnn-tui`).
    Completions(CompletionsArgs),
    /// Print the man page (roff), or write a page per command into DIR.
    Man(ManArgs),
}

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// bash, elvish, fish, powershell or zsh.
    pub shell: clap_complete::Shell,
}

#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write fnn-tui.1 and fnn-tui-COMMAND.1 into DIR instead of printing fnn-tui.1.
    #[arg(long, short, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// The command line as parsed, `--help` and the man page: the exit-status
/// table under every command's help.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    Cli::command()
        .after_help(exit::TABLE)
        .mut_subcommands(|c| c.after_help(exit::TABLE))
}

/// The parsed command line (clap's own errors exit 2, as bad input).
pub fn parse() -> Cli {
    use clap::FromArgMatches;
    let matches = command().get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub source: DesignSource,
    /// The folder holding every PC's probe output, saved as fnn-probe-PC.txt.
    #[arg(long, value_name = "DIR", required_unless_present = "lldp")]
    pub results: Option<PathBuf>,
    /// The folder holding every PC's `lldpcli -f json show neighbors`, saved as fnn-lldp-PC.json: says where each cable really landed.
    #[arg(long, value_name = "DIR")]
    pub lldp: Option<PathBuf>,
    /// The MAC discovery file (or folder of `ip -j link` outputs) given to export: the NICs' names in the LLDP outputs.
    #[arg(long, value_name = "PATH")]
    pub macs: Option<PathBuf>,
    /// PCI slots in the order the kernel probes them, as given to export (default 1,2,3,...).
    #[arg(long)]
    pub probe_order: Option<String>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Which transports `emulate --traffic` measures.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// One TCP connection a flow, on the basic route.
    Tcp,
    /// One MPTCP connection a flow, a subflow over every shared switch.
    Mptcp,
    /// Sixteen plain TCP connections a flow to the peer's multipath address, spread over every shared switch by hash.
    Multipath,
    /// TCP, then MPTCP.
    Both,
    /// TCP, MPTCP, then multipath TCP.
    All,
}

/// How `emulate` boots each PC.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BootWith {
    /// The exported routing/scripts/fnn-setup-PC.sh.
    Script,
    /// The exported routing/networkd/PC/ files, with systemd-networkd.
    Networkd,
}

#[derive(Args, Debug)]
pub struct EmulateArgs {
    #[command(flatten)]
    pub source: DesignSource,
    /// PCI slots in the order the kernel probes them, e.g. 1,2,4,3 (default 1,2,3,...).
    #[arg(long)]
    pub probe_order: Option<String>,
    /// How each PC boots: its fnn-setup script, or its systemd-networkd files (.link names, .network addresses and neighbours) run by the real systemd-networkd.
    #[arg(long, value_enum, default_value_t = BootWith::Script)]
    pub boot: BootWith,
    /// Name every PC's NICs as a machine with predictable naming does, in slot order (e.g. enp1s0f0,enp1s0f1,enp2s0f0), instead of ethN.
    #[arg(long, value_name = "NAMES")]
    pub nic_names: Option<String>,
    /// Write the MACs discovered on the emulated NICs to FILE, in the discovery-file format `export --macs` reads.
    #[arg(long, value_name = "FILE")]
    pub macs: Option<PathBuf>,
    /// Build the wiring with a fault, to rehearse `verify`: swap:PC:NIC:NIC, move:PC:NIC:SWITCH, pull:PC:NIC or order:PC:SLOTS (repeatable; NICs from 0).
    #[arg(long, value_name = "FAULT")]
    pub miswire: Vec<String>,
    /// After the pings, rate-limit every cable (--link-rate) and measure a traffic pattern's throughput against the model's prediction: pair:PC:PC, permutation:SEED, spec or all.
    #[arg(long, value_name = "PATTERN")]
    pub traffic: Option<String>,
    /// Every cable's rate each way for --traffic, as tc writes it (e.g. 20mbit), from 1kbit to 100gbit: low enough that the links, not the CPU, are what is measured.
    #[arg(long, value_name = "RATE", default_value = "20mbit", requires = "traffic")]
    pub link_rate: String,
    /// Which transports --traffic measures: plain TCP (one switch a pair, the basic route), MPTCP (a subflow over every shared switch), multipath (plain TCP, sixteen connections a flow to the multipath address), both (TCP then MPTCP) or all three in turn.
    #[arg(long, value_enum, default_value_t = Transport::Both, requires = "traffic")]
    pub transport: Transport,
    /// Also run --traffic on the tree a builder would buy instead (the KLAT2 paper's: two leaf switches of half the PCs under one root, one NIC a PC), at the same link rate.
    #[arg(long, requires = "traffic")]
    pub against_tree: bool,
    /// Also run --traffic on the fat-tree `compare` designs (edge switches under core switches, a VLAN per core so the bridges have no loop, bundles as bonds), at the same link rate.
    #[arg(long, requires = "traffic")]
    pub against_fat_tree: bool,
    /// Also draw --traffic's flows, measured against predicted, as an SVG into FILE.
    #[arg(long, value_name = "FILE", requires = "traffic")]
    pub plot: Option<std::path::PathBuf>,
    /// The TCP congestion control every socket of --traffic uses (the kernel's name: cubic, bbr, reno...), any the kernel has. Cubic is Linux's own default; BBR overestimates MPTCP subflows' bandwidth and loses a tenth of it to retransmissions.
    #[arg(long, value_name = "NAME", default_value = "cubic", requires = "traffic")]
    pub congestion: String,
    /// Seconds each --traffic run is measured for (after one to settle).
    #[arg(long, value_name = "S", default_value_t = 5.0, requires = "traffic")]
    pub traffic_seconds: f64,
    /// Run lldpd in every PC, announce every switch port over LLDP (its switch's name and port number) and write each PC's `lldpcli -f json show neighbors` to DIR as fnn-lldp-PC.json (for `fnn-tui verify --lldp DIR`).
    #[arg(long, value_name = "DIR")]
    pub lldp: Option<PathBuf>,
    /// After the pings, unplug the uplink, run every PC's probe script and write the results to DIR (for `fnn-tui verify --results DIR`).
    #[arg(long, value_name = "DIR")]
    pub probe_results: Option<PathBuf>,
    /// Leave the namespaces and bridges for inspection (and print how to remove them).
    #[arg(long)]
    pub keep: bool,
    /// Remove what earlier runs left (killed ones, and those kept with --keep), then exit; nothing is built.
    #[arg(long, conflicts_with_all = ["keep", "miswire", "probe_results", "macs", "json"])]
    pub clean: bool,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct CheapestArgs {
    /// Spec file (TOML) giving the PCs, pattern and uplink; the built-in KLAT2 spec when omitted. Its NICs per PC is the most allowed.
    pub spec: Option<PathBuf>,
    #[command(flatten)]
    pub quick: QuickArgs,
    /// Price list (TOML: [[switches]] models, optional [nic] and cable_price); the built-in Fast Ethernet list when omitted.
    #[arg(long)]
    pub prices: Option<PathBuf>,
    /// Output directory: spec.toml (the chosen hardware), switches.txt, report.json, candidates.csv.
    #[arg(long, short)]
    pub out: PathBuf,
    /// GA generations per candidate.
    #[arg(long, default_value_t = 400)]
    pub generations: u64,
    /// Seconds per candidate (0 for no limit).
    #[arg(long, default_value_t = 5.0)]
    pub time_limit: f64,
    /// GA attempts per model and NIC count below what a construction needs.
    #[arg(long, default_value_t = 2)]
    pub attempts: u32,
    /// Consider at least this many NICs per PC (the spec's count is the most).
    #[arg(long, default_value_t = 1)]
    pub min_nics: u32,
    /// Seconds of exact (SAT) search on each candidate the GA cannot
    /// realise, and to prove every cheaper candidate impossible (0: off).
    #[arg(long, default_value_t = 0.0, value_name = "SECS")]
    pub exact_budget: f64,
    /// No summary, only errors.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print the answer, its cost and every candidate tried as JSON on stdout (no progress or summary).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct SweepArgs {
    /// PCs: A..B, A..B:STEP (every STEP-th) or a comma list.
    #[arg(long, default_value = "3..1024")]
    pub pcs: String,
    /// NICs per PC, same forms.
    #[arg(long, default_value = "2..6")]
    pub nics: String,
    /// Output directory for sweep.csv and sweep.svg; an existing sweep.csv is resumed.
    #[arg(long, short)]
    pub out: PathBuf,
    /// GA generations per width tried below the constructions' (0: constructions only).
    #[arg(long, default_value_t = 300)]
    pub generations: u64,
    /// Try the GA only up to this many PCs (constructions decide above).
    #[arg(long, default_value_t = 64)]
    pub ga_pcs: usize,
    /// Random seed of the GA attempts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds of exact (SAT) search per narrower width on each size still
    /// over the bound, up to --ga-pcs PCs: marks it optimal, improved or open (0: off).
    #[arg(long, default_value_t = 0.0, value_name = "SECS")]
    pub exact_budget: f64,
    /// Moves of the annealing search per narrower width on each size the
    /// constructions and the GA leave over the bound, at any number of PCs;
    /// deterministic by --seed (0: off).
    #[arg(long, default_value_t = 0, value_name = "MOVES")]
    pub anneal: u64,
    /// Worker threads (0 for all cores).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Compute only shard I of N (1-based), a fixed, balanced share of the
    /// sizes, into DIR/shard-I-of-N.csv; `--merge` combines the shards.
    #[arg(long, value_name = "I/N", conflicts_with_all = ["merge", "slurm"])]
    pub shard: Option<String>,
    /// Merge these shard files (any order, again and again) into DIR/sweep.csv;
    /// refuses a shard of another range, version or settings.
    #[arg(long, value_name = "SHARD", num_args = 1.., conflicts_with = "slurm")]
    pub merge: Vec<PathBuf>,
    /// Write DIR/sweep-slurm.sh, which submits N shards as a Slurm job array
    /// and their merge (`bash DIR/sweep-slurm.sh`), or runs them one after
    /// another without Slurm (`bash DIR/sweep-slurm.sh local`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10000))]
    pub slurm: Option<u32>,
    /// Fold the sweep's sizes into the atlas FILE (the shipped one is
    /// data/atlas.csv): each size keeps the narrower, then the more settled
    /// row; writes FILE's graphs beside it, one SVG per NIC count.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["shard", "slurm"])]
    pub atlas: Option<PathBuf>,
    /// No progress bar or summary.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print every size (the rows of sweep.csv) as JSON on stdout (no progress or summary).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Spec file (TOML); the built-in KLAT2 spec when omitted and no quick flags are given.
    pub spec: Option<PathBuf>,
    #[command(flatten)]
    pub quick: QuickArgs,
    /// text, csv or json.
    #[arg(long, default_value = "text", value_parser = ["text", "csv", "json"])]
    pub format: String,
    /// The same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Also write the table and each system's artifacts (wiring, bill of
    /// materials, IP plans, forwarding tables) into this directory.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// How long and how a search runs (design, compare).
#[derive(Args, Debug, Clone, Default)]
pub struct SearchArgs {
    /// Random seed: the same seed gives the same search.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Generation limit.
    #[arg(long)]
    pub generations: Option<u64>,
    /// Seconds (0 for no limit).
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Worker threads (0 for all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The GA on its own: no design-theory construction seeds it (`ga.constructions = false`).
    #[arg(long)]
    pub no_constructions: bool,
    /// Tabu-search moves per improved member each generation (0: the papers' GA alone).
    #[arg(long, value_name = "MOVES")]
    pub local_search: Option<u64>,
    /// Which searches to combine (`ga.portfolio`): papers (the GA alone), quick (the GA on a
    /// construction), default (with the cyclic, tabu and grouped searches), exact-first, exact.
    #[arg(long, value_name = "NAME", value_parser = preset_parser())]
    pub portfolio: Option<Preset>,
}

/// `--portfolio`'s names, completed by the shell and listed in `--help`.
fn preset_parser() -> impl clap::builder::TypedValueParser<Value = Preset> {
    clap::builder::PossibleValuesParser::new(Preset::ALL.map(Preset::name)).map(|name| {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .expect("a listed name")
    })
}

/// Where a design comes from: a session, or a table under a spec or the
/// quick flags (`export`, `emulate`).
#[derive(Args, Debug)]
pub struct DesignSource {
    /// Spec file (TOML) the table belongs to; without it the quick flags, else the hardware the table implies.
    pub spec: Option<PathBuf>,
    /// The design as a switch table.
    #[arg(long, conflicts_with = "session")]
    pub table: Option<PathBuf>,
    /// Or a saved session (its best design): a file or a name.
    #[arg(long, value_name = "NAME|PATH")]
    pub session: Option<String>,
    #[command(flatten)]
    pub quick: QuickArgs,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    #[command(flatten)]
    pub source: DesignSource,
    /// Output directory.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Only these artifacts (comma separated); csv is the cut list, cables.csv.
    #[arg(long, value_delimiter = ',', value_parser = clap::builder::PossibleValuesParser::new(fnn_tui::export::ARTIFACTS))]
    pub only: Vec<String>,
    /// Discovered MAC addresses, lines "PC IFACE MAC" (e.g. "k05 eth2 00:11:22:33:44:55").
    #[arg(long)]
    pub macs: Option<PathBuf>,
    /// PCI slots in the order the kernel probes them, e.g. 1,2,4,3 (default 1,2,3,...).
    #[arg(long)]
    pub probe_order: Option<String>,
    /// A previous switch table of the same cluster: also write the rewire plan from it.
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// Write into a folder that holds other files or another design's export, replacing what fnn-tui wrote there.
    #[arg(long)]
    pub force: bool,
    /// Write labels and boot scripts for a design that is not valid (each file then says so first).
    #[arg(long)]
    pub allow_invalid: bool,
    /// Print the folder, the files written and whether the design is valid as JSON on stdout (no progress or summary).
    #[arg(long)]
    pub json: bool,
    /// The most the export may write (e.g. 500M, 20G; default 2G): it is estimated first, and a larger one refused.
    #[arg(long, value_name = "SIZE", value_parser = parse_max_size)]
    pub max_size: Option<u64>,
}

/// A `--max-size` that does not read.
#[derive(Debug, thiserror::Error)]
#[error("use a size such as 500M or 20G")]
pub struct NotASize;

/// `--max-size`: `123`, `512K`, `4M`, `2G`.
fn parse_max_size(text: &str) -> Result<u64, NotASize> {
    fnn_tui::budget::parse_size(text).ok_or(NotASize)
}

/// Hardware and search flags shared by `design` and `check`.
#[derive(Args, Debug, Clone, Default)]
pub struct QuickArgs {
    /// Number of PCs (replaces the spec's hardware with the quick flags).
    #[arg(long)]
    pub pcs: Option<usize>,
    /// NICs per PC.
    #[arg(long)]
    pub nics: Option<u32>,
    /// Switches as PORTSxCOUNT groups of ports usable by PCs, e.g. 31x8,8.
    #[arg(long)]
    pub switches: Option<String>,
    /// Required pairs, one "a b [weight]" per line.
    #[arg(long)]
    pub pairs: Option<PathBuf>,
    /// Only the pattern pairs must share a switch (a sparse FNN).
    #[arg(long)]
    pub sparse: bool,
}

#[derive(Args, Debug)]
pub struct DesignArgs {
    /// Spec file (TOML); the built-in KLAT2 spec when omitted and no quick flags are given.
    pub spec: Option<PathBuf>,
    /// Output directory.
    #[arg(long, short)]
    pub out: PathBuf,
    #[command(flatten)]
    pub quick: QuickArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Exact mode (`ga.exact`): a SAT solver finds a design or proves none exists;
    /// exit 0 found, 2 proved impossible, 1 unknown when --time-limit runs out.
    #[arg(long)]
    pub exact: bool,
    /// With --exact: write the solver's DRAT proof of impossibility to FILE and the CNF it refutes to FILE.cnf.
    #[arg(long, value_name = "FILE")]
    pub proof: Option<PathBuf>,
    /// No progress bar or summary, only errors.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print the report (report.json; with --exact, the verdict too) as JSON on stdout (no progress or summary).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Spec file (TOML). Without a spec or quick flags the hardware is taken from the table itself.
    pub spec: Option<PathBuf>,
    /// The switch table to check (`S: p p p` lines).
    #[arg(long)]
    pub table: PathBuf,
    #[command(flatten)]
    pub quick: QuickArgs,
    /// Print report.json instead of the summary.
    #[arg(long)]
    pub json: bool,
}

/// Sends `tracing` events to `path` (appended, no colours), if given.
fn start_log(path: Option<&std::path::Path>) -> anyhow::Result<()> {
    let Some(path) = path else { return Ok(()) };
    // The log may sit in a folder other users write: opened through the
    // one writing module, never through a link, never another's file.
    let file = fnn_tui::fs::append::open_append(path, "the log").map_err(|e| {
        anyhow::anyhow!(
            "--log {}: {}",
            fnn_tui::input::shown(path),
            fnn_tui::input::os_reason(&e)
        )
    })?;
    tracing_subscriber::fmt()
        .with_writer(std::sync::Mutex::new(fnn_tui::escape::LogLines(file)))
        .with_ansi(false)
        .with_target(false)
        .try_init()
        .map_err(|e| anyhow::anyhow!("--log: {e}"))?;
    tracing::info!(version = env!("CARGO_PKG_VERSION"), "fnn-tui started");
    Ok(())
}

/// Stdout's width when it is a terminal (tables wrap to it); `None` for a
/// file or pipe, which get whole lines.
pub fn terminal_width() -> Option<u16> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return None;
    }
    let size = rustix::termios::tcgetwinsize(std::io::stdout()).ok()?;
    (size.ws_col > 0).then_some(size.ws_col)
}

/// When the command started: time limits count from here, so reading a
/// large spec is inside them.
pub fn started() -> std::time::Instant {
    static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    *STARTED.get_or_init(std::time::Instant::now)
}

pub fn run(cli: Cli) -> ExitCode {
    started();
    exit::watch_signals();
    if let Err(e) = start_log(cli.log.as_deref()) {
        out::errln!("error: {}", fnn_tui::escape::terminal(&e.to_string()));
        return exit::unless_interrupted(ExitCode::from(2));
    }
    let result = match cli.command {
        Some(Command::Design(args)) => design::run(&args),
        Some(Command::Check(args)) => check::run(&args),
        Some(Command::Export(args)) => export::run(&args),
        Some(Command::Compare(args)) => compare::run(&args),
        Some(Command::Sweep(args)) => sweep::run(&args),
        Some(Command::Cheapest(args)) => cheapest::run(&args),
        Some(Command::Emulate(args)) => emulate::run(&args),
        Some(Command::Verify(args)) => verify::run(&args),
        Some(Command::Completions(args)) => docs::completions(&args),
        Some(Command::Man(args)) => docs::man(&args),
        #[cfg(feature = "tui")]
        None => fnn_tui::tui::prepare(cli.spec.as_deref(), cli.resume.as_deref())
            .map(|start| fnn_tui::tui::Start {
                watch: cli.watch,
                ..start
            })
            .and_then(fnn_tui::tui::run),
        #[cfg(not(feature = "tui"))]
        None => Err(anyhow::anyhow!(
            "this fnn-tui was built without the designer (cargo feature `tui`): give a command, or see --help"
        )),
    };
    // A signal's status wins, even over an error it caused.
    exit::unless_interrupted(match result {
        Ok(code) => code,
        Err(e) => {
            // `{:#}`: the context and every cause under it ("cannot write
            // DIR: ..."), not the context alone.
            tracing::error!("{e:#}");
            // Errors quote inputs: never let them drive the terminal.
            out::errln!("error: {}", fnn_tui::escape::terminal(&format!("{e:#}")));
            ExitCode::from(2)
        }
    })
}
