//! Rack placement for fat-trees (the fat-tree paper §6.3): indivisible equipment
//! first; then "building blocks", an edge switch with its nodes, a block
//! to a rack while one fits, the edge switch at the top of its nodes; the
//! blank space left in the racks filled so far is collected, and once it
//! can take a whole block, the next block is spread over it. Racks are
//! numbered along rows and the rows are walked in a serpentine, so a spread
//! block stays in neighbouring racks. The core switches are indivisible
//! equipment here, placed first.
//!
//! The paper's example: 1U nodes and 36-port switches give 19U blocks, two
//! to a 42U rack with 4U spare; "after filling five racks in this manner,
//! the resultant 20U of space are enough to house the next" block.

use fnn_core::svg::{Element, Svg};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Unit {
    Core(u32),
    Edge(u32),
    /// A node and the edge switch it hangs from.
    Node {
        node: u32,
        edge: u32,
    },
    Free,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FatTreeRacks {
    pub rack_units: u32,
    pub racks_per_row: u32,
    /// racks[r][u]: what is in unit u (0 at the bottom) of rack r.
    pub racks: Vec<Vec<Unit>>,
    /// Blocks kept in one rack, and blocks spread over several.
    pub whole_blocks: u32,
    pub spread_blocks: u32,
}

/// `blocks[e]` nodes hang from edge switch e; `cores` 1U core switches.
pub fn place(blocks: &[u32], cores: u32, rack_units: u32, racks_per_row: u32) -> FatTreeRacks {
    let mut racks: Vec<Vec<Unit>> = Vec::new();
    let new_rack = |racks: &mut Vec<Vec<Unit>>| racks.push(vec![Unit::Free; rack_units as usize]);
    // Indivisible equipment first: the core switches, from the bottom of the first racks.
    let mut c = 0;
    while c < cores {
        new_rack(&mut racks);
        let r = racks.len() - 1;
        for u in 0..rack_units {
            if c == cores {
                break;
            }
            racks[r][u as usize] = Unit::Core(c);
            c += 1;
        }
    }
    let free = |rack: &Vec<Unit>| rack.iter().filter(|u| **u == Unit::Free).count() as u32;
    // Racks whose blank space is still being collected for a spread block.
    let mut collecting: Vec<usize> = (0..racks.len()).filter(|&r| free(&racks[r]) > 0).collect();
    let (mut whole, mut spread) = (0, 0);
    for (e, &nodes) in blocks.iter().enumerate() {
        let size = nodes + 1;
        let spare: u32 = collecting.iter().map(|&r| free(&racks[r])).sum();
        let last_fits = racks.last().is_some_and(|r| free(r) >= size);
        if !last_fits && spare >= size && collecting.len() > 1 {
            // Spread over the collected blank space, nodes first, switch last.
            let mut units = (0..nodes)
                .map(|n| Unit::Node {
                    node: n,
                    edge: e as u32,
                })
                .chain(std::iter::once(Unit::Edge(e as u32)));
            'fill: for &r in &collecting {
                for slot in racks[r].iter_mut().filter(|u| **u == Unit::Free) {
                    match units.next() {
                        Some(x) => *slot = x,
                        None => break 'fill,
                    }
                }
            }
            spread += 1;
            collecting.retain(|&r| free(&racks[r]) > 0);
            continue;
        }
        if !last_fits {
            new_rack(&mut racks);
        }
        let r = racks.len() - 1;
        // Nodes from the lowest free unit, the edge switch above them.
        let slots: Vec<usize> = (0..rack_units as usize)
            .filter(|&u| racks[r][u] == Unit::Free)
            .take(size as usize)
            .collect();
        for (i, &u) in slots.iter().enumerate() {
            racks[r][u] = if i + 1 == slots.len() {
                Unit::Edge(e as u32)
            } else {
                Unit::Node {
                    node: i as u32,
                    edge: e as u32,
                }
            };
        }
        whole += 1;
        if !collecting.contains(&r) {
            collecting.push(r);
        }
    }
    FatTreeRacks {
        rack_units,
        racks_per_row,
        racks,
        whole_blocks: whole,
        spread_blocks: spread,
    }
}

impl FatTreeRacks {
    /// Where rack r stands: (row, position in the row), serpentine.
    pub fn position(&self, r: usize) -> (usize, usize) {
        let per = self.racks_per_row.max(1) as usize;
        let (row, i) = (r / per, r % per);
        (row, if row % 2 == 0 { i } else { per - 1 - i })
    }

    pub fn svg(&self) -> String {
        let (uw, uh, gap) = (70.0, 8.0, 20.0);
        let per = self.racks_per_row.max(1) as usize;
        let rows = self.racks.len().div_ceil(per);
        let rack_h = self.rack_units as f64 * uh;
        let w = per as f64 * (uw + gap) + gap;
        let h = rows as f64 * (rack_h + 40.0) + 20.0;
        let mut s = Svg::new(w, h, 8);
        for (r, rack) in self.racks.iter().enumerate() {
            let (row, col) = self.position(r);
            let x = gap + col as f64 * (uw + gap);
            let y0 = 20.0 + row as f64 * (rack_h + 40.0);
            s.push(
                Element::new("rect")
                    .attr("x", x)
                    .attr("y", y0)
                    .attr("width", uw)
                    .attr("height", rack_h)
                    .attr("fill", "none")
                    .attr("stroke", "#333"),
            );
            s.push(
                Element::new("text")
                    .attr("x", x)
                    .attr("y", y0 - 4.0)
                    .text(&format!("rack {r}")),
            );
            for (u, unit) in rack.iter().enumerate() {
                let fill = match unit {
                    Unit::Core(_) => "#7b2cbf",
                    Unit::Edge(_) => "#2a9d3a",
                    Unit::Node { .. } => "#cfe8cf",
                    Unit::Free => continue,
                };
                let y = y0 + rack_h - (u as f64 + 1.0) * uh;
                s.push(
                    Element::new("rect")
                        .attr("x", x)
                        .attr("y", y)
                        .attr("width", uw)
                        .attr("height", uh)
                        .attr("fill", fill)
                        .attr("stroke", "#fff")
                        .attr("stroke-width", 0.5),
                );
            }
        }
        s.finish()
    }
}
