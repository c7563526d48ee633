//! fnn-tui: design Flat Neighborhood Networks (Dietz and Mattox, KLAT2).
//!
//! The core (spec, design, GA, evaluation, reports, sessions) never imports
//! a terminal library; `tui` is the live designer, a thin layer over it and
//! the only module that uses ratatui. It is the `tui` feature (on by
//! default): `cargo check --no-default-features` builds the core alone.

pub use fs::atomic;
pub mod bandwidth;
pub mod budget;
pub mod deadline;
pub mod design;
pub mod emulate;
pub mod escape;
pub mod exact;
pub mod export;
#[cfg(test)]
mod fixtures;
pub mod fs;
pub mod ga;
pub mod hardware;
pub mod input;
pub mod lldp;
pub mod metrics;
pub mod output;
pub mod patterns;
pub mod planted;
pub mod report;
pub mod routing;
pub mod run;
pub mod session;
pub mod spec;
pub mod sweep;
pub mod table;
pub mod topology;
#[cfg(feature = "tui")]
pub mod tui;
pub mod verify;
pub mod words;
