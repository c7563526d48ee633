//! The checks of the test command that are not tests: each runs a tool on
//! the workspace and passes, fails with the tool's words, or is skipped
//! naming what this machine lacks.

use crate::step::Outcome;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace's root: this crate's parent folder.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace")
        .to_path_buf()
}

pub fn cargo() -> Command {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    c.current_dir(root());
    c
}

/// Runs a command with its output going to the terminal; passes when it
/// exits 0.
fn status(mut command: Command, what: &str) -> Outcome {
    match command.status() {
        Ok(s) if s.success() => Outcome::Passed,
        Ok(s) => Outcome::Failed(format!("{what} ended with {s}")),
        Err(e) => Outcome::Failed(format!("{what} did not start: {e}")),
    }
}

/// `cargo NAME --version` answers: the rustup component is there.
fn has_subcommand(name: &str) -> bool {
    let mut c = cargo();
    c.args([name, "--version"]);
    c.output().is_ok_and(|o| o.status.success())
}

/// `name` on PATH.
pub fn on_path(name: &str) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|d| d.join(name).is_file())
}

/// As root on Debian, installs what the tests use and a fresh machine
/// lacks (the script lists it); elsewhere it says in one line what it
/// did not install.
pub fn setup() -> Outcome {
    status(Command::new(root().join("scripts/setup-tests")), "scripts/setup-tests")
}

pub fn fmt() -> Outcome {
    if !has_subcommand("fmt") {
        return Outcome::Skipped("needs `cargo fmt` (rustup component rustfmt, which setup adds)".into());
    }
    let mut c = cargo();
    c.args(["fmt", "--all", "--check"]);
    status(c, "cargo fmt --all --check")
}

/// The checks compile in the test profile, the one `cargo test` uses, so
/// the build scripts (CaDiCaL's C++ above all) run once for both.
const PROFILE: [&str; 2] = ["--profile", "test"];

/// Nothing clippy warns about on any target (warnings as errors; clippy
/// reads `rust-version` for its `incompatible_msrv` lint).
pub fn clippy() -> Outcome {
    if !has_subcommand("clippy") {
        return Outcome::Skipped("needs `cargo clippy` (rustup component clippy, which setup adds)".into());
    }
    let mut c = cargo();
    c.args([
        "clippy",
        "--locked",
        "--workspace",
        "--all-targets",
        PROFILE[0],
        PROFILE[1],
        "--",
        "-D",
        "warnings",
    ]);
    status(c, "cargo clippy")
}

/// The core compiles by itself, with no terminal library, builder's
/// output or lab among its dependencies; the command line compiles
/// without the designer (`--no-default-features`).
pub fn core_alone() -> Outcome {
    let mut tree = cargo();
    tree.args(["tree", "--locked", "-p", "fnn-core", "-e", "normal", "--prefix", "none"]);
    let out = match tree.output() {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).into_owned(),
        Ok(o) => return Outcome::Failed(String::from_utf8_lossy(&o.stderr).into_owned()),
        Err(e) => return Outcome::Failed(format!("cargo tree did not start: {e}")),
    };
    if let Some(wrong) = crate::rules::forbidden_in_core(&out) {
        return Outcome::Failed(wrong);
    }
    let mut alone = cargo();
    alone
        .args(["check", "--locked", "-p", "fnn-core", "--lib"])
        .args(PROFILE);
    if let Outcome::Failed(why) = status(alone, "cargo check -p fnn-core") {
        return Outcome::Failed(why);
    }
    let mut no_designer = cargo();
    no_designer
        .args([
            "check",
            "--locked",
            "-p",
            "fnn-tui",
            "--no-default-features",
            "--lib",
            "--bins",
        ])
        .args(PROFILE);
    status(no_designer, "cargo check --no-default-features")
}

/// The declared `rust-version` is honest: no dependency in Cargo.lock
/// asks for a newer Rust.
pub fn rust_version() -> Outcome {
    let mut c = cargo();
    c.args(["metadata", "--format-version", "1", "--locked"]);
    let out = match c.output() {
        Ok(o) if o.status.success() => o.stdout,
        Ok(o) => return Outcome::Failed(String::from_utf8_lossy(&o.stderr).into_owned()),
        Err(e) => return Outcome::Failed(format!("cargo metadata did not start: {e}")),
    };
    match serde_json::from_slice(&out) {
        Ok(meta) => match crate::rules::newer_than_declared(&meta) {
            None => Outcome::Passed,
            Some(why) => Outcome::Failed(why),
        },
        Err(e) => Outcome::Failed(format!("cargo metadata's output: {e}")),
    }
}

/// Builds the release binary once, for the tests that run it as the
/// README's first command does; its path.
pub fn release_binary() -> Result<Option<PathBuf>, Outcome> {
    let mut c = cargo();
    c.args([
        "build",
        "--release",
        "--locked",
        "--bin",
        "fnn-tui",
        "--message-format=json-render-diagnostics",
    ]);
    c.stderr(std::process::Stdio::inherit());
    let out = c
        .output()
        .map_err(|e| Outcome::Failed(format!("cargo build did not start: {e}")))?;
    if !out.status.success() {
        return Err(Outcome::Failed(format!(
            "cargo build --release ended with {}",
            out.status
        )));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let bin = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["reason"] == "compiler-artifact" && v["target"]["name"] == "fnn-tui")
        .find_map(|v| v["executable"].as_str().map(PathBuf::from));
    bin.map(Some)
        .ok_or_else(|| Outcome::Failed("cargo did not name the fnn-tui executable".into()))
}

/// The release binary runs on every x86-64 CPU: under qemu-user
/// emulating a 2008 Nehalem (POPCNT, no AVX) and the plain x86-64
/// baseline (no POPCNT), a design is found and checked. The evaluation's
/// fast paths are picked at run time, so neither may die of an illegal
/// instruction.
pub fn older_cpus(bin: &Path) -> Outcome {
    if std::env::consts::ARCH != "x86_64" {
        return Outcome::Skipped("runs on x86-64 machines only".into());
    }
    if !on_path("qemu-x86_64") {
        return Outcome::Skipped("needs `qemu-x86_64` (Debian package qemu-user, which setup installs as root)".into());
    }
    let dir = root().join(format!("target/xtask/older-cpus-{}", std::process::id()));
    let spec = ["--pcs", "16", "--nics", "3", "--switches", "8x8"];
    for cpu in ["Nehalem", "qemu64"] {
        let out = dir.join(cpu).to_string_lossy().into_owned();
        let design = [&["design"][..], &spec, &["--seed", "1", "-o", &out]].concat();
        if let Err(why) = under_qemu(cpu, bin, &design, "VALID") {
            return Outcome::Failed(why.to_string());
        }
        let table = format!("{out}/switches.txt");
        let check = [&["check"][..], &spec, &["--table", &table]].concat();
        if let Err(why) = under_qemu(cpu, bin, &check, "") {
            return Outcome::Failed(why.to_string());
        }
    }
    Outcome::Passed
}

/// Why the release binary failed on an emulated CPU.
#[derive(Debug, thiserror::Error)]
enum QemuError {
    #[error("qemu-x86_64 did not start: {0}")]
    NotStarted(#[source] std::io::Error),
    /// It exited with an error, or without saying what it should.
    #[error("fnn-tui {command} on {cpu}: {status}\n{output}")]
    Failed {
        command: String,
        cpu: String,
        status: std::process::ExitStatus,
        output: String,
    },
}

/// `bin ARGS` on an emulated `cpu`: exit 0 with `says` in its output.
fn under_qemu(cpu: &str, bin: &Path, args: &[&str], says: &str) -> Result<(), QemuError> {
    let out = Command::new("qemu-x86_64")
        .args(["-cpu", cpu])
        .arg(bin)
        .args(args)
        .output()
        .map_err(QemuError::NotStarted)?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() && text.contains(says) {
        Ok(())
    } else {
        Err(QemuError::Failed {
            command: args[0].to_string(),
            cpu: cpu.to_string(),
            status: out.status,
            output: text,
        })
    }
}
