//! What a rehearsal found: every pair's ping, the interface it left by,
//! the switch it crossed, and the frames by kind on every bridge.

use super::PingResult;
use super::capture::{Frames, Seen};
use fnn_core::design::Design;
use fnn_core::spec::Cluster;
use fnn_export::routing::{BasicRouting, scripts};
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
    /// Answered pairs whose request was missed where its route says, but
    /// seen nowhere else, while the capture lost frames: the loss may be
    /// why, so they are not faults, and the run is inconclusive.
    pub unchecked: Vec<(String, String, String)>,
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
        let (mut failed, mut wrong_nic, mut wrong_switch, mut unchecked) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
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
                if seen.dropped > 0 && problem.lost {
                    unchecked.push((na, nb, problem.what));
                } else {
                    wrong_switch.push((na, nb, problem.what));
                }
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
            unchecked,
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
    /// share, with no ARP, broadcast or flooded frame, and the capture saw
    /// every frame, so that all of it is known.
    pub fn ok(&self) -> bool {
        !self.faulty() && self.frames_dropped == 0
    }

    /// Something is wrong whatever the capture lost: a pair unanswered or
    /// by the wrong NIC, a request seen on a switch its route does not
    /// name, or a frame that should not be (lost frames only hide more).
    pub(crate) fn faulty(&self) -> bool {
        !(self.failed.is_empty()
            && self.wrong_nic.is_empty()
            && self.wrong_switch.is_empty()
            && self.frames.arp == 0
            && self.frames.broadcast == 0
            && self.frames.flooded == 0)
    }

    /// No fault was found, but the capture lost frames, so a fault could
    /// have been missed: neither OK nor a fault (exit status 3).
    pub fn inconclusive(&self) -> bool {
        !self.faulty() && self.frames_dropped > 0
    }

    /// The last line: the verdict, and for an inconclusive run why and
    /// what to do.
    fn verdict(&self) -> String {
        if self.ok() {
            "OK: every pair answered by its NIC across its switch, with no ARP, broadcast or flooding\n".into()
        } else if self.inconclusive() {
            format!(
                "INCONCLUSIVE (exit status 3): the frame capture fell behind and lost {} frames, so {} pairs' paths could not be checked and the frame counts are only lower bounds; no fault was found in what was seen. Rerun on an idle machine, or with fewer PCs\n",
                self.frames_dropped,
                self.unchecked.len()
            )
        } else if self.frames_dropped > 0 {
            format!(
                "NOT OK (and the capture lost {} frames: there may be more)\n",
                self.frames_dropped
            )
        } else {
            "NOT OK\n".into()
        }
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
        for (a, b, what) in self.unchecked.iter().take(10) {
            s.push_str(&format!("  not checked (frames lost): {a} -> {b}: {what}\n"));
        }
        for t in self
            .traffic
            .iter()
            .chain(&self.traffic_tree)
            .chain(&self.traffic_fat_tree)
        {
            s.push_str(&t.text());
        }
        s.push_str(&self.verdict());
        s
    }
}

/// A request not seen crossing the switch of its route.
struct Miss {
    /// What was seen.
    what: String,
    /// Only sightings are missing (none on another switch): lost frames
    /// could explain it.
    lost: bool,
}

/// None when the request for (a, b) entered and left the bridge of its
/// route (or, routed by the uplink, left by b's uplink NIC), else what
/// was seen.
fn crossed(d: &Design, r: &BasicRouting, a: usize, b: usize, via: Option<usize>, seen: &Seen) -> Option<Miss> {
    let dst = scripts::address_for(r, a, b);
    let src = match via {
        Some(sw) => fnn_export::routing::switch_ip(sw, a),
        None => fnn_export::routing::uplink_ip(a),
    };
    let Some(path) = seen.path(src, dst) else {
        return Some(Miss {
            what: format!("no request {src} -> {dst} seen on any bridge"),
            lost: true,
        });
    };
    let want = via.or_else(|| d.switches_of(b).first().copied());
    let ok = match via {
        Some(sw) => path.entered.contains(&sw) && path.delivered.contains(&sw),
        None => want.is_some_and(|w| path.delivered.contains(&w)),
    };
    // Lost frames take sightings away, never put one on another switch.
    let lost = match via {
        Some(sw) => path.entered.iter().chain(&path.delivered).all(|&s| s == sw),
        None => path.delivered.is_empty(),
    };
    (!ok).then(|| Miss {
        what: format!(
            "entered switch {:?}, delivered by switch {:?}, route says {}",
            path.entered,
            path.delivered,
            via.map_or("the uplink".into(), |s| format!("switch {s}"))
        ),
        lost,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    /// A summary of the eight PCs, every pair answered by its NIC, where
    /// the capture saw each request enter and leave its route's switch
    /// except: `missed` seen nowhere, `astray` seen on another switch.
    fn summary(missed: (usize, usize), astray: (usize, usize), dropped: u64) -> Summary {
        let (c, d) = fnn_core::fixtures::paper_eight();
        let r = BasicRouting::new(&c, &d);
        let pairs = super::super::required_pairs(&c, &d);
        let name = |pc: usize, nic: usize| format!("n{pc}e{nic}");
        let mut results = HashMap::new();
        let mut sightings: Vec<(Ipv4Addr, Ipv4Addr, usize, bool)> = Vec::new();
        for &(a, b) in &pairs {
            let sw = r.via(a, b).unwrap();
            let dev = name(a, d.nic_on(a, sw).unwrap()).into();
            results.insert((a, b), PingResult { answered: true, dev });
            let (src, dst) = (fnn_export::routing::switch_ip(sw, a), scripts::address_for(&r, a, b));
            let seen_on = if (a, b) == astray { (sw + 1) % d.switches() } else { sw };
            if (a, b) != missed {
                sightings.extend([(src, dst, seen_on, true), (src, dst, seen_on, false)]);
            }
        }
        let seen = Seen::made(d.switches() + 1, &sightings, dropped);
        Summary::new(&c, &d, &r, &name, &pairs, &results, &seen)
    }

    /// A request the capture missed is a wrong-switch fault when nothing
    /// was lost; when frames were lost it is unchecked and the run
    /// inconclusive, saying how many frames were lost and what to do. A
    /// request seen on another switch is a fault whatever was lost.
    #[test]
    fn a_lost_capture_is_inconclusive_never_a_wiring_fault() {
        let none = (9, 9);
        let clean = summary(none, none, 0);
        assert!(clean.ok() && !clean.inconclusive(), "{}", clean.text());

        let missed = summary((0, 1), none, 0);
        assert_eq!(missed.wrong_switch.len(), 1);
        assert!(!missed.ok() && !missed.inconclusive() && missed.faulty());
        assert!(missed.text().ends_with("NOT OK\n"), "{}", missed.text());

        let lost = summary((0, 1), none, 164);
        assert!(lost.wrong_switch.is_empty(), "{:?}", lost.wrong_switch);
        assert_eq!(lost.unchecked.len(), 1);
        assert!(!lost.ok() && !lost.faulty() && lost.inconclusive());
        let text = lost.text();
        assert!(
            text.contains("INCONCLUSIVE (exit status 3)")
                && text.contains("lost 164 frames")
                && text.contains("Rerun on an idle machine")
                && !text.contains("NOT OK"),
            "{text}"
        );

        let nothing_missed = summary(none, none, 3);
        assert!(nothing_missed.inconclusive(), "{}", nothing_missed.text());

        let astray = summary((0, 1), (2, 3), 164);
        assert_eq!(astray.wrong_switch.len(), 1, "{:?}", astray.wrong_switch);
        assert_eq!(astray.wrong_switch[0].0, "n2");
        assert!(astray.faulty() && !astray.inconclusive());
        assert!(
            astray.text().contains("NOT OK (and the capture lost 164 frames"),
            "{}",
            astray.text()
        );
    }
}
