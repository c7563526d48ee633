//! Weighted PC pairs: the pairs whose bandwidth the evaluation values
//! and, for a sparse FNN, the pairs that must share a switch; and the grid
//! geometry the spec's patterns are drawn on (`spec::patterns` turns a
//! spec's patterns into pairs).
//!
//! Weights are kept as integer thousandths so that sums updated one pair at
//! a time (incremental evaluation) are exact and match a full evaluation.

/// Weight scale: a pattern weight of 1.0 is stored as 1000.
pub(crate) const WEIGHT_SCALE: f64 = 1000.0;

/// Symmetric weighted pair set, stored per PC (each pair appears under both
/// PCs) so a PC's row can be re-evaluated on its own.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairWeights {
    pcs: usize,
    all_to_all: i64,
    total: i64,
    offsets: Vec<u32>,
    partners: Vec<u32>,
    weights: Vec<i64>,
}

impl PairWeights {
    /// Builds from explicit pairs (a, b, weight in thousandths); duplicates add.
    pub(crate) fn from_pairs(
        pcs: usize,
        all_to_all: i64,
        pairs: impl IntoIterator<Item = (usize, usize, i64)>,
    ) -> Self {
        // Sorted and merged in one vector: a map of millions of pairs took
        // seconds and several times the memory.
        let mut merged: Vec<(u32, u32, i64)> = pairs
            .into_iter()
            .filter(|&(a, b, _)| a != b)
            .map(|(a, b, w)| (a.min(b) as u32, a.max(b) as u32, w))
            .collect();
        merged.sort_unstable_by_key(|&(a, b, _)| (a, b));
        merged.dedup_by(|later, first| {
            let same = (later.0, later.1) == (first.0, first.1);
            if same {
                first.2 += later.2;
            }
            same
        });
        merged.retain(|&(_, _, w)| w > 0);
        let total = merged.iter().map(|&(_, _, w)| w).sum();
        let mut degree = vec![0u32; pcs + 1];
        for &(a, b, _) in &merged {
            degree[a as usize] += 1;
            degree[b as usize] += 1;
        }
        let mut offsets = Vec::with_capacity(pcs + 1);
        offsets.push(0u32);
        for d in &degree[..pcs] {
            offsets.push(offsets.last().expect("starts at 0") + d);
        }
        let mut fill: Vec<u32> = offsets[..pcs].to_vec();
        let mut partners = vec![0u32; merged.len() * 2];
        let mut weights = vec![0i64; merged.len() * 2];
        // In (a, b) order, so each row's partners come out sorted: a row's
        // lower partners (as b) arrive before its higher ones (as a).
        for &(a, b, w) in &merged {
            for (me, other) in [(a, b), (b, a)] {
                let at = fill[me as usize] as usize;
                partners[at] = other;
                weights[at] = w;
                fill[me as usize] += 1;
            }
        }
        PairWeights {
            pcs,
            all_to_all,
            total,
            offsets,
            partners,
            weights,
        }
    }

    pub fn pcs(&self) -> usize {
        self.pcs
    }

    /// Weight every pair gets from an all-to-all pattern, in thousandths.
    pub fn all_to_all(&self) -> i64 {
        self.all_to_all
    }

    pub fn is_empty(&self) -> bool {
        self.all_to_all == 0 && self.partners.is_empty()
    }

    /// Explicit pairs (each counted once).
    pub fn pair_count(&self) -> usize {
        self.partners.len() / 2
    }

    /// The partners of `pc` and their weights.
    pub fn row(&self, pc: usize) -> (&[u32], &[i64]) {
        if pc >= self.pcs {
            return (&[], &[]);
        }
        let r = self.offsets[pc] as usize..self.offsets[pc + 1] as usize;
        (&self.partners[r.clone()], &self.weights[r])
    }

    /// Where `pc`'s row starts among all rows' entries (rows are laid end
    /// to end, `2 x pair_count()` entries in all).
    pub(crate) fn row_start(&self, pc: usize) -> usize {
        self.offsets.get(pc).map_or(self.partners.len(), |&o| o as usize)
    }

    /// Explicit pattern partners of `pc`.
    pub(crate) fn required_degree(&self, pc: usize) -> usize {
        self.row(pc).0.len()
    }

    /// Weight of one explicit pair (thousandths), 0 when absent.
    pub fn weight(&self, a: usize, b: usize) -> i64 {
        let (p, w) = self.row(a);
        p.binary_search(&(b as u32)).map_or(0, |i| w[i])
    }

    /// Each explicit pair once, as (a, b, weight) with a < b.
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize, i64)> + '_ {
        (0..self.pcs).flat_map(move |a| {
            let (p, w) = self.row(a);
            p.iter()
                .zip(w)
                .filter(move |(b, _)| **b as usize > a)
                .map(move |(&b, &w)| (a, b as usize, w))
        })
    }

    /// The explicit pairs' weights added up (kept: the evaluation asks
    /// after every move).
    pub(crate) fn total_weight(&self) -> i64 {
        self.total
    }
}

/// Row-major coordinates of index `i`.
pub(crate) fn coords(i: usize, dims: &[usize]) -> Vec<usize> {
    let mut c = vec![0; dims.len()];
    let mut rest = i;
    for (k, &d) in dims.iter().enumerate().rev() {
        c[k] = rest % d;
        rest /= d;
    }
    c
}

pub fn index(c: &[usize], dims: &[usize]) -> usize {
    c.iter().zip(dims).fold(0, |acc, (&x, &d)| acc * d + x)
}

pub(crate) fn grid_neighbours(dims: &[usize], torus: bool) -> Vec<(usize, usize)> {
    let n: usize = dims.iter().product();
    let mut out = Vec::new();
    for i in 0..n {
        let c = coords(i, dims);
        for axis in 0..dims.len() {
            let mut next = c.clone();
            if c[axis] + 1 < dims[axis] {
                next[axis] += 1;
            } else if torus && dims[axis] > 2 {
                next[axis] = 0;
            } else {
                continue;
            }
            out.push((i, index(&next, dims)));
        }
    }
    out
}

/// The blocks of side 2 of a grid of even sides (row-major), shifted by
/// `shift` (0 or 1) along each axis and wrapping round as a torus: the
/// switches of a layer that holds every grid edge starting at a
/// coordinate of that parity.
pub(crate) fn shifted_blocks(dims: &[usize], shift: &[usize]) -> Vec<Vec<usize>> {
    let n: usize = dims.iter().product();
    let half: Vec<usize> = dims.iter().map(|d| d / 2).collect();
    let mut blocks = vec![Vec::new(); half.iter().product()];
    for i in 0..n {
        let c = coords(i, dims);
        let b: Vec<usize> = c
            .iter()
            .zip(dims)
            .zip(shift)
            .map(|((&x, &d), &s)| ((x + d - s) % d) / 2)
            .collect();
        blocks[index(&b, &half)].push(i);
    }
    blocks
}

pub(crate) fn grid_lines(dims: &[usize]) -> Vec<(usize, usize)> {
    let n: usize = dims.iter().product();
    let mut out = Vec::new();
    for i in 0..n {
        let c = coords(i, dims);
        for axis in 0..dims.len() {
            for x in c[axis] + 1..dims[axis] {
                let mut other = c.clone();
                other[axis] = x;
                out.push((i, index(&other, dims)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_add_and_rows_are_symmetric() {
        let pw = PairWeights::from_pairs(4, 0, [(0, 1, 1000), (1, 0, 500), (2, 3, 0)]);
        assert_eq!(pw.weight(0, 1), 1500);
        assert_eq!(pw.weight(1, 0), 1500);
        assert_eq!(pw.pair_count(), 1);
        assert_eq!(pw.required_degree(2), 0);
    }
}
