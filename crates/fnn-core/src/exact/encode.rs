//! From a model to clauses, watching the clock: the cardinality and
//! pseudo-boolean constraints are encoded one at a time (rustsat's default
//! encoders), and the encoding gives up between two constraints once the
//! run is told to stop. The type-count model's sums take seconds each
//! batch to encode at 200 PCs; encoded whole, they overran a 5 s limit
//! by ten seconds.

use super::model::Interrupted;
use rustsat::encodings::{card, pb};
use rustsat::instances::{BasicVarManager, Cnf, SatInstance};

/// The clauses of `instance`, or [`Interrupted`] as soon as `stop` says
/// so (asked before each constraint is encoded).
pub(super) fn to_cnf(instance: SatInstance, stop: &dyn Fn() -> bool) -> Result<(Cnf, BasicVarManager), Interrupted> {
    let mut halted = false;
    let mut go_on = || {
        halted = halted || stop();
        !halted
    };
    let go_on = std::cell::RefCell::new(&mut go_on);
    let (cnf, vm) = instance.into_cnf_with_encoders(
        |constr, cnf, vm| {
            if (go_on.borrow_mut())() {
                card::default_encode_cardinality_constraint(constr, cnf, vm)
                    .expect("cardinality encoding ran out of memory");
            }
        },
        |constr, cnf, vm| {
            if (go_on.borrow_mut())() {
                pb::default_encode_pb_constraint(constr, cnf, vm).expect("pb encoding ran out of memory");
            }
        },
    );
    if halted {
        super::cadical::dispose(cnf);
        return Err(Interrupted);
    }
    Ok((cnf, vm))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustsat::types::constraints::{CardConstraint, PbConstraint};
    use std::cell::Cell;

    fn instance() -> SatInstance {
        let mut inst = SatInstance::new();
        let lits: Vec<_> = (0..30).map(|_| inst.new_lit()).collect();
        for k in 1..20 {
            inst.add_card_constr(CardConstraint::new_ub(lits.iter().copied(), k));
            let terms = lits.iter().enumerate().map(|(i, &l)| (l, i as isize + 1));
            inst.add_pb_constr(PbConstraint::new_ub(terms, 10 * k as isize));
        }
        inst
    }

    #[test]
    fn a_passed_deadline_stops_the_encoding_before_any_constraint() {
        let asked = Cell::new(0);
        let stop = || {
            asked.set(asked.get() + 1);
            true
        };
        assert!(to_cnf(instance(), &stop).is_err());
        // Asked once; every later constraint is skipped without asking.
        assert_eq!(asked.get(), 1);
    }

    #[test]
    fn the_clock_is_asked_before_every_constraint_and_the_encoding_completes() {
        let asked = Cell::new(0);
        let stop = || {
            asked.set(asked.get() + 1);
            false
        };
        let (cnf, _) = to_cnf(instance(), &stop).expect("not stopped");
        assert!(cnf.len() > 100);
        assert_eq!(asked.get(), 38, "19 cardinality and 19 pseudo-boolean constraints");
    }
}
