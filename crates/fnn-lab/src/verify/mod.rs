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
//!
//! The other audit, from what the switches announce over LLDP, is
//! [`lldp`]; the rehearsal's side of LLDP (announcing and listening in
//! the lab) stays in the lab, `emulate`.

pub mod lldp;

use fnn_core::design::Design;
use fnn_core::spec::Cluster;
use fnn_export::export::colors::cable;
use fnn_export::export::labels::port_of;
use fnn_export::routing::{Interfaces, probe, switch_ip};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error("{0}")]
    Input(#[from] fnn_core::input::InputError),
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
    /// The names the PC's probe script gave its NICs, by NIC.
    pub names: BTreeMap<usize, String>,
    /// NIC -> link up.
    pub links: BTreeMap<usize, bool>,
    /// (NIC, neighbour PC, answered).
    pub pings: Vec<(usize, usize, bool)>,
    /// Some(true) when the uplink still joins the switches.
    pub uplink_joined: Option<bool>,
}

/// The PC a probe file's header line (`fnn-probe VERSION PC`) names.
fn header_pc(
    header: Option<(usize, &str)>,
    source: &str,
    pc_named: &dyn Fn(&str) -> Option<usize>,
) -> Result<usize, VerifyError> {
    let err = |line: usize, problem: String| VerifyError::Line {
        at: format!("{source}:{line}"),
        problem,
    };
    match header.map(|(n, l)| (n, l.split_whitespace().collect::<Vec<_>>())) {
        Some((_, f)) if f.len() == 3 && f[0] == "fnn-probe" && f[1] == probe::VERSION.to_string() => {
            pc_named(f[2]).ok_or_else(|| err(1, format!("PC `{}` is not in the design", f[2])))
        }
        Some((n, _)) => Err(err(
            n,
            format!(
                "expected the header `fnn-probe {} PC` a probe script writes",
                probe::VERSION
            ),
        )),
        None => Err(err(1, "empty: the probe script wrote nothing".into())),
    }
}

/// Reads one probe file, checking it against the design.
pub(crate) fn parse_results(
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
    let mut r = ProbeResults {
        pc: header_pc(header, source, &pc_named)?,
        ..ProbeResults::default()
    };
    let own = d.switches_of(r.pc);
    // A script that names its NICs says which is which (`nic` lines);
    // older ones used `ethN` by the probe order.
    let mut declared: BTreeMap<String, usize> = BTreeMap::new();
    let nic_of = |declared: &BTreeMap<String, usize>, iface: &str, n: usize| -> Result<usize, VerifyError> {
        let nic = if declared.is_empty() {
            fnn_export::routing::interface_number(iface).map(|i| ifaces.nic_of(i))
        } else {
            declared.get(iface).copied()
        };
        nic.filter(|&nic| nic < own.len()).ok_or_else(|| {
            err(
                n,
                format!("`{iface}` is not one of {}'s cabled interfaces", c.pc_name(r.pc)),
            )
        })
    };
    for (n, line) in lines.filter(|(_, l)| !l.is_empty() && !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.as_slice() {
            ["nic", nic, iface] => {
                let nic = fnn_export::routing::whole_number(nic)
                    .filter(|&k| k < own.len())
                    .ok_or_else(|| {
                        err(
                            n,
                            format!(
                                "{} is not one of {}'s NICs",
                                fnn_core::escape::shown(nic),
                                c.pc_name(r.pc)
                            ),
                        )
                    })?;
                declared.insert(iface.to_string(), nic);
                r.names.insert(nic, iface.to_string());
            }
            ["link", iface, state @ ("up" | "down")] => {
                let nic = nic_of(&declared, iface, n)?;
                r.links.insert(nic, *state == "up");
            }
            ["ping", iface, who, addr, outcome @ ("ok" | "fail" | "nolink")] => {
                let nic = nic_of(&declared, iface, n)?;
                let b = pc_named(who).ok_or_else(|| err(n, format!("PC `{who}` is not in the design")))?;
                if addr.parse().ok() != Some(switch_ip(own[nic], b)) {
                    return Err(err(
                        n,
                        format!("{who} at {addr} is not what this design probes: export the probe scripts again"),
                    ));
                }
                r.pings.push((nic, b, *outcome == "ok"));
            }
            ["uplink", state @ ("joined" | "apart"), _] => r.uplink_joined = Some(*state == "joined"),
            _ => {
                return Err(err(n, format!("`{line}` is not a probe line (link, ping or uplink)")));
            }
        }
    }
    Ok(r)
}

/// Calls `f` with every `fnn-probe-*.txt` in a folder, one file at a time,
/// in name order: a cluster's results are read without holding them all.
pub(crate) fn for_each_result(
    dir: &Path,
    c: &Cluster,
    d: &Design,
    ifaces: &Interfaces,
    mut f: impl FnMut(&ProbeResults),
) -> Result<(), VerifyError> {
    let entries = std::fs::read_dir(dir).map_err(|e| VerifyError::Dir {
        path: fnn_core::input::shown(dir),
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
        return Err(VerifyError::Empty(fnn_core::input::shown(dir)));
    }
    let mut seen: Vec<Option<usize>> = vec![None; d.pcs()];
    for (i, p) in paths.iter().enumerate() {
        let text = fnn_core::input::read_text(p)?;
        let r = parse_results(&text, &fnn_core::input::shown(p), c, d, ifaces)?;
        if let Some(first) = seen[r.pc].replace(i) {
            return Err(VerifyError::File {
                path: fnn_core::input::shown(p),
                problem: format!(
                    "{} was already read from {}",
                    c.pc_name(r.pc),
                    fnn_core::input::shown(&paths[first])
                ),
            });
        }
        f(&r);
    }
    Ok(())
}

/// Every `fnn-probe-*.txt` in a folder, held in memory (small clusters and
/// tests; `verify_dir` streams).
pub fn read_results(
    dir: &Path,
    c: &Cluster,
    d: &Design,
    ifaces: &Interfaces,
) -> Result<Vec<ProbeResults>, VerifyError> {
    let mut out = Vec::new();
    for_each_result(dir, c, d, ifaces, |r| out.push(r.clone()))?;
    Ok(out)
}

/// Reads a folder of probe results and names the faults they show, with
/// memory that follows the cluster's NICs rather than its probes: files
/// are folded in one at a time, and read a second time only when more
/// probes failed than are kept.
pub fn verify_dir(dir: &Path, c: &Cluster, d: &Design, ifaces: &Interfaces) -> Result<Report, VerifyError> {
    let mut tally = Tally::new(c, d, ifaces);
    for_each_result(dir, c, d, ifaces, |r| tally.add(r))?;
    tally.finish(|f| for_each_result(dir, c, d, ifaces, f))
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
            Finding::Swapped { pc, fixes, probe_order } => {
                // NICs named by the machine are numbered by the MAC file,
                // not by the probe order.
                let named = fixes
                    .iter()
                    .any(|f| fnn_export::routing::interface_number(&f.iface).is_none());
                let otherwise = if named {
                    format!(
                        "the MAC file gives {pc}'s {} and {} each other's NIC numbers: give them in its NIC column",
                        fixes[0].iface, fixes[1].iface
                    )
                } else {
                    format!("{pc}'s kernel probes its slots as {probe_order}: export with that --probe-order for it")
                };
                format!(
                    "two cables of {pc} swapped: NIC {} and NIC {} reach none of their neighbours; exchange them:{}\n    (or, if those cables are in the right slots, {otherwise})",
                    fixes[0].nic,
                    fixes[1].nic,
                    list(fixes)
                )
            }
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

/// Failed probes kept in memory (8 bytes each) before verify reads the
/// results again instead: a dead switch at 16,384 PCs fails tens of
/// millions of probes.
const KEPT_FAILURES: usize = 1 << 22;

/// Probe results folded in one PC at a time: groups of NICs that answered
/// each other (a union-find over every NIC), the NICs with no link, and
/// the failed probes.
pub(crate) struct Tally<'a> {
    c: &'a Cluster,
    d: &'a Design,
    ifaces: &'a Interfaces,
    /// The id of each PC's NIC 0; NIC n of PC p is `first[p] + n`.
    first: Vec<usize>,
    parent: Vec<u32>,
    no_link: Vec<End>,
    dead: Vec<bool>,
    probed: Vec<bool>,
    joined: Vec<String>,
    /// The names probe scripts gave NICs, where they said (`nic` lines).
    names: std::collections::HashMap<End, String>,
    probes: usize,
    probes_of: Vec<usize>,
    failed: usize,
    /// Failed probes as (prober NIC, target NIC) ids; None once there were
    /// more than `keep`.
    failures: Option<Vec<(u32, u32)>>,
    keep: usize,
}

impl<'a> Tally<'a> {
    pub fn new(c: &'a Cluster, d: &'a Design, ifaces: &'a Interfaces) -> Self {
        let mut first = Vec::with_capacity(d.pcs() + 1);
        let mut n = 0;
        for pc in 0..d.pcs() {
            first.push(n);
            n += d.nics_used(pc) as usize;
        }
        first.push(n);
        Tally {
            c,
            d,
            ifaces,
            first,
            parent: (0..n as u32).collect(),
            no_link: Vec::new(),
            dead: vec![false; n],
            probed: vec![false; d.pcs()],
            joined: Vec::new(),
            names: Default::default(),
            probes: 0,
            probes_of: vec![0; d.pcs()],
            failed: 0,
            failures: Some(Vec::new()),
            keep: KEPT_FAILURES,
        }
    }

    fn id(&self, (pc, nic): End) -> usize {
        self.first[pc] + nic
    }

    fn root(&mut self, mut x: usize) -> usize {
        while self.parent[x] as usize != x {
            // Path halving keeps the trees flat without recursion.
            let up = self.parent[self.parent[x] as usize];
            self.parent[x] = up;
            x = up as usize;
        }
        x
    }

    /// The NIC ends of one ping: the prober's NIC on its switch, and the
    /// target's NIC on that same switch (None when the target is not there).
    fn ping_ends(&self, pc: usize, nic: usize, target: usize) -> Option<(usize, usize)> {
        let sw = fnn_core::design::bits::ones(self.d.mask(pc)).nth(nic)?;
        let m = self.d.nic_on(target, sw)?;
        Some((self.id((pc, nic)), self.id((target, m))))
    }

    /// Folds in one PC's results.
    pub fn add(&mut self, r: &ProbeResults) {
        self.probed[r.pc] = true;
        if r.uplink_joined == Some(true) {
            self.joined.push(self.c.pc_name(r.pc));
        }
        let nics = self.d.nics_used(r.pc) as usize;
        for (&nic, name) in &r.names {
            self.names.insert((r.pc, nic), name.clone());
        }
        for (&nic, up) in &r.links {
            if !up && nic < nics && !self.dead[self.first[r.pc] + nic] {
                self.dead[self.first[r.pc] + nic] = true;
                self.no_link.push((r.pc, nic));
            }
        }
        for &(nic, b, ok) in &r.pings {
            self.probes += 1;
            self.probes_of[r.pc] += 1;
            let Some((x, y)) = self.ping_ends(r.pc, nic, b) else {
                continue;
            };
            if ok {
                let (x, y) = (self.root(x), self.root(y));
                self.parent[x] = y as u32;
            } else {
                self.failed += 1;
                if let Some(f) = &mut self.failures {
                    if f.len() < self.keep {
                        f.push((x as u32, y as u32));
                    } else {
                        self.failures = None;
                    }
                }
            }
        }
    }

    /// Switch `sw`'s live cable ends (its PCs `pcs`) outside the largest
    /// group of ends that reach each other; every end, as an error, when
    /// no group is larger than all others.
    fn outside_majority(&mut self, sw: usize, pcs: &[usize]) -> Result<Vec<End>, Vec<End>> {
        let d = self.d;
        let ends: Vec<End> = pcs
            .iter()
            .filter_map(|&pc| d.nic_on(pc, sw).map(|n| (pc, n)))
            .filter(|&e| !self.dead[self.id(e)])
            .collect();
        let mut groups: BTreeMap<usize, usize> = BTreeMap::new();
        for &e in &ends {
            let r = self.root(self.id(e));
            *groups.entry(r).or_default() += 1;
        }
        let mut sizes: Vec<(usize, usize)> = groups.into_iter().map(|(r, n)| (n, r)).collect();
        sizes.sort_unstable_by_key(|&(n, _)| std::cmp::Reverse(n));
        if sizes.len() < 2 {
            return Ok(Vec::new());
        }
        if sizes[0].0 == sizes[1].0 {
            return Err(ends);
        }
        let main = sizes[0].1;
        Ok(ends.into_iter().filter(|&e| self.root(self.id(e)) != main).collect())
    }

    /// The report, once every PC's results are in. `again` reads every
    /// result once more, needed only when too many probes failed to keep.
    pub fn finish<E>(
        mut self,
        again: impl FnOnce(&mut dyn FnMut(&ProbeResults)) -> Result<(), E>,
    ) -> Result<Report, E> {
        let (c, d, ifaces) = (self.c, self.d, self.ifaces);
        let names = std::mem::take(&mut self.names);
        let mut findings = Vec::new();
        if !self.joined.is_empty() {
            findings.push(Finding::UplinkJoined {
                pcs: std::mem::take(&mut self.joined),
            });
        }
        findings.extend(
            (0..d.pcs())
                .filter(|&pc| !self.probed[pc])
                .map(|pc| Finding::NoResults { pc: c.pc_name(pc) }),
        );
        let fix = |(pc, nic): End| {
            let sw = d.switches_of(pc)[nic];
            CableMove {
                pc: c.pc_name(pc),
                nic,
                iface: names.get(&(pc, nic)).cloned().unwrap_or_else(|| ifaces.name(nic)),
                colour: cable(&c.cable_colors, sw).name(),
                switch: sw,
                port: port_of(d, sw, pc).unwrap_or(0),
            }
        };
        let mut misplaced: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (sw, pcs) in d.pcs_on_switches().iter().enumerate() {
            match self.outside_majority(sw, pcs) {
                // No majority: say so rather than pick.
                Err(ends) => findings.push(Finding::Ambiguous {
                    switch: sw,
                    suspects: ends.into_iter().map(fix).collect(),
                }),
                Ok(outside) => {
                    for (pc, n) in outside {
                        misplaced.entry(pc).or_default().push(n);
                    }
                }
            }
        }
        let mut moves = Vec::new();
        for &e in &self.no_link {
            moves.push(fix(e));
            findings.push(Finding::NoLink { fix: fix(e) });
        }
        for (pc, mut nics) in misplaced {
            nics.sort_unstable();
            let fixes: Vec<CableMove> = nics.iter().map(|&n| fix((pc, n))).collect();
            moves.extend(fixes.iter().cloned());
            findings.extend(misplaced_findings(c, d, ifaces, pc, &nics, fixes));
        }
        let unexplained = self.unexplained(&findings, again)?;
        findings.extend(unexplained);
        Ok(Report {
            pcs: d.pcs(),
            pcs_probed: self.probed.iter().filter(|&&p| p).count(),
            probes: self.probes,
            probes_failed: self.failed,
            findings,
            moves,
        })
    }

    /// Failed probes that no finding explains, by prober: verify never
    /// calls a cluster OK while a probe failed. A probe is explained when
    /// either of its NICs is one a finding names (or the uplink makes every
    /// probe moot).
    fn unexplained<E>(
        &self,
        findings: &[Finding],
        again: impl FnOnce(&mut dyn FnMut(&ProbeResults)) -> Result<(), E>,
    ) -> Result<Vec<Finding>, E> {
        if self.failed == 0 || findings.iter().any(|f| matches!(f, Finding::UplinkJoined { .. })) {
            return Ok(Vec::new());
        }
        let mut explained = self.dead.clone();
        for f in findings {
            let named = match f {
                Finding::NoLink { fix } | Finding::WrongSwitch { fix } => std::slice::from_ref(fix),
                Finding::Swapped { fixes, .. } | Finding::NicOrder { fixes, .. } => fixes.as_slice(),
                Finding::Ambiguous { suspects, .. } => suspects.as_slice(),
                _ => &[],
            };
            for m in named {
                if let Some(pc) = self.c.pc_host_named(&m.pc) {
                    explained[self.id((pc, m.nic))] = true;
                }
            }
        }
        let mut by_pc: BTreeMap<usize, usize> = BTreeMap::new();
        let mut count = |x: usize, y: usize, pc: usize| {
            if !explained[x] && !explained[y] {
                *by_pc.entry(pc).or_default() += 1;
            }
        };
        match &self.failures {
            Some(kept) => {
                for &(x, y) in kept {
                    let pc = self.first.partition_point(|&f| f <= x as usize) - 1;
                    count(x as usize, y as usize, pc);
                }
            }
            None => again(&mut |r: &ProbeResults| {
                for &(nic, b, ok) in &r.pings {
                    if let (false, Some((x, y))) = (ok, self.ping_ends(r.pc, nic, b)) {
                        count(x, y, r.pc);
                    }
                }
            })?,
        }
        Ok(by_pc
            .into_iter()
            .map(|(pc, failed)| Finding::Unexplained {
                pc: self.c.pc_name(pc),
                failed,
                of: self.probes_of[pc],
            })
            .collect())
    }
}

/// What the NICs of one PC that reach the wrong group mean: two swapped
/// cables (or two NICs named the other way round), every NIC off (the
/// kernel's order is not the one given), or cables on wrong switches.
fn misplaced_findings(
    c: &Cluster,
    d: &Design,
    ifaces: &Interfaces,
    pc: usize,
    nics: &[usize],
    fixes: Vec<CableMove>,
) -> Vec<Finding> {
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
            vec![Finding::Swapped {
                pc: c.pc_name(pc),
                fixes,
                probe_order,
            }]
        }
        n if n >= 3 && n == all => vec![Finding::NicOrder {
            pc: c.pc_name(pc),
            given: ifaces
                .probe_order
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(","),
            fixes,
        }],
        _ => fixes.into_iter().map(|fix| Finding::WrongSwitch { fix }).collect(),
    }
}

/// Names the faults the probe results show.
pub fn diagnose(c: &Cluster, d: &Design, ifaces: &Interfaces, results: &[ProbeResults]) -> Report {
    let mut tally = Tally::new(c, d, ifaces);
    for r in results {
        tally.add(r);
    }
    let again = |f: &mut dyn FnMut(&ProbeResults)| {
        results.iter().for_each(f);
        Ok::<(), std::convert::Infallible>(())
    };
    match tally.finish(again) {
        Ok(report) => report,
        Err(never) => match never {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fnn_core::design::parse_table;

    fn six() -> (Cluster, Design) {
        let flags = fnn_core::spec::QuickFlags {
            pcs: Some(6),
            nics: Some(2),
            switches: Some("4x3".into()),
            ..Default::default()
        };
        let c = flags.apply(fnn_core::spec::Spec::default()).unwrap().resolve().unwrap();
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
                    r.names.insert(nic, i.name(nic));
                    r.links.insert(nic, true);
                    for &b in d.pcs_on_switches()[sw].iter().filter(|&&b| b != pc) {
                        r.pings.push((nic, b, ok(pc, sw, b)));
                    }
                }
                r
            })
            .collect()
    }

    /// A script that names its NICs (`nic` lines) is read by those names,
    /// whatever the probe order; a name it did not declare is refused.
    #[test]
    fn probe_lines_are_read_by_the_names_the_script_declares() {
        let (c, d) = six();
        let i = Interfaces::parse("2,1").unwrap();
        let text = "fnn-probe 1 n0\nnic 0 enp1s0\nnic 1 enp2s0\nlink enp2s0 down\nping enp1s0 n1 10.1.0.2 ok\n";
        let r = parse_results(text, "r.txt", &c, &d, &i).unwrap();
        assert_eq!(r.links.get(&1), Some(&false));
        assert_eq!(r.pings, vec![(0, 1, true)]);
        assert_eq!(r.names.get(&1).map(String::as_str), Some("enp2s0"));
        let e = parse_results(&text.replace("ping enp1s0", "ping eth0"), "r.txt", &c, &d, &i).unwrap_err();
        assert!(e.to_string().starts_with("r.txt:5: `eth0` is not one of"), "{e}");
        let e = parse_results("fnn-probe 1 n0\nnic 7 enp1s0\n", "r.txt", &c, &d, &i).unwrap_err();
        assert!(e.to_string().contains("r.txt:2: \"7\" is not one of n0's NICs"), "{e}");
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
        c2.coverage = fnn_core::spec::Coverage::Sparse;
        let res: Vec<ProbeResults> = (0..2)
            .map(|pc| ProbeResults {
                pc,
                pings: vec![(0, 1 - pc, false)],
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

    /// Whether the failed probes are kept or read again, the report is the
    /// same: a pulled cable, a wrong switch and a PC that probed too early.
    #[test]
    fn reading_the_failures_again_gives_the_same_report() {
        let (c, d) = six();
        let i = Interfaces::parse("1,2").unwrap();
        let results = probed(&d, &i, |pc, sw, b| pc != 4 && !(sw == 0 && (pc == 0 || b == 0)));
        let kept = diagnose(&c, &d, &i, &results);
        let mut tally = Tally::new(&c, &d, &i);
        tally.keep = 1;
        results.iter().for_each(|r| tally.add(r));
        let mut read = 0;
        let again = tally
            .finish(|f| {
                read += 1;
                results.iter().for_each(f);
                Ok::<_, ()>(())
            })
            .unwrap();
        assert_eq!(read, 1, "the results were not read again");
        assert_eq!(again, kept);
        assert!(
            kept.findings
                .iter()
                .any(|f| matches!(f, Finding::Unexplained { pc, .. } if pc == "n4")),
            "{}",
            kept.text()
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
