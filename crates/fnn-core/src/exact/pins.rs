//! Whether a spec's pins can be obeyed together. The counting checks
//! (`spec::check_feasible`) look at one PC or one switch at a time, so
//! pins can pass them and still leave a required pair no switch to share
//! (n0's three NICs pinned to switches 0-2, n1's to 3-5): a search then
//! runs to its limits without a chance. This looks first at every pair a
//! pin touches, which names the pair, then runs the exact model with the
//! pins inside a small time and size budget, so the designer can answer a
//! pin on the spot and `design` can refuse instead of searching.

use super::model::Model;
use super::per_pc;
use super::solve::{Options, Verdict, solve};
use crate::design::{Design, bits};
use crate::spec::Cluster;
use std::time::Duration;

/// What the pins allow.
#[derive(Clone, Debug, PartialEq)]
pub enum PinsVerdict {
    /// A wiring obeys every pin and covers every required pair (or
    /// nothing is pinned).
    Possible,
    /// No wiring obeys the pins; the reason in words.
    Impossible(String),
    /// Neither proved within the budget; the whole sentence, in words.
    NotProved(String),
}

/// The time the designer, `design` and `check` give the exact model to
/// settle a spec's pins: short enough to wait for, long enough for the
/// small clusters where pins matter most.
pub const BUDGET: Duration = Duration::from_secs(2);

/// A model estimated larger than this is not built for the check: it
/// would not be solved within the budget and would take the memory the
/// search needs.
const MAX_BYTES: u64 = 256 << 20;

/// Checks `c`'s pins together within `budget`.
pub fn check_pins(c: &Cluster, budget: Duration) -> PinsVerdict {
    check_pins_design(c, budget).0
}

/// Checks `c`'s pins as `check_pins`, with the design that proved them
/// possible when the exact model found one (the designer re-seeds the
/// search from it when its own repair cannot obey the pins).
pub fn check_pins_design(c: &Cluster, budget: Duration) -> (PinsVerdict, Option<Design>) {
    if c.pins.is_empty() {
        return (PinsVerdict::Possible, None);
    }
    if let Some(why) = stranded_pair(c) {
        return (PinsVerdict::Impossible(why), None);
    }
    settle(c, budget)
}

/// The exact model with the pins, within the budget and the size limit.
fn settle(c: &Cluster, budget: Duration) -> (PinsVerdict, Option<Design>) {
    let secs = budget.as_secs_f64();
    let size = per_pc::estimate(c);
    if size.bytes() > MAX_BYTES {
        let why = format!(
            "the pins were not proved possible or impossible: the exact model would need about {} ({} clauses), more than the {} a quick check may take",
            crate::budget::human(size.bytes()),
            size.clauses,
            crate::budget::human(MAX_BYTES)
        );
        return (PinsVerdict::NotProved(why), None);
    }
    let opts = Options {
        deadline: crate::deadline::Deadline::from_now(Some(budget)),
        proof: false,
        only: Some(Model::PerPc),
        count_only: false,
    };
    match solve(c, &opts) {
        Ok(out) => match out.verdict {
            Verdict::Found(d) => (PinsVerdict::Possible, Some(d)),
            Verdict::Impossible(why) => (PinsVerdict::Impossible(why), None),
            Verdict::Unknown => (
                PinsVerdict::NotProved(format!(
                    "the pins were not proved possible or impossible in {secs} s ({})",
                    out.unknown_because.as_deref().unwrap_or("the time limit ran out first")
                )),
                None,
            ),
        },
        Err(e) => (
            PinsVerdict::NotProved(format!(
                "the pins were not proved possible or impossible: the exact model failed: {e}"
            )),
            None,
        ),
    }
}

/// A required pair the pins leave no switch to share, in words: a PC
/// whose every NIC is pinned can be only on those switches, a forbidden
/// switch is out, and a switch whose ports the pins fill takes no one else.
fn stranded_pair(c: &Cluster) -> Option<String> {
    let (p, s) = (c.pcs(), c.switch_count());
    let mut pinned_on = vec![0u32; s];
    for pc in 0..p {
        for sw in bits::ones(c.pins.must(pc)) {
            pinned_on[sw] += 1;
        }
    }
    let full: Vec<usize> = (0..s).filter(|&sw| pinned_on[sw] >= c.ports(sw)).collect();
    let every = all_switches(s);
    let reach: Vec<Vec<u64>> = (0..p).map(|pc| reachable(c, pc, &full)).collect();
    // Only a PC whose reach the pins narrowed can strand a pair.
    let narrowed: Vec<bool> = reach.iter().map(|r| *r != every).collect();
    for a in (0..p).filter(|&a| narrowed[a]) {
        for b in (0..p).filter(|&b| !(narrowed[b] && b < a) && c.is_required(a, b)) {
            if !bits::meet(&reach[a], &reach[b]) {
                let (a, b) = (a.min(b), a.max(b));
                let mut why = vec![limit(c, a, &full), limit(c, b, &full)];
                let full_used: Vec<usize> = full
                    .iter()
                    .copied()
                    .filter(|&sw| !c.pins.is_must(a, sw) || !c.pins.is_must(b, sw))
                    .collect();
                if !full_used.is_empty() {
                    why.push(format!("{} full with the PCs pinned to them", switches(&full_used)));
                }
                return Some(format!(
                    "{} and {} must share a switch, but the pins leave them none: {}",
                    c.pc_name(a),
                    c.pc_name(b),
                    why.join("; ")
                ));
            }
        }
    }
    None
}

/// Every switch as a mask.
fn all_switches(s: usize) -> Vec<u64> {
    let mut m = vec![0u64; bits::words_for(s)];
    for sw in 0..s {
        bits::set(&mut m, sw);
    }
    m
}

/// Whether every NIC of `pc` is pinned.
fn all_pinned(c: &Cluster, pc: usize) -> bool {
    bits::count(c.pins.must(pc)) >= c.nics[pc]
}

/// The switches `pc` can be on: its pinned ones when every NIC is pinned,
/// else those not forbidden to it and not filled by others' pins.
fn reachable(c: &Cluster, pc: usize, full: &[usize]) -> Vec<u64> {
    if all_pinned(c, pc) {
        return c.pins.must(pc).to_vec();
    }
    let mut m = all_switches(c.switch_count());
    for sw in bits::ones(c.pins.forbid(pc)) {
        bits::clear(&mut m, sw);
    }
    for &sw in full.iter().filter(|&&sw| !c.pins.is_must(pc, sw)) {
        bits::clear(&mut m, sw);
    }
    m
}

/// What limits `pc`, in words.
fn limit(c: &Cluster, pc: usize, full: &[usize]) -> String {
    let name = c.pc_name(pc);
    if all_pinned(c, pc) {
        let on: Vec<usize> = bits::ones(c.pins.must(pc)).collect();
        return format!(
            "{name} has all its {} pinned, to {}",
            crate::words::count(c.nics[pc] as usize, "NIC"),
            switches(&on)
        );
    }
    let forbidden: Vec<usize> = bits::ones(c.pins.forbid(pc)).collect();
    match (forbidden.is_empty(), full.is_empty()) {
        (false, _) => format!("{name} is forbidden on {}", switches(&forbidden)),
        (true, false) => format!("{name} may use any switch the pins leave room on"),
        (true, true) => format!("{name} may use any switch"),
    }
}

/// "switch 3", "switches 0, 1, 2" (the first twelve, then how many more).
fn switches(list: &[usize]) -> String {
    const SHOWN: usize = 12;
    let mut named: Vec<String> = list.iter().take(SHOWN).map(|s| s.to_string()).collect();
    if list.len() > SHOWN {
        named.push(format!("and {} more", list.len() - SHOWN));
    }
    match list.len() {
        1 => format!("switch {}", named[0]),
        _ => format!("switches {}", named.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::quick_cluster;

    /// 8 PCs with 3 NICs on six 5-port switches: n0 on 0, 1, 2 and n1 on
    /// 3, 4, 5 share nothing, though every count allows both.
    fn split_pair() -> Cluster {
        let mut c = quick_cluster(8, 3, "5x6").expect("a feasible spec");
        for sw in 0..3 {
            c.pins.set_must(0, sw);
            c.pins.set_must(1, sw + 3);
        }
        c
    }

    #[test]
    fn two_pcs_pinned_to_disjoint_switches_are_refused_by_name() {
        let c = split_pair();
        assert!(crate::spec::check_feasible(&c).is_ok(), "the counts allow it");
        let PinsVerdict::Impossible(why) = check_pins(&c, BUDGET) else {
            panic!("not refused")
        };
        let (a, b) = (c.pc_name(0), c.pc_name(1));
        assert!(why.starts_with(&format!("{a} and {b} must share a switch")), "{why}");
        assert!(
            why.contains("switches 0, 1, 2") && why.contains("switches 3, 4, 5"),
            "{why}"
        );
    }

    #[test]
    fn pins_that_leave_room_are_possible() {
        let mut c = quick_cluster(8, 3, "5x6").expect("a feasible spec");
        c.pins.set_must(0, 0);
        c.pins.set_must(1, 3);
        c.pins.set_forbid(2, 5);
        assert_eq!(check_pins(&c, BUDGET), PinsVerdict::Possible);
        c.pins = crate::spec::Pins::new(c.pcs(), c.switch_count());
        assert_eq!(check_pins(&c, BUDGET), PinsVerdict::Possible, "nothing pinned");
    }

    /// A switch the pins fill takes no one else: n2 forbidden everywhere
    /// but switch 0, which the pins of n0, n1 and n3..n5 fill, cannot meet n6.
    #[test]
    fn a_switch_full_of_pinned_pcs_takes_no_one_else() {
        let mut c = quick_cluster(8, 3, "5x6").expect("a feasible spec");
        for pc in [0, 1, 3, 4, 5] {
            c.pins.set_must(pc, 0);
        }
        for sw in 1..6 {
            c.pins.set_forbid(2, sw);
        }
        let PinsVerdict::Impossible(why) = check_pins(&c, BUDGET) else {
            panic!("not refused")
        };
        assert!(why.contains("switch 0 full with the PCs pinned to them"), "{why}");
        // n0 is neither forbidden anywhere nor pinned on every NIC: only
        // the full switch limits it.
        let n0 = c.pc_name(0);
        assert!(
            why.contains(&format!("{n0} may use any switch the pins leave room on")),
            "{why}"
        );
    }

    /// What no single pair shows, the exact model proves: seven PCs of
    /// three NICs on seven 3-port switches must be the Fano plane, where
    /// two PCs share exactly one switch; pinning n0 and n1 both to
    /// switches 0 and 1 leaves every pair a switch and still no wiring.
    #[test]
    fn the_exact_model_refuses_what_no_pair_shows() {
        let c = sat_only();
        assert!(crate::spec::check_feasible(&c).is_ok(), "the counts allow it");
        assert_eq!(stranded_pair(&c), None, "no pair alone shows it");
        let PinsVerdict::Impossible(why) = check_pins(&c, BUDGET) else {
            panic!("not refused")
        };
        assert!(why.contains("within the pins"), "{why}");
    }

    fn sat_only() -> Cluster {
        let mut c = quick_cluster(7, 3, "3x7").expect("the Fano plane");
        for sw in 0..2 {
            c.pins.set_must(0, sw);
            c.pins.set_must(1, sw);
        }
        c
    }
}
