//! The networks a cluster builder would otherwise buy,
//! designed for the same PCs and price list so the FNN can be compared
//! with them.

pub mod artifacts;
pub mod clex;
pub mod clex_sim;
pub mod compare;
pub mod fattree;
pub mod fattree_racks;
pub mod stacks;
