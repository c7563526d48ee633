//! The lab on real Linux networking: rehearsals and traffic, cabling
//! checks, and the labels page in a real browser.
//!
//! One test binary for the area (each module was once a binary of its own):
//! `cargo test --test lab`, or one module with `cargo test --test lab MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod cabling;
mod emulate;
mod emulate_refuses;
mod labels_browser;
