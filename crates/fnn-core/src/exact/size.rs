//! What a model will cost before it is built: variables, clauses and
//! literals from the cluster's sizes alone, and the memory that takes in
//! the encoder and the solver together. The exact mode refuses a model
//! whose estimate is over the machine's budget instead of being killed
//! half-way through building it.

use std::ops::{Add, AddAssign};

/// A model's size, counted or estimated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    pub variables: u64,
    pub clauses: u64,
    pub literals: u64,
}

/// Peak bytes per clause, literal and variable across building, encoding
/// and solving, measured on per-PC models of 2.7M to 10M clauses (peak RSS
/// over clauses, then rounded up so the estimate stays above every
/// measurement; see BENCHMARKS.md).
const BYTES_PER_CLAUSE: u64 = 280;
const BYTES_PER_LITERAL: u64 = 12;
const BYTES_PER_VARIABLE: u64 = 160;

impl Size {
    /// `count` clauses of `width` literals each.
    pub fn clauses(count: u64, width: u64) -> Size {
        Size {
            variables: 0,
            clauses: count,
            literals: count.saturating_mul(width),
        }
    }

    /// `count` new variables.
    pub fn variables(count: u64) -> Size {
        Size {
            variables: count,
            ..Size::default()
        }
    }

    /// `self` repeated `times` times.
    pub fn times(self, times: u64) -> Size {
        Size {
            variables: self.variables.saturating_mul(times),
            clauses: self.clauses.saturating_mul(times),
            literals: self.literals.saturating_mul(times),
        }
    }

    /// The peak memory of building and solving a model of this size.
    pub fn bytes(&self) -> u64 {
        self.clauses
            .saturating_mul(BYTES_PER_CLAUSE)
            .saturating_add(self.literals.saturating_mul(BYTES_PER_LITERAL))
            .saturating_add(self.variables.saturating_mul(BYTES_PER_VARIABLE))
    }
}

impl Add for Size {
    type Output = Size;
    fn add(self, o: Size) -> Size {
        Size {
            variables: self.variables.saturating_add(o.variables),
            clauses: self.clauses.saturating_add(o.clauses),
            literals: self.literals.saturating_add(o.literals),
        }
    }
}

impl AddAssign for Size {
    fn add_assign(&mut self, o: Size) {
        *self = *self + o;
    }
}

/// A totalizer over `n` inputs that counts up to `k` (rustsat's default
/// cardinality encoding): each tree node of `m` inputs has
/// `min(m, k + 1)` outputs, and joining two children of `a` and `b`
/// outputs takes a clause of up to 3 literals per pair of counts `i <= a`,
/// `j <= b` whose sum is 1 to `k + 1`.
pub(crate) fn totalizer(n: u64, k: u64) -> Size {
    let cap = |m: u64| m.min(k.saturating_add(1));
    // Halving leaves at most two distinct node sizes per level, so the
    // tree is walked level by level as (size, how many) pairs.
    let mut level = vec![(n, 1u64)];
    let mut total = Size::default();
    while !level.is_empty() {
        let mut next: Vec<(u64, u64)> = Vec::new();
        for (m, count) in level {
            if m <= 1 {
                continue;
            }
            let (left, right) = (m / 2, m - m / 2);
            let (a, b) = (cap(left), cap(right));
            let join = Size::variables(cap(m)) + Size::clauses(sums_up_to(a, b, k.saturating_add(1)), 3);
            total += join.times(count);
            for child in [left, right] {
                match next.iter_mut().find(|(size, _)| *size == child) {
                    Some((_, c)) => *c = c.saturating_add(count),
                    None => next.push((child, count)),
                }
            }
        }
        level = next;
    }
    total
}

/// The pairs `(i, j)`, `0 <= i <= a`, `0 <= j <= b`, with
/// `1 <= i + j <= top`.
fn sums_up_to(a: u64, b: u64, top: u64) -> u64 {
    // For each i the j run from 0 to min(b, top - i): b + 1 of them while
    // i <= top - b, then top - i + 1; less the pair (0, 0).
    let (a, b, top) = (u128::from(a.min(top)), u128::from(b), u128::from(top));
    let full = if top >= b { (top - b).min(a) + 1 } else { 0 };
    let first = full; // the first i whose count is top - i + 1
    let rest = if a >= first {
        // sum over i in first..=a of (top - i + 1)
        let n = a - first + 1;
        n * (top + 1) - (first + a) * n / 2
    } else {
        0
    };
    let total = full * (b + 1) + rest - 1;
    u64::try_from(total).unwrap_or(u64::MAX)
}

/// An upper bound `sum <= k` over `n` literals, as rustsat encodes it
/// (nothing when it always holds).
pub(crate) fn at_most(n: u64, k: u64) -> Size {
    if k >= n { Size::default() } else { totalizer(n, k) }
}

/// A lower bound `sum >= k` over `n` literals (nothing when `k` is 0).
pub(crate) fn at_least(n: u64, k: u64) -> Size {
    if k == 0 { Size::default() } else { totalizer(n, k) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_totalizer_grows_with_inputs_and_its_bound() {
        assert_eq!(totalizer(1, 5), Size::default());
        let small = totalizer(64, 4);
        let wide = totalizer(64, 32);
        assert!(wide.clauses > small.clauses, "{small:?} vs {wide:?}");
        assert!(totalizer(1 << 20, 8).clauses < 1 << 30, "bounded tree");
        assert_eq!(sums_up_to(1, 1, 2), 3, "(0,1), (1,0), (1,1)");
        assert_eq!(sums_up_to(2, 2, 2), 5, "(0,1) (0,2) (1,0) (1,1) (2,0)");
        for (a, b, top) in [(0, 5, 3), (5, 0, 3), (7, 3, 4), (3, 7, 20), (10, 10, 10), (4, 9, 6)] {
            let counted = (0..=a)
                .flat_map(|i| (0..=b).map(move |j| i + j))
                .filter(|&sum| (1..=top).contains(&sum))
                .count() as u64;
            assert_eq!(sums_up_to(a, b, top), counted, "{a} {b} {top}");
        }
        // Saturates rather than overflowing on absurd sizes.
        assert!(totalizer(u64::MAX / 2, u64::MAX).bytes() > 0);
    }
}
