//! Universal FNNs from design theory, to seed the GA and to find
//! the narrowest switches quickly in the sweep.
//!
//! Every construction is a set of *blocks*: each block is the set of
//! switches a group of PCs is cabled to, and any two blocks share a switch.
//! PCs in one group share all its switches, so splitting the PCs into groups
//! over the blocks gives a universal FNN whatever the group sizes; the
//! groups are sized so the fullest switch is as empty as possible.
//!
//! * Pairs of groups: g groups, one switch per pair of groups; a PC needs
//!   g - 1 NICs and a switch holds two groups.
//! * The projective plane of order q (q a prime power): groups are the
//!   q^2 + q + 1 points, switches the lines; a PC needs q + 1 NICs. With
//!   q = n - 1 it meets Füredi's bound P n / (n^2 - n + 1) (see `bounds`).
//! * The affine plane of order q: q^2 groups (points), q^2 + q switches
//!   (lines), q + 1 NICs per PC, q groups per switch.
//! * The affine plane through a line: the affine plane's points, and q
//!   more groups, one per parallel class but that of a line l, cabled to
//!   every line of the class and to l.
//!
//! Groups need not be equal. Their sizes are the best of a greedy spread,
//! the spread for a few PCs more trimmed back, and a plane's surplus
//! (`arcs`); where that leaves the best construction over the lower bound,
//! a tabu walk (`sizing`) looks for sizes (empty groups too) a port
//! narrower on the projective plane and the affine plane through a line.
//! 38 PCs with 6 NICs fit 8 ports this way; the greedy spread needs 9, and
//! so does the affine plane with any sizes (over AG(2,5), 38 PCs on lines
//! of at most 8 make the squared line loads add up to too little).
//!
//! Fewer PCs than blocks truncates a construction (empty groups and the
//! switches they leave with fewer than two PCs are dropped); more pads it
//! (bigger groups).

use super::Design;
use super::arcs;
use super::gf::Field;

#[derive(Clone, Debug, PartialEq)]
pub struct Construction {
    pub name: String,
    pub switches: usize,
    /// The switches of each group of PCs; any two blocks intersect.
    pub blocks: Vec<Vec<usize>>,
    /// Whether `best` asks the walk's sizing for narrower switches than the
    /// greedy group sizes give (blocks of unequal weight need it).
    pub walk_sizing: bool,
}

impl Construction {
    /// NICs a PC needs.
    pub fn nics(&self) -> usize {
        self.blocks.iter().map(Vec::len).max().unwrap_or(0)
    }
}

/// One switch for everyone: the trivial FNN.
pub fn single_switch() -> Construction {
    Construction {
        name: "one switch".into(),
        switches: 1,
        blocks: vec![vec![0]],
        walk_sizing: false,
    }
}

/// `g` groups, a switch for every pair of groups (g >= 3).
pub fn pairs_of_groups(g: usize) -> Construction {
    // Switch k joins the k-th pair (i, j), i < j, in lexicographic order.
    let pairs: Vec<(usize, usize)> = (0..g).flat_map(|i| (i + 1..g).map(move |j| (i, j))).collect();
    let switches = pairs.len();
    let blocks = (0..g)
        .map(|i| (0..switches).filter(|&k| pairs[k].0 == i || pairs[k].1 == i).collect())
        .collect();
    Construction {
        name: format!("pairs of {g} groups"),
        switches,
        blocks,
        walk_sizing: false,
    }
}

/// The projective plane PG(2, q): blocks are points, switches are lines.
pub fn projective_plane(q: usize) -> Option<Construction> {
    let f = Field::new(q)?;
    // Normalised vectors of GF(q)^3: the first non-zero coordinate is 1.
    let mut vectors = Vec::with_capacity(q * q + q + 1);
    for a in 0..q {
        for b in 0..q {
            vectors.push([1, a, b]);
        }
    }
    for b in 0..q {
        vectors.push([0, 1, b]);
    }
    vectors.push([0, 0, 1]);
    let dot = |u: &[usize; 3], v: &[usize; 3]| (0..3).fold(0, |acc, i| f.add(acc, f.mul(u[i], v[i])));
    let blocks = vectors
        .iter()
        .map(|point| (0..vectors.len()).filter(|&l| dot(point, &vectors[l]) == 0).collect())
        .collect();
    Some(Construction {
        name: format!("projective plane of order {q}"),
        switches: vectors.len(),
        blocks,
        walk_sizing: true,
    })
}

/// The affine plane AG(2, q): blocks are the points (x, y), switches the
/// lines y = m x + b and x = c.
pub fn affine_plane(q: usize) -> Option<Construction> {
    let f = Field::new(q)?;
    let vertical = q * q;
    let blocks = (0..q)
        .flat_map(|x| (0..q).map(move |y| (x, y)))
        .map(|(x, y)| {
            let mut lines: Vec<usize> = (0..q)
                .map(|m| {
                    // b = y - m x: the b with m x + b = y.
                    let mx = f.mul(m, x);
                    let b = (0..q).find(|&b| f.add(mx, b) == y).expect("additive inverse");
                    m * q + b
                })
                .collect();
            lines.push(vertical + x);
            lines
        })
        .collect();
    Some(Construction {
        name: format!("affine plane of order {q}"),
        switches: q * q + q,
        blocks,
        walk_sizing: false,
    })
}

/// AG(2, q) and, for each parallel class but that of the line l (the line
/// y = 0), a block of all q lines of the class and l. Such a block meets
/// every point (its class covers the plane) and the other such blocks
/// (they all hold l); with l's own class it would be a projective plane.
pub fn affine_plane_through_line(q: usize) -> Option<Construction> {
    let mut c = affine_plane(q)?;
    // Lines m q + b (y = m x + b) are class m; the verticals, class q.
    let line = 0;
    let class = |m: usize| (0..q * q + q).filter(move |&l| l / q == m || (m == q && l >= q * q));
    c.blocks
        .extend((1..=q).map(|m| class(m).chain([line]).collect::<Vec<_>>()));
    c.name = format!("affine plane of order {q} through a line");
    c.walk_sizing = true;
    Some(c)
}

/// Every construction whose PCs need at most `nics` NICs.
pub fn candidates(nics: usize) -> Vec<Construction> {
    let mut out = vec![single_switch()];
    out.extend((3..=nics + 1).map(pairs_of_groups));
    for q in 2..nics {
        out.extend(projective_plane(q));
        out.extend(affine_plane(q));
        out.extend(affine_plane_through_line(q));
    }
    out
}

/// A construction laid out for a number of PCs.
#[derive(Clone, Debug, PartialEq)]
pub struct Built {
    pub name: String,
    pub design: Design,
    /// PCs on the fullest switch.
    pub width: u32,
}

impl Built {
    pub fn switches(&self) -> usize {
        self.design.switches()
    }
}

/// Splits `pcs` PCs into the groups of `c` and writes the design; switches
/// left with fewer than two PCs are dropped, the rest sorted fullest first.
pub fn build(c: &Construction, pcs: usize) -> Built {
    lay_out(c, group_sizes(c, pcs))
}

/// `c` for `pcs` PCs with no switch wider than `width`, its group sizes
/// walked from the greedy ones (`sizing`); `None` when the walk finds none.
pub fn build_within(c: &Construction, pcs: usize, width: u32) -> Option<Built> {
    walk_within(c, &group_sizes(c, pcs), width)
}

/// `c` with its group sizes walked from `start` to fit `width`.
fn walk_within(c: &Construction, start: &[usize], width: u32) -> Option<Built> {
    super::sizing::sizes_within(c, start, width as usize).map(|sizes| lay_out(c, sizes))
}

/// The design of `sizes[b]` PCs in each block `b`.
fn lay_out(c: &Construction, sizes: Vec<usize>) -> Built {
    let pcs = sizes.iter().sum();
    let degree = degrees(c, &sizes);
    let mut kept: Vec<usize> = (0..c.switches).filter(|&s| degree[s] >= 2).collect();
    kept.sort_by_key(|&s| std::cmp::Reverse(degree[s]));
    let mut number = vec![usize::MAX; c.switches];
    for (i, &s) in kept.iter().enumerate() {
        number[s] = i;
    }
    let mut design = Design::new(pcs, kept.len());
    let mut pc = 0;
    for (b, &n) in sizes.iter().enumerate() {
        for _ in 0..n {
            for &s in &c.blocks[b] {
                if number[s] != usize::MAX {
                    design.connect(pc, number[s]);
                }
            }
            pc += 1;
        }
    }
    let width = kept.first().map_or(0, |&s| degree[s] as u32);
    Built {
        name: c.name.clone(),
        design,
        width,
    }
}

/// The narrowest construction for `pcs` PCs of `nics` NICs (ties: fewer
/// switches, then fewer cables).
pub fn best(pcs: usize, nics: usize) -> Option<Built> {
    if pcs == 0 || nics == 0 {
        return None;
    }
    // Each construction is sized once: the walk below starts from the same
    // sizes, and sizing (surplus, look-ahead) is the costly part.
    let sized: Vec<(Construction, Vec<usize>)> = candidates(nics)
        .into_iter()
        .map(|c| {
            let sizes = group_sizes(&c, pcs);
            (c, sizes)
        })
        .collect();
    let key = |b: &Built| (b.width, b.switches(), b.design.ports_used().iter().sum::<u32>());
    let mut best = sized
        .iter()
        .map(|(c, sizes)| lay_out(c, sizes.clone()))
        .min_by_key(key)?;
    // Over the bound, the constructions whose groups need unequal sizes
    // get the walk's sizing, one port narrower at a time (never below the
    // bound, which no sizing can beat).
    let bound = super::bounds::width_bound(pcs as u64, nics as u64);
    for (c, sizes) in sized.iter().filter(|(c, _)| c.walk_sizing && c.nics() == nics) {
        while u64::from(best.width) > bound {
            match walk_within(c, sizes, best.width - 1) {
                Some(b) => best = b,
                None => break,
            }
        }
    }
    Some(best)
}

/// How many PCs more than asked the group sizing also tries. The sizing is
/// a heuristic, and the sizes it finds for a few more PCs, with the extra
/// PCs then taken out, are sometimes a port narrower than its sizes for the
/// PCs asked: taking PCs out never widens a switch. Three was the most any
/// cell of 3..1024 PCs x 2..8 NICs needed; one more is margin.
const LOOKAHEAD: usize = 4;

/// Group sizes that keep the fullest switch low: the best of the sizes
/// spread for `pcs` to `pcs + LOOKAHEAD` PCs and of the plane over an arc
/// (see `arcs`), each trimmed back to `pcs`.
fn group_sizes(c: &Construction, pcs: usize) -> Vec<usize> {
    let (sizes, degree) = spread(c, pcs);
    // No sizing puts fewer on the fullest switch than the average.
    let thinnest = c.blocks.iter().map(Vec::len).min().unwrap_or(1);
    if fullness(&degree).0 <= (pcs * thinnest).div_ceil(c.switches) {
        return sizes;
    }
    let more = (pcs + 1..=pcs + LOOKAHEAD).map(|more| spread(c, more));
    std::iter::once((sizes, degree))
        .chain(more)
        .chain(over_arc(c, pcs))
        .map(|(mut sizes, mut degree)| {
            let extra = sizes.iter().sum::<usize>() - pcs;
            trim(c, &mut sizes, &mut degree, extra);
            (fullness(&degree), sizes)
        })
        .min_by_key(|(full, _)| *full)
        .map(|(_, sizes)| sizes)
        .expect("at least one size tried")
}

/// Every group `m` PCs plus the largest surplus with at most `r` on a
/// switch, for the narrowest `m L + r` that holds `pcs`; only for
/// constructions whose switches all hold `L` blocks.
fn over_arc(c: &Construction, pcs: usize) -> Option<(Vec<usize>, Vec<usize>)> {
    let per_switch = blocks_per_switch(c)?;
    let n = c.blocks.len();
    for m in 0..=pcs / n {
        for r in 0..per_switch {
            let surplus = if r == 0 {
                vec![0; n]
            } else {
                arcs::largest(c, r, m.min(2))
            };
            let total = (n * m) as i64 + surplus.iter().sum::<i64>();
            if total < pcs as i64 {
                continue;
            }
            let sizes: Vec<usize> = surplus.iter().map(|&x| (m as i64 + x) as usize).collect();
            let degree = degrees(c, &sizes);
            return Some((sizes, degree));
        }
    }
    None
}

/// The number of blocks on every switch, if it is the same on all.
fn blocks_per_switch(c: &Construction) -> Option<usize> {
    let counts = degrees(c, &vec![1; c.blocks.len()]);
    let first = *counts.first()?;
    counts.iter().all(|&n| n == first).then_some(first)
}

/// The PCs on each switch when the groups have these sizes.
pub(super) fn degrees(c: &Construction, sizes: &[usize]) -> Vec<usize> {
    let mut degree = vec![0usize; c.switches];
    for (b, &n) in sizes.iter().enumerate() {
        c.blocks[b].iter().for_each(|&s| degree[s] += n);
    }
    degree
}

/// PCs go one at a time to the group whose switches are emptiest, then
/// single PCs move between groups while that lowers the fullest switch or
/// the number of switches that full. Returns the sizes and each switch's
/// PCs.
fn spread(c: &Construction, pcs: usize) -> (Vec<usize>, Vec<usize>) {
    let mut sizes = vec![0usize; c.blocks.len()];
    let mut degree = vec![0usize; c.switches];
    for _ in 0..pcs {
        let b = (0..c.blocks.len())
            .min_by_key(|&b| (crowding(c, &degree, b), sizes[b]))
            .expect("at least one block");
        sizes[b] += 1;
        for &s in &c.blocks[b] {
            degree[s] += 1;
        }
    }
    improve(c, &mut sizes, &mut degree);
    (sizes, degree)
}

/// Takes `extra` PCs out, one at a time from the group whose switches are
/// fullest.
fn trim(c: &Construction, sizes: &mut [usize], degree: &mut [usize], extra: usize) {
    for _ in 0..extra {
        let Some(b) = (0..c.blocks.len())
            .filter(|&b| sizes[b] > 0)
            .max_by_key(|&b| crowding(c, degree, b))
        else {
            return;
        };
        sizes[b] -= 1;
        for &s in &c.blocks[b] {
            degree[s] -= 1;
        }
    }
}

/// How full block `b`'s switches are: the fullest, then all together.
fn crowding(c: &Construction, degree: &[usize], b: usize) -> (usize, usize) {
    let top = c.blocks[b].iter().map(|&s| degree[s]).max().unwrap_or(0);
    (top, c.blocks[b].iter().map(|&s| degree[s]).sum())
}

fn fullness(degree: &[usize]) -> (usize, usize) {
    let top = degree.iter().copied().max().unwrap_or(0);
    (top, degree.iter().filter(|&&d| d == top).count())
}

fn improve(c: &Construction, sizes: &mut [usize], degree: &mut [usize]) {
    let mut current = fullness(degree);
    // Each accepted move lowers (top, count), so the loop ends; the cap
    // keeps it short on large constructions.
    for _ in 0..4 * c.switches {
        let mut found = None;
        let nonempty: Vec<usize> = (0..c.blocks.len()).filter(|&b| sizes[b] > 0).collect();
        'search: for &from in &nonempty {
            for to in 0..c.blocks.len() {
                if to == from {
                    continue;
                }
                shift(c, degree, from, to);
                let after = fullness(degree);
                shift(c, degree, to, from);
                if after < current {
                    found = Some((from, to, after));
                    break 'search;
                }
            }
        }
        let Some((from, to, after)) = found else { break };
        shift(c, degree, from, to);
        sizes[from] -= 1;
        sizes[to] += 1;
        current = after;
    }
}

/// One PC moves from group `from` to group `to`: its switches' PCs.
pub(super) fn shift(c: &Construction, degree: &mut [usize], from: usize, to: usize) {
    for &s in &c.blocks[from] {
        degree[s] -= 1;
    }
    for &s in &c.blocks[to] {
        degree[s] += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intersecting(c: &Construction) -> bool {
        c.blocks
            .iter()
            .enumerate()
            .all(|(i, a)| c.blocks[i + 1..].iter().all(|b| a.iter().any(|s| b.contains(s))))
    }

    #[test]
    fn planes_have_their_parameters() {
        for q in [2, 3, 4, 5, 7, 8, 9] {
            let p = projective_plane(q).unwrap();
            assert_eq!(
                (p.switches, p.blocks.len(), p.nics()),
                (q * q + q + 1, q * q + q + 1, q + 1)
            );
            assert!(intersecting(&p), "PG(2,{q})");
            let a = affine_plane(q).unwrap();
            assert_eq!((a.switches, a.blocks.len(), a.nics()), (q * q + q, q * q, q + 1));
            assert!(intersecting(&a), "AG(2,{q})");
        }
        assert!(projective_plane(6).is_none());
        for g in 3..8 {
            let c = pairs_of_groups(g);
            assert_eq!((c.switches, c.nics()), (g * (g - 1) / 2, g - 1));
            assert!(intersecting(&c));
        }
    }

    #[test]
    fn the_plane_meets_fureds_bound_at_1024_pcs() {
        // PG(2,4) over 21 groups of 48 or 49: the fullest line holds 244.
        let b = build(&projective_plane(4).unwrap(), 1024);
        assert_eq!(b.width, 244);
        assert_eq!(b.switches(), 21);
        assert_eq!(best(1024, 5).unwrap().width, 244);
    }

    /// 38 PCs with 6 NICs: over the planes with greedy sizes the fullest
    /// switch holds 9 (over AG(2,5) any sizes would: the squared line
    /// loads would add up to too little for 8), but with groups on whole
    /// parallel classes through a line, sized unequally by the walk, it
    /// holds 8, the lower bound; so does PG(2,5) with unequal groups.
    #[test]
    fn the_affine_plane_through_a_line_fits_38_pcs_on_8_ports() {
        let c = affine_plane_through_line(5).unwrap();
        assert!(intersecting(&c));
        assert_eq!((c.switches, c.blocks.len(), c.nics()), (30, 30, 6));
        assert_eq!(build(&c, 38).width, 9, "the greedy sizes");
        let b = build_within(&c, 38, 8).expect("the walk's sizes");
        assert_eq!((b.width, b.design.pcs()), (8, 38));
        assert_eq!(build(&affine_plane(5).unwrap(), 38).width, 9);
        let pg = projective_plane(5).unwrap();
        assert_eq!(fullness(&spread(&pg, 38).1).0, 9, "the greedy spread");
        let pg = build_within(&pg, 38, 8).expect("unequal groups");
        assert_eq!((pg.width, pg.design.pcs()), (8, 38));
        assert_eq!(best(38, 6).map(|b| b.width), Some(8));
    }

    #[test]
    fn sizes_for_more_pcs_trimmed_back_can_be_narrower() {
        // The spread alone puts 73 PCs over PG(2,4) on 19 ports; the spread
        // for 74, less one PC, on 18 (Füredi's bound).
        let c = projective_plane(4).unwrap();
        let (_, alone) = spread(&c, 73);
        assert_eq!(fullness(&alone).0, 19);
        assert_eq!(build(&c, 73).width, 18);
        assert_eq!(best(73, 5).unwrap().width, 18);
        assert_eq!(best(73, 5).unwrap().design.pcs(), 73);
    }

    #[test]
    fn a_plane_over_an_arc_is_narrower_than_the_spread() {
        // PG(2,7): 57 groups of one and a 15-block arc with at most 3 on a
        // line of twos hold 72 PCs on 8 + 3 ports; the spread needs 12.
        let c = projective_plane(7).unwrap();
        assert_eq!(fullness(&spread(&c, 72).1).0, 12);
        assert_eq!(build(&c, 72).width, 11);
        let b = best(72, 8).unwrap();
        assert_eq!((b.width, b.design.pcs()), (11, 72));
        // PG(2,5) over groups of 3, 13 of them one more and some under:
        // 106 PCs on 18 + 3 ports, Füredi's bound; the spread needs 22.
        let c = projective_plane(5).unwrap();
        assert_eq!(fullness(&spread(&c, 106).1).0, 22);
        assert_eq!(best(106, 6).unwrap().width, 21);
    }

    #[test]
    fn fano_holds_ten_pcs_on_five_ports() {
        let b = build(&projective_plane(2).unwrap(), 10);
        assert_eq!(b.width, 5);
    }
}
