//! Rack placement (the KLAT2 paper §3: KLAT2 spanned five racks
//! "in a seemingly random pattern"): put the PCs, the FNN switches and the
//! uplink switch into the spec's racks so that cables are short and few
//! cross between racks, then list every cable with its estimated length.
//!
//! Racks stand in a row, `width_m` apart; a unit is 44.45 mm. A cable within
//! a rack runs between the two units; one between racks runs up to the top,
//! across, and down. The placement starts from PCs grouped by the switches
//! they share and the switches in the middle rack, then a KNITT-like local
//! search swaps items of the same size while that shortens the cabling.

use super::colors::cable;
use fnn_core::design::Design;
use fnn_core::spec::{Cluster, UplinkMode};
use fnn_core::svg::{Element, Svg};
use std::collections::BTreeMap;
use std::fmt::Write as _;

const UNIT_M: f64 = 0.04445;
/// Slack at each end of a cable.
const SLACK_M: f64 = 0.5;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    Pc(usize),
    Switch(usize),
    Uplink,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    pub item: Item,
    pub rack: usize,
    /// Lowest unit, from 0 at the bottom.
    pub unit: u32,
    pub units: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CableRun {
    pub pc: usize,
    pub nic: usize,
    pub switch: usize,
    pub color: String,
    pub length_m: f64,
    pub crosses: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    pub racks: usize,
    pub units: u32,
    pub width_m: f64,
    pub items: Vec<Placed>,
    pub cables: Vec<CableRun>,
    pub total_length_m: f64,
    pub crossings: usize,
}

/// Rack geometry from the spec, with defaults when it names no racks: as
/// many 42U racks as the equipment needs.
fn geometry(c: &Cluster, d: &Design, pc_units: u32) -> (usize, u32, f64) {
    let (count, units, width) = (c.racks.count, c.racks.units.max(1), c.racks.width_m);
    let switch_units: u32 = (0..d.switches())
        .map(|s| c.models[c.switches[s].model].rack_units.max(1))
        .sum();
    let need = d.pcs() as u32 * pc_units + switch_units + 1;
    let count = if count == 0 {
        // Items do not split across racks: each rack may leave up to one
        // unit less than its tallest item free.
        let tallest = (0..d.switches())
            .map(|s| c.models[c.switches[s].model].rack_units.max(1))
            .max()
            .unwrap_or(1)
            .max(pc_units);
        need.div_ceil(units.saturating_sub(tallest - 1).max(1)) as usize
    } else {
        count
    };
    (count.max(1), units, if width > 0.0 { width } else { 0.6 })
}

/// The racks cannot hold the equipment.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum PlacementError {
    #[error("the equipment needs {needed} rack units but {racks} racks of {units} units hold {}", *.racks as u32 * .units)]
    TooSmall { needed: u32, racks: usize, units: u32 },
    #[error("the switches alone do not fit in the racks")]
    SwitchesDoNotFit,
    #[error(
        "no rack has {units} free units left for {what}: items do not split across racks, so racks fill with gaps; give more racks ([racks] count)"
    )]
    NoSpace { what: String, units: u32 },
    #[error("no rack space left")]
    NoRoom { what: Item, units: u32 },
}

impl PlacementError {
    /// The item that did not fit, by the name the labels give it.
    fn naming(self, c: &Cluster) -> Self {
        match self {
            PlacementError::NoRoom { what, units } => PlacementError::NoSpace {
                what: match what {
                    Item::Pc(pc) => c.pc_name(pc),
                    Item::Switch(s) => format!("switch {s}"),
                    Item::Uplink => "the uplink switch".into(),
                },
                units,
            },
            e => e,
        }
    }
}

pub fn place(c: &Cluster, d: &Design) -> Result<Placement, PlacementError> {
    let mut p = first_placement(c, d)?;
    improve(&mut p, d);
    p.cables = cables(&p, c, d);
    p.total_length_m = p.cables.iter().map(|r| r.length_m).sum();
    p.crossings = p.cables.iter().filter(|r| r.crosses).count();
    Ok(p)
}

/// PCs in switch-set order and switches by their PCs' racks, before the
/// local search.
fn first_placement(c: &Cluster, d: &Design) -> Result<Placement, PlacementError> {
    let pc_units = c.pc_rack_units.max(1);
    let (racks, units, width) = geometry(c, d, pc_units);
    let mut items: Vec<(Item, u32)> = Vec::new();
    let mid = racks / 2;
    // Switches first, in the middle rack: every cable ends at a switch.
    let mut sw_items: Vec<(Item, u32)> = (0..d.switches())
        .map(|s| (Item::Switch(s), c.models[c.switches[s].model].rack_units.max(1)))
        .collect();
    if c.uplink.mode == UplinkMode::Separate {
        sw_items.push((Item::Uplink, 1));
    }
    // PCs grouped by their switch sets, so neighbours share switches.
    let mut pcs: Vec<usize> = (0..d.pcs()).collect();
    pcs.sort_by_key(|&p| (d.switches_of(p), p));
    items.extend(pcs.into_iter().map(|p| (Item::Pc(p), pc_units)));
    let total: u32 = items.iter().chain(&sw_items).map(|(_, u)| u).sum();
    if total > racks as u32 * units {
        return Err(PlacementError::TooSmall {
            needed: total,
            racks,
            units,
        });
    }
    // PCs in switch-set order, spread evenly so every rack keeps room for
    // switches; then each switch into the rack holding most of its PCs.
    // Room for the switches is set aside first (largest first, each in the
    // rack with least set aside), so PCs cannot leave every rack a few
    // units short of a tall switch.
    let mut reserved = vec![0u32; racks];
    let mut tall: Vec<u32> = sw_items.iter().map(|(_, u)| *u).collect();
    tall.sort_unstable_by(|a, b| b.cmp(a));
    for u in tall {
        let r = (0..racks)
            .filter(|&r| reserved[r] + u <= units)
            .min_by_key(|&r| (reserved[r], r.abs_diff(mid)))
            .ok_or(PlacementError::SwitchesDoNotFit)?;
        reserved[r] += u;
    }
    let mut fill = vec![0u32; racks];
    let mut placed = Vec::new();
    let per_rack = items.len().div_ceil(racks).max(1);
    let pc_room: Vec<u32> = reserved.iter().map(|r| units - r).collect();
    for (k, (item, u)) in items.into_iter().enumerate() {
        let want = (k / per_rack).min(racks - 1);
        put(&mut fill, &pc_room, &mut placed, (want..racks).chain(0..want), item, u).map_err(|e| e.naming(c))?;
    }
    // The set-aside room is free again for the switches to take by votes.
    let room = vec![units; racks];
    let mut rack_of_pc = vec![0usize; d.pcs()];
    for it in &placed {
        if let Item::Pc(pc) = it.item {
            rack_of_pc[pc] = it.rack;
        }
    }
    let on = d.pcs_on_switches();
    for (item, u) in sw_items {
        let mut votes = vec![0usize; racks];
        if let Item::Switch(s) = item {
            for &pc in &on[s] {
                votes[rack_of_pc[pc]] += 1;
            }
        } else {
            votes[mid] = 1;
        }
        let mut by_votes: Vec<usize> = (0..racks).collect();
        by_votes.sort_by_key(|&r| (std::cmp::Reverse(votes[r]), r.abs_diff(mid)));
        put(&mut fill, &room, &mut placed, by_votes.into_iter(), item, u).map_err(|e| e.naming(c))?;
    }
    Ok(Placement {
        racks,
        units,
        width_m: width,
        items: placed,
        cables: Vec::new(),
        total_length_m: 0.0,
        crossings: 0,
    })
}

/// Puts `item` in the first rack of `order` with room for it.
fn put(
    fill: &mut [u32],
    room: &[u32],
    placed: &mut Vec<Placed>,
    mut order: impl Iterator<Item = usize>,
    item: Item,
    u: u32,
) -> Result<(), PlacementError> {
    let rack = order
        .find(|&r| fill[r] + u <= room[r])
        .ok_or(PlacementError::NoRoom { what: item, units: u })?;
    placed.push(Placed {
        item,
        rack,
        unit: fill[rack],
        units: u,
    });
    fill[rack] += u;
    Ok(())
}

fn length(p: &Placement, a: &Placed, b: &Placed) -> f64 {
    let (ya, yb) = (
        a.unit as f64 + a.units as f64 / 2.0,
        b.unit as f64 + b.units as f64 / 2.0,
    );
    let vertical = if a.rack == b.rack {
        (ya - yb).abs() * UNIT_M
    } else {
        ((p.units as f64 - ya) + (p.units as f64 - yb)) * UNIT_M + a.rack.abs_diff(b.rack) as f64 * p.width_m
    };
    vertical + 2.0 * SLACK_M
}

/// The cost of every cable touching item `i` (crossings weigh 2 m extra);
/// `where_` maps switches then PCs to their item, `on` lists each switch's PCs.
fn item_cost(p: &Placement, d: &Design, on: &[Vec<usize>], where_: &[usize], i: usize) -> f64 {
    let it = &p.items[i];
    let cost = |a: &Placed, b: &Placed| length(p, a, b) + if a.rack != b.rack { 2.0 } else { 0.0 };
    partners(d, on, where_, it.item).map(|j| cost(it, &p.items[j])).sum()
}

/// The items at the other ends of an item's cables.
fn partners<'a>(
    d: &'a Design,
    on: &'a [Vec<usize>],
    where_: &'a [usize],
    item: Item,
) -> Box<dyn Iterator<Item = usize> + 'a> {
    match item {
        Item::Pc(pc) => Box::new(fnn_core::design::bits::ones(d.mask(pc)).map(move |s| where_[s])),
        Item::Switch(s) => Box::new(on[s].iter().map(move |&pc| where_[d.switches() + pc])),
        Item::Uplink => Box::new(std::iter::empty()),
    }
}

/// Switches then PCs to their place in `p.items`.
fn item_index(p: &Placement, d: &Design) -> Vec<usize> {
    let mut where_ = vec![0usize; d.switches() + d.pcs()];
    for (i, it) in p.items.iter().enumerate() {
        match it.item {
            Item::Switch(s) => where_[s] = i,
            Item::Pc(pc) => where_[d.switches() + pc] = i,
            Item::Uplink => {}
        }
    }
    where_
}

/// Up to this many items, the local search tries every pair; above it,
/// each item only tries the items of the two racks most of its cables go
/// to, so a round stays linear in the items (a round over every pair of
/// 19,000 items at 16,384 PCs would take hours).
const EVERY_PAIR_UP_TO: usize = 2048;

/// Local search: swap two items of the same size in different racks when
/// it lowers the cost, until a round changes nothing (at most four).
fn improve(p: &mut Placement, d: &Design) {
    let n = p.items.len();
    let on = d.pcs_on_switches();
    // Items never move in the list, only their places change.
    let where_ = item_index(p, d);
    let mut in_rack: Vec<Vec<usize>> = vec![Vec::new(); p.racks];
    for (i, it) in p.items.iter().enumerate() {
        in_rack[it.rack].push(i);
    }
    for _round in 0..4 {
        let mut improved = false;
        for i in 0..n {
            let candidates: Vec<usize> = if n <= EVERY_PAIR_UP_TO {
                (i + 1..n).collect()
            } else {
                let mut count: BTreeMap<usize, usize> = BTreeMap::new();
                for j in partners(d, &on, &where_, p.items[i].item) {
                    *count.entry(p.items[j].rack).or_default() += 1;
                }
                count.remove(&p.items[i].rack);
                let mut racks: Vec<(usize, usize)> = count.into_iter().collect();
                racks.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
                racks.iter().take(2).flat_map(|&(r, _)| in_rack[r].clone()).collect()
            };
            for j in candidates {
                if p.items[i].units != p.items[j].units || p.items[i].rack == p.items[j].rack {
                    continue;
                }
                let before = item_cost(p, d, &on, &where_, i) + item_cost(p, d, &on, &where_, j);
                swap_places(p, i, j);
                let after = item_cost(p, d, &on, &where_, i) + item_cost(p, d, &on, &where_, j);
                if after + 1e-9 < before {
                    improved = true;
                    // i now sits where j was and the other way round.
                    for (k, was) in [(i, j), (j, i)] {
                        let r = &mut in_rack[p.items[k].rack];
                        if let Some(slot) = r.iter_mut().find(|x| **x == was) {
                            *slot = k;
                        }
                    }
                } else {
                    swap_places(p, i, j);
                }
            }
        }
        if !improved {
            break;
        }
    }
}

fn swap_places(p: &mut Placement, i: usize, j: usize) {
    let (ri, ui) = (p.items[i].rack, p.items[i].unit);
    p.items[i].rack = p.items[j].rack;
    p.items[i].unit = p.items[j].unit;
    p.items[j].rack = ri;
    p.items[j].unit = ui;
}

fn cables(p: &Placement, c: &Cluster, d: &Design) -> Vec<CableRun> {
    let where_ = item_index(p, d);
    let mut out = Vec::new();
    for pc in 0..d.pcs() {
        let a = &p.items[where_[d.switches() + pc]];
        for (nic, s) in d.switches_of(pc).into_iter().enumerate() {
            let b = &p.items[where_[s]];
            out.push(CableRun {
                pc,
                nic,
                switch: s,
                color: cable(&c.cable_colors, s).name(),
                length_m: (length(p, a, b) * 10.0).round() / 10.0,
                crosses: a.rack != b.rack,
            });
        }
    }
    out
}

/// The rack view as SVG: racks side by side, PCs grey, switches in their
/// cable colour, the uplink switch black.
pub fn svg(p: &Placement, c: &Cluster) -> String {
    let (uw, uh, gap) = (160.0, 14.0, 40.0);
    let w = p.racks as f64 * (uw + gap) + gap;
    let h = p.units as f64 * uh + 80.0;
    let mut s = Svg::new(w, h, 10);
    s.push(Element::new("title").text(&format!("{}: rack placement", c.name)));
    for r in 0..p.racks {
        let x = gap + r as f64 * (uw + gap);
        s.push(
            Element::new("rect")
                .attr("x", x)
                .attr("y", 30)
                .attr("width", uw)
                .attr("height", p.units as f64 * uh)
                .attr("fill", "none")
                .attr("stroke", "#333")
                .attr("stroke-width", 2),
        );
        s.push(
            Element::new("text")
                .attr("x", x + uw / 2.0)
                .attr("y", 20)
                .attr("text-anchor", "middle")
                .attr("font-size", 12)
                .text(&format!("rack {r}")),
        );
    }
    for it in &p.items {
        let x = gap + it.rack as f64 * (uw + gap) + 2.0;
        let y = 30.0 + (p.units - it.unit - it.units) as f64 * uh + 1.0;
        let (label, fill) = match it.item {
            Item::Pc(pc) => (c.pc_name(pc), "#d9d9d9".to_string()),
            Item::Switch(sw) => (format!("switch {sw}"), cable(&c.cable_colors, sw).base.hex),
            Item::Uplink => ("uplink switch".into(), "#222222".into()),
        };
        let text = if matches!(it.item, Item::Uplink) {
            "#fff"
        } else {
            "#000"
        };
        s.push(
            Element::new("rect")
                .attr("x", x)
                .attr("y", y)
                .attr("width", uw - 4.0)
                .attr("height", it.units as f64 * uh - 2.0)
                .attr("fill", fill)
                .attr("stroke", "#555"),
        );
        // Units as printed on the rack: U1 at the bottom.
        s.push(
            Element::new("text")
                .attr("x", x + 4.0)
                .attr("y", y + it.units as f64 * uh / 2.0 + 3.0)
                .attr("fill", text)
                .text(&format!("U{} {label}", it.unit + 1)),
        );
    }
    s.push(
        Element::new("text")
            .attr("x", gap)
            .attr("y", h - 15.0)
            .attr("font-size", 12)
            .text(&format!(
                "{} cables, {:.1} m in all, {} cross between racks",
                p.cables.len(),
                p.total_length_m,
                p.crossings
            )),
    );
    s.finish()
}

pub fn totals(p: &Placement) -> String {
    let mut used = vec![0u32; p.racks];
    for it in &p.items {
        used[it.rack] += it.units;
    }
    let mut s = format!(
        "{} cables, {:.1} m in all (longest {:.1} m), {} cross between racks\n",
        p.cables.len(),
        p.total_length_m,
        p.cables.iter().map(|r| r.length_m).fold(0.0, f64::max),
        p.crossings
    );
    for (r, u) in used.iter().enumerate() {
        let _ = writeln!(s, "rack {r}: {u} of {} units used", p.units);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    fn total(p: &Placement, d: &Design) -> f64 {
        let (on, where_) = (d.pcs_on_switches(), item_index(p, d));
        (0..p.items.len()).map(|i| item_cost(p, d, &on, &where_, i)).sum()
    }

    /// Above the every-pair size, the search that only looks at the racks
    /// an item's cables go to still shortens the cabling, and swaps keep
    /// every rack packed.
    #[test]
    fn the_rack_by_rack_search_shortens_cables_of_large_clusters() {
        let (pcs, switches, nics) = (2400usize, 400usize, 4usize);
        let flags = fnn_core::spec::QuickFlags {
            pcs: Some(pcs),
            nics: Some(nics as u32),
            switches: Some(format!("24x{switches}")),
            ..Default::default()
        };
        let c = flags.apply(fnn_core::spec::Spec::default()).unwrap().resolve().unwrap();
        let mut d = Design::new(pcs, switches);
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        for pc in 0..pcs {
            // Each PC on its own block's switches, and one far away.
            let base = (pc / 24) * 4 % switches;
            for k in 0..nics - 1 {
                d.connect(pc, (base + k) % switches);
            }
            d.connect(pc, (base + nics - 1 + rng.random_range(0..switches - nics)) % switches);
        }
        eprintln!(
            "{:?} {:?}",
            geometry(&c, &d, c.pc_rack_units.max(1)),
            (0..d.switches())
                .map(|s| c.models[c.switches[s].model].rack_units)
                .max()
        );
        // 2U PCs in racks just big enough by units leave gaps: the default
        // geometry allows for them, and a spec's own count says what to do.
        let mut tight = c.clone();
        tight.racks.count = (2 * pcs + switches + 1).div_ceil(42);
        let e = first_placement(&tight, &d).unwrap_err().to_string();
        assert!(e.contains("for n") && e.contains("[racks] count"), "{e}");
        let mut p = first_placement(&c, &d).unwrap();
        assert!(p.items.len() > EVERY_PAIR_UP_TO);
        let before = total(&p, &d);
        let places: std::collections::BTreeSet<(usize, u32)> = p.items.iter().map(|it| (it.rack, it.unit)).collect();
        improve(&mut p, &d);
        let after = total(&p, &d);
        assert!(after < before * 0.99, "{before} -> {after}");
        let now: std::collections::BTreeSet<(usize, u32)> = p.items.iter().map(|it| (it.rack, it.unit)).collect();
        assert_eq!(places, now, "a swap moved an item to a place no item had");
    }
}
