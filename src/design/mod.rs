//! A wiring: which PCs have a NIC on which FNN switch (the FNN compiler paper, "The GA
//! Structure"), the canonical switch table that every other tool reads
//! ("The FNN Compiler's Output"), and the bounds any wiring of the hardware
//! obeys; a wiring's figures of merit against a spec are [`crate::metrics`].

pub mod bits;
pub mod bounds;
pub mod constructions;
pub mod gf;
pub mod table;
mod wiring;

pub use bounds::{max_pair_links, pairwise_upper_bound};
pub use table::{TableError, format_table, parse_table};
pub use wiring::Design;

/// Seed 000's worked example for tests: eight PCs, three NICs each, six
/// 4-port switches, wired as the paper draws it (pairs share three
/// switches or one).
#[cfg(test)]
pub(crate) fn paper_eight() -> (crate::spec::Cluster, Design) {
    let c = crate::spec::quick_cluster(8, 3, "4x6").unwrap();
    let d = parse_table(
        "0: 0 1 2 3\n1: 0 1 4 5\n2: 0 1 6 7\n3: 2 3 4 5\n4: 2 3 6 7\n5: 4 5 6 7\n",
        "seed 000",
        8,
        6,
    )
    .unwrap();
    (c, d)
}
