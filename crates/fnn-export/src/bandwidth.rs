//! What the FNN should deliver, flow by flow, for a traffic pattern at a
//! given link rate: the model a bandwidth rehearsal is measured against.
//!
//! Every cable is a full-duplex link of `rate` bits/s each way. A flow from
//! `a` to `b` uses, over plain TCP, the one switch its basic route picks;
//! over MPTCP, every switch the two share (one subflow each, the advanced
//! routing). On each switch it leaves `a` by `a`'s NIC there and reaches `b`
//! by `b`'s: it gets `rate` divided by the most flows sharing either of
//! those two directed links, summed over the switches it uses. Flows
//! between PCs that share no switch go through the uplink and are given
//! the uplink rate the same way (one link each end).

use crate::routing::BasicRouting;
use fnn_core::design::Design;
use std::collections::HashMap;

/// How a flow's bytes travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Transport {
    /// One TCP connection on the basic route.
    Tcp,
    /// One MPTCP connection, a subflow over every shared switch.
    Mptcp,
    /// Several plain TCP connections to the peer's multipath address,
    /// which the kernel spreads over every shared switch by hash.
    TcpMultipath,
}

impl Transport {
    pub fn name(self) -> &'static str {
        match self {
            Transport::Tcp => "tcp",
            Transport::Mptcp => "mptcp",
            Transport::TcpMultipath => "tcp-multipath",
        }
    }

    pub fn mptcp(self) -> bool {
        self == Transport::Mptcp
    }

    /// Whether a flow uses every switch its PCs share.
    pub(crate) fn every_shared_switch(self) -> bool {
        self != Transport::Tcp
    }

    /// Connections a flow opens: enough that a hash leaves one of two
    /// shared switches unused once in 30,000 flows.
    pub fn connections(self) -> usize {
        match self {
            Transport::TcpMultipath => 16,
            _ => 1,
        }
    }
}

/// The share of a full frame on the wire that is a TCP flow's payload:
/// 1448 bytes of a 1514-byte frame (Ethernet, IP and TCP headers with
/// timestamps), and 20 bytes fewer over MPTCP (its data-sequence option).
/// A rate limit counts whole frames, so this is what a flow can deliver.
pub fn payload_share(mptcp: bool) -> f64 {
    let payload = if mptcp { 1428.0 } else { 1448.0 };
    payload / 1514.0
}

/// Each flow's share of `rate` on a network where a flow has one path,
/// the links `route` lists: `rate` divided by the most flows on any of
/// them (the trees' model).
pub fn share_busiest<L: std::hash::Hash + Eq>(
    flows: &[(usize, usize)],
    rate: f64,
    route: impl Fn(usize, usize) -> Vec<L>,
) -> Vec<f64> {
    let mut load: HashMap<L, usize> = HashMap::new();
    for &(a, b) in flows {
        for l in route(a, b) {
            *load.entry(l).or_default() += 1;
        }
    }
    flows
        .iter()
        .map(|&(a, b)| rate / route(a, b).iter().map(|l| load[l]).max().unwrap_or(1) as f64)
        .collect()
}

/// One direction of one NIC's cable: (PC, switch, outbound).
type Link = (usize, Option<usize>, bool);

/// The switches flow `a -> b` uses: its route's (TCP) or every shared one
/// (MPTCP); `[None]` through the uplink.
pub fn paths(d: &Design, r: &BasicRouting, a: usize, b: usize, every: bool) -> Vec<Option<usize>> {
    let shared: Vec<usize> = d
        .switches_of(a)
        .into_iter()
        .filter(|&s| d.nic_on(b, s).is_some())
        .collect();
    match (every, r.via(a, b)) {
        (true, _) if !shared.is_empty() => shared.into_iter().map(Some).collect(),
        (_, Some(s)) => vec![Some(s)],
        _ => vec![None],
    }
}

/// The predicted throughput of each flow, in bits/s of payload, for
/// cables of `rate` bits/s each way. Multipath TCP is predicted as if its
/// connections spread evenly (a hash only approaches it).
pub fn predict(d: &Design, r: &BasicRouting, flows: &[(usize, usize)], rate: f64, t: Transport) -> Vec<f64> {
    let rate = rate * payload_share(t.mptcp());
    let used: Vec<Vec<Option<usize>>> = flows
        .iter()
        .map(|&(a, b)| paths(d, r, a, b, t.every_shared_switch()))
        .collect();
    let mut load: HashMap<Link, usize> = HashMap::new();
    for (&(a, b), ps) in flows.iter().zip(&used) {
        for &s in ps {
            *load.entry((a, s, true)).or_default() += 1;
            *load.entry((b, s, false)).or_default() += 1;
        }
    }
    flows
        .iter()
        .zip(&used)
        .map(|(&(a, b), ps)| {
            ps.iter()
                .map(|&s| rate / load[&(a, s, true)].max(load[&(b, s, false)]) as f64)
                .sum()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed 000's eight PCs: n0 and n1 share three switches, n0 and n2
    /// one; a flow alone on its links gets a link's payload rate for each
    /// switch it uses.
    #[test]
    fn a_lone_flow_gets_a_link_per_shared_switch_with_mptcp_and_one_without() {
        let (c, d) = fnn_core::fixtures::paper_eight();
        let r = BasicRouting::new(&c, &d);
        let (three, one) = ((0, 1), (0, 2));
        assert_eq!(d.links(0, 1), 3);
        assert_eq!(d.links(0, 2), 1);
        let (tcp, mptcp) = (10.0 * payload_share(false), 10.0 * payload_share(true));
        assert_eq!(predict(&d, &r, &[three], 10.0, Transport::Mptcp), vec![3.0 * mptcp]);
        assert_eq!(predict(&d, &r, &[three], 10.0, Transport::Tcp), vec![tcp]);
        assert_eq!(
            predict(&d, &r, &[three], 10.0, Transport::TcpMultipath),
            vec![3.0 * tcp]
        );
        assert_eq!(predict(&d, &r, &[one], 10.0, Transport::Mptcp), vec![mptcp]);
        // Two flows out of n0 over the same switch share its link there.
        let both = predict(&d, &r, &[three, one], 10.0, Transport::Tcp);
        let shared_route = r.via(0, 1) == r.via(0, 2);
        assert_eq!(both[0], if shared_route { tcp / 2.0 } else { tcp });
    }
}
