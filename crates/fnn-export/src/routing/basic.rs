//! Basic routing, the FNN compiler paper: "the assignments are made in order of
//! decreasing path importance ... among paths of equal importance, we assign
//! the paths with the fewest alternatives first ... select the path whose
//! NICs have thus far appeared in the fewest assigned paths."

use fnn_core::design::{Design, bits};
use fnn_core::spec::Cluster;

#[derive(Clone, Debug, PartialEq)]
pub struct BasicRouting {
    pcs: usize,
    /// The design, to read a pair's shared switches back.
    design: Design,
    /// For each pair `a < b` (in row order), which of its shared switches
    /// (in ascending order) carries its traffic, or [`NONE`]: one byte a
    /// pair (134 MB at 16384 PCs, where a switch number per ordered pair
    /// and a sorted pair list took 6.4 GB).
    choice: Vec<u8>,
    /// The highest switch number any pair uses (the matrix's width).
    top: Option<u32>,
    /// Paths assigned to each PC's NICs, in NIC order.
    pub nic_load: Vec<Vec<u32>>,
}

/// A pair that shares no switch (it goes through the uplink, if any).
const NONE: u8 = u8::MAX;

impl BasicRouting {
    /// Each pair gets the shared switch whose two NICs carry the fewest
    /// paths so far, pairs taken most important first, then those with the
    /// fewest alternatives, then in PC order.
    ///
    /// The order is made without listing every pair: the pattern's pairs
    /// (more important than any other) are listed and sorted, and the rest,
    /// all equally important, are taken in PC order once for each count of
    /// shared switches.
    pub fn new(cluster: &Cluster, design: &Design) -> BasicRouting {
        let p = design.pcs();
        let mut r = BasicRouting {
            pcs: p,
            design: design.clone(),
            choice: vec![NONE; p * p.saturating_sub(1) / 2],
            top: None,
            nic_load: (0..p).map(|pc| vec![0; design.nics_used(pc) as usize]).collect(),
        };
        let pattern = &cluster.pattern;
        let mut listed: Vec<(i64, u32, usize, usize)> = pattern
            .pairs()
            .filter(|&(a, b, _)| a < p && b < p)
            .map(|(a, b, w)| (-(w + pattern.all_to_all()), design.links(a, b), a, b))
            .filter(|&(_, links, _, _)| links > 0)
            .collect();
        listed.sort_unstable();
        for (_, _, a, b) in listed {
            r.route(a, b);
        }
        let most = (0..p).map(|pc| design.nics_used(pc)).max().unwrap_or(0);
        let mut links = Vec::with_capacity(p);
        let w = design.words();
        for wanted in 1..=most {
            for a in 0..p {
                bits::and_counts(design.mask(a), &design.masks()[(a + 1) * w..], w, &mut links);
                let (partners, _) = pattern.row(a);
                for (b, &l) in (a + 1..p).zip(&links) {
                    if l == wanted && partners.binary_search(&(b as u32)).is_err() {
                        r.route(a, b);
                    }
                }
            }
        }
        r
    }

    /// Routes the pair `a < b` over its least loaded shared switch.
    fn route(&mut self, a: usize, b: usize) {
        let d = &self.design;
        let (ma, mb) = (d.mask(a), d.mask(b));
        let shared = bits::ones(ma).filter(|&s| bits::test(mb, s));
        let nic = |pc: usize, s: usize| d.nic_on(pc, s).unwrap_or(0);
        let load = &self.nic_load;
        let Some((k, best)) = shared.enumerate().min_by_key(|&(_, s)| {
            let (la, lb) = (load[a][nic(a, s)], load[b][nic(b, s)]);
            (la + lb, la.max(lb), s)
        }) else {
            return;
        };
        let (na, nb) = (nic(a, best), nic(b, best));
        self.nic_load[a][na] += 1;
        self.nic_load[b][nb] += 1;
        self.choice[pair_index(self.pcs, a, b)] = u8::try_from(k).unwrap_or(NONE);
        self.top = self.top.max(Some(best as u32));
    }

    pub fn pcs(&self) -> usize {
        self.pcs
    }

    /// The switch `a` uses to reach `b`.
    pub fn via(&self, a: usize, b: usize) -> Option<usize> {
        if a == b {
            return None;
        }
        let k = self.choice[pair_index(self.pcs, a.min(b), a.max(b))];
        if k == NONE {
            return None;
        }
        let (ma, mb) = (self.design.mask(a), self.design.mask(b));
        bits::ones(ma).filter(|&s| bits::test(mb, s)).nth(k as usize)
    }

    /// The P x P subnet matrix of the KLAT2 paper §4: a row per PC, the switch
    /// (subnet) used for each destination; `.` itself, `U` the uplink.
    pub fn matrix(&self) -> String {
        let mut out = Vec::new();
        let _ = self.write_matrix(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// [`BasicRouting::matrix`] written row by row (P² entries).
    pub(crate) fn write_matrix(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let width = self.top.map_or(1, |m| m.to_string().len()).max(1);
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

/// Where the pair `a < b` is among all pairs, row by row.
fn pair_index(p: usize, a: usize, b: usize) -> usize {
    a * (2 * p - a - 1) / 2 + (b - a - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fnn_core::design::parse_table;
    use fnn_core::spec::{QuickFlags, Spec};

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

    /// The routing as first written: every pair listed and sorted, a
    /// switch per ordered pair. The streamed one must choose the same.
    fn listed(cluster: &Cluster, design: &Design) -> (Vec<Option<usize>>, Vec<Vec<u32>>) {
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
        pairs.sort_unstable();
        let mut load: Vec<Vec<u32>> = (0..p).map(|pc| vec![0; design.nics_used(pc) as usize]).collect();
        let mut via = vec![None; p * p];
        for (_, _, a, b) in pairs {
            let (ma, mb) = (design.mask(a), design.mask(b));
            let nic = |pc: usize, s: usize| design.nic_on(pc, s).unwrap_or(0);
            let best = bits::ones(ma)
                .filter(|&s| bits::test(mb, s))
                .min_by_key(|&s| {
                    let (la, lb) = (load[a][nic(a, s)], load[b][nic(b, s)]);
                    (la + lb, la.max(lb), s)
                })
                .unwrap();
            load[a][nic(a, best)] += 1;
            load[b][nic(b, best)] += 1;
            via[a * p + b] = Some(best);
            via[b * p + a] = Some(best);
        }
        (via, load)
    }

    #[test]
    fn streamed_routing_chooses_as_the_sorted_list_did() {
        use fnn_core::spec::{Coverage, PatternSpec};
        let mut seed = 7u64;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for case in 0..12 {
            let (p, s) = (20 + next(40), 6 + next(10));
            let q = QuickFlags {
                pcs: Some(p),
                nics: Some(4),
                switches: Some(format!("{p}x{s}")),
                ..Default::default()
            };
            let mut spec = q.apply(Spec::default()).unwrap();
            if case % 2 == 1 {
                spec.coverage = Coverage::Sparse;
                spec.patterns = vec![
                    PatternSpec::Ring { k: 2, weight: 3.0 },
                    PatternSpec::Ring { k: 5, weight: 1.5 },
                ];
            }
            let c = spec.resolve().unwrap();
            // Random wiring, some PCs on fewer switches, some uncabled.
            let mut d = Design::new(p, s);
            for pc in 0..p {
                for _ in 0..next(5) {
                    d.connect(pc, next(s));
                }
            }
            let r = BasicRouting::new(&c, &d);
            let (via, load) = listed(&c, &d);
            for a in 0..p {
                for b in 0..p {
                    assert_eq!(r.via(a, b), via[a * p + b], "case {case}: pair {a} {b}");
                }
            }
            assert_eq!(r.nic_load, load, "case {case}");
        }
    }
}
