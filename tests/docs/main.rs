//! The README and the guide followed as a newcomer would, and the code's
//! shape as a maintainer expects it.
//!
//! One test binary for the area (each module was once a binary of its own):
//! `cargo test --test docs`, or one module with `cargo test --test docs MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod lints;
mod readme;
