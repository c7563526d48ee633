//! The network a builder would buy instead, built on this machine for the
//! same traffic at the same link rate: the KLAT2 paper's tree (§6.1), leaves
//! of half the PCs each under one root switch, every PC with one NIC, each
//! leaf joined to the root by one cable. One subnet (10.253.0.0/16), every
//! neighbour known (no ARP); every cable rate-limited as the FNN's are.

use super::testbed::{Testbed, lines};
use super::{EmulateError, commands};
use fnn_core::escape::batch_word;
use fnn_core::spec::Cluster;
use std::net::Ipv4Addr;

/// PC `pc`'s address on the tree.
pub fn address(pc: usize) -> Ipv4Addr {
    let h = pc + 1;
    Ipv4Addr::new(10, 253, (h >> 8) as u8, (h & 0xff) as u8)
}

/// PC `pc`'s MAC on the tree. Every PC knows every other's from the
/// start, as the FNN's PCs do: an all-to-all would otherwise begin with
/// thousands of ARP broadcasts, each copied to every rate-limited port,
/// and the queues would drop enough of them to fail connections.
fn mac(pc: usize) -> String {
    let h = pc + 1;
    format!("02:fd:00:00:{:02x}:{:02x}", (h >> 8) & 0xff, h & 0xff)
}

/// The leaf switch of PC `pc`: the first half of the PCs on leaf 0, the
/// rest on leaf 1 (one leaf for a single PC).
pub fn leaf(pc: usize, pcs: usize) -> usize {
    usize::from(pc >= pcs.div_ceil(2))
}

/// A directed link of the tree: a PC's cable (out of or into the PC), or a
/// leaf's cable to the root (up or down).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Link {
    Pc(usize, bool),
    Leaf(usize, bool),
}

/// Each flow's predicted payload throughput on the tree, bits/s: a link's
/// payload rate divided by the most flows on any link it crosses (its PCs'
/// cables, and both leaves' cables to the root when it changes leaf).
pub fn predict(flows: &[(usize, usize)], pcs: usize, rate: f64, mptcp: bool) -> Vec<f64> {
    let rate = rate * fnn_export::bandwidth::payload_share(mptcp);
    let route = |a: usize, b: usize| {
        let mut v = vec![Link::Pc(a, true), Link::Pc(b, false)];
        if leaf(a, pcs) != leaf(b, pcs) {
            v.extend([Link::Leaf(leaf(a, pcs), true), Link::Leaf(leaf(b, pcs), false)]);
        }
        v
    };
    fnn_export::bandwidth::share_busiest(flows, rate, route)
}

/// Builds the tree in `tb`: its namespaces (one a PC, by the PC's name)
/// and every cable end to rate-limit, as (namespace or None, link).
pub fn build(c: &Cluster, pcs: usize, tb: &mut Testbed) -> Result<(Vec<String>, Vec<super::links::End>), EmulateError> {
    let p = tb.prefix.clone();
    let leaves = if pcs > 1 { 2 } else { 1 };
    let root = format!("{p}root");
    let leaf_bridge = |l: usize| format!("{p}leaf{l}");
    let mut bridges = vec![root.clone()];
    bridges.extend((0..leaves).map(leaf_bridge));
    tb.add_bridges(&bridges)?;
    let uplinks: Vec<(String, String)> = (0..leaves)
        .map(|l| (format!("{p}lu{l}"), format!("{p}lv{l}")))
        .collect();
    tb.add_veths(&uplinks)?;
    let mut ends: Vec<super::links::End> = Vec::new();
    let mut enslave = String::new();
    for (l, (a, b)) in uplinks.iter().enumerate() {
        enslave.push_str(&format!(
            "link set {a} master {} up\nlink set {b} master {root} up\n",
            leaf_bridge(l)
        ));
        ends.extend([(None, a.clone()), (None, b.clone())]);
    }
    commands::batch(&enslave, None)?;
    let namespaces: Vec<String> = (0..pcs).map(|pc| tb.namespace(c, pc)).collect();
    tb.add_namespaces(&namespaces)?;
    let hosts: Vec<String> = (0..pcs).map(|pc| format!("{p}{pc}t")).collect();
    tb.links.extend(Testbed::ip_links(&hosts)?);
    let pcs_list: Vec<usize> = (0..pcs).collect();
    commands::batch(
        &lines(&pcs_list, |&pc| {
            format!(
                "link add {} type veth peer name eth0 address {} netns {}",
                hosts[pc],
                mac(pc),
                batch_word(&namespaces[pc])
            )
        }),
        None,
    )?;
    commands::batch(
        &lines(&pcs_list, |&pc| {
            format!("link set {} master {} up", hosts[pc], leaf_bridge(leaf(pc, pcs)))
        }),
        None,
    )?;
    for (pc, ns) in namespaces.iter().enumerate() {
        let mut script = format!(
            "link set lo up\naddr add {}/16 dev eth0\nlink set eth0 up\n",
            address(pc)
        );
        for other in (0..pcs).filter(|&o| o != pc) {
            script.push_str(&format!(
                "neigh replace {} lladdr {} dev eth0 nud permanent\n",
                address(other),
                mac(other)
            ));
        }
        commands::run_with(&["ip", "-n", ns, "-batch", "-"], Some(script.into_bytes()), None)?;
        ends.push((Some(ns.clone()), "eth0".into()));
        ends.push((None, hosts[pc].clone()));
    }
    Ok((namespaces, ends))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A permutation across the two leaves is held to one link's rate
    /// in all, each way, by the leaves' cables to the root.
    #[test]
    fn flows_between_leaves_share_the_leaves_cables() {
        let within = predict(&[(0, 1), (1, 0)], 4, 10.0, false);
        assert_eq!(within, vec![10.0 * fnn_export::bandwidth::payload_share(false); 2]);
        let across = predict(&[(0, 2), (1, 3)], 4, 10.0, false);
        assert_eq!(across, vec![5.0 * fnn_export::bandwidth::payload_share(false); 2]);
        assert_eq!(leaf(1, 4), 0);
        assert_eq!(leaf(2, 4), 1);
        assert_eq!(leaf(2, 5), 0);
    }
}
