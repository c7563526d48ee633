//! What it takes to build and run an FNN cluster, from a design: the
//! export (cable labels, cut list, rack drawings, rewiring), routing
//! tables and boot scripts, the networks it is compared with (fat tree,
//! stacks, CLEX), and the bandwidth each one gives.

// The core's modules under their own names, so a path reads the same
// whichever crate it is written in.
use fnn_core::{budget, design, escape, ga, input, metrics, output, report, session, spec, svg, table};
#[cfg(test)]
use fnn_core::{fixtures, fs};

pub mod bandwidth;
pub mod export;
pub mod routing;
pub mod topology;
