//! The local search's tabu marks: the switches each PC may not rejoin for a
//! while. A move marks at most two PCs and a mark lasts a few dozen moves,
//! so a handful of marks per PC hold all that are live: a short row per
//! PC, memory O(PCs). A PCs x switches table (64 MB at 4096 PCs and 2048
//! switches, zeroed for every walk) missed the cache on nearly every look,
//! which was most of a walk's time at 1024 PCs.

/// Marks kept per PC; a new one past these replaces the one ending first.
const WAYS: usize = 8;
const NONE: u32 = u32::MAX;

pub(crate) struct Marks {
    rows: Vec<[(u32, u64); WAYS]>,
}

impl Marks {
    pub fn new(pcs: usize) -> Marks {
        Marks {
            rows: vec![[(NONE, 0); WAYS]; pcs],
        }
    }

    /// Whether `pc` may not join `switch` at iteration `now`.
    pub fn holds(&self, pc: usize, switch: u32, now: u64) -> bool {
        self.rows[pc].iter().any(|&(s, until)| s == switch && until > now)
    }

    /// Marks `switch` tabu for `pc` until iteration `until`: over an older
    /// mark of the same switch, else over the mark that ends first (an
    /// expired one whenever there is one).
    pub fn mark(&mut self, pc: usize, switch: u32, until: u64) {
        let row = &mut self.rows[pc];
        let at = row
            .iter()
            .position(|&(s, _)| s == switch)
            .or_else(|| (0..WAYS).min_by_key(|&i| row[i].1))
            .unwrap_or(0);
        row[at] = (switch, until);
    }
}

#[cfg(test)]
mod tests {
    use super::Marks;

    #[test]
    fn a_mark_holds_until_its_iteration_and_for_its_switch_only() {
        let mut t = Marks::new(3);
        t.mark(1, 5, 10);
        assert!(t.holds(1, 5, 9));
        assert!(!t.holds(1, 5, 10), "ends at its iteration");
        assert!(!t.holds(1, 4, 9), "another switch");
        assert!(!t.holds(0, 5, 9), "another PC");
        t.mark(1, 5, 20);
        assert!(t.holds(1, 5, 15), "a new mark of the same switch extends it");
    }

    #[test]
    fn a_full_row_gives_up_the_mark_that_ends_first() {
        let mut t = Marks::new(1);
        for s in 0..super::WAYS as u32 {
            t.mark(0, s, 100 + u64::from(s));
        }
        t.mark(0, 99, 200);
        assert!(t.holds(0, 99, 150));
        assert!(!t.holds(0, 0, 50), "switch 0's mark ended first and made room");
        assert!((1..super::WAYS as u32).all(|s| t.holds(0, s, 50)));
    }
}
