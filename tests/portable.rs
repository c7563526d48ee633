//! The release binary runs on every x86-64 CPU: under qemu-user emulating
//! a 2008 Nehalem (POPCNT, no AVX) and the plain x86-64 baseline (no
//! POPCNT), a design is found and checked. The evaluation's fast paths are
//! picked at run time, so neither may die of an illegal instruction.

mod common;

use common::{Need, Source};
use std::process::Command;

#[test]
fn the_release_binary_runs_on_older_cpus() {
    let needs = [Need::Program("qemu-x86_64", Source::Apt("qemu-user"))];
    if !common::machine_has("portable::the_release_binary_runs_on_older_cpus", &needs) {
        return;
    }
    let bin = common::release_binary();
    for cpu in ["Nehalem", "qemu64"] {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new("qemu-x86_64")
            .args(["-cpu", cpu])
            .arg(&bin)
            .args([
                "design",
                "--pcs",
                "16",
                "--nics",
                "3",
                "--switches",
                "8x8",
                "--seed",
                "1",
                "-o",
            ])
            .arg(dir.path().join("d"))
            .output()
            .expect("qemu-x86_64 runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.code(), Some(0), "on {cpu}: {text}");
        assert!(text.contains("VALID"), "on {cpu}: {text}");
        let checked = Command::new("qemu-x86_64")
            .args(["-cpu", cpu])
            .arg(&bin)
            .args(["check", "--pcs", "16", "--nics", "3", "--switches", "8x8", "--table"])
            .arg(dir.path().join("d/switches.txt"))
            .output()
            .expect("qemu-x86_64 runs");
        assert_eq!(checked.status.code(), Some(0), "check on {cpu}: {checked:?}");
    }
}
