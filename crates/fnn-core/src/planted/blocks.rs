//! Block constructions: switches (as the PCs on each) that cover a
//! structured pattern with every port used. Each is the certificate half
//! of a planted spec.

use crate::patterns::shifted_blocks;

/// Hypercube subcubes: the address bits of `1 << bits` PCs cut into
/// consecutive groups of the sizes given; for each group, a switch per
/// subcube holds the `2^g` PCs that differ only in that group's bits. A
/// PC has a NIC per group; hypercube (and radix-`2^g` butterfly) partners
/// differ in one group only, so they share that group's switch.
pub fn subcubes(groups: &[u32]) -> Vec<Vec<usize>> {
    let bits: u32 = groups.iter().sum();
    let n = 1usize << bits;
    let mut blocks = Vec::new();
    let mut low = 0;
    for &g in groups {
        let mask = ((1usize << g) - 1) << low;
        for base in (0..n).filter(|i| i & mask == 0) {
            blocks.push((0..1usize << g).map(|k| base | (k << low)).collect());
        }
        low += g;
    }
    blocks
}

/// Tori of even sides on 2 NICs: each PC is in the block of side 2 that
/// holds it and in the block shifted by one along every axis. An edge
/// along an axis at an even coordinate lies in an unshifted block, at an
/// odd one in a shifted block.
pub fn torus(dims: &[usize]) -> Vec<Vec<usize>> {
    let all_ones = vec![1; dims.len()];
    [vec![0; dims.len()], all_ones]
        .iter()
        .flat_map(|shift| shifted_blocks(dims, shift))
        .collect()
}

/// The 9-point stencil of a 2D torus of even sides on 4 NICs: blocks of
/// 2x2 at the four shifts (0,0), (1,0), (0,1), (1,1). Every edge, the
/// diagonals included, spans two adjacent rows and two adjacent columns,
/// so the block at the shift of its lower-left corner holds both ends.
pub(crate) fn stencil(dims: [usize; 2]) -> Vec<Vec<usize>> {
    [[0, 0], [1, 0], [0, 1], [1, 1]]
        .iter()
        .flat_map(|shift| shifted_blocks(&dims, shift))
        .collect()
}

/// An involution (bit reversal, a square transpose) on one NIC: its pairs
/// `width / 2` to a switch, then its fixed points `width` to a switch.
/// `None` when a switch would be left part empty.
pub(crate) fn involution(pcs: usize, partner: impl Fn(usize) -> usize, width: usize) -> Option<Vec<Vec<usize>>> {
    let pairs: Vec<usize> = (0..pcs)
        .filter(|&i| i < partner(i))
        .flat_map(|i| [i, partner(i)])
        .collect();
    let fixed: Vec<usize> = (0..pcs).filter(|&i| partner(i) == i).collect();
    if !pairs.len().is_multiple_of(width) || !fixed.len().is_multiple_of(width) {
        return None;
    }
    Some(
        pairs
            .chunks(width)
            .chain(fixed.chunks(width))
            .map(<[usize]>::to_vec)
            .collect(),
    )
}

/// Bit reversal of `bits`-bit addresses.
pub(crate) fn bit_reversal(bits: u32) -> impl Fn(usize) -> usize {
    move |i| i.reverse_bits() >> (usize::BITS - bits)
}

/// Transposes of `n x n` matrices stored one after another (row-major):
/// element (r, c) of each matrix with (c, r) of the same matrix.
pub(crate) fn batched_transpose(n: usize) -> impl Fn(usize) -> usize {
    move |i| {
        let (m, r, c) = (i / (n * n), i / n % n, i % n);
        m * n * n + c * n + r
    }
}
