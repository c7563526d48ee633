//! What a maintainer expects of the code, checked by `cargo test` itself:
//! formatted as `cargo fmt` would, and nothing clippy warns about on any
//! target (warnings as errors; clippy reads `rust-version` for its
//! `incompatible_msrv` lint).

mod common;

use std::process::Command;

const MANIFEST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");

/// `cargo SUBCOMMAND --version` answers, adding its rustup component if
/// it does not (rustup's proxies exist even without the component).
fn subcommand(test: &str, name: &str, component: &str) -> bool {
    let cargo = || Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    let answers = || {
        cargo()
            .args([name, "--version"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if answers() {
        return true;
    }
    let added = Command::new("rustup")
        .args(["component", "add", component])
        .status()
        .is_ok_and(|s| s.success());
    (added && answers()) || common::not_run(test, &format!("`cargo {name}` (rustup component add {component})"))
}

/// Runs `cargo ARGS` on this crate; its output when it fails.
fn cargo(args: &[&str]) -> Result<(), String> {
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(args)
        .output()
        .expect("cargo runs");
    out.status.success().then_some(()).ok_or_else(|| {
        format!(
            "cargo {}:\n{}{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn the_code_is_formatted() {
    if !subcommand("lints::the_code_is_formatted", "fmt", "rustfmt") {
        return;
    }
    cargo(&["fmt", "--check", "--manifest-path", MANIFEST]).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn clippy_finds_nothing_on_any_target() {
    if !subcommand("lints::clippy_finds_nothing_on_any_target", "clippy", "clippy") {
        return;
    }
    cargo(&[
        "clippy",
        "--locked",
        "--all-targets",
        "--manifest-path",
        MANIFEST,
        "--",
        "-D",
        "warnings",
    ])
    .unwrap_or_else(|e| panic!("{e}"));
}

/// The core builds without the designer: no terminal library among its
/// dependencies, and the library and the command line (every command but
/// the designer) compile with `--no-default-features`.
#[test]
fn the_core_builds_without_the_terminal_libraries() {
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "tree",
            "--locked",
            "--no-default-features",
            "-e",
            "normal",
            "--prefix",
            "none",
        ])
        .args(["--manifest-path", MANIFEST])
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(tree.contains("rayon "), "not a dependency tree:\n{tree}");
    for terminal in ["ratatui ", "crossterm ", "tui-input "] {
        assert!(
            !tree.lines().any(|l| l.starts_with(terminal)),
            "the core depends on {terminal}:\n{tree}"
        );
    }
    let target = concat!(env!("CARGO_TARGET_TMPDIR"), "/core");
    cargo(&[
        "check",
        "--locked",
        "--no-default-features",
        "--lib",
        "--bins",
        "--manifest-path",
        MANIFEST,
        "--target-dir",
        target,
    ])
    .unwrap_or_else(|e| panic!("{e}"));
}
