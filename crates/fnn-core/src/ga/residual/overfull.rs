//! Switches a NIC past their ports, for a while.
//!
//! Where every port is taken (as many ports as NICs) each move of the
//! walk is a trade: a NIC joins a full switch and a member leaves it. On
//! a wide switch a trade looks at only [`TRADES_LOOKED`] members to send
//! away (looking at all of them took most of the walk's time), so it
//! often sends a poor one. A NIC may instead join a full switch of
//! [`WIDEST`] ports or more, of a kind whose every port is taken,
//! without a trade, at a cost of [`COST`] (in pair weights), and the
//! switch sheds a member later: a move of one of its NICs elsewhere
//! earns the cost back, and once every pair is covered the member whose
//! leaving uncovers fewest moves to the switch with room where it covers
//! most. The walk records a grouping only where no switch is past its
//! ports, so what it hands back always fits; a walk that stays past them
//! for [`FIT_EVERY`] moves is made to fit, or it would record nothing.
//!
//! At most [`MOST`] NICs are past their ports at once: without a bound
//! the walk settled for good with dozens over (4 x 64 ports, 3,072 PCs).
//! On 16 and 32 ports it needed more moves, not fewer, and on a kind
//! with ports to spare it cost time, so those trade as before.

use super::{Groups, NONE, Rng, TRADES_LOOKED};
use rand::RngExt;

/// The narrowest switch that may take a NIC past its ports: four times
/// the members a trade looks at.
const WIDEST: usize = 4 * TRADES_LOOKED;

/// NICs past their ports at most, all switches together.
const MOST: usize = 8;

/// Moves after which a walk that has not fitted the ports since the last
/// such stretch is made to (every member past them moved off at once).
pub(super) const FIT_EVERY: u64 = 20_000;

/// What a NIC past its switch's ports costs a move, in pair weights (a
/// pair starts at 1).
pub(super) const COST: i64 = 1;

impl Groups {
    /// Whether a NIC may join switch `to` without a trade though it is
    /// full: a switch of [`WIDEST`] ports or more, of a kind whose every
    /// port is taken (elsewhere a move can make room without a trade).
    pub(super) fn may_overfill(&self, to: u32) -> bool {
        let kind = &self.kinds[self.kind[to as usize]];
        let pcs = self.group.len() / self.nics;
        self.over < MOST
            && kind.width >= WIDEST
            && kind.switches * kind.width == pcs * kind.per_pc
            && self.size[to as usize] as usize == kind.width
    }

    /// Whether switch `g` (or the pool, [`NONE`], never) holds more NICs
    /// than it has ports.
    pub(super) fn is_past_ports(&self, g: u32) -> bool {
        g != NONE && self.size[g as usize] as usize > self.width(g)
    }

    /// What a NIC leaving switch `from` earns back: the cost where `from`
    /// is past its ports.
    pub(super) fn relief(&self, from: u32) -> i64 {
        if self.is_past_ports(from) { COST } else { 0 }
    }

    /// Takes the grouping as `best` (pairs left, grouping) where it fits
    /// the ports and leaves fewer pairs; whether it did.
    pub(super) fn keep_if_best(&self, best: &mut (usize, Vec<u32>)) -> bool {
        let better = self.over == 0 && self.open.len() < best.0;
        if better {
            *best = (self.open.len(), self.group.clone());
        }
        better
    }

    /// Every NIC past its switch's ports moved off, as [`Groups::unload`] does.
    pub(super) fn fit(&mut self, rng: &mut Rng) {
        // Each move takes one off; a bound, should one find nowhere to go.
        for _ in 0..2 * MOST {
            if self.over == 0 {
                return;
            }
            self.unload(rng);
        }
    }

    /// A member of a switch past its ports (one at random) onto a switch
    /// of its kind with room its PC is not on: the member and switch
    /// that uncover fewest pairs net, ties broken at random.
    pub(super) fn unload(&mut self, rng: &mut Rng) {
        let switches = 0..self.kind.len() as u32;
        let over: Vec<u32> = switches.clone().filter(|&g| self.is_past_ports(g)).collect();
        let Some(&g) = over.get(rng.random_range(0..over.len().max(1))) else {
            return;
        };
        let kind = self.kind[g as usize];
        let rooms: Vec<u32> = switches
            .filter(|&h| self.kind[h as usize] == kind && self.room(h))
            .collect();
        let mut chosen: Option<(i64, u32, u32)> = None;
        let mut ties = 0;
        for &x in self.members_of(g) {
            let pc = x / self.nics as u32;
            let lost = self
                .partners(pc)
                .iter()
                .filter(|&&(y, e)| self.count[e as usize] == 1 && self.holds(y, g))
                .count();
            for &h in rooms.iter().filter(|&&h| !self.holds(pc, h)) {
                let gained = self
                    .partners(pc)
                    .iter()
                    .filter(|&&(y, e)| self.count[e as usize] == 0 && self.holds(y, h))
                    .count();
                let net = lost as i64 - gained as i64;
                match chosen {
                    Some((best, ..)) if net > best => continue,
                    Some((best, ..)) if net == best => ties += 1,
                    _ => ties = 1,
                }
                if rng.random_range(0..ties) == 0 {
                    chosen = Some((net, x, h));
                }
            }
        }
        if let Some((_, x, h)) = chosen {
            self.relocate(x, h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::walk_trial::planted;
    use super::super::tests::kind;
    use super::super::{Budget, Kind, Walk};
    use super::*;
    use proptest::prelude::{ProptestConfig, TestCaseError, prop_assert, prop_assert_eq, proptest};
    use rand::SeedableRng;

    /// NICs past their ports, counted afresh.
    fn counted(g: &Groups) -> usize {
        (0..g.kind.len() as u32)
            .map(|s| (g.size[s as usize] as usize).saturating_sub(g.width(s)))
            .sum()
    }

    /// Six PCs of one NIC on three 2-port switches, the first holding
    /// PCs 0, 1 and 2, pairs 0-1, 0-2 and 2-3: PC 2 leaving for PC 3's
    /// switch uncovers one pair and covers one, where PC 1 leaving
    /// uncovers one and PC 0 two.
    #[test]
    fn the_member_that_uncovers_fewest_net_leaves_for_the_switch_where_it_covers_most() {
        let kinds = [kind(6, 2, 1)];
        let edges = [(0, 1), (0, 2), (2, 3)];
        for seed in 0..20 {
            let mut g = Groups::new(6, &kinds, &edges);
            for (pc, to) in [(0, 0), (1, 0), (2, 0), (3, 1), (4, 2), (5, 2)] {
                g.relocate(pc, to);
            }
            assert_eq!(g.over, 1);
            g.unload(&mut Rng::seed_from_u64(seed));
            assert_eq!(g.group[2], 1, "seed {seed}: {:?}", g.group);
            assert_eq!((g.over, g.open.clone()), (0, vec![1]));
        }
    }

    /// A full switch of 64 ports or more, of a kind whose every port is
    /// taken, may take a NIC past its ports; one with room, a narrower
    /// one, or one of a kind with ports to spare may not.
    #[test]
    fn only_a_full_switch_of_the_widest_with_every_port_taken_takes_a_nic_past_its_ports() {
        for (width, pcs, full, may) in [
            (64, 128, true, true),
            (64, 128, false, false),
            (64, 127, true, false),
            (32, 64, true, false),
            (16, 32, true, false),
        ] {
            let kinds = [Kind {
                width,
                per_pc: 1,
                switches: 2,
            }];
            let mut g = Groups::new(pcs, &kinds, &[]);
            let on = if full { width } else { width - 1 };
            for pc in 0..on as u32 {
                g.relocate(pc, 0);
            }
            assert_eq!(g.may_overfill(0), may, "{width} ports, {pcs} PCs, full {full}");
        }
    }

    /// The walk of a stretch at a time, checking what each hands back;
    /// whether it went past the ports, and the pairs it left.
    fn walked(
        pcs: usize,
        nics: usize,
        partners: usize,
        seed: u64,
        stretches: usize,
    ) -> Result<(bool, usize), TestCaseError> {
        let mut rng = Rng::seed_from_u64(seed);
        let edges = planted(pcs, 64, nics, partners, &mut rng);
        let kinds = [kind(pcs, 64, nics)];
        let mut walk = Walk::filled(pcs, &kinds, &edges, &mut rng);
        let budget = Budget {
            patience: 500,
            max: 500,
            ..Budget::NONE
        };
        let mut went_over = false;
        for _ in 0..stretches {
            let (found, _) = walk.go(budget, &mut rng);
            prop_assert!(found[0].iter().all(|b| b.len() <= 64));
            prop_assert_eq!(found[0].iter().map(Vec::len).sum::<usize>(), pcs * nics);
            prop_assert_eq!(walk.groups.over, counted(&walk.groups));
            went_over |= walk.groups.over > 0;
            if walk.best_left() == 0 {
                break;
            }
        }
        Ok((went_over, walk.best_left()))
    }

    /// 1,024 PCs x 5 NICs on 64-port switches, 15 partners a PC: the walk
    /// goes past the ports on its way and covers every pair.
    #[test]
    fn the_walk_goes_past_the_ports_on_its_way_and_ends_within_them() {
        let (went_over, left) = walked(1024, 5, 15, 1, 100).unwrap();
        assert!(went_over, "the walk never went past the ports");
        assert_eq!(left, 0);
    }

    /// 2,048 PCs x 5 NICs on 64-port switches, 15 partners a PC: a walk
    /// that stays past the ports would record nothing better than its
    /// start; each stretch of the walk finds a better grouping that fits.
    #[test]
    fn a_walk_past_the_ports_still_records_better_groupings_as_it_goes() {
        let mut rng = Rng::seed_from_u64(1);
        let edges = planted(2048, 64, 5, 15, &mut rng);
        let mut walk = Walk::filled(2048, &[kind(2048, 64, 5)], &edges, &mut rng);
        let budget = Budget {
            patience: 2 * FIT_EVERY,
            max: 2 * FIT_EVERY,
            ..Budget::NONE
        };
        let mut left = vec![walk.best_left()];
        for _ in 0..4 {
            walk.go(budget, &mut rng);
            left.push(walk.best_left());
        }
        assert!(
            left.windows(2).all(|w| w[1] < w[0] || w[0] == 0),
            "pairs left after each stretch: {left:?}"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]

        /// However far the walk goes past the ports, what it hands back
        /// fits them, and its count of NICs over is the true one.
        #[test]
        fn a_walk_past_the_ports_hands_back_only_groupings_that_fit(seed in 0u64..1_000, nics in 2usize..=4) {
            walked(256, nics, 3 * nics, seed, 40)?;
        }
    }
}
