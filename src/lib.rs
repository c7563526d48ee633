//! fnn-tui: design Flat Neighborhood Networks (Dietz and Mattox, KLAT2).
//!
//! This package is the front ends: the command line (the binary) and the
//! live designer (`tui`, the `tui` feature, on by default, the only module
//! that uses ratatui). What they drive lives in the crates below, which
//! this library re-exports under one name for the front ends, the tests,
//! the examples and the benchmarks: `fnn-core` (spec, design, search,
//! exact mode, runs, sessions), `fnn-export` (exports, routing,
//! topologies) and `fnn-lab` (rehearsal, verify, LLDP).

pub use fnn_core::{
    atlas, atomic, budget, deadline, design, escape, exact, fs, ga, hardware, input, metrics, output, patterns,
    planted, report, run, session, spec, svg, sweep, table, words,
};
pub use fnn_export::{bandwidth, export, routing, topology};
pub use fnn_lab::{emulate, verify};
#[cfg(feature = "tui")]
pub mod tui;
