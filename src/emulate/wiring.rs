//! The wiring as built, which need not be the design: deliberate faults
//! (two cables of a PC swapped, a cable on another switch, a cable pulled,
//! a PC whose kernel names its NICs in another order) so a rehearsal can
//! show what `verify` finds on a miswired cluster.

use crate::design::Design;
use crate::routing::Interfaces;
use crate::spec::Cluster;

/// One wiring fault. NICs are numbered from 0 as on the cable labels
/// (NIC k is in PCI slot k + 1).
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// The cables of two NICs of a PC are exchanged.
    Swap { pc: usize, a: usize, b: usize },
    /// A NIC's cable goes to another switch.
    Move { pc: usize, nic: usize, switch: usize },
    /// A NIC has no cable (no link).
    Pull { pc: usize, nic: usize },
    /// The PC's kernel probes its slots in this order, not the one given.
    Order { pc: usize, order: Interfaces },
}

impl Fault {
    /// Reads `swap:PC:NIC:NIC`, `move:PC:NIC:SWITCH`, `pull:PC:NIC` or
    /// `order:PC:SLOTS` (slots like 4,3,2,1); PC by number or host name.
    pub fn parse(text: &str, c: &Cluster, d: &Design) -> Result<Fault, String> {
        let f: Vec<&str> = text.split(':').collect();
        let usage = || {
            format!(
                "`{text}`: use swap:PC:NIC:NIC, move:PC:NIC:SWITCH, pull:PC:NIC or order:PC:SLOTS (NICs from 0, slots from 1)"
            )
        };
        let pc = f
            .get(1)
            .and_then(|p| p.parse().ok().or_else(|| c.pc_named(p)))
            .filter(|&p| p < d.pcs())
            .ok_or_else(|| format!("`{text}`: no PC `{}` in the design", f.get(1).unwrap_or(&"")))?;
        let nics = d.nics_used(pc) as usize;
        let nic = |i: usize| -> Result<usize, String> {
            f.get(i)
                .and_then(|n| n.parse().ok())
                .filter(|&n| n < nics)
                .ok_or_else(|| format!("`{text}`: {} has NICs 0 to {}", c.pc_name(pc), nics.saturating_sub(1)))
        };
        let fault = match (f[0], f.len()) {
            ("swap", 4) => Fault::Swap {
                pc,
                a: nic(2)?,
                b: nic(3)?,
            },
            ("move", 4) => Fault::Move {
                pc,
                nic: nic(2)?,
                switch: f[3]
                    .parse()
                    .ok()
                    .filter(|&s| s < d.switches())
                    .ok_or_else(|| format!("`{text}`: switches are 0 to {}", d.switches() - 1))?,
            },
            ("pull", 3) => Fault::Pull { pc, nic: nic(2)? },
            ("order", 3) => {
                let order = Interfaces::parse(f[2]).map_err(|e| format!("`{text}`: {e}"))?;
                if order.probe_order.len() != nics {
                    return Err(format!("`{text}`: {} has {nics} NICs", c.pc_name(pc)));
                }
                Fault::Order { pc, order }
            }
            _ => return Err(usage()),
        };
        Ok(fault)
    }
}

/// Where every NIC's cable really goes, and how each PC's kernel names them.
#[derive(Clone, Debug)]
pub struct Wiring {
    /// Per PC, per NIC: the switch its cable reaches, or None (no cable).
    pub cables: Vec<Vec<Option<usize>>>,
    /// Per PC: the order its kernel probes the slots in.
    pub kernel: Vec<Interfaces>,
}

impl Wiring {
    /// The design as cabled, with the faults applied in order.
    pub fn new(d: &Design, given: &Interfaces, faults: &[Fault]) -> Wiring {
        let mut w = Wiring {
            cables: (0..d.pcs())
                .map(|pc| d.switches_of(pc).into_iter().map(Some).collect())
                .collect(),
            kernel: vec![given.clone(); d.pcs()],
        };
        for f in faults {
            match f {
                Fault::Swap { pc, a, b } => w.cables[*pc].swap(*a, *b),
                Fault::Move { pc, nic, switch } => w.cables[*pc][*nic] = Some(*switch),
                Fault::Pull { pc, nic } => w.cables[*pc][*nic] = None,
                Fault::Order { pc, order } => w.kernel[*pc] = order.clone(),
            }
        }
        w
    }
}
