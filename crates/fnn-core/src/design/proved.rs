//! Widths ruled out by proofs made outside the program: counting lemmas,
//! exact LP certificates and a SAT refutation checked by a DRAT checker.
//! Each proof's `data/proofs/<size>/README.md` writes it out and its
//! scripts check every finite step again.
//!
//! 44 PCs with 5 NICs on 11-port switches sit exactly at Füredi's no-plane
//! bound (44 = 4 x 11), and no multiset of lines of a plane of order 4
//! holds them, so only a proof separates 11 ports from the 12 the
//! affine-plane construction reaches. 64 PCs with 6 NICs on 13 ports are
//! the same kind of gap: lines of the plane of order 5 hold at most 63.
//! 33 PCs with 6 NICs on 7 ports pass the degree bound by one neighbour in
//! four per PC (6 x 6 = 36 >= 32), and only counting over the switches
//! around two PCs sharing four of them rules them out, leaving the 8 ports
//! of the affine plane of order 5.

/// A proved impossibility: `pcs` PCs with at most `nics` NICs each do not
/// fit on switches of at most `width` ports, on any number of switches.
struct Proof {
    pcs: u64,
    nics: u64,
    width: u64,
    why: &'static str,
}

const PROOFS: [Proof; 3] = [
    Proof {
        pcs: 44,
        nics: 5,
        width: 11,
        why: "a computer-checked case proof (data/proofs/44-pcs-5-nics): every PC then uses 5 switches, \
              no switch holds 4 PCs, 21 to 23 switches fail exact LP certificates and on 20 full \
              switches at least seven PCs come in twins that a DRAT-checked SAT refutation rules out",
    },
    Proof {
        pcs: 64,
        nics: 6,
        width: 13,
        why: "a computer-checked case proof (data/proofs/64-pcs-6-nics): every PC then uses 6 switches, \
              no switch holds 4 PCs, PCs sharing 5 or a twin sharing 4 switches force crowded \
              switch pairs, and every count of 30 to 76 switches fails exact LP certificates",
    },
    Proof {
        pcs: 33,
        nics: 6,
        width: 7,
        why: "a computer-checked case proof (data/proofs/33-pcs-6-nics): every PC then uses 6 switches \
              and no two share 5, exact LP certificates rule out 32 or more switches and designs where \
              no two PCs share 4, and around two PCs sharing 4 each of the 26 ways the others can meet \
              them fails an exact LP certificate over the remaining switches",
    },
];

/// Why `pcs` PCs with at most `nics` NICs cannot share switches of at most
/// `width` ports, by a proof in [`PROOFS`]; `None` when none applies. A
/// proof for P PCs covers more PCs (drop some), fewer NICs (a PC with fewer
/// is allowed) and narrower switches.
pub(crate) fn proved_refutation(pcs: u64, nics: u64, width: u64) -> Option<String> {
    PROOFS
        .iter()
        .find(|p| pcs >= p.pcs && nics <= p.nics && width <= p.width)
        .map(|p| {
            format!(
                "{} PCs with {} NICs do not fit {}-port switches: {}",
                p.pcs, p.nics, p.width, p.why
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::bounds::width_bound;

    #[test]
    fn the_proof_settles_33_pcs_with_6_nics_at_8_ports() {
        assert!(proved_refutation(33, 6, 7).is_some());
        assert!(proved_refutation(40, 6, 7).is_some());
        assert!(proved_refutation(33, 6, 6).is_some());
        assert!(proved_refutation(33, 6, 8).is_none());
        assert!(proved_refutation(33, 7, 7).is_none());
        assert!(proved_refutation(32, 6, 7).is_none());
        assert_eq!(width_bound(33, 6), 8);
    }

    #[test]
    fn the_proof_settles_44_pcs_with_5_nics_at_12_ports() {
        assert!(proved_refutation(44, 5, 11).is_some());
        assert!(proved_refutation(44, 5, 10).is_some());
        assert_eq!(width_bound(44, 5), 12);
    }

    #[test]
    fn the_proof_settles_64_pcs_with_6_nics_at_14_ports() {
        let why = proved_refutation(64, 6, 13).expect("64 x 6 on 13 ports");
        assert!(why.contains("64-pcs-6-nics"), "{why}");
        assert!(proved_refutation(65, 6, 13).is_some());
        assert!(proved_refutation(64, 5, 13).is_some());
        assert_eq!(width_bound(64, 6), 14);
        assert_eq!(width_bound(65, 6), 14);
    }

    /// The proofs claim nothing any known design contradicts: no width a
    /// construction reaches for 3..64 PCs x 2..8 NICs, and none of the
    /// neighbouring cells the atlas has at the bound.
    #[test]
    fn the_proof_refutes_no_width_a_design_reaches() {
        for (pcs, nics, width) in [
            (43, 5, 11),
            (44, 5, 12),
            (45, 5, 12),
            (48, 5, 12),
            (40, 5, 10),
            (44, 6, 9),
            (44, 4, 15),
            (63, 6, 13),
            (64, 6, 14),
            (64, 7, 13),
            (70, 6, 14),
            (32, 6, 7),
            (33, 6, 8),
            (33, 7, 7),
            (34, 6, 8),
        ] {
            assert!(
                proved_refutation(pcs, nics, width).is_none(),
                "{pcs} PCs, {nics} NICs, {width} ports"
            );
        }
        for pcs in 3..=64usize {
            for nics in 2..=8usize {
                if let Some(b) = crate::design::constructions::best(pcs, nics) {
                    let w = b.width as u64;
                    assert!(
                        proved_refutation(pcs as u64, nics as u64, w).is_none(),
                        "{pcs} PCs, {nics} NICs: refutes {w} ports, which a construction reaches"
                    );
                }
            }
        }
    }
}
