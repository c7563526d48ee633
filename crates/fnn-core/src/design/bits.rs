//! Word-level helpers for per-PC switch bitmasks (the FNN compiler paper, "The GA Structure":
//! a PC's bitmask has bit s set when one of its NICs is on switch s).
//!
//! Masks are slices of `u64` words so the number of switches is not capped at 64.

/// Words needed for `switches` bits (at least one, so empty designs still index).
pub(crate) fn words_for(switches: usize) -> usize {
    switches.div_ceil(64).max(1)
}

/// popcount(a & b): the number of switches two PCs share, i.e. their single-hop links.
#[inline]
pub(crate) fn and_count(a: &[u64], b: &[u64]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x & y).count_ones()).sum()
}

/// `and_count(a, b)` for each `b` in `rest` (masks of `w` words each, one
/// after another) into `out`: one row of a pass over every pair, compiled
/// for the machine's POPCNT where it has one (the portable build's
/// popcount is a dozen instructions).
#[multiversion::multiversion(targets("x86_64+avx2+bmi1+bmi2+lzcnt+popcnt", "x86_64+popcnt"))]
pub fn and_counts(a: &[u64], rest: &[u64], w: usize, out: &mut Vec<u32>) {
    out.clear();
    if w == 1 {
        out.extend(rest.iter().map(|&b| (a[0] & b).count_ones()));
    } else {
        out.extend(
            rest.chunks_exact(w)
                .map(|b| a.iter().zip(b).map(|(x, y)| (x & y).count_ones()).sum::<u32>()),
        );
    }
}

/// Whether two PCs share a switch: no popcount needed, so it is as fast
/// on a CPU without POPCNT.
#[inline]
pub fn meet(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

#[inline]
pub fn count(a: &[u64]) -> u32 {
    a.iter().map(|x| x.count_ones()).sum()
}

#[inline]
pub fn test(mask: &[u64], bit: usize) -> bool {
    mask[bit / 64] >> (bit % 64) & 1 == 1
}

#[inline]
pub fn set(mask: &mut [u64], bit: usize) {
    mask[bit / 64] |= 1 << (bit % 64);
}

#[inline]
pub fn clear(mask: &mut [u64], bit: usize) {
    mask[bit / 64] &= !(1 << (bit % 64));
}

/// The set bits in ascending order.
pub fn ones(mask: &[u64]) -> impl Iterator<Item = usize> + '_ {
    mask.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let bit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            Some(w * 64 + bit)
        })
    })
}

/// How many bits below `bit` are set: a set bit's place among the ones.
pub fn rank(mask: &[u64], bit: usize) -> usize {
    let (w, b) = (bit / 64, bit % 64);
    let below: u32 = mask[..w].iter().map(|x| x.count_ones()).sum();
    (below + (mask[w] & ((1u64 << b) - 1)).count_ones()) as usize
}

/// The `n`-th set bit (0-based), if there are that many.
pub fn nth_one(mask: &[u64], n: usize) -> Option<usize> {
    ones(mask).nth(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_counts_the_ones_below_across_words() {
        let mut m = vec![0u64; 3];
        for b in [0, 63, 64, 130] {
            set(&mut m, b);
        }
        let ranks: Vec<usize> = [0, 63, 64, 130].iter().map(|&b| rank(&m, b)).collect();
        assert_eq!(ranks, vec![0, 1, 2, 3]);
        assert_eq!(rank(&m, 129), 3);
    }

    #[test]
    fn ones_crosses_word_boundaries() {
        let mut m = vec![0u64; 3];
        for b in [0, 63, 64, 130] {
            set(&mut m, b);
        }
        assert_eq!(ones(&m).collect::<Vec<_>>(), vec![0, 63, 64, 130]);
        assert_eq!(count(&m), 4);
        clear(&mut m, 63);
        assert!(!test(&m, 63));
        assert_eq!(nth_one(&m, 1), Some(64));
        assert_eq!(nth_one(&m, 3), None);
    }

    #[test]
    fn and_count_counts_shared_bits() {
        assert_eq!(and_count(&[0b1011, 1], &[0b0110, 1]), 2);
        assert!(meet(&[0, 2], &[1, 2]));
        assert!(!meet(&[1, 2], &[2, 1]));
        assert_eq!(words_for(0), 1);
        assert_eq!(words_for(64), 1);
        assert_eq!(words_for(65), 2);
    }
}
