//! Basic routing, the FNN compiler paper: "the assignments are made in order of
//! decreasing path importance ... among paths of equal importance, we assign
//! the paths with the fewest alternatives first ... select the path whose
//! NICs have thus far appeared in the fewest assigned paths."

use crate::design::{Design, bits};
use crate::spec::Cluster;

#[derive(Clone, Debug, PartialEq)]
pub struct BasicRouting {
    pcs: usize,
    /// The switch carrying each pair's traffic (symmetric), None when the
    /// pair shares none (it goes through the uplink, if any).
    via: Vec<Option<u32>>,
    /// Paths assigned to each PC's NICs, in NIC order.
    pub nic_load: Vec<Vec<u32>>,
}

impl BasicRouting {
    pub fn new(cluster: &Cluster, design: &Design) -> BasicRouting {
        let p = design.pcs();
        let mut pairs: Vec<(i64, u32, usize, usize)> = Vec::new();
        for a in 0..p {
            for b in a + 1..p {
                let links = design.links(a, b);
                if links > 0 {
                    let importance = cluster.pattern.weight(a, b) + cluster.pattern.all_to_all();
                    pairs.push((-importance, links, a, b));
                }
            }
        }
        // Most important first, then fewest alternatives, then PC order.
        pairs.sort_unstable();
        let mut nic_load: Vec<Vec<u32>> = (0..p).map(|pc| vec![0; design.nics_used(pc) as usize]).collect();
        let mut via = vec![None; p * p];
        for (_, _, a, b) in pairs {
            let (ma, mb) = (design.mask(a), design.mask(b));
            let shared = bits::ones(ma).filter(|&s| bits::test(mb, s));
            let nic = |pc: usize, s: usize| design.nic_on(pc, s).unwrap_or(0);
            let best = shared
                .min_by_key(|&s| {
                    let (la, lb) = (nic_load[a][nic(a, s)], nic_load[b][nic(b, s)]);
                    (la + lb, la.max(lb), s)
                })
                .expect("the pair shares a switch");
            nic_load[a][nic(a, best)] += 1;
            nic_load[b][nic(b, best)] += 1;
            via[a * p + b] = Some(best as u32);
            via[b * p + a] = Some(best as u32);
        }
        BasicRouting { pcs: p, via, nic_load }
    }

    pub fn pcs(&self) -> usize {
        self.pcs
    }

    /// The switch `a` uses to reach `b`.
    pub fn via(&self, a: usize, b: usize) -> Option<usize> {
        self.via[a * self.pcs + b].map(|s| s as usize)
    }

    /// The P x P subnet matrix of the KLAT2 paper §4: a row per PC, the switch
    /// (subnet) used for each destination; `.` itself, `U` the uplink.
    pub fn matrix(&self) -> String {
        let mut out = Vec::new();
        let _ = self.write_matrix(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// [`BasicRouting::matrix`] written row by row (P² entries).
    pub fn write_matrix(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let width = self
            .via
            .iter()
            .flatten()
            .max()
            .map_or(1, |m| m.to_string().len())
            .max(1);
        for a in 0..self.pcs {
            for b in 0..self.pcs {
                let sep = if b == 0 { "" } else { " " };
                match (a == b, self.via(a, b)) {
                    (true, _) => write!(w, "{sep}{:>width$}", ".")?,
                    (false, Some(s)) => write!(w, "{sep}{s:>width$}")?,
                    (false, None) => write!(w, "{sep}{:>width$}", "U")?,
                }
            }
            writeln!(w)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::parse_table;
    use crate::spec::{QuickFlags, Spec};

    #[test]
    fn the_six_pc_example_routes_every_pair_through_a_shared_switch() {
        let q = QuickFlags {
            pcs: Some(6),
            nics: Some(2),
            switches: Some("4x3".into()),
            ..Default::default()
        };
        let c = q.apply(Spec::default()).unwrap().resolve().unwrap();
        let d = parse_table("0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n", "t", 6, 3).unwrap();
        let r = BasicRouting::new(&c, &d);
        for a in 0..6 {
            for b in 0..6 {
                if a != b {
                    let s = r.via(a, b).unwrap();
                    assert!(d.has(a, s) && d.has(b, s));
                }
            }
        }
        // A and B share two switches: the load is spread over both NICs.
        assert!(r.nic_load.iter().all(|l| l.iter().all(|&n| n >= 2)), "{:?}", r.nic_load);
        assert!(r.matrix().starts_with(". 0"));
    }
}
