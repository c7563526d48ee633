//! A spec's communication patterns expanded into weighted PC pairs, with
//! errors that name the file and the field (`patterns[i]`), and the pair
//! files a pattern may read.

use super::{PatternSpec, SpecError};
use crate::patterns::{PairWeights, WEIGHT_SCALE, grid_lines, grid_neighbours};
use std::path::{Path, PathBuf};

/// Expands the spec's patterns for `pcs` PCs; errors name `patterns[i]`.
pub fn pair_weights(
    specs: &[PatternSpec],
    pcs: usize,
    file: &str,
    base: Option<&crate::input::Folder>,
) -> Result<PairWeights, SpecError> {
    let mut all = 0i64;
    let mut pairs = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let field = format!("patterns[{i}]");
        let weight = spec_weight(spec);
        if !(weight.is_finite() && (0.0..=MAX_PATTERN_WEIGHT).contains(&weight)) {
            return Err(SpecError::field(
                file,
                format!("{field}.weight"),
                format!("{weight} is not allowed: use a number from 0 to {MAX_PATTERN_WEIGHT:e}"),
            ));
        }
        let size = pairs_before_expanding(spec, pcs);
        if pairs.len() as u64 + size > MAX_PATTERN_PAIRS as u64 {
            return Err(SpecError::field(
                file,
                &field,
                format!(
                    "the patterns name more than {MAX_PATTERN_PAIRS} pairs in all; use all-to-all (or universal coverage) for dense patterns"
                ),
            ));
        }
        let milli = (weight * WEIGHT_SCALE).round() as i64;
        if let PatternSpec::AllToAll { .. } = spec {
            all += milli;
            continue;
        }
        let budget = MAX_PATTERN_PAIRS - pairs.len();
        for (a, b, w) in expand(spec, pcs, file, &field, base, budget)? {
            pairs.push((a, b, (w * milli as f64).round() as i64));
        }
    }
    Ok(PairWeights::from_pairs(pcs, all, pairs))
}

/// Pairs all patterns may name together: far past any real pattern (a
/// 3D torus of 65536 PCs names 196608), and small enough to hold.
pub const MAX_PATTERN_PAIRS: usize = 8_000_000;
/// A pattern's (or a pair's) weight at most.
pub const MAX_PATTERN_WEIGHT: f64 = 1e6;

/// How many pairs a pattern will name, known before building them (0 for
/// lists and files, which are counted as they are read).
fn pairs_before_expanding(spec: &PatternSpec, pcs: usize) -> u64 {
    let p = pcs as u64;
    match spec {
        // An out-of-range k is refused with its range by `expand`.
        PatternSpec::Ring { k, .. } if *k <= pcs / 2 => p.saturating_mul(*k as u64),
        PatternSpec::Lines { dims, .. } => {
            let n: u64 = dims.iter().map(|&d| d as u64).fold(1, u64::saturating_mul);
            n.saturating_mul(dims.iter().map(|&d| (d as u64).saturating_sub(1)).sum::<u64>()) / 2
        }
        _ => 0,
    }
}

fn spec_weight(spec: &PatternSpec) -> f64 {
    match spec {
        PatternSpec::AllToAll { weight }
        | PatternSpec::Ring { weight, .. }
        | PatternSpec::Grid { weight, .. }
        | PatternSpec::Lines { weight, .. }
        | PatternSpec::Hypercube { weight }
        | PatternSpec::BitReversal { weight }
        | PatternSpec::Transpose { weight, .. }
        | PatternSpec::Pairs { weight, .. }
        | PatternSpec::PairFile { weight, .. } => *weight,
    }
}

/// Pairs with relative weights (1.0 unless the pattern gives one).
fn expand(
    spec: &PatternSpec,
    pcs: usize,
    file: &str,
    field: &str,
    base: Option<&crate::input::Folder>,
    budget: usize,
) -> Result<Vec<(usize, usize, f64)>, SpecError> {
    let unit = |v: Vec<(usize, usize)>| v.into_iter().map(|(a, b)| (a, b, 1.0)).collect();
    Ok(match spec {
        PatternSpec::AllToAll { .. } => Vec::new(),
        PatternSpec::Ring { k, .. } => unit(ring(*k, pcs, file, field)?),
        PatternSpec::Grid { dims, torus, .. } => unit(grid_neighbours(check_dims(dims, pcs, file, field)?, *torus)),
        PatternSpec::Lines { dims, .. } => unit(grid_lines(check_dims(dims, pcs, file, field)?)),
        PatternSpec::Hypercube { .. } => unit(
            (0..pcs)
                .flat_map(|i| (0..usize::BITS).map(move |b| (i, i ^ (1usize << b))))
                .filter(|&(i, j)| j < pcs && i < j)
                .collect(),
        ),
        PatternSpec::BitReversal { .. } => {
            let bits = usize::BITS - (pcs.max(2) - 1).leading_zeros();
            unit(
                (0..pcs)
                    .map(|i| (i, i.reverse_bits() >> (usize::BITS - bits)))
                    .filter(|&(i, j)| j < pcs && i < j)
                    .collect(),
            )
        }
        PatternSpec::Transpose { dims, .. } => unit(transpose(check_dims(dims, pcs, file, field)?, file, field)?),
        PatternSpec::Pairs { pairs, .. } => {
            if pairs.len() > budget {
                return Err(SpecError::field(
                    file,
                    format!("{field}.pairs"),
                    format!("more than {MAX_PATTERN_PAIRS} pairs in all is not allowed"),
                ));
            }
            let mut out = Vec::with_capacity(pairs.len());
            for (k, p) in pairs.iter().enumerate() {
                let f = format!("{field}.pairs[{k}]");
                out.push(pair_entry(p, pcs, file, &f)?);
            }
            out
        }
        PatternSpec::PairFile {
            path, named_by_user, ..
        } => {
            let place = if *named_by_user {
                PairFilePlace::AsTyped
            } else {
                PairFilePlace::InFolder(base)
            };
            read_pair_file(path, place, pcs, file, field, budget)?
        }
    })
}

/// Each PC and its `k` next neighbours round the ring.
fn ring(k: usize, pcs: usize, file: &str, field: &str) -> Result<Vec<(usize, usize)>, SpecError> {
    // Beyond half the ring every pair is a neighbour already.
    let most = (pcs / 2).max(1);
    if k == 0 || k > most {
        return Err(SpecError::field(
            file,
            format!("{field}.k"),
            format!("{k} is not allowed: use 1 to {most} (half the {pcs} PCs; all-to-all beyond)"),
        ));
    }
    Ok((0..pcs)
        .flat_map(|i| (1..=k).map(move |d| (i, (i + d) % pcs)))
        .collect())
}

/// Each cell of a rows x cols matrix and the cell it moves to when the
/// matrix is transposed.
fn transpose(d: &[usize], file: &str, field: &str) -> Result<Vec<(usize, usize)>, SpecError> {
    if d.len() != 2 {
        return Err(SpecError::field(
            file,
            format!("{field}.dims"),
            "transpose needs two dimensions [rows, cols]",
        ));
    }
    let (rows, cols) = (d[0], d[1]);
    Ok((0..rows * cols)
        .map(|i| (i, (i % cols) * rows + i / cols))
        .filter(|&(i, j)| i < j)
        .collect())
}

fn check_dims<'a>(dims: &'a [usize], pcs: usize, file: &str, field: &str) -> Result<&'a [usize], SpecError> {
    let product: usize = dims.iter().product();
    if dims.is_empty() || dims.len() > 3 || dims.contains(&0) || product > pcs {
        return Err(SpecError::field(
            file,
            format!("{field}.dims"),
            format!("{dims:?} is not allowed: use 1 to 3 positive sizes whose product is at most the {pcs} PCs"),
        ));
    }
    Ok(dims)
}

fn pair_entry(p: &[f64], pcs: usize, file: &str, field: &str) -> Result<(usize, usize, f64), SpecError> {
    pair_numbers(p, pcs, "a pair is [a, b] or [a, b, weight]").map_err(|m| SpecError::field(file, field, m.to_string()))
}

/// What is wrong with a pair's numbers.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
enum PairError {
    #[error("{value} is not a PC: PCs are 0 to {}", .pcs.saturating_sub(1))]
    NotAPc { value: f64, pcs: usize },
    #[error("weight {0} is not allowed: use a number from 0 to {MAX_PATTERN_WEIGHT:e}")]
    Weight(f64),
    /// What a pair looks like where it was written.
    #[error("{0}")]
    Shape(String),
}

/// A pair from its numbers, or what is wrong with them (`shape`: what a
/// pair looks like where it was written).
fn pair_numbers(p: &[f64], pcs: usize, shape: &str) -> Result<(usize, usize, f64), PairError> {
    let as_pc = |value: f64| {
        if value.fract() == 0.0 && value >= 0.0 && (value as usize) < pcs {
            Ok(value as usize)
        } else {
            Err(PairError::NotAPc { value, pcs })
        }
    };
    match p {
        [a, b] => Ok((as_pc(*a)?, as_pc(*b)?, 1.0)),
        [a, b, w] if w.is_finite() && (0.0..=MAX_PATTERN_WEIGHT).contains(w) => Ok((as_pc(*a)?, as_pc(*b)?, *w)),
        [_, _, w] => Err(PairError::Weight(*w)),
        _ => Err(PairError::Shape(shape.to_string())),
    }
}

/// Where a pair file's path points from.
#[derive(Clone, Copy, Debug)]
pub enum PairFilePlace<'a> {
    /// Typed by the user on the command line: read as given.
    AsTyped,
    /// Named by a spec or session: relative to its folder, and never
    /// outside it (a spec someone else wrote must not make fnn-tui, run
    /// as root, read and quote `/etc/shadow`).
    InFolder(Option<&'a crate::input::Folder>),
}

/// Where a pair file is opened: as typed, or beneath a spec's folder.
enum PairFileAt<'a> {
    Typed(PathBuf),
    Beneath(&'a crate::input::Folder, PathBuf),
}

/// The file a pair-file `path` names, or why it may not be read.
fn pair_file_location<'a>(
    path: &str,
    place: PairFilePlace<'a>,
    file: &str,
    field: &str,
) -> Result<PairFileAt<'a>, SpecError> {
    let refuse = |why: &str| SpecError::field(file, format!("{field}.path"), why.to_string());
    let folder = match place {
        PairFilePlace::AsTyped => return Ok(PairFileAt::Typed(PathBuf::from(path))),
        PairFilePlace::InFolder(None) => {
            return Err(refuse(
                "a pair file is read from the spec's own folder, and this spec is not in a file: \
                 give the pairs inline (`pairs = [[a, b], ...]`) or with --pairs",
            ));
        }
        PairFilePlace::InFolder(Some(f)) => f,
    };
    let relative = Path::new(path);
    if path.is_empty()
        || !relative
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_) | std::path::Component::CurDir))
    {
        return Err(refuse(&format!(
            "{} must be a path inside the spec's folder (relative, without `..`); \
             to read a file elsewhere, name it with --pairs",
            crate::escape::shown(path)
        )));
    }
    Ok(PairFileAt::Beneath(folder, relative.to_path_buf()))
}

/// Reads lines `a b [weight]`; `#` starts a comment. The file is opened
/// once (beneath the spec's folder when the spec named it), streamed (it
/// may be long) and refused past `budget` pairs or the size limits.
pub fn read_pair_file(
    path: &str,
    place: PairFilePlace,
    pcs: usize,
    file: &str,
    field: &str,
    budget: usize,
) -> Result<Vec<(usize, usize, f64)>, SpecError> {
    let at = pair_file_location(path, place, file, field)?;
    let shown = match &at {
        PairFileAt::Typed(p) => crate::input::shown(p),
        PairFileAt::Beneath(f, p) => crate::input::shown(&f.path().join(p)),
    };
    let mut out = Vec::new();
    let mut failure = None;
    let each = |n: usize, raw: &str| match parse_pair_line(raw, n, pcs, &shown) {
        Ok(None) => Ok(()),
        Ok(Some(_)) if out.len() >= budget => Err(crate::input::InputError::Refused(format!(
            "{shown}:{n}: more than {MAX_PATTERN_PAIRS} pairs in all is not allowed"
        ))),
        Ok(Some(p)) => {
            out.push(p);
            Ok(())
        }
        Err(e) => {
            let message = e.to_string();
            failure = Some(e);
            Err(crate::input::InputError::Refused(message))
        }
    };
    let max = crate::input::MAX_PAIR_FILE_BYTES;
    let read = match &at {
        PairFileAt::Typed(p) => crate::input::for_each_line(p, max, each),
        PairFileAt::Beneath(f, p) => crate::input::for_each_line_beneath(f, p, max, each),
    };
    match (read, failure) {
        (Ok(()), _) => Ok(out),
        (Err(_), Some(e)) => Err(e),
        (Err(crate::input::InputError::Outside { .. }), None) => Err(SpecError::field(
            file,
            format!("{field}.path"),
            format!(
                "{} leads outside the spec's folder (through a link); to read it, name it with --pairs",
                crate::escape::shown(path)
            ),
        )),
        (Err(e), None) => Err(SpecError::field(file, format!("{field}.path"), e.to_string())),
    }
}

/// One line `a b [weight]` of a pair list (`None` when blank or a comment).
fn parse_pair_line(
    raw: &str,
    line_no: usize,
    pcs: usize,
    source: &str,
) -> Result<Option<(usize, usize, f64)>, SpecError> {
    let line = raw.split('#').next().unwrap_or("").trim();
    if line.is_empty() {
        return Ok(None);
    }
    let nums: Result<Vec<f64>, _> = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(str::parse::<f64>)
        .collect();
    // `file:line: message`, as the switch table's errors read.
    let at = |message: String| SpecError::Parse {
        file: format!("{source}:{line_no}"),
        message,
    };
    let shape = "a line is `a b [weight]`: two PC numbers and an optional weight";
    let nums = nums.map_err(|_| at(format!("{} is not a pair: {shape}", crate::escape::shown(line))))?;
    pair_numbers(&nums, pcs, &format!("{} numbers is not a pair: {shape}", nums.len()))
        .map(Some)
        .map_err(|e| at(e.to_string()))
}

/// Parses a pair list; errors name the pair file and line.
pub fn parse_pairs(text: &str, pcs: usize, source: &str) -> Result<Vec<(usize, usize, f64)>, SpecError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if let Some(p) = parse_pair_line(raw, i + 1, pcs, source)? {
            out.push(p);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs_of(spec: PatternSpec, pcs: usize) -> Vec<(usize, usize)> {
        let pw = pair_weights(&[spec], pcs, "t", None).unwrap();
        pw.pairs().map(|(a, b, _)| (a, b)).collect()
    }

    #[test]
    fn klat2_lines_give_rows_and_columns() {
        let p = pairs_of(
            PatternSpec::Lines {
                dims: vec![8, 8],
                weight: 1.0,
            },
            64,
        );
        // Each of 16 lines of 8 PCs has 28 pairs.
        assert_eq!(p.len(), 16 * 28);
        assert!(p.contains(&(0, 7)) && p.contains(&(0, 56)) && !p.contains(&(0, 9)));
    }

    #[test]
    fn ring_grid_torus_hypercube_bitrev_transpose() {
        assert_eq!(pairs_of(PatternSpec::Ring { k: 1, weight: 1.0 }, 5).len(), 5);
        assert_eq!(pairs_of(PatternSpec::Ring { k: 2, weight: 1.0 }, 8).len(), 16);
        assert_eq!(
            pairs_of(
                PatternSpec::Grid {
                    dims: vec![4, 4],
                    torus: false,
                    weight: 1.0
                },
                16
            )
            .len(),
            24
        );
        assert_eq!(
            pairs_of(
                PatternSpec::Grid {
                    dims: vec![4, 4],
                    torus: true,
                    weight: 1.0
                },
                16
            )
            .len(),
            32
        );
        assert_eq!(
            pairs_of(
                PatternSpec::Grid {
                    dims: vec![2, 2, 2],
                    torus: true,
                    weight: 1.0
                },
                8
            )
            .len(),
            12
        );
        assert_eq!(pairs_of(PatternSpec::Hypercube { weight: 1.0 }, 8).len(), 12);
        assert_eq!(
            pairs_of(PatternSpec::BitReversal { weight: 1.0 }, 8),
            vec![(1, 4), (3, 6)]
        );
        assert_eq!(
            pairs_of(
                PatternSpec::Transpose {
                    dims: vec![2, 2],
                    weight: 1.0
                },
                4
            ),
            vec![(1, 2)]
        );
    }

    #[test]
    fn bad_pairs_name_the_line() {
        let e = parse_pairs("0 1\n0 x\n", 4, "p.txt").unwrap_err();
        assert_eq!(
            e.to_string(),
            "p.txt:2: \"0 x\" is not a pair: a line is `a b [weight]`: two PC numbers and an optional weight"
        );
        let e = parse_pairs("0 9\n", 4, "p.txt").unwrap_err();
        assert!(e.to_string().contains("9 is not a PC"), "{e}");
        let e = pair_weights(
            &[PatternSpec::Lines {
                dims: vec![9, 9],
                weight: 1.0,
            }],
            64,
            "s.toml",
            None,
        )
        .unwrap_err();
        assert!(e.to_string().contains("patterns[0].dims"), "{e}");
    }
}
