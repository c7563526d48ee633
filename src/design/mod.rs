//! A wiring: which PCs have a NIC on which FNN switch (the FNN compiler paper, "The GA
//! Structure"), the canonical switch table that every other tool reads
//! ("The FNN Compiler's Output"), and the figures of merit of a wiring
//! (the KLAT2 paper §6.1, the FNN compiler paper "Performance").

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
