//! The engine and the mathematics: the search, the exact mode, the constructions,
//! the papers' worked examples and sessions, through the library.
//!
//! One test binary for the area (each module was once a binary of its own):
//! `cargo test --test core`, or one module with `cargo test --test core MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod clex;
mod compare;
mod constructions;
mod engine;
mod exact;
mod fattree;
mod paper_examples;
mod properties;
mod quick_names;
mod search;
mod session;
mod stacks;
