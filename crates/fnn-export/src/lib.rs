//! What it takes to build and run an FNN cluster, from a design: the
//! export (cable labels, cut list, rack drawings, rewiring), routing
//! tables and boot scripts, the networks it is compared with (fat tree,
//! stacks, CLEX), and the bandwidth each one gives.

pub mod bandwidth;
pub mod export;
pub mod routing;
pub mod topology;
