//! The wiring as built, which need not be the design: deliberate faults
//! (two cables of a PC swapped, a cable on another switch, a cable pulled,
//! a PC whose kernel names its NICs in another order) so a rehearsal can
//! show what `verify` finds on a miswired cluster.

use fnn_core::design::Design;
use fnn_core::spec::Cluster;
use fnn_export::export::labels::port_of;
use fnn_export::routing::Interfaces;
use fnn_export::routing::addresses::AddressError;

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

/// Why a fault description was refused; each names the text as typed.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum FaultError {
    #[error(
        "`{0}`: use swap:PC:NIC:NIC, move:PC:NIC:SWITCH, pull:PC:NIC or order:PC:SLOTS (NICs from 0, slots from 1)"
    )]
    Usage(String),
    #[error("`{text}`: no PC `{pc}` in the design")]
    NoSuchPc { text: String, pc: String },
    #[error("`{text}`: {pc} has NICs 0 to {last}")]
    NoSuchNic { text: String, pc: String, last: usize },
    #[error("`{text}`: switches are 0 to {last}")]
    NoSuchSwitch { text: String, last: usize },
    #[error("`{text}`: {source}")]
    Order {
        text: String,
        #[source]
        source: AddressError,
    },
    #[error("`{text}`: {pc} has {nics} NICs")]
    OrderLength { text: String, pc: String, nics: usize },
}

impl Fault {
    /// Reads `swap:PC:NIC:NIC`, `move:PC:NIC:SWITCH`, `pull:PC:NIC` or
    /// `order:PC:SLOTS` (slots like 4,3,2,1); PC by number or host name.
    pub fn parse(text: &str, c: &Cluster, d: &Design) -> Result<Fault, FaultError> {
        let f: Vec<&str> = text.split(':').collect();
        let typed = || text.to_string();
        let pc = f
            .get(1)
            .and_then(|p| p.parse().ok().or_else(|| c.pc_named(p)))
            .filter(|&p| p < d.pcs())
            .ok_or_else(|| FaultError::NoSuchPc {
                text: typed(),
                pc: f.get(1).unwrap_or(&"").to_string(),
            })?;
        let nics = d.nics_used(pc) as usize;
        let nic = |i: usize| -> Result<usize, FaultError> {
            f.get(i)
                .and_then(|n| n.parse().ok())
                .filter(|&n| n < nics)
                .ok_or_else(|| FaultError::NoSuchNic {
                    text: typed(),
                    pc: c.pc_name(pc),
                    last: nics.saturating_sub(1),
                })
        };
        let fault = match (f[0], f.len()) {
            ("swap", 4) => Fault::Swap {
                pc,
                a: nic(2)?,
                b: nic(3)?,
            },
            ("move", 4) => {
                Fault::Move {
                    pc,
                    nic: nic(2)?,
                    switch: f[3].parse().ok().filter(|&s| s < d.switches()).ok_or_else(|| {
                        FaultError::NoSuchSwitch {
                            text: typed(),
                            last: d.switches() - 1,
                        }
                    })?,
                }
            }
            ("pull", 3) => Fault::Pull { pc, nic: nic(2)? },
            ("order", 3) => {
                let order = Interfaces::parse(f[2]).map_err(|source| FaultError::Order { text: typed(), source })?;
                if order.probe_order.len() != nics {
                    return Err(FaultError::OrderLength {
                        text: typed(),
                        pc: c.pc_name(pc),
                        nics,
                    });
                }
                Fault::Order { pc, order }
            }
            _ => return Err(FaultError::Usage(typed())),
        };
        Ok(fault)
    }
}

/// Where every NIC's cable really goes, and how each PC's kernel names them.
#[derive(Clone, Debug)]
pub struct Wiring {
    /// Per PC, per NIC: the switch its cable reaches, or None (no cable).
    pub cables: Vec<Vec<Option<usize>>>,
    /// Per PC, per NIC: the port (from 1) its cable reaches on its switch.
    pub ports: Vec<Vec<Option<usize>>>,
    /// Per PC: the order its kernel probes the slots in.
    pub kernel: Vec<Interfaces>,
    /// The machine's own names for NICs 0, 1, ... in slot order, as
    /// predictable naming gives them (None: `ethN` in probe order).
    pub names: Option<Vec<String>>,
    /// Per PC: whether an `order` fault renamed its NICs.
    reordered: Vec<bool>,
}

impl Wiring {
    /// The design as cabled, with the faults applied in order.
    pub fn new(d: &Design, given: &Interfaces, names: Option<&[String]>, faults: &[Fault]) -> Wiring {
        let mut w = Wiring {
            cables: (0..d.pcs())
                .map(|pc| d.switches_of(pc).into_iter().map(Some).collect())
                .collect(),
            ports: (0..d.pcs())
                .map(|pc| d.switches_of(pc).into_iter().map(|s| port_of(d, s, pc)).collect())
                .collect(),
            kernel: vec![given.clone(); d.pcs()],
            names: names.map(<[String]>::to_vec),
            reordered: vec![false; d.pcs()],
        };
        // A moved cable takes the first port past those the design uses.
        let mut spare: Vec<usize> = d.pcs_on_switches().iter().map(|p| p.len()).collect();
        for f in faults {
            match f {
                Fault::Swap { pc, a, b } => {
                    w.cables[*pc].swap(*a, *b);
                    w.ports[*pc].swap(*a, *b);
                }
                Fault::Move { pc, nic, switch } => {
                    w.cables[*pc][*nic] = Some(*switch);
                    spare[*switch] += 1;
                    w.ports[*pc][*nic] = Some(spare[*switch]);
                }
                Fault::Pull { pc, nic } => {
                    w.cables[*pc][*nic] = None;
                    w.ports[*pc][*nic] = None;
                }
                Fault::Order { pc, order } => {
                    w.kernel[*pc] = order.clone();
                    w.reordered[*pc] = true;
                }
            }
        }
        w
    }

    /// The name PC `pc`'s machine gives NIC `nic`: its own name for the
    /// slot (a PC with an `order` fault gives the names in its order, not
    /// the slots'), else `ethN` by its probe order.
    pub fn name(&self, pc: usize, nic: usize) -> String {
        let kernel = &self.kernel[pc];
        match &self.names {
            Some(names) if !self.reordered[pc] => names.get(nic).cloned().unwrap_or_else(|| kernel.name(nic)),
            Some(names) => {
                let position = kernel.probe_order.iter().position(|&s| s == nic + 1).unwrap_or(nic);
                names.get(position).cloned().unwrap_or_else(|| kernel.name(nic))
            }
            None => kernel.name(nic),
        }
    }

    /// Where in the kernel's enumeration NIC `nic` of PC `pc` comes: its
    /// interfaces are made in this order, so their indexes follow it.
    pub(crate) fn probed_at(&self, pc: usize, nic: usize) -> usize {
        self.kernel[pc]
            .probe_order
            .iter()
            .position(|&s| s == nic + 1)
            .unwrap_or(nic)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error;

    #[test]
    fn each_refused_fault_says_what_was_typed_and_what_is_allowed() {
        let c = fnn_core::spec::quick_cluster(6, 2, "4x3").unwrap();
        let d = fnn_core::design::parse_table("0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n", "t", 6, 3).unwrap();
        let refused = |text: &str| Fault::parse(text, &c, &d).unwrap_err();
        assert_eq!(
            Fault::parse("swap:1:0:1", &c, &d),
            Ok(Fault::Swap { pc: 1, a: 0, b: 1 })
        );
        assert!(matches!(refused("swap:9:0:1"), FaultError::NoSuchPc { .. }));
        assert!(matches!(refused("swap:1:0:2"), FaultError::NoSuchNic { last: 1, .. }));
        assert!(matches!(
            refused("move:1:0:3"),
            FaultError::NoSuchSwitch { last: 2, .. }
        ));
        assert!(matches!(
            refused("order:1:1,2,3"),
            FaultError::OrderLength { nics: 2, .. }
        ));
        assert!(matches!(refused("bend:1:0"), FaultError::Usage(_)));
        let order = refused("order:1:1,x");
        assert!(order.source().is_some(), "the probe order's own error is kept");
        assert!(order.to_string().starts_with("`order:1:1,x`: "), "{order}");
    }
}
