//! Planted benchmark specs: sparse specs that are feasible by construction,
//! at any size, so a benchmark can ask for thousands of PCs without anyone
//! knowing (or tuning to) the answer in advance.
//!
//! Each spec is drawn from a seed. Its wiring is planted first — block
//! constructions for the structured patterns (hypercube subcubes, torus and
//! stencil blocks, involutions) and random NICs dealt with every port
//! used — and the required pairs are then the structured pattern plus a
//! random choice of the pairs the random NICs cover. The planted wiring is
//! kept as the certificate: the spec is feasible, and every port is used.
//! The seed also picks the shape (NICs per PC, switch widths), so the specs
//! of one family differ in more than their random pairs.

pub mod blocks;
pub mod density;
pub mod random;

pub use density::{DENSITIES, plant_at};

use crate::design::Design;
use crate::ga::Rng;
use crate::spec::{PatternSpec, Spec, sparse_spec};
use rand::{RngExt, SeedableRng};

/// A family of planted specs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// A random wiring and a few random partners per PC in it.
    Random,
    /// Hypercube partners on subcube switches.
    Hypercube,
    /// Radix-2^g butterfly (FFT) partners: every pair of a subcube.
    Butterfly,
    /// 2D torus neighbours on blocks of 2x2 and shifted blocks.
    Torus2d,
    /// 3D torus neighbours on blocks of 2x2x2 and shifted blocks.
    Torus3d,
    /// The 9-point stencil of a 2D torus on blocks at four shifts.
    Stencil,
    /// Bit-reversal partners.
    BitReversal,
    /// Transposes of square matrices stored one after another.
    Transpose,
    /// Hypercube, bit-reversal and random partners together.
    Mixture,
}

impl Family {
    pub const ALL: [Family; 9] = [
        Family::Random,
        Family::Hypercube,
        Family::Butterfly,
        Family::Torus2d,
        Family::Torus3d,
        Family::Stencil,
        Family::BitReversal,
        Family::Transpose,
        Family::Mixture,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Family::Random => "random",
            Family::Hypercube => "hypercube",
            Family::Butterfly => "butterfly",
            Family::Torus2d => "torus2d",
            Family::Torus3d => "torus3d",
            Family::Stencil => "stencil",
            Family::BitReversal => "bit-reversal",
            Family::Transpose => "transpose",
            Family::Mixture => "mixture",
        }
    }

    pub fn named(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// A planted spec and the wiring that proves it feasible.
pub struct Planted {
    pub spec: Spec,
    /// What the seed chose: NICs, widths, patterns.
    pub about: String,
    pub certificate: Design,
}

/// Why no spec of a family can be planted at a size.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("no {family} spec of {pcs} PCs: {why}")]
pub struct PlantError {
    pub family: &'static str,
    pub pcs: usize,
    pub why: String,
}

/// Part of a planted wiring: NICs on switches of one width, and the
/// pattern they serve.
struct Part {
    width: usize,
    blocks: Vec<Vec<usize>>,
    patterns: Vec<PatternSpec>,
    about: String,
}

/// The planted spec of `family` at `pcs` PCs (a power of two, 64 to
/// 65,536) for `seed`.
pub fn plant(family: Family, pcs: usize, seed: u64) -> Result<Planted, PlantError> {
    let parts = structured_parts(family, pcs, seed)?;
    Ok(assemble(&format!("{}-{pcs}-s{seed}", family.name()), pcs, parts))
}

/// The parts of `family`'s planted wiring at `pcs` PCs (a power of two),
/// each with the pattern it serves: the structured construction and the
/// random NICs on top.
fn structured_parts(family: Family, pcs: usize, seed: u64) -> Result<Vec<Part>, PlantError> {
    let fail = |why: &str| PlantError {
        family: family.name(),
        pcs,
        why: why.into(),
    };
    if !pcs.is_power_of_two() || !(64..=65_536).contains(&pcs) {
        return Err(fail("the PCs must be a power of two from 64 to 65536"));
    }
    let bits = pcs.trailing_zeros();
    // Its own stream: the same seed drives the search, which must not see these draws.
    let mut rng = Rng::seed_from_u64(seed ^ u64::from_be_bytes(*b"\0planted"));
    let mut parts = structured(family, pcs, bits, &mut rng).ok_or_else(|| fail("no block construction fits"))?;
    let have: usize = parts.iter().map(|p| nics_per_pc(p, pcs)).sum();
    // Random NICs on top: the whole of a random spec, up to 2 more on a
    // structured one (never past 6 NICs), so no family is its construction alone.
    let extra = match family {
        Family::Random => rng.random_range(2..=6),
        Family::BitReversal | Family::Transpose => rng.random_range(1..=3),
        Family::Mixture => 1,
        _ => rng.random_range(0..=2usize.min(6 - have.min(6))),
    };
    if extra > 0 {
        parts.push(random_part(pcs, extra, &mut rng).ok_or_else(|| fail("no random wiring fits"))?);
    }
    Ok(parts)
}

/// NICs each PC has in a part (every part gives each PC the same number).
fn nics_per_pc(part: &Part, pcs: usize) -> usize {
    part.blocks.iter().map(Vec::len).sum::<usize>() / pcs
}

/// The structured parts of a family (none for a random spec).
fn structured(family: Family, pcs: usize, bits: u32, rng: &mut Rng) -> Option<Vec<Part>> {
    Some(match family {
        Family::Random => Vec::new(),
        Family::Hypercube | Family::Butterfly | Family::Mixture => {
            // Mixtures keep to 2 or 3 subcube NICs, leaving room for the
            // rest; butterflies too, as a grid's lines have 3 axes at most.
            let g = if family == Family::Hypercube {
                rng.random_range(2..=6u32.min(bits / 2))
            } else {
                rng.random_range(bits.div_ceil(3).max(2)..=6.min(bits / 2))
            };
            let groups = bit_groups(bits, g);
            let mut parts = subcube_parts(&groups, family == Family::Butterfly);
            if family == Family::Mixture {
                parts.push(involution_part(pcs, bits, "bit-reversal", rng)?);
            }
            parts
        }
        Family::Torus2d | Family::Torus3d => {
            let dims = grid_dims(bits, if family == Family::Torus2d { 2 } else { 3 })?;
            vec![Part {
                width: 1 << dims.len(),
                blocks: blocks::torus(&dims),
                patterns: vec![PatternSpec::Grid {
                    dims: dims.clone(),
                    torus: true,
                    weight: 1.0,
                }],
                about: format!("{} torus, 2 NICs on {}-port", dims_text(&dims), 1 << dims.len()),
            }]
        }
        Family::Stencil => {
            let dims = grid_dims(bits, 2)?;
            let blocks = blocks::stencil([dims[0], dims[1]]);
            vec![Part {
                width: 4,
                patterns: vec![pairs_pattern(stencil_pairs(dims[0], dims[1]))],
                blocks,
                about: format!("{} 9-point stencil, 4 NICs on 4-port", dims_text(&dims)),
            }]
        }
        Family::BitReversal => vec![involution_part(pcs, bits, "bit-reversal", rng)?],
        Family::Transpose => vec![involution_part(pcs, bits, "transpose", rng)?],
    })
}

/// `bits` address bits in groups of `g`, from the lowest; a remainder of
/// 2 or more is a group of its own, a single bit joins the last group.
fn bit_groups(bits: u32, g: u32) -> Vec<u32> {
    let mut groups = vec![g; (bits / g) as usize];
    match bits % g {
        0 => {}
        1 => *groups.last_mut().expect("g <= bits") += 1,
        r => groups.push(r),
    }
    groups
}

/// A part per subcube group; hypercube partners, or with `butterfly`
/// every pair of a subcube (the grid's lines, last axis lowest bits).
fn subcube_parts(groups: &[u32], butterfly: bool) -> Vec<Part> {
    let all = blocks::subcubes(groups);
    let mut parts = Vec::new();
    let mut at = 0;
    let bits: u32 = groups.iter().sum();
    for &g in groups {
        let count = (1usize << bits) >> g;
        parts.push(Part {
            width: 1 << g,
            blocks: all[at..at + count].to_vec(),
            patterns: Vec::new(),
            about: String::new(),
        });
        at += count;
    }
    // One line for the whole cube: "subcubes of 4, 4, 2 bits on 16-port, 16-port, 4-port".
    let list = |f: &dyn Fn(u32) -> String| groups.iter().map(|&g| f(g)).collect::<Vec<_>>().join(", ");
    for p in parts.iter_mut() {
        p.about.clear();
    }
    parts[0].about = format!(
        "subcubes of {} bits on {}",
        list(&|g| g.to_string()),
        list(&|g| format!("{}-port", 1u32 << g))
    );
    let dims: Vec<usize> = groups.iter().rev().map(|&g| 1usize << g).collect();
    parts[0].patterns.push(if butterfly {
        PatternSpec::Lines { dims, weight: 1.0 }
    } else {
        PatternSpec::Hypercube { weight: 1.0 }
    });
    parts
}

/// One NIC serving an involution, on switches of a width the seed picks.
fn involution_part(pcs: usize, bits: u32, which: &str, rng: &mut Rng) -> Option<Part> {
    let width = 1usize << rng.random_range(2..=5u32.min(bits / 2));
    let (blocks, pattern, about) = if which == "transpose" {
        // Square matrices of side 2^(bits/2), one after another.
        let n = 1usize << (bits / 2);
        let f = blocks::batched_transpose(n);
        let pairs: Vec<(usize, usize)> = (0..pcs).map(|i| (i, f(i))).filter(|&(i, j)| i < j).collect();
        (
            blocks::involution(pcs, f, width)?,
            pairs_pattern(pairs),
            format!("{} transposes of {n}x{n}", pcs / (n * n)),
        )
    } else {
        (
            blocks::involution(pcs, blocks::bit_reversal(bits), width)?,
            PatternSpec::BitReversal { weight: 1.0 },
            "bit reversal".to_string(),
        )
    };
    Some(Part {
        width,
        blocks,
        patterns: vec![pattern],
        about: format!("{about}, 1 NIC on {width}-port"),
    })
}

/// `nics` random NICs per PC on switches of a width the seed picks, and
/// 2 to 6 random partners per PC among those they reach.
fn random_part(pcs: usize, nics: usize, rng: &mut Rng) -> Option<Part> {
    let width = 1usize << rng.random_range(2..=6u32);
    let blocks = random::wiring(pcs, nics, width, rng)?;
    let per_pc = rng.random_range(2..=6usize);
    let pairs = random::partners(pcs, &blocks, per_pc, rng);
    Some(Part {
        width,
        blocks,
        patterns: vec![pairs_pattern(pairs)],
        about: format!(
            "{} on {width}-port, {} a PC",
            crate::words::count(nics, "random NIC"),
            crate::words::count(per_pc, "random partner")
        ),
    })
}

/// A random wiring of `pcs` PCs (any count) alone: 2 to 6 NICs on
/// switches of 4 to 64 ports, every port used, drawn until the ports
/// divide evenly; no pattern yet.
fn random_part_with(pcs: usize, rng: &mut Rng) -> Option<Part> {
    for _ in 0..64 {
        let nics = rng.random_range(2..=6usize);
        let width = 1usize << rng.random_range(2..=6u32);
        if !(pcs * nics).is_multiple_of(width) {
            continue;
        }
        if let Some(blocks) = random::wiring(pcs, nics, width, rng) {
            return Some(Part {
                width,
                blocks,
                patterns: Vec::new(),
                about: format!("{} on {width}-port", crate::words::count(nics, "random NIC")),
            });
        }
    }
    None
}

/// The sides of a `n`-dimensional torus of `2^bits` PCs, as even as the
/// bits allow (every side even).
fn grid_dims(bits: u32, n: u32) -> Option<Vec<usize>> {
    (bits >= n).then(|| (0..n).map(|k| 1usize << (bits / n + u32::from(k < bits % n))).collect())
}

fn dims_text(dims: &[usize]) -> String {
    dims.iter().map(usize::to_string).collect::<Vec<_>>().join("x")
}

/// The 9-point stencil's pairs on a `rows x cols` torus (row-major).
fn stencil_pairs(rows: usize, cols: usize) -> Vec<(usize, usize)> {
    let mut pairs: Vec<(usize, usize)> = (0..rows * cols)
        .flat_map(|i| {
            let (r, c) = (i / cols, i % cols);
            [(0, 1), (1, 0), (1, 1), (1, cols - 1)].map(|(dr, dc)| {
                let j = (r + dr) % rows * cols + (c + dc) % cols;
                (i.min(j), i.max(j))
            })
        })
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

fn pairs_pattern(pairs: Vec<(usize, usize)>) -> PatternSpec {
    PatternSpec::Pairs {
        pairs: pairs.into_iter().map(|(a, b)| vec![a as f64, b as f64]).collect(),
        weight: 1.0,
    }
}

/// The spec and certificate of the parts: switches grouped by width (a
/// model per width, in the order of the certificate's switches).
fn assemble(name: &str, pcs: usize, mut parts: Vec<Part>) -> Planted {
    let nics: usize = parts.iter().map(|p| nics_per_pc(p, pcs)).sum();
    let about = parts
        .iter()
        .map(|p| p.about.as_str())
        .filter(|a| !a.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    let patterns: Vec<PatternSpec> = parts.iter_mut().flat_map(|p| std::mem::take(&mut p.patterns)).collect();
    parts.sort_by_key(|p| p.width);
    let mut models: Vec<(u32, u32)> = Vec::new();
    let mut all_blocks = Vec::new();
    for p in parts {
        match models.last_mut() {
            Some((w, n)) if *w as usize == p.width => *n += p.blocks.len() as u32,
            _ => models.push((p.width as u32, p.blocks.len() as u32)),
        }
        all_blocks.extend(p.blocks);
    }
    Planted {
        spec: sparse_spec(name, pcs, nics as u32, &models, patterns),
        about,
        certificate: Design::from_blocks(pcs, &all_blocks),
    }
}

#[cfg(test)]
mod tests;
