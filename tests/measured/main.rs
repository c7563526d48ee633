//! The lab's measurements: bandwidth against the model, and a rehearsal
//! beside a CPU hog. Each needs the machine to itself (a measurement would
//! measure whatever ran beside it, and the hog would starve other
//! rehearsals' captures), so they are a binary of their own (cargo runs
//! test binaries one at a time) and take turns within it.
//!
//! `cargo test --test measured`.

#[path = "../common/mod.rs"]
mod common;

mod bandwidth;
mod emulate_under_load;

/// One measurement at a time.
pub static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
