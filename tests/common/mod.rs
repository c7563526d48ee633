//! Helpers shared by the integration tests (each test file includes this
//! with `mod common;`).
#![allow(dead_code)]

pub mod pty;

use fnn_tui::spec::{Cluster, QuickFlags, Spec};

/// A cluster from quick flags, as `fnn-tui design --pcs --nics --switches` builds it.
pub fn quick(pcs: usize, nics: u32, switches: &str) -> Cluster {
    quick_with(pcs, nics, switches, |_| {})
}

pub fn quick_with(pcs: usize, nics: u32, switches: &str, edit: impl FnOnce(&mut Spec)) -> Cluster {
    let flags = QuickFlags {
        pcs: Some(pcs),
        nics: Some(nics),
        switches: Some(switches.into()),
        ..Default::default()
    };
    let mut spec = flags.apply(Spec::default()).expect("quick flags apply");
    edit(&mut spec);
    spec.resolve().expect("spec resolves")
}

/// Runs an engine to its stopping rule within `generations`, no time limit,
/// through the one run controller; the engine comes back.
pub fn run(e: fnn_tui::ga::Engine, generations: u64) -> fnn_tui::ga::Engine {
    run_to_stop(e, generations).0
}

/// [`run`], with the reason it stopped.
pub fn run_to_stop(e: fnn_tui::ga::Engine, generations: u64) -> (fnn_tui::ga::Engine, fnn_tui::run::StopReason) {
    let spec = Spec::default();
    let mut r = fnn_tui::run::Run::of_engine(spec, e).with_limits(fnn_tui::run::Limits {
        generations,
        time_limit_s: 0.0,
    });
    let stop = r.run(&std::sync::atomic::AtomicBool::new(false), |_| {});
    (r.into_engine(), stop)
}

/// The papers' GA alone (the FNN compiler paper): no construction, no local search.
pub fn papers_ga(c: &mut Cluster) {
    c.ga.portfolio = fnn_tui::spec::Preset::Papers;
}

/// A price list of the KLAT2 paper's kind: $1 NICs, 4-port switches at
/// $10 ("four") and 8-port ones at $100 ("eight"), free cables.
pub const FOUR_AND_EIGHT_PORTS: &str = "cable_price = 0.0\n[nic]\nmodel = \"nic\"\nprice = 1.0\nspeed_mbps = 100\n\
     [[switches]]\nmodel = \"four\"\nports = 4\nprice = 10.0\n\
     [[switches]]\nmodel = \"eight\"\nports = 8\nprice = 100.0\n";

/// The KLAT2 paper's eight PCs with three NICs (no uplink) and `switches`
/// (TOML `[[switches]]` tables, or nothing), beside the price list
/// [`FOUR_AND_EIGHT_PORTS`], written into `dir`: the spec's path and the
/// price list's.
pub fn eight_pcs_priced(dir: &std::path::Path, switches: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let prices = dir.join("prices.toml");
    std::fs::write(&prices, FOUR_AND_EIGHT_PORTS).unwrap();
    let spec = dir.join("eight.toml");
    let head = "name = \"eight\"\n[pcs]\ncount = 8\nnics = 3\n[uplink]\nmode = \"none\"\n";
    std::fs::write(&spec, format!("{head}{switches}")).unwrap();
    (spec, prices)
}

/// The name libtest gives test `name` of the module at `module_path`
/// (`module_path!()`, which begins with the test binary's crate, which
/// libtest leaves out): what `--exact` matches when a test runs its own
/// binary again.
pub fn test_name(module_path: &str, name: &str) -> String {
    match module_path.split_once("::") {
        Some((_, module)) => format!("{module}::{name}"),
        None => name.to_string(),
    }
}

/// What a test needs from the machine beyond cargo.
#[derive(Clone, Copy, Debug)]
pub enum Need {
    /// Root (or CAP_NET_ADMIN): namespaces, bridges, veths.
    Root,
    /// A program, and where it comes from when it is missing.
    Program(&'static str, Source),
}

/// Where a missing program comes from: the README's test command
/// (`scripts/setup-tests`) installs it from there; the tests never do, so a
/// missing one shows.
#[derive(Clone, Copy, Debug)]
pub enum Source {
    /// A Debian package.
    Apt(&'static str),
    /// A crate from crates.io.
    Crate(&'static str),
}

impl Source {
    fn words(self) -> String {
        match self {
            Source::Apt(p) => format!("Debian package {p}, which scripts/setup-tests installs when run as root"),
            Source::Crate(c) => format!("crate {c}, which scripts/setup-tests builds"),
        }
    }
}

impl Need {
    fn missing(self) -> Option<String> {
        match self {
            // SAFETY: geteuid has no preconditions.
            Need::Root if unsafe { libc::geteuid() } != 0 => Some("root".into()),
            Need::Root => None,
            Need::Program(name, from) => program(name).is_none().then(|| format!("`{name}` ({})", from.words())),
        }
    }
}

/// `name` on PATH, or in cargo's bin directory (where crates put their programs).
pub fn program(name: &str) -> Option<std::path::PathBuf> {
    let cargo_bin = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cargo")))
        .map(|d| d.join("bin"));
    let path = std::env::var_os("PATH").unwrap_or_default();
    // Daemons (lldpd) live in sbin, which a user's PATH may leave out.
    let sbin = ["/usr/sbin", "/sbin"].map(std::path::PathBuf::from);
    std::env::split_paths(&path)
        .chain(cargo_bin)
        .chain(sbin)
        .map(|d| d.join(name))
        .find(|p| executable(p))
}

/// A file anyone may run (a file covered by an empty, non-executable one,
/// as [`without`] does, is no program).
fn executable(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// A line straight to stderr, past the harness's capture, so a passing
/// test's `cargo test` output shows it.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Whether the machine has everything `needs` lists. When it does not:
/// under `CI=true` the test fails naming what is missing; elsewhere one line says which test did not run and why, and
/// the test returns.
pub fn machine_has(test: &str, needs: &[Need]) -> bool {
    let missing: Vec<String> = needs.iter().filter_map(|n| n.missing()).collect();
    missing.is_empty() || not_run(test, &missing.join(", "))
}

/// Fails the test under `CI=true`; elsewhere says it did not run, and
/// leaves a note where the test command (`cargo test-all`) looks for
/// them, so its tally counts the test as skipped rather than passed.
/// False.
pub fn not_run(test: &str, what: &str) -> bool {
    assert!(
        std::env::var("CI").map_or(true, |v| v != "true"),
        "{test} needs {what}: under CI=true this is a failure"
    );
    say(&format!("NOT RUN {test}: needs {what}"));
    if let Some(notes) = std::env::var_os("FNN_TEST_SKIPS") {
        let note = std::path::Path::new(&notes).join(test.replace("::", "--"));
        fnn_tui::fs::atomic::write_atomic(note, format!("{test}: needs {what}\n")).expect("the skip note is written");
    }
    false
}

/// The release binary: the one the test command built
/// (`FNN_TUI_RELEASE_BIN`), or else built by cargo here (at once when it
/// is up to date: the README's first command builds it).
pub fn release_binary() -> std::path::PathBuf {
    if let Some(built) = std::env::var_os("FNN_TUI_RELEASE_BIN") {
        return built.into();
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let out = std::process::Command::new(cargo)
        .args([
            "build",
            "--release",
            "--locked",
            "--bin",
            "fnn-tui",
            "--message-format=json",
            "--manifest-path",
            manifest,
        ])
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo build --release: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The path cargo reports for the binary, wherever the target dir is.
    let stdout = String::from_utf8_lossy(&out.stdout);
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["reason"] == "compiler-artifact" && v["target"]["name"] == "fnn-tui")
        .find_map(|v| v["executable"].as_str().map(std::path::PathBuf::from))
        .expect("cargo names the fnn-tui executable")
}

/// What [`without`] needs: root, and util-linux's `unshare` and `mount`.
pub const MASKING: &[Need] = &[
    Need::Root,
    Need::Program("unshare", Source::Apt("util-linux")),
    Need::Program("mount", Source::Apt("mount")),
];

/// Root's own folders, where fnn-tui and the scripts it writes look for
/// programs (as the README gives them).
pub const ROOTS_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// Every file `name` is found as through this process's `PATH` or root's
/// own folders (where fnn-tui and its scripts look), each once: the
/// places to cover to take it away.
pub fn places_of(name: &str) -> Vec<std::path::PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let roots = ROOTS_PATH;
    let mut found: Vec<std::path::PathBuf> = Vec::new();
    for dir in std::env::split_paths(&path).chain(std::env::split_paths(roots)) {
        let Ok(real) = dir.join(name).canonicalize() else {
            continue;
        };
        if real.is_file() && !found.contains(&real) {
            found.push(real);
        }
    }
    found
}

/// `program args` run as on a machine without each of `missing`, without
/// touching this one: in a private mount namespace (and, with `net`, a
/// private network namespace) where an empty, non-executable file covers
/// every place [`places_of`] finds it. The folder of the empty file goes
/// with the value.
pub struct Without {
    _empty: tempfile::TempDir,
    pub command: std::process::Command,
}

pub fn without(missing: &[&str], net: bool, program: &std::path::Path, args: &[&str]) -> Without {
    let empty = tempfile::tempdir().expect("a temporary folder");
    let file = empty.path().join("empty");
    std::fs::write(&file, "").expect("an empty file");
    let mut command = std::process::Command::new("unshare");
    command.arg("--mount");
    if net {
        command.arg("--net");
    }
    command
        .args([
            "/bin/sh",
            "-ec",
            "e=$1; shift; while [ \"$1\" != -- ]; do mount --bind \"$e\" \"$1\"; shift; done; shift; exec \"$@\"",
            "sh",
        ])
        .arg(&file)
        .args(missing.iter().flat_map(|m| places_of(m)))
        .arg("--")
        .arg(program)
        .args(args);
    Without { _empty: empty, command }
}
