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

/// Every emulate run first removes what dead runs left, so a test that
/// kills a run and checks its leftovers are removed by the run it starts
/// next holds this for writing; every test that may start a run (or keep
/// a testbed, which `emulate --clean` removes) holds it for reading.
static TESTBEDS: std::sync::RwLock<()> = std::sync::RwLock::new(());

/// A turn among the tests that start runs, which may run together.
fn testbed_turn() -> std::sync::RwLockReadGuard<'static, ()> {
    TESTBEDS.read().unwrap_or_else(|e| e.into_inner())
}
