//! The LLDP cable audit: each PC's `lldpcli -f json show neighbors`
//! says which switch and port each of its NICs is plugged into (every
//! managed switch announces its name and port over LLDP); compared with
//! the plan, it names every cable that is not where the design puts it,
//! where it really is, and the label to look for.
//!
//! Switches are recognised by the names the port plan gives them (`sw3`;
//! `switch 3` and a bare `3` are read too); a port by the number at the end
//! of its id (`7`, `swp7`, `Gi1/0/7`), or of its description when the id
//! is a MAC address.

use fnn_core::design::Design;
use fnn_core::spec::Cluster;
use fnn_export::export::colors::cable;
use fnn_export::export::cut_list::switch_name;
use fnn_export::export::labels::port_of;
use fnn_export::routing::{Interfaces, MacTable};
use std::path::Path;

/// What one NIC hears over LLDP.
#[derive(Clone, Debug, PartialEq)]
pub struct Neighbour {
    /// The local interface, as the PC names it.
    pub iface: String,
    /// The switch's system name (its chassis id when it sends none).
    pub system: String,
    /// The port id as sent.
    pub port_id: String,
    /// The port description, if any.
    pub port_descr: String,
}

#[derive(Debug, thiserror::Error)]
pub enum LldpError {
    #[error(transparent)]
    Input(#[from] fnn_core::input::InputError),
    #[error("{at}: {problem}")]
    Content { at: String, problem: String },
    #[error("cannot read the folder {path}: {reason}")]
    Dir { path: String, reason: String },
    #[error("no LLDP outputs (fnn-lldp-PC.json, from `lldpcli -f json show neighbors`) in {0}")]
    Empty(String),
}

/// Reads `lldpcli -f json show neighbors`: `interface` is an object with
/// one key per interface, or (lldpd 1.0) a list of such objects; an empty
/// `lldp` object means no neighbour at all.
pub fn parse(json: &str, source: &str) -> Result<Vec<Neighbour>, LldpError> {
    use serde_json::Value;
    let bad = |at: String, problem: String| LldpError::Content { at, problem };
    let v: Value = serde_json::from_str(json).map_err(|e| {
        bad(
            format!("{source}:{}:{}", e.line(), e.column()),
            format!("not the JSON `lldpcli -f json show neighbors` prints: {e}"),
        )
    })?;
    let lldp = v.get("lldp").ok_or_else(|| {
        bad(
            source.into(),
            "no `lldp` object: not `lldpcli -f json show neighbors` output".into(),
        )
    })?;
    let entries: Vec<(&String, &Value)> = match lldp.get("interface") {
        None => Vec::new(),
        Some(Value::Object(m)) => m.iter().collect(),
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(Value::as_object)
            .flat_map(|m| m.iter())
            .collect(),
        Some(_) => {
            return Err(bad(
                source.into(),
                "`lldp.interface` is neither an object nor a list".into(),
            ));
        }
    };
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
    let mut out = Vec::new();
    for (iface, n) in entries {
        let chassis = n.get("chassis").and_then(Value::as_object);
        // `{"sw3": {"id": ...}}`, or `{"id": {"type", "value"}}` without a name.
        let system = match chassis {
            Some(m) => match m.get("id") {
                Some(id) if id.get("type").is_some() => text(id.get("value")),
                _ => m.keys().next().cloned().unwrap_or_default(),
            },
            None => String::new(),
        };
        let port = n.get("port");
        out.push(Neighbour {
            iface: iface.clone(),
            system,
            port_id: text(port.and_then(|p| p.get("id")).and_then(|i| i.get("value"))),
            port_descr: text(port.and_then(|p| p.get("descr"))),
        });
    }
    Ok(out)
}

/// The switch a system name is: `sw3`, `switch 3`, `switch3` or `3`.
pub fn switch_of(system: &str) -> Option<usize> {
    let s = system.trim().to_ascii_lowercase();
    let digits = s
        .strip_prefix("sw")
        .map(|r| r.strip_prefix("itch").unwrap_or(r).trim_start())
        .unwrap_or(&s);
    fnn_export::routing::whole_number(digits)
}

/// The port number at the end of a port id (or description).
pub(crate) fn port_number(n: &Neighbour) -> Option<usize> {
    let trailing = |t: &str| {
        let digits: String = t.chars().rev().take_while(char::is_ascii_digit).collect();
        let digits: String = digits.chars().rev().collect();
        fnn_export::routing::whole_number(&digits)
    };
    let is_mac = n.port_id.split(':').count() == 6;
    if is_mac { None } else { trailing(&n.port_id) }.or_else(|| trailing(&n.port_descr))
}

/// Where a NIC's cable should be, and what LLDP says of it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Cable {
    pub pc: String,
    pub nic: usize,
    pub iface: String,
    pub colour: String,
    pub plan_switch: usize,
    pub plan_port: usize,
    /// The switch's name and port as heard (None: nothing heard).
    pub seen_switch: Option<String>,
    pub seen_port: Option<String>,
}

/// One fault LLDP shows.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LldpFinding {
    /// The NIC hears another switch or port than the plan's.
    Elsewhere { cable: Cable },
    /// The NIC hears nothing: no cable, a dead link, or a switch without LLDP.
    Silent { cable: Cable },
    /// No LLDP output from this PC.
    NoOutput { pc: String },
}

impl LldpFinding {
    pub fn text(&self) -> String {
        let plan = |c: &Cable| {
            format!(
                "plan says {} port {} — {} label",
                switch_name(c.plan_switch),
                c.plan_port,
                c.colour
            )
        };
        let nic = |c: &Cable| format!("{} NIC {} ({})", c.pc, c.nic, c.iface);
        match self {
            LldpFinding::Elsewhere { cable: c } => format!(
                "{}: on {} port {}, {}",
                nic(c),
                plain(c.seen_switch.as_deref().unwrap_or("")),
                plain(c.seen_port.as_deref().unwrap_or("")),
                plan(c)
            ),
            LldpFinding::Silent { cable: c } => format!(
                "{}: no LLDP neighbour (no cable, a dead link, or a switch that sends no LLDP), {}",
                nic(c),
                plan(c)
            ),
            LldpFinding::NoOutput { pc } => format!("no LLDP output from {pc}: its cables are not checked"),
        }
    }
}

/// A name a switch sent, as it stands when it is plainly a name, else
/// quoted with its control characters escaped (it comes off the wire).
fn plain(s: &str) -> String {
    let ok = |c: char| c.is_ascii_alphanumeric() || " -_./:".contains(c);
    if !s.is_empty() && s.len() <= 64 && s.chars().all(ok) {
        s.to_string()
    } else {
        fnn_core::escape::shown(s)
    }
}

/// What the LLDP audit found.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LldpReport {
    pub pcs: usize,
    pub pcs_read: usize,
    pub nics: usize,
    pub nics_right: usize,
    pub findings: Vec<LldpFinding>,
    /// Interfaces that heard a switch but are none of the PC's NICs by the
    /// names known (`PC iface`): another NIC, or names the MAC file gives.
    pub unknown: Vec<String>,
}

impl LldpReport {
    /// Nothing read yet, of a design of `pcs` PCs.
    pub fn new(pcs: usize) -> LldpReport {
        LldpReport {
            pcs,
            pcs_read: 0,
            nics: 0,
            nics_right: 0,
            findings: Vec::new(),
            unknown: Vec::new(),
        }
    }

    pub fn ok(&self) -> bool {
        self.findings.is_empty()
    }

    pub fn text(&self) -> String {
        let mut s = format!(
            "LLDP: {} of {} PCs read, {} of {} cabled NICs where the plan puts them\n",
            self.pcs_read, self.pcs, self.nics_right, self.nics
        );
        if self.ok() {
            s.push_str("OK: every cable is on the switch and port the plan gives it\n");
        }
        for f in &self.findings {
            s.push_str(&format!("- {}\n", f.text()));
        }
        if !self.unknown.is_empty() {
            s.push_str(&format!(
                "note: these interfaces heard a switch but are no NIC of the plan by the names known (ethN by the probe order, fnnK, or a MAC file's): {}; give `--macs` the discovery the export used\n",
                self.unknown.iter().map(|u| plain(u)).collect::<Vec<_>>().join(", ")
            ));
        }
        s
    }
}

/// Checks one PC's neighbours against the plan.
pub(crate) fn audit_pc(
    c: &Cluster,
    d: &Design,
    pc: usize,
    heard: &[Neighbour],
    ifaces: &Interfaces,
    macs: &MacTable,
    report: &mut LldpReport,
) {
    for n in heard.iter().filter(|n| {
        macs.nic_named(pc, &n.iface, ifaces)
            .is_none_or(|k| k >= d.nics_used(pc) as usize)
    }) {
        report.unknown.push(format!("{} {}", c.pc_name(pc), n.iface));
    }
    for (nic, sw) in d.switches_of(pc).into_iter().enumerate() {
        report.nics += 1;
        let iface = macs.iface(pc, nic, ifaces);
        let n = heard.iter().find(|n| macs.nic_named(pc, &n.iface, ifaces) == Some(nic));
        let plan_port = port_of(d, sw, pc).unwrap_or(0);
        let mut cable = Cable {
            pc: c.pc_name(pc),
            nic,
            iface: n.map_or(iface, |n| n.iface.clone()),
            colour: cable(&c.cable_colors, sw).name(),
            plan_switch: sw,
            plan_port,
            seen_switch: None,
            seen_port: None,
        };
        match n {
            None => report.findings.push(LldpFinding::Silent { cable }),
            Some(n) if switch_of(&n.system) == Some(sw) && port_number(n) == Some(plan_port) => report.nics_right += 1,
            Some(n) => {
                cable.seen_switch = Some(n.system.clone());
                cable.seen_port = Some(port_number(n).map_or_else(|| n.port_id.clone(), |p| p.to_string()));
                report.findings.push(LldpFinding::Elsewhere { cable });
            }
        }
    }
}

/// Reads every `fnn-lldp-PC.json` in a folder and audits each PC's cables.
pub fn audit_dir(
    dir: &Path,
    c: &Cluster,
    d: &Design,
    ifaces: &Interfaces,
    macs: &MacTable,
) -> Result<LldpReport, LldpError> {
    let listing = std::fs::read_dir(dir).map_err(|e| LldpError::Dir {
        path: fnn_core::input::shown(dir),
        reason: e.to_string(),
    })?;
    let mut read: Vec<bool> = vec![false; d.pcs()];
    let mut files: Vec<(usize, std::path::PathBuf)> = Vec::new();
    for p in listing.flatten().map(|e| e.path()) {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Some(host) = name.strip_prefix("fnn-lldp-").and_then(|n| n.strip_suffix(".json")) else {
            continue;
        };
        let pc = c
            .pc_host_named(host)
            .filter(|&p| p < d.pcs())
            .ok_or_else(|| LldpError::Content {
                at: fnn_core::input::shown(&p),
                problem: format!("{} is not a PC of the design", fnn_core::escape::shown(host)),
            })?;
        files.push((pc, p));
    }
    if files.is_empty() {
        return Err(LldpError::Empty(fnn_core::input::shown(dir)));
    }
    files.sort();
    let mut report = LldpReport::new(d.pcs());
    for (pc, path) in files {
        let text = fnn_core::input::read_text(&path)?;
        let heard = parse(&text, &fnn_core::input::shown(&path))?;
        read[pc] = true;
        report.pcs_read += 1;
        audit_pc(c, d, pc, &heard, ifaces, macs, &mut report);
    }
    for pc in (0..d.pcs()).filter(|&p| !read[p]) {
        report.findings.push(LldpFinding::NoOutput { pc: c.pc_name(pc) });
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As lldpd 1.0.16 prints it: several interfaces come as a list.
    const TWO: &str = r#"{"lldp": {"interface": [
        {"enp1s0": {"via": "LLDP", "chassis": {"sw3": {"id": {"type": "local", "value": "sw3"}}},
                    "port": {"id": {"type": "local", "value": "7"}, "descr": "port 7", "ttl": "120"}}},
        {"enp2s0": {"via": "LLDP", "chassis": {"id": {"type": "mac", "value": "aa:bb:cc:dd:ee:ff"}},
                    "port": {"id": {"type": "mac", "value": "aa:bb:cc:dd:ee:01"}, "descr": "Gi1/0/12"}}}]}}"#;

    #[test]
    fn lldpcli_json_is_read_in_both_shapes() {
        let two = parse(TWO, "t").unwrap();
        assert_eq!(two.len(), 2);
        assert_eq!((two[0].system.as_str(), port_number(&two[0])), ("sw3", Some(7)));
        assert_eq!(two[1].system, "aa:bb:cc:dd:ee:ff", "no system name: the chassis id");
        assert_eq!(
            port_number(&two[1]),
            Some(12),
            "a MAC port id: the description's number"
        );
        let one =
            r#"{"lldp": {"interface": {"eth0": {"chassis": {"switch 5": {}}, "port": {"id": {"value": "swp2"}}}}}}"#;
        let one = parse(one, "t").unwrap();
        assert_eq!((switch_of(&one[0].system), port_number(&one[0])), (Some(5), Some(2)));
        assert!(parse("{\"lldp\": {\n  }\n}", "t").unwrap().is_empty());
        let e = parse("{\"lldp\": ", "f.json").unwrap_err().to_string();
        assert!(e.starts_with("f.json:1:"), "{e}");
        assert!(
            parse("[]", "f.json")
                .unwrap_err()
                .to_string()
                .contains("no `lldp` object")
        );
        assert_eq!(switch_of("sw12"), Some(12));
        assert_eq!(switch_of("core-a"), None);
    }

    /// A NIC on the wrong switch, one on the right switch but the wrong
    /// port, one silent, and one right: each said with where it is, where
    /// the plan puts it and its label colour.
    #[test]
    fn each_misplaced_cable_is_named_with_where_it_really_is() {
        let c = fnn_core::spec::quick_cluster(6, 2, "4x3").unwrap();
        let d = fnn_core::design::parse_table("0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n", "t", 6, 3).unwrap();
        let ifaces = Interfaces::parse("1,2").unwrap();
        let macs = MacTable::default();
        let n = |iface: &str, system: &str, port: &str| Neighbour {
            iface: iface.into(),
            system: system.into(),
            port_id: port.into(),
            port_descr: String::new(),
        };
        // PC 0 is on switches 0 and 1, port 1 of each.
        let mut r = LldpReport::new(6);
        audit_pc(
            &c,
            &d,
            0,
            &[n("eth0", "sw0", "1"), n("eth1", "sw2", "5")],
            &ifaces,
            &macs,
            &mut r,
        );
        assert_eq!((r.nics, r.nics_right), (2, 1));
        let t = r.findings[0].text();
        assert!(
            t.starts_with("n0 NIC 1 (eth1): on sw2 port 5, plan says sw1 port 1 — "),
            "{t}"
        );
        assert!(t.ends_with(" label"), "{t}");
        let mut r = LldpReport::new(6);
        audit_pc(&c, &d, 0, &[n("eth0", "sw0", "2")], &ifaces, &macs, &mut r);
        assert!(r.findings[0].text().contains("on sw0 port 2, plan says sw0 port 1"));
        assert!(r.findings[1].text().contains("n0 NIC 1 (eth1): no LLDP neighbour"));
    }
}
