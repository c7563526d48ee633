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

/// Runs an engine to its stopping rule within `generations`, no time limit.
pub fn run(e: &mut fnn_tui::ga::Engine, generations: u64) -> fnn_tui::ga::StopReason {
    e.run(
        fnn_tui::ga::Limits {
            generations,
            time_limit_s: 0.0,
        },
        &std::sync::atomic::AtomicBool::new(false),
        |_| {},
    )
}

/// The papers' GA alone (the FNN compiler paper): no construction, no local search.
pub fn papers_ga(c: &mut Cluster) {
    c.ga.constructions = false;
    c.ga.local_search = 0;
}

/// What a test needs from the machine beyond cargo.
#[derive(Clone, Copy, Debug)]
pub enum Need {
    /// Root (or CAP_NET_ADMIN): namespaces, bridges, veths.
    Root,
    /// A program, and the Debian package (or cargo crate) that has it.
    Program(&'static str, &'static str),
}

impl Need {
    fn missing(self) -> Option<String> {
        match self {
            // SAFETY: geteuid has no preconditions.
            Need::Root if unsafe { libc::geteuid() } != 0 => Some("root".into()),
            Need::Root => None,
            Need::Program(name, from) => program(name).is_none().then(|| format!("`{name}` ({from})")),
        }
    }
}

/// `name` on PATH, or in cargo's bin directory (where `cargo install` puts it).
pub fn program(name: &str) -> Option<std::path::PathBuf> {
    let cargo_bin = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cargo")))
        .map(|d| d.join("bin"));
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(cargo_bin)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Whether the machine has everything `needs` lists. When it does not:
/// under `CI=true` the test fails naming what is missing; elsewhere one line
/// says which test did not run, why, and what runs it, and the test returns.
/// The line goes straight to stderr, past the harness's capture, so a plain
/// `cargo test` shows it even though the test counts as passed.
pub fn machine_has(test: &str, needs: &[Need]) -> bool {
    let missing: Vec<String> = needs.iter().filter_map(|n| n.missing()).collect();
    if missing.is_empty() {
        return true;
    }
    let what = missing.join(", ");
    assert!(
        std::env::var("CI").map_or(true, |v| v != "true"),
        "{test} needs {what}: under CI=true this is a failure (scripts/test installs it)"
    );
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "NOT RUN {test}: needs {what}; `scripts/test` (as root) installs it and runs every test"
    );
    false
}

/// The release binary, built by cargo (at once when it is up to date: the
/// README's first command and `scripts/test` build it).
pub fn release_binary() -> std::path::PathBuf {
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
