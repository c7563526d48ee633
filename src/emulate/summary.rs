//! What a rehearsal found: every pair's ping, the interface it left by,
//! the switch it crossed, and the frames by kind on every bridge.

use super::PingResult;
use super::capture::{Frames, Seen};
use crate::design::Design;
use crate::routing::{BasicRouting, scripts};
use crate::spec::Cluster;
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Summary {
    pub pcs: usize,
    pub pairs: usize,
    pub answered: usize,
    /// Ordered pairs (from, to) that did not answer, by host name.
    pub failed: Vec<(String, String)>,
    /// Pairs whose traffic the kernel sends out of another interface than
    /// the routing table names: (from, to, expected, used).
    pub wrong_nic: Vec<(String, String, String, String)>,
    /// Answered pairs whose request was not seen entering and leaving the
    /// switch their route names: (from, to, what was seen).
    pub wrong_switch: Vec<(String, String, String)>,
    /// Frames by kind over all bridges, from the first boot script to the
    /// last ping.
    pub frames: Frames,
    /// Frames by kind per bridge (switch number, or "uplink").
    pub frames_by_bridge: Vec<(String, Frames)>,
    /// Frames by kind while the probe scripts ran (when they did): the
    /// probes must not ARP either.
    pub probe_frames: Option<Frames>,
    /// The bandwidth rehearsal, when one ran.
    pub traffic: Option<super::traffic::TrafficReport>,
    /// The same traffic on the tree of the same PCs, when asked for.
    pub traffic_tree: Option<super::traffic::TrafficReport>,
    /// The same traffic on the fat-tree `compare` designs.
    pub traffic_fat_tree: Option<super::traffic::TrafficReport>,
    /// Frames the capture could not keep up with (counts are then a lower bound).
    pub frames_dropped: u64,
    pub seconds: f64,
    /// What earlier, killed runs had left and this run removed first.
    pub removed_before: super::Removed,
}

impl Summary {
    pub(super) fn new(
        c: &Cluster,
        d: &Design,
        r: &BasicRouting,
        name: &dyn Fn(usize, usize) -> String,
        pairs: &[(usize, usize)],
        results: &HashMap<(usize, usize), PingResult>,
        seen: &Seen,
    ) -> Summary {
        let (mut failed, mut wrong_nic, mut wrong_switch) = (Vec::new(), Vec::new(), Vec::new());
        for &(a, b) in pairs {
            let (na, nb) = (c.pc_name(a), c.pc_name(b));
            let res = results.get(&(a, b)).cloned().unwrap_or(PingResult {
                answered: false,
                dev: "none".into(),
            });
            if !res.answered {
                failed.push((na.clone(), nb.clone()));
            }
            let (want_dev, want_bridge) = match r.via(a, b) {
                Some(sw) => (name(a, d.nic_on(a, sw).unwrap_or(0)), Some(sw)),
                None => (name(a, 0), None),
            };
            if *res.dev != *want_dev {
                wrong_nic.push((na.clone(), nb.clone(), want_dev, res.dev.to_string()));
            }
            if res.answered
                && let Some(problem) = crossed(d, r, a, b, want_bridge, seen)
            {
                wrong_switch.push((na, nb, problem));
            }
        }
        let mut frames = Frames::default();
        let mut frames_by_bridge = Vec::new();
        for (i, f) in seen.frames.iter().enumerate() {
            frames.add(f);
            let name = if i < d.switches() {
                format!("switch {i}")
            } else {
                "uplink".to_string()
            };
            frames_by_bridge.push((name, f.clone()));
        }
        Summary {
            pcs: d.pcs(),
            pairs: pairs.len(),
            answered: pairs.len() - failed.len(),
            failed,
            wrong_nic,
            wrong_switch,
            frames,
            frames_by_bridge,
            probe_frames: None,
            traffic: None,
            traffic_tree: None,
            traffic_fat_tree: None,
            frames_dropped: seen.dropped,
            seconds: 0.0,
            removed_before: super::Removed::default(),
        }
    }

    /// Every pair answered, by the right NIC, across a switch both PCs
    /// share, with no ARP, broadcast or flooded frame.
    pub fn ok(&self) -> bool {
        self.failed.is_empty()
            && self.wrong_nic.is_empty()
            && self.wrong_switch.is_empty()
            && self.frames.arp == 0
            && self.frames.broadcast == 0
            && self.frames.flooded == 0
    }

    pub fn text(&self) -> String {
        let f = &self.frames;
        let mut s = if self.removed_before.is_empty() {
            String::new()
        } else {
            format!("{}\n", self.removed_before.text())
        };
        s += &format!(
            "{} PCs, {} ordered pairs pinged: {} answered, {} failed; {} by the wrong NIC, {} not across their shared switch ({:.1} s)\n\
             frames: {} ARP, {} broadcast, {} multicast, {} flooded (unknown unicast delivered to other NICs){}\n",
            self.pcs,
            self.pairs,
            self.answered,
            self.failed.len(),
            self.wrong_nic.len(),
            self.wrong_switch.len(),
            self.seconds,
            f.arp,
            f.broadcast,
            f.multicast,
            f.flooded,
            if self.frames_dropped > 0 {
                format!(" (at least: {} frames not captured)", self.frames_dropped)
            } else {
                String::new()
            }
        );
        for (name, b) in self.frames_by_bridge.iter().filter(|(_, b)| *b != Frames::default()) {
            s.push_str(&format!(
                "  {name}: {} ARP, {} broadcast, {} multicast, {} flooded\n",
                b.arp, b.broadcast, b.multicast, b.flooded
            ));
        }
        if let Some(p) = &self.probe_frames {
            s.push_str(&format!(
                "while probing (uplink unplugged): {} ARP, {} broadcast, {} multicast, {} flooded\n",
                p.arp, p.broadcast, p.multicast, p.flooded
            ));
        }
        for (a, b) in self.failed.iter().take(50) {
            s.push_str(&format!("  no answer: {a} -> {b}\n"));
        }
        for (a, b, want, got) in self.wrong_nic.iter().take(50) {
            s.push_str(&format!(
                "  wrong NIC: {a} -> {b} leaves by {got}, the routing table says {want}\n"
            ));
        }
        for (a, b, what) in self.wrong_switch.iter().take(50) {
            s.push_str(&format!("  wrong switch: {a} -> {b}: {what}\n"));
        }
        for t in self
            .traffic
            .iter()
            .chain(&self.traffic_tree)
            .chain(&self.traffic_fat_tree)
        {
            s.push_str(&t.text());
        }
        s.push_str(if self.ok() {
            "OK: every pair answered by its NIC across its switch, with no ARP, broadcast or flooding\n"
        } else {
            "NOT OK\n"
        });
        s
    }
}

/// None when the request for (a, b) entered and left the bridge of its
/// route (or, routed by the uplink, left by b's uplink NIC), else what
/// was seen.
fn crossed(d: &Design, r: &BasicRouting, a: usize, b: usize, via: Option<usize>, seen: &Seen) -> Option<String> {
    let dst = scripts::address_for(r, a, b);
    let src = match via {
        Some(sw) => crate::routing::switch_ip(sw, a),
        None => crate::routing::uplink_ip(a),
    };
    let Some(path) = seen.path(src, dst) else {
        return Some(format!("no request {src} -> {dst} seen on any bridge"));
    };
    let want = via.or_else(|| d.switches_of(b).first().copied());
    let ok = match via {
        Some(sw) => path.entered.contains(&sw) && path.delivered.contains(&sw),
        None => want.is_some_and(|w| path.delivered.contains(&w)),
    };
    (!ok).then(|| {
        format!(
            "entered switch {:?}, delivered by switch {:?}, route says {}",
            path.entered,
            path.delivered,
            via.map_or("the uplink".into(), |s| format!("switch {s}"))
        )
    })
}
