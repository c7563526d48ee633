//! Root safety: hostile and careless input, and races against another
//! local user.
//!
//! One test binary for the area (each module was once a binary of its own):
//! `cargo test --test safety`, or one module with `cargo test --test safety MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod hostile_input;
mod races;
mod safety;
