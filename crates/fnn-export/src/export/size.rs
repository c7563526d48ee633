//! How big an export will be, known before anything is written: a
//! 4096-PC cluster's boot scripts and route tables run to gigabytes, and
//! an export that fills the disk half way helps nobody.
//!
//! The estimate is the per-PC files (setup, hosts and probe scripts,
//! networkd files) of up to [`SAMPLES`] PCs spread over the cluster,
//! averaged and multiplied by the PC count; then, if that still fits, the
//! PC-by-PC tables (route table, subnet matrix, the advanced headers)
//! counted exactly by writing them into a counter that stops at the
//! budget. The small files (labels, racks, CSV, JSON) are left out.

use super::Options;
use crate::routing::BasicRouting;
use fnn_core::design::Design;
use fnn_core::spec::Cluster;
use std::io::Write;

/// The budget when none is given (`--max-size`).
pub(crate) const DEFAULT_MAX_SIZE: u64 = 2 << 30;
/// PCs whose files are made to estimate the rest.
pub(crate) const SAMPLES: usize = 3;

/// What an export would write, in bytes, as far as it was counted: once
/// the count passes `limit` it stops (the export is refused anyway).
pub(super) fn estimate(c: &Cluster, d: &Design, o: &Options, want: &dyn Fn(&str) -> bool, limit: u64) -> u64 {
    let ifaces = super::interfaces(d, o);
    let macs = o.macs.clone().unwrap_or_default();
    let r = (want("routing") || want("advanced")).then(|| BasicRouting::new(c, d));
    let mut total = 0u64;
    if let Some(r) = r.as_ref().filter(|_| want("routing")) {
        total += per_pc_files(d.pcs(), |pc| {
            super::pc_files(c, d, r, pc, &ifaces, &macs)
                .iter()
                .map(|(_, text)| text.len() as u64)
                .sum()
        });
    }
    let mut counter = Counter { bytes: total, limit };
    if let Some(r) = r.as_ref().filter(|_| want("routing")) {
        let _ = r
            .write_matrix(&mut counter)
            .and_then(|_| crate::routing::scripts::write_route_table(&mut counter, c, d, r, &ifaces, &macs));
    }
    if want("advanced") {
        let a = super::advanced::write_c_header(&mut counter, d, &c.name)
            .and_then(|_| super::advanced::write_rust_module(&mut counter, d, &c.name))
            .and_then(|_| super::advanced::write_mac_header(&mut counter, d, &c.name, &macs));
        let _ = a;
    }
    counter.bytes
}

/// `pcs` times the average of `size(pc)` over up to [`SAMPLES`] PCs
/// spread from the first to the last.
fn per_pc_files(pcs: usize, size: impl Fn(usize) -> u64) -> u64 {
    if pcs == 0 {
        return 0;
    }
    let mut picks: Vec<usize> = (0..SAMPLES).map(|i| i * (pcs - 1) / (SAMPLES - 1).max(1)).collect();
    picks.dedup();
    let sampled: u64 = picks.iter().map(|&pc| size(pc)).sum();
    sampled / picks.len() as u64 * pcs as u64
}

/// Counts bytes, and fails once past the limit so a writer stops early.
struct Counter {
    bytes: u64,
    limit: u64,
}

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes += buf.len() as u64;
        if self.bytes > self.limit {
            return Err(std::io::Error::other("past the size budget"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_pc_sizes_are_sampled_at_the_ends_and_the_middle() {
        let asked = std::cell::RefCell::new(Vec::new());
        let total = per_pc_files(101, |pc| {
            asked.borrow_mut().push(pc);
            10
        });
        assert_eq!(total, 1010);
        assert_eq!(*asked.borrow(), vec![0, 50, 100]);
        assert_eq!(per_pc_files(1, |_| 7), 7);
    }

    #[test]
    fn the_counter_stops_a_writer_past_the_limit() {
        let mut c = Counter { bytes: 0, limit: 10 };
        assert!(c.write_all(b"12345").is_ok());
        assert!(c.write_all(b"123456").is_err());
        assert_eq!(c.bytes, 11);
    }
}
