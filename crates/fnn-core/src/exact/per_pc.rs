//! The general model: a boolean `x[pc][switch]` per possible cable.
//!
//! Each PC uses at most its NICs (exactly, when every NIC must be cabled),
//! each switch at most its ports, pins fix their booleans, and every
//! required pair has a switch both PCs are on (an auxiliary per pair and
//! switch). When nothing is pinned and the switches are interchangeable,
//! PC 0's switches are the first ones.

use super::model::{Built, Interrupted, Model, is_true};
use super::size::{self, Size};
use crate::design::Design;
use crate::spec::{Cluster, Coverage};
use rustsat::instances::SatInstance;
use rustsat::types::Lit;
use rustsat::types::constraints::CardConstraint;

/// What [`build`] will make for `c`, from its sizes alone.
pub(super) fn estimate(c: &Cluster) -> Size {
    let (p, s) = (c.pcs() as u64, c.switch_count() as u64);
    let mut total = Size::variables(p.saturating_mul(s));
    for pc in 0..c.pcs() {
        total += size::at_most(s, c.nics[pc].into()) + size::at_least(s, least_nics(c, pc) as u64);
    }
    for (sw, least) in least_loads(c).into_iter().enumerate() {
        total += size::at_most(p, c.switches[sw].ports.into()) + size::at_least(p, least as u64);
    }
    let top = (0..c.pcs()).map(|pc| least_company(c, pc)).max().unwrap_or(1) as u64;
    if top >= 2 {
        let cells = s.saturating_mul(p);
        total += (Size::variables(1) + Size::clauses(2, 3)).times(cells.saturating_mul(top)) + Size::clauses(cells, 2);
    }
    let pairs = match c.coverage {
        Coverage::Universal => p.saturating_mul(p.saturating_sub(1)) / 2,
        Coverage::Sparse => c.pattern.pairs().filter(|&(a, b, w)| w > 0 && a != b).count() as u64,
    };
    total += (Size::variables(1) + Size::clauses(2, 2)).times(pairs.saturating_mul(s)) + Size::clauses(pairs, s);
    // Lex ordering: per compared cell a variable and three short clauses.
    let (columns, rows) = lex_orders(c);
    let cells = (columns as u64)
        .saturating_mul(p)
        .saturating_add((rows as u64).saturating_mul(s));
    total += (Size::variables(1) + Size::clauses(3, 4)).times(cells);
    total
}

/// How many pairs of neighbouring columns and of neighbouring rows
/// [`break_symmetry`] orders.
fn lex_orders(c: &Cluster) -> (usize, usize) {
    let (p, s) = (c.pcs(), c.switch_count());
    let free = c.pins.is_empty();
    let pcs_alike = free && c.coverage == Coverage::Universal && c.nics.iter().all(|&k| k == c.nics[0]);
    let columns = if free {
        (1..s)
            .filter(|&sw| c.switches[sw].ports == c.switches[sw - 1].ports)
            .count()
    } else {
        0
    };
    (columns, if pcs_alike { p.saturating_sub(1) } else { 0 })
}

/// How often the long loops look at the clock: often enough to stop
/// within milliseconds, rarely enough to cost nothing.
const CHECK_EVERY: usize = 1024;

/// The model for `c`, or [`Interrupted`] as soon as `stop` says so.
pub(super) fn build(c: &Cluster, stop: &dyn Fn() -> bool) -> Result<Built, Interrupted> {
    let (p, s) = (c.pcs(), c.switch_count());
    let mut inst = SatInstance::new();
    let x: Vec<Vec<Lit>> = (0..p).map(|_| (0..s).map(|_| inst.new_lit()).collect()).collect();
    for (pc, row) in x.iter().enumerate() {
        let nics = c.nics[pc] as usize;
        inst.add_card_constr(CardConstraint::new_ub(row.iter().copied(), nics));
        let least = least_nics(c, pc);
        if least > 0 {
            inst.add_card_constr(CardConstraint::new_lb(row.iter().copied(), least));
        }
        for (sw, &l) in row.iter().enumerate() {
            if c.pins.is_must(pc, sw) {
                inst.add_unit(l);
            } else if c.pins.is_forbidden(pc, sw) {
                inst.add_unit(!l);
            }
        }
    }
    for (sw, least) in least_loads(c).into_iter().enumerate() {
        let column = || x.iter().map(|row| row[sw]);
        inst.add_card_constr(CardConstraint::new_ub(column(), c.switches[sw].ports as usize));
        if least > 0 {
            inst.add_card_constr(CardConstraint::new_lb(column(), least));
        }
    }
    used_switches_are_busy(c, &x, &mut inst, stop)?;
    for (i, (a, b)) in required_pairs(c).enumerate() {
        if i % CHECK_EVERY == 0 && stop() {
            return Err(Interrupted);
        }
        let meet: Vec<Lit> = (0..s)
            .map(|sw| {
                let m = inst.new_lit();
                inst.add_lit_impl_lit(m, x[a][sw]);
                inst.add_lit_impl_lit(m, x[b][sw]);
                m
            })
            .collect();
        inst.add_nary(&meet);
    }
    break_symmetry(c, &x, &mut inst);
    if stop() {
        return Err(Interrupted);
    }
    let decode = Box::new(move |a: &rustsat::types::Assignment| {
        let mut d = Design::new(p, s);
        for (pc, row) in x.iter().enumerate() {
            for (sw, &l) in row.iter().enumerate() {
                if is_true(a, l) {
                    d.connect(pc, sw);
                }
            }
        }
        d
    });
    Ok(Built {
        instance: inst,
        model: Model::PerPc,
        decode,
    })
}

/// Double lex: switches of the same width are interchangeable, so within
/// each run of equal widths their columns are in decreasing lex order, and
/// when the PCs are interchangeable too (universal, one NIC count, no
/// pins) so are their rows. Any design can be permuted into this form (the
/// lex-largest relabelling, read row by row, has it: a row or a column
/// out of order could be swapped for a larger one), so no design is lost,
/// and the solver never explores relabellings.
fn break_symmetry(c: &Cluster, x: &[Vec<Lit>], inst: &mut SatInstance) {
    let (p, s) = (c.pcs(), c.switch_count());
    let (columns, rows) = lex_orders(c);
    if columns > 0 {
        for sw in (1..s).filter(|&sw| c.switches[sw].ports == c.switches[sw - 1].ports) {
            let a: Vec<Lit> = (0..p).map(|pc| x[pc][sw - 1]).collect();
            let b: Vec<Lit> = (0..p).map(|pc| x[pc][sw]).collect();
            lex_geq(inst, &a, &b);
        }
    }
    if rows > 0 {
        for pc in 1..p {
            lex_geq(inst, &x[pc - 1], &x[pc]);
        }
    }
}

/// `a >= b` in lex order (most significant first): while the prefixes are
/// equal (`eq`), `b[i]` forces `a[i]`.
fn lex_geq(inst: &mut SatInstance, a: &[Lit], b: &[Lit]) {
    let mut eq: Option<Lit> = None;
    for (i, (&ai, &bi)) in a.iter().zip(b).enumerate() {
        let mut guard: Vec<Lit> = eq.iter().map(|&e| !e).collect();
        let mut clause = guard.clone();
        clause.extend([!bi, ai]);
        inst.add_clause(clause.as_slice().into());
        if i + 1 == a.len() {
            break;
        }
        let next = inst.new_lit();
        // Equal so far and equal here: still equal.
        guard.push(next);
        let mut both = guard.clone();
        both.extend([ai, bi]);
        inst.add_clause(both.as_slice().into());
        guard.extend([!ai, !bi]);
        inst.add_clause(guard.as_slice().into());
        eq = Some(next);
    }
}

/// The fewest NICs PC `pc` can have cabled: all of them when the spec says
/// so, else enough that its switches (each at most the widest less itself)
/// can reach every PC it must meet. Implied, so it only prunes.
pub(super) fn least_nics(c: &Cluster, pc: usize) -> usize {
    let nics = c.nics[pc] as usize;
    if c.cable_every_nic {
        return nics;
    }
    let need = c.partners_needed(pc);
    let widest = c.switches.iter().map(|w| w.ports as usize).max().unwrap_or(0);
    if need == 0 || widest < 2 {
        return 0;
    }
    need.div_ceil(widest - 1).min(nics)
}

/// The fewest PCs each switch can hold: the NICs that must be cabled (at
/// least [`least_nics`] per PC) less what the other switches' ports take.
/// Implied, so it only prunes.
pub(super) fn least_loads(c: &Cluster) -> Vec<usize> {
    let ends: usize = (0..c.pcs()).map(|pc| least_nics(c, pc)).sum();
    let ports: usize = c.switches.iter().map(|w| w.ports as usize).sum();
    c.switches
        .iter()
        .map(|w| ends.saturating_sub(ports - w.ports as usize))
        .collect()
}

/// The fewest PCs a switch must hold if PC `pc` is on it: its other NICs
/// reach at most (NICs - 1) x (widest - 1) partners, so this switch must
/// bring the rest. 1 when that says nothing. Implied, so it only prunes.
pub(super) fn least_company(c: &Cluster, pc: usize) -> usize {
    let widest = c.switches.iter().map(|w| w.ports as usize).max().unwrap_or(0);
    let others = (c.nics[pc] as usize).saturating_sub(1) * widest.saturating_sub(1);
    (c.partners_needed(pc) + 1).saturating_sub(others).max(1)
}

/// A switch with PC `pc` on it holds at least [`least_company`] PCs (24
/// PCs with 5 NICs on 6-port switches: a used switch holds 4 or more).
/// Loads come from one-sided counters: `at_least[k]` can only be true when
/// at least k + 1 PCs are on the switch, which is all this needs. (Also
/// requiring each PC's switches' loads to add up to its partners made 18
/// PCs with 6 NICs on 27 four-port switches unknown after 100 s; this
/// alone finds it in 8 s, against 34 s without.)
fn used_switches_are_busy(
    c: &Cluster,
    x: &[Vec<Lit>],
    inst: &mut SatInstance,
    stop: &dyn Fn() -> bool,
) -> Result<(), Interrupted> {
    let least: Vec<usize> = (0..c.pcs()).map(|pc| least_company(c, pc)).collect();
    let top = least.iter().copied().max().unwrap_or(1);
    if top < 2 {
        return Ok(());
    }
    for sw in 0..c.switch_count() {
        if stop() {
            return Err(Interrupted);
        }
        let at_least = counter(inst, x.iter().map(|row| row[sw]), top);
        for (pc, row) in x.iter().enumerate() {
            if least[pc] >= 2 {
                inst.add_lit_impl_lit(row[sw], at_least[least[pc] - 1]);
            }
        }
    }
    Ok(())
}

/// Literals `r[k]` (k < `top`) that can only be true when at least k + 1
/// of `lits` are: a sequential counter with only that direction (a
/// missing literal is false).
fn counter(inst: &mut SatInstance, lits: impl Iterator<Item = Lit>, top: usize) -> Vec<Lit> {
    let mut prev: Vec<Option<Lit>> = vec![None; top];
    for here in lits {
        prev = (0..top)
            .map(|k| {
                let r = inst.new_lit();
                // r -> (at least k + 1 before) or (here and at least k before)
                let mut with_here = vec![!r, here];
                with_here.extend(prev[k]);
                inst.add_clause(with_here.as_slice().into());
                if k > 0 {
                    let mut with_k = vec![!r];
                    with_k.extend(prev[k]);
                    with_k.extend(prev[k - 1]);
                    inst.add_clause(with_k.as_slice().into());
                }
                Some(r)
            })
            .collect();
    }
    prev.into_iter()
        .map(|r| {
            r.unwrap_or_else(|| {
                let never = inst.new_lit();
                inst.add_unit(!never);
                never
            })
        })
        .collect()
}

/// Every pair that must share a switch (a < b), made as needed: a
/// universal cluster's P²/2 pairs are never held at once.
fn required_pairs(c: &Cluster) -> Box<dyn Iterator<Item = (usize, usize)> + '_> {
    let p = c.pcs();
    match c.coverage {
        Coverage::Universal => Box::new((0..p).flat_map(move |a| (a + 1..p).map(move |b| (a, b)))),
        Coverage::Sparse => Box::new(
            c.pattern
                .pairs()
                .filter(|&(a, b, w)| w > 0 && a != b)
                .map(|(a, b, _)| (a.min(b), a.max(b))),
        ),
    }
}
