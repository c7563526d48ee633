//! A wiring: which PCs have a NIC on which FNN switch (seed 002, "The GA
//! Structure"), the canonical switch table that every other tool reads
//! ("The FNN Compiler's Output"), and the figures of merit of a wiring
//! (seed 000 §6.1, seed 002 "Performance").

pub mod bits;
pub mod bounds;
pub mod constructions;
pub mod gf;
pub mod metrics;
pub mod table;
mod wiring;

pub use metrics::{Metrics, max_pair_links, pairwise_upper_bound};
pub use table::{TableError, format_table, parse_table};
pub use wiring::Design;
