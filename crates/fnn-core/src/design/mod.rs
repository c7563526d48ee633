//! A wiring: which PCs have a NIC on which FNN switch (the FNN compiler paper, "The GA
//! Structure"), the canonical switch table that every other tool reads
//! ("The FNN Compiler's Output"), and the bounds any wiring of the hardware
//! obeys; a wiring's figures of merit against a spec are [`crate::metrics`].

pub mod arcs;
pub mod bits;
pub mod bounds;
pub mod constructions;
pub mod gf;
pub mod pattern_bounds;
pub(crate) mod proved;
pub mod sizing;
pub mod table;
mod wiring;

pub use bounds::{max_pair_links, pairwise_upper_bound};
pub use table::{TableError, format_table, parse_table};
pub use wiring::Design;
