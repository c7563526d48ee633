//! Settling a sweep cell with the exact mode: a cell over the
//! lower bound is either narrowed by a design the SAT solver finds, or
//! proved optimal by showing the next narrower width impossible on the
//! switch counts tried, or left open when the budget runs out.

use crate::deadline::Deadline;
use crate::design::bounds;
use crate::exact::{self, Verdict};
use crate::spec::quick_cluster;
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How far a cell is settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// No narrower design exists: at the lower bound, or the next narrower
    /// width proved impossible (for the switch counts the proof states).
    Optimal,
    /// The exact search found a narrower design than the constructions and
    /// the GA, but could not prove it optimal.
    Improved,
    /// Over the bound and not proved either way.
    Open,
}

impl Mark {
    pub fn as_str(self) -> &'static str {
        match self {
            Mark::Optimal => "optimal",
            Mark::Improved => "improved",
            Mark::Open => "open",
        }
    }

    pub fn parse(s: &str) -> Option<Mark> {
        [Mark::Optimal, Mark::Improved, Mark::Open]
            .into_iter()
            .find(|m| m.as_str() == s)
    }
}

/// What the exact search made of a cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Settled {
    pub mark: Mark,
    /// The narrowest width now known and the switches its design uses.
    pub width: u32,
    pub switches: usize,
    /// What was proved, in words ("" when nothing was).
    pub proof: String,
}

/// The switches tried at a narrower width: two more than the design in
/// hand (or the covering bound, if larger), unless no design can use that
/// many (`bounds::most_useful_switches`). Empty switches are allowed, so a
/// proof covers every smaller count too.
fn switches_to_try(found: usize, covering: u64) -> usize {
    found.max(covering as usize) + 2
}

/// Tries each narrower width below `width` down to `bound`, `budget` per
/// exact call (two per width: the covering bound's switch count, where
/// designs are found, then more switches, where impossibility is proved):
/// a found design narrows the cell and the next width is tried; an
/// impossibility proves the cell optimal; running out leaves it open.
/// Setting `interrupt` (Ctrl-C) stops the solver at once; the cell is
/// then left as far as it got.
pub fn settle(
    pcs: usize,
    nics: u32,
    bound: u64,
    width: u32,
    switches: usize,
    budget: Duration,
    interrupt: &AtomicBool,
) -> Settled {
    let mut cell = Settled {
        mark: Mark::Open,
        width,
        switches,
        proof: String::new(),
    };
    let mut improved = false;
    while cell.width as u64 > bound {
        let narrower = cell.width - 1;
        let cap = bounds::most_useful_switches(pcs as u64, nics as u64, narrower as u64) as usize;
        let most = switches_to_try(cell.switches, bounds::min_switches(pcs as u64, narrower as u64))
            .min(cap)
            .max(1);
        let proved = |how: String| {
            if most == cap {
                format!("{narrower} ports impossible on any number of switches (a design uses at most {cap}): {how}")
            } else {
                format!("{narrower} ports impossible on up to {most} switches: {how}")
            }
        };
        // The counting bounds may refuse the hardware before any model.
        let cluster = match quick_cluster(pcs, nics, &format!("{narrower}x{most}")) {
            Ok(c) => c,
            Err(e) => {
                cell.mark = Mark::Optimal;
                cell.proof = proved(e.to_string());
                return cell;
            }
        };
        // Each solve has the whole budget, from when it starts.
        let opts = || exact::Options {
            deadline: Deadline::from_now(Some(budget)),
            ..Default::default()
        };
        match at_covering_bound(pcs, nics, narrower, most, &opts(), interrupt) {
            Some(AtBound::Found(d)) => {
                improved = true;
                (cell.width, cell.switches) = (narrower, switches_used(&d));
                continue;
            }
            Some(AtBound::Impossible(proof)) => cell.proof = proof,
            None => {}
        }
        let Ok(out) = exact::solve_until(&cluster, &opts(), interrupt) else {
            break;
        };
        match out.verdict {
            Verdict::Found(d) => {
                improved = true;
                (cell.width, cell.switches) = (narrower, switches_used(&d));
            }
            Verdict::Impossible(_) => {
                cell.mark = Mark::Optimal;
                cell.proof = proved(format!("{} ({:.2} s)", out.model.words(), out.seconds));
                return cell;
            }
            Verdict::Unknown => break,
        }
    }
    if cell.width as u64 <= bound {
        cell.mark = Mark::Optimal;
        cell.proof = super::at_bound(pcs, nics, bound);
    } else if improved {
        cell.mark = Mark::Improved;
    }
    cell
}

/// What the solver said at the covering bound's switch count.
enum AtBound {
    Found(crate::design::Design),
    /// The proof column's words for it.
    Impossible(String),
}

/// A design that exists usually uses exactly the covering bound's
/// switches, and the solver finds it far sooner there (18 PCs with 6 NICs
/// on 27 four-port switches: 36 s; on 29: unknown after 20). Impossible
/// there is worth saying even if the wider count stays unknown: it is what
/// an open cell's proof column then holds. `None` when the bound is not
/// below `most` or the solver could not tell.
fn at_covering_bound(
    pcs: usize,
    nics: u32,
    narrower: u32,
    most: usize,
    opts: &exact::Options,
    interrupt: &AtomicBool,
) -> Option<AtBound> {
    let tight = bounds::min_switches(pcs as u64, narrower as u64) as usize;
    if tight >= most {
        return None;
    }
    let out = solve_on(pcs, nics, narrower, tight, opts, interrupt)?;
    match out.verdict {
        Verdict::Found(d) => Some(AtBound::Found(d)),
        Verdict::Impossible(_) => Some(AtBound::Impossible(format!(
            "{narrower} ports impossible on up to {tight} switches: {} ({:.2} s); unknown on up to {most}",
            out.model.words(),
            out.seconds
        ))),
        Verdict::Unknown => None,
    }
}

fn switches_used(d: &crate::design::Design) -> usize {
    d.ports_used().iter().filter(|&&u| u > 0).count()
}

/// The exact search on `switches` switches of `width` ports (`None` when
/// the hardware cannot even be set up).
fn solve_on(
    pcs: usize,
    nics: u32,
    width: u32,
    switches: usize,
    opts: &exact::Options,
    interrupt: &AtomicBool,
) -> Option<exact::Outcome> {
    let cluster = quick_cluster(pcs, nics, &format!("{width}x{switches}")).ok()?;
    exact::solve_until(&cluster, opts, interrupt).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_round_trip() {
        for m in [Mark::Optimal, Mark::Improved, Mark::Open] {
            assert_eq!(Mark::parse(m.as_str()), Some(m));
        }
        assert_eq!(Mark::parse("proved"), None);
    }

    /// 15 PCs, 4 NICs: the constructions need 6 ports. Told the bound is
    /// 5 (what it was before the second-moment bound ruled out a pair on
    /// three common switches), the cell is still proved: 5 ports are
    /// refused on the most switches a design can use, before any model
    /// runs. (The SAT model alone proves it too: `tests/core/exact.rs`.)
    #[test]
    fn proves_fifteen_pcs_with_four_nics_need_six_ports() {
        let s = settle(15, 4, 5, 6, 10, Duration::from_secs(120), &AtomicBool::new(false));
        assert_eq!(s.mark, Mark::Optimal, "{s:?}");
        assert_eq!((s.width, s.switches), (6, 10));
        assert!(
            s.proof
                .starts_with("5 ports impossible on any number of switches (a design uses at most 14): ")
                && s.proof.contains("counting the PCs two switches share"),
            "{}",
            s.proof
        );
    }

    /// A bound the cell's record predates still settles it: told the
    /// bound is 4, 9 PCs with 3 NICs find 4 ports refused by the plane bound.
    #[test]
    fn a_refusing_bound_proves_the_cell() {
        let s = settle(9, 3, 4, 5, 6, Duration::from_secs(60), &AtomicBool::new(false));
        assert_eq!((s.mark, s.width), (Mark::Optimal, 5), "{s:?}");
        assert!(s.proof.contains("projective plane of order 2"), "{}", s.proof);
    }

    /// 18 PCs, 6 NICs: the constructions need 5 ports; 4 ports work on
    /// exactly 27 switches (the covering bound, every port used), where the
    /// solver finds the design, and 4 is the bound.
    #[test]
    fn narrows_eighteen_pcs_with_six_nics_on_the_covering_count() {
        let s = settle(18, 6, 4, 5, 21, Duration::from_secs(120), &AtomicBool::new(false));
        assert_eq!((s.mark, s.width, s.switches), (Mark::Optimal, 4, 27), "{s:?}");
        assert!(
            s.proof.starts_with("at the lower bound: 3 ports ruled out"),
            "{}",
            s.proof
        );
    }

    /// 10 PCs, 5 NICs: the construction's 4 ports narrow to the bound's 3.
    #[test]
    fn narrows_ten_pcs_with_five_nics_to_the_bound() {
        let s = settle(10, 5, 3, 4, 10, Duration::from_secs(60), &AtomicBool::new(false));
        assert_eq!((s.mark, s.width), (Mark::Optimal, 3), "{s:?}");
        assert!(
            s.proof.starts_with("at the lower bound: 2 ports ruled out"),
            "{}",
            s.proof
        );
    }
}
