//! The core of fnn-tui: design Flat Neighborhood Networks (Dietz and
//! Mattox, KLAT2).
//!
//! Specs, designs and their evaluation, the search (a portfolio of
//! strategies), the exact mode, runs, reports and sessions. It never
//! imports a terminal library or the network lab: the front ends and the
//! builder's outputs sit on top of it.

pub use fs::atomic;
pub mod atlas;
pub mod budget;
pub mod deadline;
pub mod design;
pub mod escape;
pub mod exact;
/// Worked examples the unit tests share, this crate's and those above it
/// (feature `fixtures`, which they turn on for their tests only).
#[cfg(any(test, feature = "fixtures"))]
#[doc(hidden)]
pub mod fixtures;
pub mod fs;
pub mod ga;
pub mod hardware;
pub mod input;
pub mod metrics;
pub mod output;
pub mod patterns;
pub mod planted;
pub mod report;
pub mod run;
pub mod session;
pub mod spec;
pub mod svg;
pub mod sweep;
pub mod table;
pub mod words;
