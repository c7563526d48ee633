//! One row of the all-pairs pass written out for AVX-512 VPOPCNTDQ: the
//! pairs of a PC on fewer than 8 switches with the PCs after it, one-word
//! masks, 8 pairs an instruction.
//!
//! The compiler vectorises the portable row (`packed_row`) but keeps the
//! histogram's variable shift and an unconditional load and store of the
//! uncovered counts per 8 pairs. Here the histogram step is one table
//! lookup (`vpermq` of `1 << 8l` by the pair's links) and the uncovered
//! counts are touched only where a block of 8 has an uncovered pair, which
//! late in a search is almost never.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Whether this CPU runs [`row`]'s wide kernel (read once; std caches it).
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The pairs of `ma` (fewer than 8 bits set) with each mask of `after`:
/// adds 1 to `lacking[i]` where they share no switch, adds each pair to
/// `hist[links]` (a bin for each count `ma` allows: at most 8), and returns how many share none. `None` where
/// the CPU lacks the instructions: the caller runs the portable row.
pub fn row(ma: u64, after: &[u64], lacking: &mut [u32], hist: &mut [i64]) -> Option<u32> {
    // A bin for every count of links `ma` can have with another mask.
    debug_assert!(ma.count_ones() < 8 && lacking.len() >= after.len() && hist.len() > ma.count_ones() as usize);
    #[cfg(target_arch = "x86_64")]
    if after.len() >= SHORTEST && available() {
        // SAFETY: the features the kernel is compiled for were detected
        // above; it reads and writes only within the slices it is given.
        return Some(unsafe { row_avx512(ma, after, lacking, hist) });
    }
    None
}

/// Rows shorter than this run the portable row: the wide one's fixed
/// work (emptying the packed histogram) would outweigh its pairs.
#[cfg(target_arch = "x86_64")]
const SHORTEST: usize = 256;

/// Blocks of 8 pairs between emptying the packed histogram: each lane
/// adds one to one of its bytes per block, and a byte holds 255.
#[cfg(target_arch = "x86_64")]
const FLUSH_EVERY: usize = 255;

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq")]
fn row_avx512(ma: u64, after: &[u64], lacking: &mut [u32], hist: &mut [i64]) -> u32 {
    let va = _mm512_set1_epi64(ma as i64);
    // Lane l of the table is 1 << 8l: a pair with l links counts in byte l.
    let table = _mm512_set_epi64(1 << 56, 1 << 48, 1 << 40, 1 << 32, 1 << 24, 1 << 16, 1 << 8, 1);
    let zero = _mm512_setzero_si512();
    let one = _mm256_set1_epi32(1);
    let mut bins = [0i64; 8];
    let blocks = after.len() / 8;
    let mut block = 0;
    while block < blocks {
        let end = (block + FLUSH_EVERY).min(blocks);
        let mut packed = zero;
        for b in block..end {
            let i = b * 8;
            // SAFETY: i + 8 <= blocks * 8 <= after.len() <= lacking.len().
            let mb = unsafe { _mm512_loadu_si512(after.as_ptr().add(i).cast()) };
            let links = _mm512_popcnt_epi64(_mm512_and_si512(va, mb));
            packed = _mm512_add_epi64(packed, _mm512_permutexvar_epi64(links, table));
            let uncovered = _mm512_cmpeq_epi64_mask(links, zero);
            if uncovered != 0 {
                let at = lacking[i..i + 8].as_mut_ptr().cast::<__m256i>();
                // SAFETY: `at` is 8 u32s of `lacking`, checked just above.
                unsafe {
                    let l = _mm256_loadu_si256(at);
                    _mm256_storeu_si256(at, _mm256_mask_add_epi32(l, uncovered, l, one));
                }
            }
        }
        let mut lanes = [0u64; 8];
        // SAFETY: `lanes` is 64 bytes.
        unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), packed) };
        for lane in lanes {
            for (k, bin) in bins.iter_mut().enumerate() {
                *bin += ((lane >> (8 * k)) & 0xff) as i64;
            }
        }
        block = end;
    }
    for (mb, lack) in after[blocks * 8..].iter().zip(&mut lacking[blocks * 8..]) {
        let l = (ma & mb).count_ones() as usize;
        bins[l] += 1;
        *lack += u32::from(l == 0);
    }
    for (h, b) in hist.iter_mut().zip(bins) {
        *h += b;
    }
    bins[0] as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// The wide row agrees with a plain loop, on rows long enough to empty
    /// the packed histogram several times and with a tail.
    #[test]
    fn the_wide_row_counts_what_a_plain_loop_counts() {
        // A CPU feature cannot be installed, and qemu-user does not emulate
        // AVX-512: on such a CPU the kernel never runs, in CI or in use, and
        // the portable rows it would replace have their own tests.
        if !available() {
            crate::fixtures::not_run(
                "ga::wide_row::tests::the_wide_row_counts_what_a_plain_loop_counts",
                "this CPU has no AVX-512 VPOPCNTDQ, so only the portable rows run here",
            );
            return;
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        // Random rows, and rows where every pair has the same links (all
        // none, all of `ma`'s), which fill one byte of every lane fastest.
        let cases = [255, 256, 263, 264, 2040, 2041, 4100, 9000]
            .into_iter()
            .flat_map(|len| [(len, 0), (len, 1), (len, 2)]);
        for (len, kind) in cases {
            let ma = (0..7).fold(0u64, |m, _| m | 1 << rng.random_range(0..64));
            let after: Vec<u64> = (0..len)
                .map(|_| match kind {
                    0 => (0..3).fold(0u64, |m, _| m | 1 << rng.random_range(0..64)),
                    1 => !ma,
                    _ => ma,
                })
                .collect();
            let mut lacking: Vec<u32> = (0..len).map(|_| rng.random_range(0..5)).collect();
            let mut expected = lacking.clone();
            // As the evaluation sizes it: a bin per possible link count.
            let mut hist = vec![3i64; ma.count_ones() as usize + 1];
            let mut want_hist = hist.clone();
            let mut want_zeros = 0;
            for (mb, lack) in after.iter().zip(&mut expected) {
                let l = (ma & mb).count_ones() as usize;
                want_hist[l] += 1;
                *lack += u32::from(l == 0);
                want_zeros += u32::from(l == 0);
            }
            let zeros = row(ma, &after, &mut lacking, &mut hist);
            if len < SHORTEST {
                assert_eq!(zeros, None, "a row of {len} pairs is left to the portable loop");
                continue;
            }
            assert_eq!(zeros, Some(want_zeros), "{len} pairs");
            assert_eq!(lacking, expected, "{len} pairs");
            assert_eq!(hist, want_hist, "{len} pairs");
        }
    }
}
