//! Rewire plans (the KLAT2 paper §3: KLAT2 was re-wired for DNSTool "in less than
//! a few hours"): the cable moves that turn one design of a cluster into
//! another. Switches are interchangeable and identified by their cable
//! colour, so the new design's switches are first relabelled to the old
//! ones that share the most PCs with them (an assignment problem, solved
//! exactly by the Hungarian method); then every PC moves only the cables
//! whose switch changed.

use fnn_core::design::Design;
use pathfinding::kuhn_munkres::kuhn_munkres;
use pathfinding::matrix::Matrix;
use std::fmt::Write as _;

#[derive(Clone, Debug, PartialEq)]
pub struct Move {
    pub pc: usize,
    /// Unplug the cable of this (old) switch, if any.
    pub from: Option<usize>,
    /// Plug a cable of this (old-numbered) switch, if any.
    pub to: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Rewire {
    /// New switch j is built as old switch `relabel[j]`.
    pub relabel: Vec<usize>,
    pub moves: Vec<Move>,
    /// Cables that stay where they are.
    pub kept: usize,
}

/// The two designs are not of the same cluster.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[error("the old design has {old} PCs and the new one {new}")]
pub struct RewireError {
    pub old: usize,
    pub new: usize,
}

pub fn plan(old: &Design, new: &Design) -> Result<Rewire, RewireError> {
    if old.pcs() != new.pcs() {
        return Err(RewireError {
            old: old.pcs(),
            new: new.pcs(),
        });
    }
    let n = old.switches().max(new.switches());
    let (on, nn) = (old.pcs_on_switches(), new.pcs_on_switches());
    let overlap = |j: usize, k: usize| -> i64 {
        match (nn.get(j), on.get(k)) {
            (Some(a), Some(b)) => a.iter().filter(|p| b.binary_search(p).is_ok()).count() as i64,
            _ => 0,
        }
    };
    // Each new switch takes the old switch it shares the most cables with,
    // the total shared as large as it can be (an optimal assignment).
    let shared = Matrix::from_fn(n, n, |(j, k)| overlap(j, k));
    let (_, relabel) = kuhn_munkres(&shared);
    let mut moves = Vec::new();
    let mut kept = 0;
    for pc in 0..old.pcs() {
        let was = old.switches_of(pc);
        let mut will: Vec<usize> = new.switches_of(pc).into_iter().map(|j| relabel[j]).collect();
        will.sort_unstable();
        kept += was.iter().filter(|s| will.contains(s)).count();
        let gone: Vec<usize> = was.iter().copied().filter(|s| !will.contains(s)).collect();
        let come: Vec<usize> = will.iter().copied().filter(|s| !was.contains(s)).collect();
        for i in 0..gone.len().max(come.len()) {
            moves.push(Move {
                pc,
                from: gone.get(i).copied(),
                to: come.get(i).copied(),
            });
        }
    }
    Ok(Rewire { relabel, moves, kept })
}

/// The old design with the plan's moves made.
pub fn apply(old: &Design, plan: &Rewire) -> Design {
    let n = old.switches().max(plan.relabel.len());
    let mut d = Design::new(old.pcs(), n);
    for pc in 0..old.pcs() {
        for s in old.switches_of(pc) {
            d.connect(pc, s);
        }
    }
    for m in &plan.moves {
        if let Some(f) = m.from {
            d.disconnect(m.pc, f);
        }
        if let Some(t) = m.to {
            d.connect(m.pc, t);
        }
    }
    d
}

/// The new design in the old switch numbering (what `apply` yields).
pub fn relabelled(new: &Design, plan: &Rewire) -> Design {
    let mut d = Design::new(new.pcs(), plan.relabel.len().max(new.switches()));
    for pc in 0..new.pcs() {
        for j in new.switches_of(pc) {
            d.connect(pc, plan.relabel[j]);
        }
    }
    d
}

pub fn text(plan: &Rewire, name: &dyn Fn(usize) -> String, cable: &dyn Fn(usize) -> String) -> String {
    let mut s = format!(
        "# Rewire plan: {} cable moves, {} cables stay\n",
        plan.moves.len(),
        plan.kept
    );
    s.push_str("# New switch -> existing switch (keep its cables and colour):\n");
    for (j, k) in plan.relabel.iter().enumerate() {
        let _ = writeln!(s, "#   new {j} -> switch {k} ({})", cable(*k));
    }
    for m in &plan.moves {
        let what = match (m.from, m.to) {
            (Some(f), Some(t)) => format!("move the {} cable (switch {f}) to switch {t} ({})", cable(f), cable(t)),
            (Some(f), None) => format!("unplug the {} cable (switch {f})", cable(f)),
            (None, Some(t)) => format!("plug a {} cable into switch {t}", cable(t)),
            (None, None) => continue,
        };
        let _ = writeln!(s, "{:<8} {what}", name(m.pc));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use fnn_core::design::parse_table;

    #[test]
    fn a_renumbered_design_needs_no_moves() {
        let old = parse_table("0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n", "t", 6, 3).unwrap();
        let new = parse_table("2: 0 1 2 3\n0: 0 1 4 5\n1: 2 3 4 5\n", "t", 6, 3).unwrap();
        let p = plan(&old, &new).unwrap();
        assert!(p.moves.is_empty());
        assert_eq!(p.kept, 12);
        assert_eq!(apply(&old, &p), relabelled(&new, &p));
    }

    /// The assignment keeps as many cables as any relabelling could:
    /// checked against every permutation of a few switches.
    #[test]
    fn the_relabelling_keeps_the_most_cables() {
        let old = parse_table("0: 0 1 2\n1: 2 3 4\n2: 0 4 5\n3: 1 3 5\n", "t", 6, 4).unwrap();
        let new = parse_table("0: 2 3 5\n1: 0 1 4\n2: 0 2 3\n3: 1 4 5\n", "t", 6, 4).unwrap();
        let p = plan(&old, &new).unwrap();
        let (on, nn) = (old.pcs_on_switches(), new.pcs_on_switches());
        let kept = |perm: &[usize]| -> usize {
            (0..4)
                .map(|j| nn[j].iter().filter(|pc| on[perm[j]].contains(pc)).count())
                .sum()
        };
        let mut best = 0;
        for a in 0..4 {
            for b in (0..4).filter(|&b| b != a) {
                for c in (0..4).filter(|&c| c != a && c != b) {
                    let d = 6 - a - b - c;
                    best = best.max(kept(&[a, b, c, d]));
                }
            }
        }
        assert_eq!(p.kept, best);
        assert_eq!(kept(&p.relabel), best);
    }
}
