//! Four rows of the all-pairs pass at once, written for AVX2: the pairs of
//! four consecutive PCs, each on fewer than 8 switches, with every PC after
//! them (one-word masks), 4 pairs an instruction.
//!
//! AVX2 has no vector popcount: a pair's links are two nibble lookups and a
//! byte sum, and that, not the bookkeeping, is most of the bare AND+popcount
//! loop's time. Each row's mask is split by nibble beforehand, so a column
//! is shifted once for four rows and a pair needs no masking before its
//! lookups (the bare loop masks and shifts every pair). Taking four rows
//! against the same 4 columns also lets the columns' uncovered counts stay
//! in a register for the four rows and be stored once (the one-row loop
//! loads and stores them for every pair). The histogram's step is a shift
//! of 1 by 8 x links, added to the row's packed bins and to the columns'
//! at once: byte 0 of the columns' sum is how many of the four rows each
//! column shares no switch with.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Rows taken together.
pub(crate) const ROWS: usize = 4;

/// Whether this CPU runs [`band`]'s kernel (read once; std caches it).
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The pairs among `masks[..ROWS]` (each under 8 bits) and of each of
/// them with every mask after: adds 1 to both PCs' `lacking` where a pair
/// shares no switch and each pair to `hist[links]`. `None` (nothing
/// counted) where the CPU lacks AVX2 or the band is too short for the
/// kernel to pay: the caller takes the rows one by one.
pub(crate) fn band(masks: &[u64], lacking: &mut [u32], hist: &mut [i64]) -> Option<()> {
    debug_assert!(masks.len() == lacking.len() && masks.len() >= ROWS);
    debug_assert!(masks[..ROWS].iter().all(|m| m.count_ones() < 8));
    #[cfg(target_arch = "x86_64")]
    if masks.len() >= SHORTEST && available() {
        // SAFETY: AVX2 was detected above; the kernel reads and writes
        // only within the slices it is given.
        unsafe { band_avx2(masks, lacking, hist) };
        return Some(());
    }
    let _ = (masks, lacking, hist);
    None
}

/// Bands shorter than this run the one-row loops: the kernel's fixed work
/// (emptying the packed bins) would outweigh its pairs.
const SHORTEST: usize = 64;

/// Blocks of 4 pairs between emptying a row's packed bins: each lane adds
/// one to one of its bytes per block, and a byte holds 255.
#[cfg(target_arch = "x86_64")]
const FLUSH_EVERY: usize = 255;

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn band_avx2(masks: &[u64], lacking: &mut [u32], hist: &mut [i64]) {
    let mut bins = [0i64; 8];
    // The pairs inside the band.
    for i in 0..ROWS {
        for j in i + 1..ROWS {
            one_pair(masks, lacking, &mut bins, i, j);
        }
    }
    // 8 x the popcount of each nibble: the byte sum is 8 x links, the
    // shift that puts a pair in byte `links` of its lane.
    let eights = _mm256_setr_epi8(
        0, 8, 8, 16, 8, 16, 16, 24, 8, 16, 16, 24, 16, 24, 24, 32, 0, 8, 8, 16, 8, 16, 16, 24, 8, 16, 16, 24, 16, 24,
        24, 32,
    );
    let zero = _mm256_setzero_si256();
    let one = _mm256_set1_epi64x(1);
    let low_byte = _mm256_set1_epi64x(0xff);
    let even_dwords = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    // Each row's mask split by nibble, the high nibbles shifted down: a
    // column's mask, shifted once for the four rows, ANDed with these is
    // already the lookup's index (no masking per row).
    let low_nibbles = 0x0f0f_0f0f_0f0f_0f0f_u64;
    let rows_low: [__m256i; ROWS] = std::array::from_fn(|r| _mm256_set1_epi64x((masks[r] & low_nibbles) as i64));
    let rows_high: [__m256i; ROWS] =
        std::array::from_fn(|r| _mm256_set1_epi64x(((masks[r] >> 4) & low_nibbles) as i64));
    let mut packed = [zero; ROWS];
    let mut row_zeros = [0u32; ROWS];
    let blocks = (masks.len() - ROWS) / 4;
    let mut since_flush = 0;
    for b in 0..blocks {
        let j = ROWS + 4 * b;
        // SAFETY: j + 4 <= ROWS + 4 * blocks <= masks.len() == lacking.len().
        let mb = unsafe { _mm256_loadu_si256(masks.as_ptr().add(j).cast()) };
        let mb_high = _mm256_srli_epi64(mb, 4);
        let mut columns = zero;
        for r in 0..ROWS {
            let lo = _mm256_and_si256(rows_low[r], mb);
            let hi = _mm256_and_si256(rows_high[r], mb_high);
            let bytes = _mm256_add_epi8(_mm256_shuffle_epi8(eights, lo), _mm256_shuffle_epi8(eights, hi));
            let bin = _mm256_sllv_epi64(one, _mm256_sad_epu8(bytes, zero));
            packed[r] = _mm256_add_epi64(packed[r], bin);
            columns = _mm256_add_epi64(columns, bin);
        }
        // Byte 0 of each lane: the rows its column shares no switch with.
        let uncovered = _mm256_permutevar8x32_epi32(_mm256_and_si256(columns, low_byte), even_dwords);
        let at = lacking[j..j + 4].as_mut_ptr().cast::<__m128i>();
        // SAFETY: `at` is 4 u32s of `lacking`, checked by the slice above.
        unsafe {
            _mm_storeu_si128(
                at,
                _mm_add_epi32(_mm_loadu_si128(at), _mm256_castsi256_si128(uncovered)),
            )
        };
        since_flush += 1;
        if since_flush == FLUSH_EVERY || b + 1 == blocks {
            since_flush = 0;
            for (p, zeros) in packed.iter_mut().zip(&mut row_zeros) {
                *zeros += empty_packed(p, &mut bins);
            }
        }
    }
    for (lack, zeros) in lacking.iter_mut().zip(row_zeros) {
        *lack += zeros;
    }
    for i in 0..ROWS {
        for j in ROWS + 4 * blocks..masks.len() {
            one_pair(masks, lacking, &mut bins, i, j);
        }
    }
    for (h, b) in hist.iter_mut().zip(bins) {
        *h += b;
    }
}

/// Adds a row's packed bins to `bins`, zeroes them, and returns the row's
/// uncovered pairs among them (bin 0).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn empty_packed(packed: &mut __m256i, bins: &mut [i64; 8]) -> u32 {
    let mut lanes = [0u64; 4];
    // SAFETY: `lanes` is 32 bytes.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), *packed) };
    *packed = _mm256_setzero_si256();
    let mut zeros = 0;
    for lane in lanes {
        for (k, bin) in bins.iter_mut().enumerate() {
            *bin += ((lane >> (8 * k)) & 0xff) as i64;
        }
        zeros += (lane & 0xff) as u32;
    }
    zeros
}

#[cfg(target_arch = "x86_64")]
fn one_pair(masks: &[u64], lacking: &mut [u32], bins: &mut [i64; 8], i: usize, j: usize) {
    let l = (masks[i] & masks[j]).count_ones() as usize;
    let z = u32::from(l == 0);
    bins[l] += 1;
    lacking[i] += z;
    lacking[j] += z;
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// The band agrees with a plain loop: bands long enough to empty the
    /// packed bins several times, with and without a tail, random rows and
    /// rows where every pair has the same links (filling one byte fastest).
    #[test]
    fn a_band_counts_what_a_plain_loop_counts() {
        if !available() {
            crate::fixtures::not_run(
                "ga::band_rows::tests::a_band_counts_what_a_plain_loop_counts",
                "this CPU has no AVX2, so only the one-row loops run here",
            );
            return;
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(9);
        let cases = [4, 63, 64, 67, 1024, 1025, 1026, 1027, 4100]
            .into_iter()
            .flat_map(|len| [(len, 0), (len, 1), (len, 2)]);
        for (len, kind) in cases {
            let bits =
                |rng: &mut rand::rngs::StdRng, n: u32| (0..n).fold(0u64, |m, _| m | 1 << rng.random_range(0..64));
            let firsts: Vec<u64> = (0..ROWS).map(|_| bits(&mut rng, 7)).collect();
            let masks: Vec<u64> = firsts
                .iter()
                .copied()
                .chain((ROWS..len).map(|_| match kind {
                    0 => bits(&mut rng, 3),
                    1 => 0,
                    _ => u64::MAX,
                }))
                .collect();
            let mut lacking: Vec<u32> = (0..len).map(|_| rng.random_range(0..5)).collect();
            let mut expected = lacking.clone();
            let mut hist = vec![3i64; 8];
            let mut want_hist = hist.clone();
            for i in 0..ROWS {
                for j in i + 1..len {
                    let l = (masks[i] & masks[j]).count_ones() as usize;
                    want_hist[l] += 1;
                    expected[i] += u32::from(l == 0);
                    expected[j] += u32::from(l == 0);
                }
            }
            let done = band(&masks, &mut lacking, &mut hist);
            if len < SHORTEST {
                assert_eq!(done, None, "a band of {len} is left to the one-row loops");
                continue;
            }
            assert_eq!(done, Some(()), "{len} masks");
            assert_eq!(lacking, expected, "{len} masks, kind {kind}");
            assert_eq!(hist, want_hist, "{len} masks, kind {kind}");
        }
    }
}
