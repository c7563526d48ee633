//! Counting bounds on FNN hardware (the KLAT2 paper §7): how narrow and
//! how few the switches can be for a universal FNN of P PCs with n NICs.
//!
//! * Every PC reaches at most n (S - 1) others on S-port switches, so
//!   S >= ceil((P - 1) / n) + 1.
//! * Switches of width S cover at most S (S - 1) / 2 pairs, and every PC
//!   needs ceil((P - 1) / (S - 1)) of them: the covering-design (Schönheim)
//!   bound, at least ceil(P / S * ceil((P - 1) / (S - 1))) switches.
//! * A universal FNN is an intersecting family: each PC is the set of at
//!   most n switches it is cabled to, and every two sets meet. Füredi (1981)
//!   proved such a family has a fractional cover of weight at most
//!   n - 1 + 1/n, so some switch holds at least P n / (n^2 - n + 1) PCs.
//!   For large P this beats the first bound (n = 4: 4P/13 against P/4) and
//!   it is tight: a projective plane of order n - 1 over groups of PCs
//!   meets it (see `constructions`).
//! * Füredi's theorem says more: an intersecting family of n-sets that is
//!   not a projective plane of order n - 1 has a fractional cover of weight
//!   at most n - 1, so on switches of width w it holds at most (n - 1) w
//!   PCs. More PCs than that force every PC onto a line of one plane (a set
//!   of n points meeting every line of a plane of order n - 1 is a line),
//!   and then the busiest line caps the rest (`plane_capacity`). This is
//!   what settles 28 PCs with 4 NICs at 10 ports, not 9.
//! * Counting the PCs that pairs of switches share (a second-moment
//!   argument, `moment_refutation`): a tight design has few repeated PC
//!   pairs, yet many switches over few PCs must overlap a lot, and so must
//!   full switches (every PC off one must meet all of it on few switches).
//!   This settles 23 and 24 PCs with 5 NICs at 7 ports and 28 at 8 (not 6
//!   and 7), for every switch count, where the exact mode ran out of time.
//! * Proofs made outside the program, each checked by its own scripts
//!   (`proved`): 44 PCs with 5 NICs need 12 ports, not 11.

use serde::Serialize;

/// The most pair-links `nics` NICs can make on switches of these widths:
/// fill the widest switches first (u(u-1)/2 is convex, so this maximises
/// the sum), then divide by the pair count. The FNN compiler paper: "a tight upper bound
/// on the average number of links between a PC pair".
pub fn max_pair_links(ports: &[u32], nics: u64, pcs: usize) -> u64 {
    let mut widths: Vec<u64> = ports.iter().map(|&p| (p as u64).min(pcs as u64)).collect();
    widths.sort_unstable_by(|a, b| b.cmp(a));
    let mut left = nics;
    let mut links = 0;
    for w in widths {
        let u = w.min(left);
        links += u * u.saturating_sub(1) / 2;
        left -= u;
    }
    links
}

/// Average links per PC pair for the best possible use of this hardware:
/// sum used_s (used_s - 1) / (P (P - 1)).
pub fn pairwise_upper_bound(ports: &[u32], nics: u64, pcs: usize) -> f64 {
    if pcs < 2 {
        return 0.0;
    }
    2.0 * max_pair_links(ports, nics, pcs) as f64 / (pcs * (pcs - 1)) as f64
}

/// The narrowest switch a universal FNN of `pcs` PCs with `nics` NICs allows.
pub(crate) fn min_width(pcs: u64, nics: u64) -> u64 {
    if pcs < 2 || nics == 0 {
        return if pcs < 2 { 1 } else { u64::MAX };
    }
    (pcs - 1).div_ceil(nics) + 1
}

/// Füredi's bound: some switch of a universal FNN holds at least
/// ceil(P n / (n^2 - n + 1)) PCs.
pub(crate) fn intersecting_width(pcs: u64, nics: u64) -> u64 {
    if pcs < 2 || nics == 0 {
        return if pcs < 2 { 1 } else { u64::MAX };
    }
    (pcs * nics).div_ceil(nics * nics - nics + 1)
}

/// Whether a projective plane of order `q` may exist: Bruck-Ryser rules out
/// orders 1 or 2 mod 4 that are not a sum of two squares (6, 14, 21, ...)
/// and Lam, Thiel and Swiercz (1989) order 10. Other orders count as
/// possible, so the bounds that use this stay true lower bounds.
pub fn plane_may_exist(q: u64) -> bool {
    let sum_of_two_squares = (0..=q.isqrt()).any(|a| {
        let b = q - a * a;
        b.isqrt() * b.isqrt() == b
    });
    let bruck_ryser_allows = sum_of_two_squares || !matches!(q % 4, 1 | 2);
    bruck_ryser_allows && q != 10
}

/// The most PCs a multiset of lines of a projective plane of order n - 1
/// can hold when no switch (point) takes more than `width` of them. If the
/// busiest line is taken M times, the n points on it carry (n - 1) M plus
/// every PC once, so P <= n w - (n - 1) M; and P <= M (n^2 - n + 1).
pub(crate) fn plane_capacity(nics: u64, width: u64) -> u64 {
    let lines = nics * nics - nics + 1;
    (1..=width)
        .map(|m| (nics * width).saturating_sub((nics - 1) * m).min(lines * m))
        .max()
        .unwrap_or(0)
}

/// Why `pcs` PCs with at most `nics` NICs cannot all share switches of at
/// most `width` usable ports, by Füredi's bounds on intersecting families;
/// `None` when they allow it.
pub(crate) fn intersecting_refutation(pcs: u64, nics: u64, width: u64) -> Option<String> {
    if pcs < 2 || nics == 0 {
        return (pcs >= 2).then(|| "PCs without NICs share no switch".into());
    }
    let q = nics - 1;
    let fractional = intersecting_width(pcs, nics);
    if width < fractional {
        return Some(format!(
            "some switch holds at least {pcs} x {nics} / {} -> {fractional} PCs (Füredi 1981)",
            nics * nics - nics + 1
        ));
    }
    if pcs <= q * width {
        return None;
    }
    let why = format!(
        "more than {q} x {width} = {} PCs need every PC on a line of one projective plane of order {q} (Füredi 1981)",
        q * width
    );
    if !plane_may_exist(q) {
        return Some(format!("{why}, and no plane of order {q} exists"));
    }
    let most = plane_capacity(nics, width);
    (most < pcs).then(|| format!("{why}, whose lines hold at most {most} PCs on {width}-port switches"))
}

/// Why no universal FNN of `pcs` PCs with `nics` NICs fits switches of
/// `width` ports on any number of switches, by counting the pairs of
/// switches (a second-moment argument, as in Fisher's inequality).
///
/// Let PC p be on r_p switches, the b used switches hold s_j PCs, two PCs
/// p, q share l_pq >= 1 switches and two switches share k PCs. Counting
/// PCs in two switches, and pairs of PCs in two switches:
///
/// * sum over switch pairs of k = sum over PCs of C(r_p, 2);
/// * sum over switch pairs of C(k, 2) = sum over PC pairs of C(l_pq, 2) = Q.
///
/// Since C(k, 2) >= k - 1 for every k >= 0, Q >= sum C(r_p, 2) - C(b, 2).
/// And Q is small when the design is tight: the excess
/// X = sum C(s_j, 2) - C(P, 2) is the sum of l_pq - 1, each at most
/// m (what a PC's switches can repeat, [`repeat_depth`]), so
/// Q <= (m + 1) X / 2. A second lower bound on Q comes from each busy
/// switch's overlaps ([`Overlap`]). For each possible b and N = sum r_p = sum s_j,
/// the left side is least with the r_p even and X greatest with the s_j
/// at their extremes (a used switch holds at least P - (n - 1)(w - 1));
/// when no (b, N) satisfies all three, no design exists. This settles 24
/// PCs with 5 NICs on 6 ports and 28 with 5 on 7, where the SAT models ran
/// out of time (twenty-one switches at 6 ports: Q >= 240 - 210 = 30, but
/// X <= 12 and m = 2 give Q <= 18), and 23 with 5 on 6 (twenty switches:
/// Q >= 230 - 190 = 40, but X <= 26 and m = 2 give Q <= 39; twenty-one and
/// twenty-two: the overlaps of the full switches ask more than X allows).
pub(crate) fn moment_refutation(pcs: u64, nics: u64, width: u64) -> Option<String> {
    let (p, n) = (pcs, nics);
    if p < 3 || n < 2 || width < 2 || width >= p {
        return None;
    }
    let w = width;
    let m = repeat_depth(p, n, w)?;
    let least_nics = (p - 1).div_ceil(w - 1).max(1);
    let least_load = p.saturating_sub((n - 1) * (w - 1)).max(1);
    let pairs = p * (p - 1) / 2;
    let choose2 = |x: u64| x * x.saturating_sub(1) / 2;
    // Beyond this many switches the left side cannot be positive, so only
    // the pair count can rule them out (checked at the most NICs).
    let most_b = (2..).find(|&b| choose2(b) >= p * choose2(n)).unwrap_or(2);
    let max_b = p * n / least_load;
    let overlap = Overlap::new(p, n, w, m, least_load);
    for b in 1..=max_b {
        let (lo, hi) = ((p * least_nics).max(b * least_load), (p * n).min(b * w));
        let first = if b > most_b && overlap.is_none() { hi } else { lo };
        for total in first..=hi {
            let (q, r) = (total / p, total % p);
            let spread = r * choose2(q + 1) + (p - r) * choose2(q);
            // Switch loads: as many full as the others' least loads allow.
            let room = total - b * least_load;
            let full = if w > least_load {
                (room / (w - least_load)).min(b)
            } else {
                b
            };
            let mid = least_load + (room - full * (w - least_load)).min(w - least_load);
            let rest = b - full;
            let made = full * choose2(w)
                + if rest > 0 {
                    choose2(mid) + (rest - 1) * choose2(least_load)
                } else {
                    0
                };
            let Some(excess) = made.checked_sub(pairs) else {
                continue;
            };
            let moments_agree = 2 * spread.saturating_sub(choose2(b)) <= (m + 1) * excess;
            if moments_agree && overlap.as_ref().is_none_or(|o| o.allows(b, total)) {
                return None;
            }
        }
    }
    Some(format!(
        "counting the PCs two switches share: on any number of {w}-port switches the pairs of switches would have to share more PCs than {p} PCs with {n} NICs can repeat"
    ))
}

/// How many times over, at most, a pair of PCs can share switches beyond
/// the first (`m` in [`moment_refutation`]); `None` when `width` is too
/// narrow for a PC to reach every other.
///
/// A PC's n switches reach n (w - 1) others counted with repeats, so it
/// repeats at most E = n (w - 1) - (P - 1) times, and a pair shares at most
/// min(E, n - 1) switches beyond one. The deepest pair, sharing E + 1
/// switches, is impossible when E < n - 1 and ceil((w - 1) / k) - 1 > E,
/// k = n - 1 - E: PCs a and b sharing E + 1 switches spend all their
/// repeats on each other, so their switches are full and they meet every
/// other PC once. Then a's other k switches and b's other k switches each
/// split the same k (w - 1) PCs (those on no shared switch) into k groups
/// of w - 1, so one of a's groups meets one of b's in at least
/// ceil((w - 1) / k) PCs, each of which shares two switches with all the
/// others there: more repeats than E.
/// (23 PCs with 5 NICs on 6 ports: E = 3, k = 1, and a's fifth switch and
/// b's hold the same five PCs, four repeats each; so pairs share at most
/// three switches, not four.)
fn repeat_depth(p: u64, n: u64, w: u64) -> Option<u64> {
    let reach = (n * (w - 1)).checked_sub(p - 1)?;
    if reach == 0 || reach >= n - 1 {
        return Some(reach.min(n - 1));
    }
    let k = n - 1 - reach;
    let crowd = (w - 1).div_ceil(k);
    Some(if crowd - 1 > reach { reach - 1 } else { reach })
}

/// The block-intersection side of [`moment_refutation`]. A switch B with s
/// PCs, s > n: every PC q not on B must meet all s of them on at most n
/// switches, so q's switches overlap B in at least s - n PCs beyond one
/// each. A switch B' meeting B in x PCs serves at most w - x such q with
/// x - 1 each, which is at most (w - 2) C(x, 2). So the switches meeting B
/// share at least (P - s)(s - n) / (w - 2) pairs of B's PCs with it, and
/// summed over B that is twice Q <= (m + 1) X. With X = sum C(s_j, 2) - C(P, 2),
/// a design needs sum over switches of h(s) >= (m + 1) C(P, 2), where
/// h(s) = (m + 1) C(s, 2) - ceil((P - s)(s - n) / (w - 2)). The most any
/// b loads adding up to N can give is at most b times the upper concave
/// envelope of h at N / b (its hull's edges, kept here).
struct Overlap {
    /// Hull vertices (load, h) of h over the possible loads, left to right.
    hull: Vec<(i128, i128)>,
    /// (m + 1) C(P, 2): what the loads' h must add up to.
    need: i128,
}

impl Overlap {
    /// `None` when the argument says nothing (switches of 2 ports, or no
    /// switch wider than the NICs) or would cost too much to evaluate for
    /// every switch count and NIC total (large clusters on wide switches).
    fn new(p: u64, n: u64, w: u64, m: u64, least_load: u64) -> Option<Overlap> {
        if w <= 2 || w <= n {
            return None;
        }
        let work = (p * n / least_load)
            .saturating_mul(p * n)
            .saturating_mul(w - least_load + 1);
        if work > 20_000_000 {
            return None;
        }
        let (p, n, w, m) = (p as i128, n as i128, w as i128, m as i128);
        let h = |s: i128| {
            let forced = (p - s) * (s - n).max(0);
            (m + 1) * (s * (s - 1) / 2) - (forced + w - 3) / (w - 2)
        };
        let mut hull: Vec<(i128, i128)> = Vec::new();
        for s in least_load as i128..=w {
            let pt = (s, h(s));
            // Keep the envelope concave: drop a middle vertex on or under
            // the chord from its left neighbour to the new point.
            while let [.., a, b] = hull[..] {
                if (b.1 - a.1) * (pt.0 - a.0) <= (pt.1 - a.1) * (b.0 - a.0) {
                    hull.pop();
                } else {
                    break;
                }
            }
            hull.push(pt);
        }
        Some(Overlap {
            hull,
            need: (m + 1) * (p * (p - 1) / 2),
        })
    }

    /// Whether `b` switches with `total` PCs between them can meet the need:
    /// b times the envelope at total / b, i.e. its smallest edge line there.
    fn allows(&self, b: u64, total: u64) -> bool {
        let (b, total) = (b as i128, total as i128);
        match self.hull[..] {
            [] => false,
            [(s, v)] => total == b * s && b * v >= self.need,
            _ => self.hull.windows(2).all(|e| {
                let ((s1, h1), (s2, h2)) = (e[0], e[1]);
                // b h1 + (total - b s1)(h2 - h1)/(s2 - s1) >= need
                (b * h1 - self.need) * (s2 - s1) + (total - b * s1) * (h2 - h1) >= 0
            }),
        }
    }
}

/// Why no universal FNN of `pcs` PCs with `nics` NICs fits switches of
/// `width` ports, by the first bound that rules it out; `None` when none does.
pub(crate) fn width_refutation(pcs: u64, nics: u64, width: u64) -> Option<String> {
    if width < min_width(pcs, nics) {
        return Some(format!(
            "each PC reaches at most {nics} x {} = {} others",
            width.saturating_sub(1),
            nics * width.saturating_sub(1)
        ));
    }
    if let Some(why) = intersecting_refutation(pcs, nics, width) {
        return Some(why);
    }
    if let Some(why) = moment_refutation(pcs, nics, width) {
        return Some(why);
    }
    if let Some(why) = super::proved::proved_refutation(pcs, nics, width) {
        return Some(why);
    }
    (width < pcs && !pair_capacity_allows(pcs, nics, width)).then(|| {
        format!(
            "{} NICs on {width}-port switches make fewer than the {} pairs",
            pcs * nics,
            pcs * (pcs - 1) / 2
        )
    })
}

/// Whether `pcs x nics` NICs on switches of `width` ports can make all
/// P (P - 1) / 2 pairs at all: full switches make the most pairs.
pub(crate) fn pair_capacity_allows(pcs: u64, nics: u64, width: u64) -> bool {
    let width = width.min(pcs);
    if width < 2 {
        return pcs < 2;
    }
    let ports = pcs * nics;
    let (full, rest) = (ports / width, ports % width);
    full * (width * (width - 1) / 2) + rest * rest.saturating_sub(1) / 2 >= pcs * (pcs - 1) / 2
}

/// The narrowest switch width any universal FNN of this size can have:
/// the larger of the two width bounds, raised until no bound refutes it.
pub fn width_bound(pcs: u64, nics: u64) -> u64 {
    let mut w = min_width(pcs, nics).max(intersecting_width(pcs, nics));
    while w < pcs && width_refutation(pcs, nics, w).is_some() {
        w += 1;
    }
    w
}

/// The most switches of `width` ports a universal FNN of `pcs` PCs with at
/// most `nics` NICs can use, so a proof on that many (empty ones allowed)
/// covers every switch count. Each PC p with k NICs on switches A reaches
/// sum over A of (d_s - 1) >= P - 1 partners, so its switches lack at most
/// k (w - 1) - (P - 1) ports between them, and a used switch holds at least
/// L = P - (n - 1)(w - 1) PCs. Summing the lack over PCs,
/// sum of d_s (w - d_s) <= E (w - 1) - P (P - 1) for E NIC ends, and the
/// left side is at least L (w S - E); with E <= P n,
/// S <= (L P n + P n (w - 1) - P (P - 1)) / (L w).
/// (24 PCs with 5 NICs on 6-port switches: at most 22.)
pub fn most_useful_switches(pcs: u64, nics: u64, width: u64) -> u64 {
    if pcs < 2 || width < 2 {
        return 0;
    }
    let ends = pcs * nics;
    let least = pcs.saturating_sub((nics.saturating_sub(1)) * (width - 1)).max(1);
    let numerator = (least * ends + ends * (width - 1)).saturating_sub(pcs * (pcs - 1));
    numerator / (least * width)
}

/// The Schönheim bound: switches of width `width` needed to cover all pairs.
pub fn min_switches(pcs: u64, width: u64) -> u64 {
    if pcs < 2 {
        return 0;
    }
    if width < 2 {
        return u64::MAX;
    }
    let per_pc = (pcs - 1).div_ceil(width - 1);
    (pcs * per_pc).div_ceil(width)
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bounds {
    pub min_switch_width: u64,
    pub min_switches_at_widest: u64,
    pub widest_ports: u64,
    pub switches_available: u64,
    /// Widest port count over the bound (0 means at the limit).
    pub width_gap: i64,
    /// Switches used over the covering bound at the widest width.
    pub switch_gap: i64,
}

pub fn bounds(pcs: u64, nics: u64, widest_ports: u64, switches_available: u64, switches_used: u64) -> Bounds {
    let w = width_bound(pcs, nics);
    let s = min_switches(pcs, widest_ports);
    Bounds {
        min_switch_width: w,
        min_switches_at_widest: s,
        widest_ports,
        switches_available,
        width_gap: widest_ports as i64 - w as i64,
        switch_gap: switches_used as i64 - s as i64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_bounds() {
        // KLAT2: 64 PCs, 4 NICs: 63 / 4 -> 16, so 17-port switches at least;
        // 31-port switches: each PC needs ceil(63/30) = 3, 64 * 3 / 31 -> 7 switches.
        assert_eq!(min_width(64, 4), 17);
        assert_eq!(min_switches(64, 31), 7);
        // The 8-PC example: 3 NICs -> width 4 (7/3 -> 3, +1); 4-port switches:
        // ceil(7/3) = 3 per PC, 8 * 3 / 4 = 6 switches: the paper's six, tight.
        assert_eq!(min_width(8, 3), 4);
        assert_eq!(min_switches(8, 4), 6);
        // The Fano plane: 7 PCs on 3-port switches need 7 switches, and it has 7.
        assert_eq!(min_switches(7, 3), 7);
        // Projective plane of order 3: 13 points, lines of 4: 13 switches.
        assert_eq!(min_switches(13, 4), 13);
        assert_eq!(min_width(1, 3), 1);
        assert_eq!(min_switches(10, 1), u64::MAX);
        // Füredi: 64 PCs with 4 NICs need 4 * 64 / 13 -> 20 ports, more than
        // the 17 of counting; the GA's old 15 x 18-port stall was impossible.
        assert_eq!(intersecting_width(64, 4), 20);
        assert_eq!(width_bound(64, 4), 20);
        // Two NICs: a triangle of switches is the best, 2P/3.
        assert_eq!(width_bound(9, 2), 6);
        // 1024 PCs with 5 NICs: 5 * 1024 / 21 -> 244 (the KLAT2 paper §7 found 309).
        assert_eq!(width_bound(1024, 5), 244);
        // 11 PCs with 5 NICs: 55 NICs on 3-port switches make 54 pairs of 55.
        assert!(!pair_capacity_allows(11, 5, 3));
        assert_eq!(width_bound(11, 5), 4);
        assert!(pair_capacity_allows(10, 5, 3));
        // Small clusters: the counting bound rules (8 PCs, 3 NICs: 4 ports).
        assert_eq!(width_bound(8, 3), 4);
        let b = bounds(64, 4, 31, 9, 9);
        assert_eq!((b.width_gap, b.switch_gap), (11, 2));
    }

    /// Füredi's structure theorem: the cells the exact mode proved by SAT
    /// (9, 16, 23 PCs with 3 NICs; 16, 19 with 4) come out of the plane
    /// bound too, and it settles cells no SAT run could (28, 29, 32 PCs
    /// with 4 NICs; 25, 29 with 5).
    #[test]
    fn the_plane_bound_raises_the_width() {
        for (pcs, nics, width) in [
            (9, 3, 5),
            (16, 3, 8),
            (23, 3, 11),
            (16, 4, 6),
            (19, 4, 7),
            (28, 4, 10),
            (29, 4, 10),
            (32, 4, 11),
            (25, 5, 7),
            (29, 5, 8),
        ] {
            assert_eq!(width_bound(pcs, nics), width, "{pcs} PCs, {nics} NICs");
            let why = width_refutation(pcs, nics, width - 1).unwrap();
            assert!(why.contains("projective plane of order"), "{why}");
        }
        // PG(2,3) taken twice: 26 PCs with 4 NICs on 8-port switches.
        assert_eq!(plane_capacity(4, 8), 26);
        assert_eq!(width_bound(26, 4), 8);
        // 28 PCs on 9 ports: one line taken 3 times leaves 36 - 9 = 27.
        assert_eq!(plane_capacity(4, 9), 27);
        // The Fano plane on 3-port switches holds exactly its 7 lines.
        assert_eq!(plane_capacity(3, 3), 7);
        assert_eq!(width_bound(7, 3), 3);
        // Two NICs: the triangle, 3 w / 2 PCs.
        assert_eq!(plane_capacity(2, 4), 6);
        // 15 PCs with 4 NICs: 15 <= 3 x 5, so no plane is forced; SAT
        // proves 5 ports impossible, and of the bounds only the
        // second-moment one (with the deepest repeat ruled out) does.
        assert!(intersecting_refutation(15, 4, 5).is_none());
        assert!(moment_refutation(15, 4, 5).is_some());
        assert_eq!(width_bound(15, 4), 6);
    }

    #[test]
    fn useful_switches_are_capped() {
        // 24/5 on 6 ports: used switches hold 4..6 PCs and each PC's
        // switches lack at most 2 ports, so at most 22 switches.
        assert_eq!(most_useful_switches(24, 5, 6), 22);
        assert_eq!(most_useful_switches(15, 4, 5), 14);
        assert_eq!(most_useful_switches(28, 5, 7), 23);
        // The Fano plane: seven full 3-port switches.
        assert_eq!(most_useful_switches(7, 3, 3), 7);
        // The paper's 8 PCs on 4-port switches: counting allows four
        // switches of 2 PCs beside four full ones, so 8.
        assert_eq!(most_useful_switches(8, 3, 4), 8);
    }

    /// No design the constructions build uses more switches than the cap
    /// allows at its width (so the cap is not too strong).
    #[test]
    fn constructions_respect_the_switch_cap() {
        for nics in 2..=6usize {
            for pcs in 3..=64usize {
                let b = crate::design::constructions::best(pcs, nics).unwrap();
                let used = b.design.ports_used().iter().filter(|&&u| u > 0).count() as u64;
                let cap = most_useful_switches(pcs as u64, nics as u64, b.width as u64);
                assert!(used <= cap, "{pcs} PCs, {nics} NICs, width {}: {used} > {cap}", b.width);
            }
        }
    }

    #[test]
    fn planes_that_cannot_exist() {
        let none: Vec<u64> = (2..=30).filter(|&q| !plane_may_exist(q)).collect();
        assert_eq!(none, vec![6, 10, 14, 21, 22, 30]);
        // Seven NICs: no plane of order 6, so at most 6 w PCs on w ports.
        assert_eq!(width_bound(43, 7), 8);
        assert!(
            width_refutation(43, 7, 7)
                .unwrap()
                .contains("no plane of order 6 exists")
        );
    }

    /// The second-moment bound settles 24 PCs and 28 PCs with 5 NICs at 6
    /// and 7 ports for every switch count (the exact mode had proved 24 on
    /// twenty 6-port switches in 246 s and left twenty-one unknown after
    /// 2400 s), and refutes no width any construction reaches.
    #[test]
    fn the_moment_bound_settles_tight_five_nic_cells() {
        assert!(moment_refutation(24, 5, 6).is_some());
        assert!(moment_refutation(28, 5, 7).is_some());
        assert!(moment_refutation(23, 5, 6).is_some());
        assert_eq!(width_bound(23, 5), 7);
        assert_eq!(width_bound(24, 5), 7);
        assert_eq!(width_bound(28, 5), 8);
        for pcs in 3..=64usize {
            for nics in 2..=8usize {
                if let Some(b) = crate::design::constructions::best(pcs, nics) {
                    let w = b.width.max(2) as u64;
                    assert!(
                        moment_refutation(pcs as u64, nics as u64, w).is_none(),
                        "{pcs} PCs, {nics} NICs: refutes {w} ports, which a construction reaches"
                    );
                }
            }
        }
    }

    /// The deepest repeat: 23 PCs with 5 NICs on 6 ports reach 25 others
    /// (E = 3) but a pair on four common switches would force four repeats
    /// on the five PCs both fifth switches hold; where the groups are small
    /// enough (a plane's PCs, E = 0; twins, E >= n - 1) nothing changes.
    #[test]
    fn the_deepest_repeat_is_ruled_out_only_where_it_crowds() {
        assert_eq!(repeat_depth(23, 5, 6), Some(2));
        assert_eq!(repeat_depth(24, 5, 6), Some(2));
        assert_eq!(repeat_depth(7, 3, 3), Some(0));
        assert_eq!(repeat_depth(13, 4, 4), Some(0));
        assert_eq!(repeat_depth(8, 2, 5), Some(1));
        assert_eq!(repeat_depth(10, 3, 5), Some(2));
        assert_eq!(repeat_depth(30, 5, 6), None);
    }

    /// The overlap side alone refutes 23 PCs with 5 NICs on twenty-one and
    /// twenty-two 6-port switches (115 NICs), and allows what a plane
    /// of order 4 does (21 PCs, 5 NICs, twenty-one 5-port switches).
    #[test]
    fn busy_switches_overlap_more_than_a_tight_design_repeats() {
        let o = Overlap::new(23, 5, 6, 2, 3).expect("applies");
        assert!(!o.allows(21, 115));
        assert!(!o.allows(22, 115));
        let plane = Overlap::new(21, 5, 5, 0, 1);
        assert!(plane.is_none(), "no switch is wider than the NICs");
        let o = Overlap::new(26, 5, 7, repeat_depth(26, 5, 7).unwrap(), 2).expect("applies");
        assert!(o.allows(20, 130), "the affine-plane design of 26 PCs on 7 ports");
    }
}
