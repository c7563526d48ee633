//! Addresses: one IPv4 subnet per FNN switch (the KLAT2 paper §4: "each PC has
//! four different cluster-local addresses, each on a different one of the
//! nine cluster-internal subnets") and one for the uplink net; interface
//! names from the PCI probe order; MAC addresses from a discovery file.

use crate::design::Design;
use std::collections::{BTreeMap, HashSet};
use std::net::Ipv4Addr;

/// Subnets 10.(s+1).0.0/16 for FNN switch s, the uplink net 10.254.0.0/16;
/// host h = PC + 1 as the last two octets.
pub const MAX_SWITCHES: usize = 253;

pub fn switch_ip(switch: usize, pc: usize) -> Ipv4Addr {
    let h = pc + 1;
    Ipv4Addr::new(10, (switch + 1) as u8, (h >> 8) as u8, (h & 0xff) as u8)
}

pub fn uplink_ip(pc: usize) -> Ipv4Addr {
    let h = pc + 1;
    Ipv4Addr::new(10, 254, (h >> 8) as u8, (h & 0xff) as u8)
}

/// An address no PC has (host 65534 of the switch's subnet): each NIC
/// sends one frame to it, addressed to the NIC's own MAC, at boot.
pub fn announce_ip(switch: usize) -> Ipv4Addr {
    Ipv4Addr::new(10, (switch + 1) as u8, 255, 254)
}

pub fn switch_net(switch: usize) -> String {
    format!("10.{}.0.0/16", switch + 1)
}

/// Kernel interface names. NIC k (the k-th lowest switch) is in PCI slot
/// k + 1; the kernel numbers interfaces in probe order, which need not be
/// slot order (the FNN compiler paper: the FIC SD11 probes 1-2-4-3).
#[derive(Clone, Debug, PartialEq)]
pub struct Interfaces {
    /// Slots (1-based) in the order the kernel probes them.
    pub probe_order: Vec<usize>,
}

/// A probe order or MAC discovery file that does not read.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum AddressError {
    #[error("probe order `{0}`: use slot numbers like 1,2,4,3")]
    ProbeOrder(String),
    #[error("probe order `{text}` must list the slots 1 to {slots} once each")]
    ProbeSlots { text: String, slots: usize },
    /// `at` is `file:line`.
    #[error("{at}: {problem}")]
    MacLine { at: String, problem: String },
}

impl Interfaces {
    pub fn parse(text: &str) -> Result<Interfaces, AddressError> {
        let order: Result<Vec<usize>, _> = text
            .split([',', '-', ' '])
            .filter(|t| !t.is_empty())
            .map(str::parse::<usize>)
            .collect();
        let order = order.map_err(|_| AddressError::ProbeOrder(text.to_string()))?;
        let mut sorted = order.clone();
        sorted.sort_unstable();
        if sorted != (1..=order.len()).collect::<Vec<_>>() {
            return Err(AddressError::ProbeSlots {
                text: text.to_string(),
                slots: order.len(),
            });
        }
        Ok(Interfaces { probe_order: order })
    }

    /// The interface of NIC `nic` (0-based, slot nic + 1).
    pub fn name(&self, nic: usize) -> String {
        let index = self.probe_order.iter().position(|&s| s == nic + 1).unwrap_or(nic);
        format!("eth{index}")
    }

    /// The NIC in interface `ethN`.
    pub fn nic_of(&self, iface: usize) -> usize {
        self.probe_order.get(iface).map_or(iface, |s| s - 1)
    }
}

/// Discovered MAC addresses, by (PC, NIC).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MacTable {
    macs: BTreeMap<(usize, usize), String>,
    /// Problems found while reading or against the design.
    pub problems: Vec<String>,
}

impl MacTable {
    /// Reads lines `PC IFACE MAC` (PC by number or host name, IFACE as
    /// `ethN` or a number) as a discovery run reports them.
    pub fn parse(
        text: &str,
        source: &str,
        names: &dyn Fn(&str) -> Option<usize>,
        ifaces: &Interfaces,
    ) -> Result<MacTable, AddressError> {
        let mut t = MacTable::default();
        let mut seen = HashSet::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let f: Vec<&str> = line.split_whitespace().collect();
            let at = format!("{source}:{}", i + 1);
            let [pc, iface, mac] = f.as_slice() else {
                return Err(AddressError::MacLine {
                    at,
                    problem: format!("expected `PC IFACE MAC`, found `{line}`"),
                });
            };
            let pc = pc
                .parse::<usize>()
                .ok()
                .or_else(|| names(pc))
                .ok_or_else(|| AddressError::MacLine {
                    at: at.clone(),
                    problem: format!("`{pc}` is not a PC number or host name"),
                })?;
            let iface =
                interface_number(iface)
                    .or_else(|| whole_number(iface))
                    .ok_or_else(|| AddressError::MacLine {
                        at: at.clone(),
                        problem: format!("`{iface}` is not an interface (eth0, eth1, ... or 0, 1, ...)"),
                    })?;
            let mac = mac.to_ascii_lowercase();
            // Two hex digits an octet, nothing else (`+a` parses as hex).
            let ok = mac.split(':').count() == 6
                && mac
                    .split(':')
                    .all(|o| o.len() == 2 && o.bytes().all(|b| b.is_ascii_hexdigit()));
            if !ok {
                return Err(AddressError::MacLine {
                    at,
                    problem: format!("`{mac}` is not a MAC address (aa:bb:cc:dd:ee:ff)"),
                });
            }
            if !seen.insert(mac.clone()) {
                t.problems.push(format!("{at}: MAC {mac} appears twice"));
            }
            t.macs.insert((pc, ifaces.nic_of(iface)), mac);
        }
        Ok(t)
    }

    /// The MAC of a NIC, or a locally administered placeholder (marked).
    pub fn mac(&self, pc: usize, nic: usize) -> (String, bool) {
        match self.macs.get(&(pc, nic)) {
            Some(m) => (m.clone(), true),
            None => (
                format!("02:00:00:{:02x}:{:02x}:{:02x}", (pc >> 8) & 0xff, pc & 0xff, nic & 0xff),
                false,
            ),
        }
    }

    /// Mismatches between the discovered NICs and the design's.
    pub fn check(&self, design: &Design, names: &dyn Fn(usize) -> String) -> Vec<String> {
        let mut out = self.problems.clone();
        for &(pc, nic) in self.macs.keys() {
            if pc >= design.pcs() {
                out.push(format!("PC {pc} in the MAC file is not in the design"));
            } else if nic >= design.nics_used(pc) as usize {
                out.push(format!("{} NIC {nic} has a MAC but no cable in the design", names(pc)));
            }
        }
        for pc in 0..design.pcs() {
            for nic in 0..design.nics_used(pc) as usize {
                if !self.macs.contains_key(&(pc, nic)) {
                    out.push(format!(
                        "{} NIC {nic} is cabled but has no discovered MAC (a placeholder is used)",
                        names(pc)
                    ));
                }
            }
        }
        out
    }
}

/// The number of an `ethN` interface name: `eth` and digits only (not
/// `eth+2`, not `etheth2`).
pub fn interface_number(name: &str) -> Option<usize> {
    whole_number(name.strip_prefix("eth")?)
}

/// Digits only, as a number (`str::parse` would take a leading `+`).
fn whole_number(text: &str) -> Option<usize> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_order_maps_slots_to_interfaces() {
        let i = Interfaces::parse("1-2-4-3").unwrap();
        assert_eq!(
            (i.name(0), i.name(2), i.name(3)),
            ("eth0".into(), "eth3".into(), "eth2".into())
        );
        assert_eq!(i.nic_of(2), 3);
        assert!(Interfaces::parse("1,1,2").is_err());
        assert_eq!(switch_ip(0, 5), Ipv4Addr::new(10, 1, 0, 6));
        assert_eq!(uplink_ip(300), Ipv4Addr::new(10, 254, 1, 45));
    }

    #[test]
    fn macs_are_read_remapped_and_checked() {
        let ifaces = Interfaces::parse("1,2,4,3").unwrap();
        let names = |s: &str| s.strip_prefix('k').and_then(|n| n.parse().ok());
        let t = MacTable::parse(
            "k01 eth2 AA:BB:CC:00:00:01\n0 0 aa:bb:cc:00:00:02\n",
            "m",
            &names,
            &ifaces,
        )
        .unwrap();
        assert_eq!(t.mac(1, 3), ("aa:bb:cc:00:00:01".into(), true));
        assert!(!t.mac(1, 0).1);
        assert!(
            MacTable::parse("0 eth0 zz", "m", &names, &ifaces)
                .unwrap_err()
                .to_string()
                .contains("m:1")
        );
    }

    /// What `str::parse` and `from_str_radix` let through is refused: a
    /// `+` in an octet (scripts would get `lladdr +a:…`, the C header
    /// `0x+a`), a signed or doubled interface name.
    #[test]
    fn macs_and_interfaces_are_read_strictly() {
        let ifaces = Interfaces::parse("1,2").unwrap();
        let names = |s: &str| s.parse().ok();
        for line in [
            "0 eth0 +a:+b:+c:+d:+e:+f",
            "0 eth+1 aa:bb:cc:dd:ee:ff",
            "0 etheth1 aa:bb:cc:dd:ee:ff",
            "0 +1 aa:bb:cc:dd:ee:ff",
            "0 eth aa:bb:cc:dd:ee:ff",
        ] {
            let e = MacTable::parse(line, "m", &names, &ifaces).unwrap_err().to_string();
            assert!(e.contains("m:1"), "{line}: {e}");
        }
        assert!(MacTable::parse("0 eth1 aa:bb:cc:dd:ee:ff\n1 0 aa:bb:cc:dd:ee:fe", "m", &names, &ifaces).is_ok());
        assert_eq!(interface_number("eth12"), Some(12));
        assert_eq!(interface_number("eth+2"), None);
    }
}
