//! Addresses: one IPv4 subnet per FNN switch (the KLAT2 paper §4: "each PC has
//! four different cluster-local addresses, each on a different one of the
//! nine cluster-internal subnets") and one for the uplink net; interface
//! `ethN` names from the PCI probe order (machines without a discovery
//! file; see [`super::macs`] for the rest).

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

/// PC `pc`'s multipath address (10.255.0.0/16, beyond every switch's and
/// the uplink's): on its loopback, reached over every switch it shares
/// with the sender, so plain TCP connections spread across them.
pub fn multipath_ip(pc: usize) -> Ipv4Addr {
    let h = pc + 1;
    Ipv4Addr::new(10, 255, (h >> 8) as u8, (h & 0xff) as u8)
}

/// An address no PC has (host 65534 of the switch's subnet): each NIC
/// sends one frame to it, addressed to the NIC's own MAC, at boot.
pub(crate) fn announce_ip(switch: usize) -> Ipv4Addr {
    Ipv4Addr::new(10, (switch + 1) as u8, 255, 254)
}

pub(crate) fn switch_net(switch: usize) -> String {
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

/// The number of an `ethN` interface name: `eth` and digits only (not
/// `eth+2`, not `etheth2`).
pub fn interface_number(name: &str) -> Option<usize> {
    super::digits::whole_number(name.strip_prefix("eth")?)
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
    fn interface_numbers_are_read_strictly() {
        assert_eq!(interface_number("eth12"), Some(12));
        assert_eq!(interface_number("eth+2"), None);
        assert_eq!(interface_number("etheth2"), None);
    }
}
