//! The live designer: its event loop on a test terminal, its promises,
//! and the real binary in a pseudo-terminal.
//!
//! One test binary for the area (each module was once a binary of its own):
//! `cargo test --test designer`, or one module with `cargo test --test designer MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod designer_promises;
mod e2e_pty;
mod tui;
