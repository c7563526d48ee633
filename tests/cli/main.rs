//! The command line as a user runs it: commands, their files and messages,
//! the exports and scripts, pipes and signals, the sharded sweep on Slurm.
//!
//! One test binary for the area (each module was once a binary of its own):
//! `cargo test --test cli`, or one module with `cargo test --test cli MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod cheapest_own;
mod check_messages;
mod cli;
mod conventions;
mod fuzz;
mod man_pages;
mod outputs;
mod scripts;
mod signals;
mod slurm;
mod translators;
