//! After cabling: reading every PC's probe results and naming the faults
//! (a NIC with no link, a cable on the wrong switch, two cables of a PC
//! swapped, a PC whose kernel names its NICs in another order) with the
//! label colour and switch port to look at, and the cable moves that
//! explain every failed probe. Where the probes cannot tell two
//! explanations apart, both are given.
//!
//! The reasoning: a ping from one NIC to a neighbour on its switch answers
//! exactly when both NICs' cables reach the same switch (with the uplink
//! unplugged). On each switch, the NICs that answer each other form groups;
//! the largest group is the switch as designed, and a NIC outside it has
//! its cable elsewhere.

use crate::design::Design;
use crate::export::colors::cable;
use crate::export::labels::port_of;
use crate::routing::{Interfaces, probe, switch_ip};
use crate::spec::Cluster;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error("{0}")]
    Input(#[from] crate::input::InputError),
    #[error("cannot read the folder {path}: {reason}")]
    Dir { path: String, reason: String },
    #[error("{at}: {problem}")]
    Line { at: String, problem: String },
    #[error("{path}: {problem}")]
    File { path: String, problem: String },
    #[error("no probe results (fnn-probe-*.txt) in {0}")]
    Empty(String),
}

/// One PC's probe output.
#[derive(Clone, Debug, Default)]
pub struct ProbeResults {
    pub pc: usize,
    /// Interface name -> link up.
    pub links: BTreeMap<String, bool>,
    /// (interface, neighbour PC, answered).
    pub pings: Vec<(String, usize, bool)>,
    /// Some(true) when the uplink still joins the switches.
    pub uplink_joined: Option<bool>,
}

/// Reads one probe file, checking it against the design.
pub fn parse_results(
    text: &str,
    source: &str,
    c: &Cluster,
    d: &Design,
    ifaces: &Interfaces,
) -> Result<ProbeResults, VerifyError> {
    let pc_named = |s: &str| c.pc_host_named(s).filter(|&p| p < d.pcs());
    let err = |line: usize, problem: String| VerifyError::Line {
        at: format!("{source}:{line}"),
        problem,
    };
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    let header = lines.find(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let mut r = ProbeResults::default();
    match header.map(|(n, l)| (n, l.split_whitespace().collect::<Vec<_>>())) {
        Some((_, f)) if f.len() == 3 && f[0] == "fnn-probe" && f[1] == probe::VERSION.to_string() => {
            r.pc = pc_named(f[2]).ok_or_else(|| err(1, format!("PC `{}` is not in the design", f[2])))?;
        }
        Some((n, _)) => {
            return Err(err(
                n,
                format!(
                    "expected the header `fnn-probe {} PC` a probe script writes",
                    probe::VERSION
                ),
            ));
        }
        None => return Err(err(1, "empty: the probe script wrote nothing".into())),
    }
    let own = d.switches_of(r.pc);
    let nic_of = |iface: &str, n: usize| -> Result<usize, VerifyError> {
        crate::routing::interface_number(iface)
            .map(|i| ifaces.nic_of(i))
            .filter(|&nic| nic < own.len())
            .ok_or_else(|| {
                err(
                    n,
                    format!("`{iface}` is not one of {}'s cabled interfaces", c.pc_name(r.pc)),
                )
            })
    };
    for (n, line) in lines.filter(|(_, l)| !l.is_empty() && !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.as_slice() {
            ["link", iface, state @ ("up" | "down")] => {
                nic_of(iface, n)?;
                r.links.insert(iface.to_string(), *state == "up");
            }
            ["ping", iface, who, addr, outcome @ ("ok" | "fail" | "nolink")] => {
                let nic = nic_of(iface, n)?;
                let b = pc_named(who).ok_or_else(|| err(n, format!("PC `{who}` is not in the design")))?;
                if addr.parse().ok() != Some(switch_ip(own[nic], b)) {
                    return Err(err(
                        n,
                        format!("{who} at {addr} is not what this design probes: export the probe scripts again"),
                    ));
                }
                r.pings.push((iface.to_string(), b, *outcome == "ok"));
            }
            ["uplink", state @ ("joined" | "apart"), _] => r.uplink_joined = Some(*state == "joined"),
            _ => {
                return Err(err(n, format!("`{line}` is not a probe line (link, ping or uplink)")));
            }
        }
    }
    Ok(r)
}

/// Reads every `fnn-probe-*.txt` in a folder.
pub fn read_results(
    dir: &Path,
    c: &Cluster,
    d: &Design,
    ifaces: &Interfaces,
) -> Result<Vec<ProbeResults>, VerifyError> {
    let entries = std::fs::read_dir(dir).map_err(|e| VerifyError::Dir {
        path: dir.display().to_string(),
        reason: e.to_string(),
    })?;
    let mut paths: Vec<_> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            name.starts_with("fnn-probe-") && name.ends_with(".txt")
        })
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(VerifyError::Empty(dir.display().to_string()));
    }
    let mut seen = HashMap::new();
    let mut out = Vec::new();
    for p in paths {
        let text = crate::input::read_text(&p)?;
        let r = parse_results(&text, &p.display().to_string(), c, d, ifaces)?;
        if let Some(first) = seen.insert(r.pc, p.display().to_string()) {
            return Err(VerifyError::File {
                path: p.display().to_string(),
                problem: format!("{} was already read from {first}", c.pc_name(r.pc)),
            });
        }
        out.push(r);
    }
    Ok(out)
}

/// Where a cable must go: the label to look for and the port to use.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CableMove {
    pub pc: String,
    pub nic: usize,
    pub iface: String,
    pub colour: String,
    pub switch: usize,
    pub port: usize,
}

impl CableMove {
    fn text(&self) -> String {
        format!(
            "the {} cable of {} NIC {} ({}, slot {}) goes to switch {} port {}",
            self.colour,
            self.pc,
            self.nic,
            self.iface,
            self.nic + 1,
            self.switch,
            self.port
        )
    }
}

/// One fault the probes show.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Finding {
    /// The uplink switch still joins the FNN switches: every probe would
    /// answer through it, so the others cannot be trusted.
    UplinkJoined { pcs: Vec<String> },
    /// No probe file from this PC (its NICs are judged by its neighbours').
    NoResults { pc: String },
    /// The NIC reports no link: no cable, or a dead cable, port or NIC.
    NoLink { fix: CableMove },
    /// The NIC's cable reaches another switch than the design's.
    WrongSwitch { fix: CableMove },
    /// Two cables of one PC are in each other's slots; or the kernel
    /// names those two NICs the other way round (`probe_order`).
    Swapped {
        pc: String,
        fixes: Vec<CableMove>,
        probe_order: String,
    },
    /// None of the PC's NICs reaches its switch: the kernel does not name
    /// them in the probe order given; or every cable is wrong (`fixes`).
    NicOrder {
        pc: String,
        given: String,
        fixes: Vec<CableMove>,
    },
    /// Two NICs on a switch cannot reach each other and nothing says which is wrong.
    Ambiguous { switch: usize, suspects: Vec<CableMove> },
    /// Probes that failed although no cable explains them (the neighbours
    /// reach the PC): its own probing went wrong, or pings were lost.
    Unexplained { pc: String, failed: usize, of: usize },
}

impl Finding {
    pub fn text(&self) -> String {
        let list = |f: &[CableMove]| f.iter().map(|m| format!("\n    {}", m.text())).collect::<String>();
        match self {
            Finding::UplinkJoined { pcs } => format!(
                "the uplink switch still joins the FNN switches (seen from {}): unplug its cables from the FNN switches and probe again; until then a miswired cable answers through it",
                pcs.join(", ")
            ),
            Finding::NoResults { pc } => format!("no probe results from {pc}: judged by its neighbours' probes only"),
            Finding::Unexplained { pc, failed, of } if failed == of => format!(
                "every one of {pc}'s {of} probes failed, yet its neighbours reach it: the probe ran before its fnn-setup script, or something on {pc} drops its pings; probe it again"
            ),
            Finding::Unexplained { pc, failed, of } => format!(
                "{failed} of {pc}'s {of} probes failed although the cables look right (lost pings?): probe it again"
            ),
            Finding::NoLink { fix } => format!(
                "no link on {} NIC {} ({}): a missing or dead cable; {}",
                fix.pc,
                fix.nic,
                fix.iface,
                fix.text()
            ),
            Finding::WrongSwitch { fix } => format!(
                "cable on the wrong switch: {} NIC {} ({}) reaches none of its neighbours on switch {}; {}",
                fix.pc,
                fix.nic,
                fix.iface,
                fix.switch,
                fix.text()
            ),
            Finding::Swapped { pc, fixes, probe_order } => format!(
                "two cables of {pc} swapped: NIC {} and NIC {} reach none of their neighbours; exchange them:{}\n    (or, if those cables are in the right slots, {pc}'s kernel probes its slots as {probe_order}: export with that --probe-order for it)",
                fixes[0].nic,
                fixes[1].nic,
                list(fixes)
            ),
            Finding::NicOrder { pc, given, fixes } => format!(
                "{pc}: none of its {} NICs reaches its switch: its kernel does not name its NICs in the probe order given ({given}); check which slot each ethN is (ls -l /sys/class/net, ethtool -i) and export with its order\n    (or every cable of {pc} is on a wrong switch:{})",
                fixes.len(),
                list(fixes)
            ),
            Finding::Ambiguous { switch, suspects } => format!(
                "switch {switch}: these NICs cannot reach each other and the probes cannot tell which is miswired:{}",
                list(suspects)
            ),
        }
    }
}

/// What verify found.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Report {
    pub pcs: usize,
    pub pcs_probed: usize,
    pub probes: usize,
    pub probes_failed: usize,
    pub findings: Vec<Finding>,
    /// The cable moves that explain every failed probe (the alternatives
    /// of ambiguous findings are in the findings).
    pub moves: Vec<CableMove>,
}

impl Report {
    pub fn ok(&self) -> bool {
        self.findings.is_empty()
    }

    pub fn text(&self) -> String {
        let mut s = format!(
            "{} of {} PCs probed, {} probes, {} failed\n",
            self.pcs_probed, self.pcs, self.probes, self.probes_failed
        );
        if self.ok() {
            s.push_str("OK: every cable is where the design puts it\n");
            return s;
        }
        for f in &self.findings {
            s.push_str(&format!("- {}\n", f.text()));
        }
        if !self.moves.is_empty() {
            s.push_str("cable moves that explain every failed probe:\n");
            for m in &self.moves {
                s.push_str(&format!("  {}\n", m.text()));
            }
        }
        s
    }
}

/// A NIC: (PC, NIC number in the design).
type End = (usize, usize);

fn find(parent: &mut HashMap<End, End>, x: End) -> End {
    let p = *parent.get(&x).unwrap_or(&x);
    if p == x {
        return x;
    }
    let root = find(parent, p);
    parent.insert(x, root);
    root
}

/// Names the faults the probe results show.
pub fn diagnose(c: &Cluster, d: &Design, ifaces: &Interfaces, results: &[ProbeResults]) -> Report {
    let mut findings = Vec::new();
    let joined: Vec<String> = results
        .iter()
        .filter(|r| r.uplink_joined == Some(true))
        .map(|r| c.pc_name(r.pc))
        .collect();
    if !joined.is_empty() {
        findings.push(Finding::UplinkJoined { pcs: joined });
    }
    let probed: Vec<bool> = (0..d.pcs()).map(|pc| results.iter().any(|r| r.pc == pc)).collect();
    findings.extend(
        (0..d.pcs())
            .filter(|&pc| !probed[pc])
            .map(|pc| Finding::NoResults { pc: c.pc_name(pc) }),
    );
    let fix = |pc: usize, nic: usize| {
        let sw = d.switches_of(pc)[nic];
        CableMove {
            pc: c.pc_name(pc),
            nic,
            iface: ifaces.name(nic),
            colour: cable(&c.cable_colors, sw).name(),
            switch: sw,
            port: port_of(d, sw, pc).unwrap_or(0),
        }
    };
    // Groups of NICs that answered each other, and the NICs with no link.
    let mut parent: HashMap<End, End> = HashMap::new();
    let mut no_link = Vec::new();
    let (mut probes, mut failed) = (0, 0);
    // Failed probes by NIC ends (prober, its NIC, target, the target's NIC),
    // and each prober's probe count.
    let mut failures: Vec<(End, End)> = Vec::new();
    let mut probes_of: BTreeMap<usize, usize> = BTreeMap::new();
    for r in results {
        let own = d.switches_of(r.pc);
        for (iface, up) in &r.links {
            let nic = iface_nic(iface, ifaces);
            if !up && nic < own.len() {
                no_link.push((r.pc, nic));
            }
        }
        for (iface, b, ok) in &r.pings {
            probes += 1;
            *probes_of.entry(r.pc).or_default() += 1;
            let nic = iface_nic(iface, ifaces);
            let Some(m) = own.get(nic).and_then(|&sw| d.nic_on(*b, sw)) else {
                continue;
            };
            if *ok {
                let (x, y) = (find(&mut parent, (r.pc, nic)), find(&mut parent, (*b, m)));
                parent.insert(x, y);
            } else {
                failed += 1;
                failures.push(((r.pc, nic), (*b, m)));
            }
        }
    }
    let mut misplaced: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (sw, pcs) in d.pcs_on_switches().iter().enumerate() {
        let ends: Vec<End> = pcs
            .iter()
            .filter_map(|&pc| d.nic_on(pc, sw).map(|n| (pc, n)))
            .filter(|e| !no_link.contains(e))
            .collect();
        let mut groups: BTreeMap<End, Vec<End>> = BTreeMap::new();
        for &e in &ends {
            groups.entry(find(&mut parent, e)).or_default().push(e);
        }
        let mut sizes: Vec<usize> = groups.values().map(Vec::len).collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        if sizes.len() < 2 {
            continue;
        }
        if sizes[0] == sizes[1] {
            // No majority: say so rather than pick.
            findings.push(Finding::Ambiguous {
                switch: sw,
                suspects: ends.iter().map(|&(pc, n)| fix(pc, n)).collect(),
            });
            continue;
        }
        let main = groups
            .values()
            .find(|g| g.len() == sizes[0])
            .cloned()
            .unwrap_or_default();
        for &(pc, n) in ends.iter().filter(|e| !main.contains(e)) {
            misplaced.entry(pc).or_default().push(n);
        }
    }
    let mut moves = Vec::new();
    for &(pc, nic) in &no_link {
        moves.push(fix(pc, nic));
        findings.push(Finding::NoLink { fix: fix(pc, nic) });
    }
    for (pc, mut nics) in misplaced {
        nics.sort_unstable();
        let fixes: Vec<CableMove> = nics.iter().map(|&n| fix(pc, n)).collect();
        moves.extend(fixes.iter().cloned());
        let all = d.switches_of(pc).len();
        match nics.len() {
            2 => {
                let mut order = ifaces.probe_order.clone();
                order.resize(all.max(order.len()), 0);
                for slot in order.iter_mut() {
                    if *slot == nics[0] + 1 {
                        *slot = nics[1] + 1;
                    } else if *slot == nics[1] + 1 {
                        *slot = nics[0] + 1;
                    }
                }
                let probe_order = order.iter().map(usize::to_string).collect::<Vec<_>>().join(",");
                findings.push(Finding::Swapped {
                    pc: c.pc_name(pc),
                    fixes,
                    probe_order,
                });
            }
            n if n >= 3 && n == all => findings.push(Finding::NicOrder {
                pc: c.pc_name(pc),
                given: ifaces
                    .probe_order
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(","),
                fixes,
            }),
            _ => findings.extend(fixes.into_iter().map(|fix| Finding::WrongSwitch { fix })),
        }
    }
    findings.extend(unexplained(c, &failures, &probes_of, &findings, &no_link));
    Report {
        pcs: d.pcs(),
        pcs_probed: results.len(),
        probes,
        probes_failed: failed,
        findings,
        moves,
    }
}

/// Failed probes that no finding explains, by prober: verify never calls
/// a cluster OK while a probe failed. A probe is explained when either of
/// its NICs is one a finding names (or the uplink makes every probe moot).
fn unexplained(
    c: &Cluster,
    failures: &[(End, End)],
    probes_of: &BTreeMap<usize, usize>,
    findings: &[Finding],
    no_link: &[End],
) -> Vec<Finding> {
    if findings.iter().any(|f| matches!(f, Finding::UplinkJoined { .. })) {
        return Vec::new();
    }
    let named: Vec<(String, usize)> = findings
        .iter()
        .flat_map(|f| match f {
            Finding::NoLink { fix } | Finding::WrongSwitch { fix } => std::slice::from_ref(fix),
            Finding::Swapped { fixes, .. } | Finding::NicOrder { fixes, .. } => fixes.as_slice(),
            Finding::Ambiguous { suspects, .. } => suspects.as_slice(),
            _ => &[],
        })
        .map(|m| (m.pc.clone(), m.nic))
        .collect();
    let explained = |&(pc, nic): &End| no_link.contains(&(pc, nic)) || named.contains(&(c.pc_name(pc), nic));
    let mut by_pc: BTreeMap<usize, usize> = BTreeMap::new();
    for (from, _) in failures.iter().filter(|(a, b)| !explained(a) && !explained(b)) {
        *by_pc.entry(from.0).or_default() += 1;
    }
    by_pc
        .into_iter()
        .map(|(pc, failed)| Finding::Unexplained {
            pc: c.pc_name(pc),
            failed,
            of: probes_of.get(&pc).copied().unwrap_or(failed),
        })
        .collect()
}

fn iface_nic(iface: &str, ifaces: &Interfaces) -> usize {
    crate::routing::interface_number(iface).map_or(usize::MAX, |i| ifaces.nic_of(i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::parse_table;

    fn six() -> (Cluster, Design) {
        let flags = crate::spec::QuickFlags {
            pcs: Some(6),
            nics: Some(2),
            switches: Some("4x3".into()),
            ..Default::default()
        };
        let c = flags.apply(crate::spec::Spec::default()).unwrap().resolve().unwrap();
        let d = parse_table("0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n", "t", 6, 3).unwrap();
        (c, d)
    }

    /// Every PC's probe results, every link up; `ok(pc, switch, target)`
    /// says which pings answered.
    fn probed(d: &Design, i: &Interfaces, ok: impl Fn(usize, usize, usize) -> bool) -> Vec<ProbeResults> {
        (0..d.pcs())
            .map(|pc| {
                let mut r = ProbeResults {
                    pc,
                    ..Default::default()
                };
                for (nic, sw) in d.switches_of(pc).into_iter().enumerate() {
                    r.links.insert(i.name(nic), true);
                    for &b in d.pcs_on_switches()[sw].iter().filter(|&&b| b != pc) {
                        r.pings.push((i.name(nic), b, ok(pc, sw, b)));
                    }
                }
                r
            })
            .collect()
    }

    #[test]
    fn bad_probe_lines_name_the_file_line_and_what_is_allowed() {
        let (c, d) = six();
        let i = Interfaces::parse("1,2").unwrap();
        let e = |t: &str| parse_results(t, "r.txt", &c, &d, &i).unwrap_err().to_string();
        assert!(e("hello\n").contains("r.txt:1: expected the header"));
        assert!(
            e("fnn-probe 1 n0\nping eth0 n1 10.1.0.2 maybe\n")
                .contains("r.txt:2: `ping eth0 n1 10.1.0.2 maybe` is not a probe line")
        );
        assert!(e("fnn-probe 1 n0\nping eth0 n1 10.9.0.2 ok\n").contains("export the probe scripts again"));
        assert!(e("fnn-probe 1 n0\nlink eth7 up\n").contains("not one of n0's cabled interfaces"));
        assert!(e("fnn-probe 1 zz\n").contains("PC `zz` is not in the design"));
        let ok = parse_results(
            "fnn-probe 1 n0\nlink eth0 up\nping eth0 n1 10.1.0.2 ok\n",
            "r",
            &c,
            &d,
            &i,
        )
        .unwrap();
        assert_eq!((ok.pc, ok.pings.len()), (0, 1));
    }

    /// Switch 0 holds n0..n3; if n0 reaches nobody there, n0 is wrong; if
    /// a switch has two NICs that miss each other, nothing says which.
    #[test]
    fn the_majority_of_a_switch_decides_and_a_tie_is_listed() {
        let (c, d) = six();
        let i = Interfaces::parse("1,2").unwrap();
        let results = probed(&d, &i, |pc, sw, b| !(sw == 0 && (pc == 0 || b == 0)));
        let r = diagnose(&c, &d, &i, &results);
        assert_eq!(r.findings.len(), 1, "{}", r.text());
        assert!(matches!(&r.findings[0], Finding::WrongSwitch { fix } if fix.pc == "n0" && fix.nic == 0));
        // A two-NIC switch whose NICs miss each other: a tie.
        let d2 = parse_table("0: 0 1\n1: 2 3\n", "t", 4, 2).unwrap();
        let mut c2 = c.clone();
        c2.coverage = crate::spec::Coverage::Sparse;
        let res: Vec<ProbeResults> = (0..2)
            .map(|pc| ProbeResults {
                pc,
                pings: vec![("eth0".into(), 1 - pc, false)],
                ..Default::default()
            })
            .collect();
        let r2 = diagnose(&c2, &d2, &Interfaces::parse("1").unwrap(), &res);
        assert!(
            r2.findings
                .iter()
                .any(|f| matches!(f, Finding::Ambiguous { switch: 0, suspects } if suspects.len() == 2)),
            "{}",
            r2.text()
        );
    }

    /// Every probe of one PC failed while its neighbours reach it (it
    /// probed before its setup script ran): never "OK".
    #[test]
    fn a_pc_whose_own_probes_all_failed_is_not_ok() {
        let (c, d) = six();
        let i = Interfaces::parse("1,2").unwrap();
        let results = probed(&d, &i, |pc, _, _| pc != 4);
        let report = diagnose(&c, &d, &i, &results);
        assert!(!report.ok(), "{}", report.text());
        assert_eq!(
            report.findings,
            vec![Finding::Unexplained {
                pc: "n4".into(),
                failed: 6,
                of: 6
            }]
        );
        assert!(
            report.text().contains("every one of n4's 6 probes failed"),
            "{}",
            report.text()
        );
    }
}
