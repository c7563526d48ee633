//! The MAC discovery: each NIC's MAC address and the name its machine
//! gives it, from a text file (`PC IFACE MAC [NIC]` lines) or from a
//! folder of `ip -j link` outputs, one per PC. The boot scripts find each
//! NIC by its MAC, so a machine's own names (`enp65s0f1`, `ens2`) serve as
//! well as `ethN`.
//!
//! Which NIC of the design (NIC k, in PCI slot k + 1, as the labels say)
//! an interface is: the line's NIC column when it has one; for `ethN` (or
//! a bare number) the probe order; for any other name, the machine's names
//! in natural order (`enp1s0f0` < `enp1s0f1` < `enp2s0` < `enp10s0`),
//! which is PCI bus order for predictable names.

use super::addresses::{AddressError, Interfaces};
use super::digits::whole_number;
use fnn_core::design::Design;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

/// One discovered NIC.
#[derive(Clone, Debug, PartialEq)]
struct Nic {
    mac: String,
    /// The machine's name for it; None when given as `ethN` or a number
    /// (the probe order names it).
    name: Option<String>,
}

/// Discovered MAC addresses and interface names, by (PC, NIC).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MacTable {
    nics: BTreeMap<(usize, usize), Nic>,
    /// Problems found while reading or against the design.
    pub problems: Vec<String>,
}

/// One interface as read, before it is given its NIC number.
struct Entry {
    at: String,
    pc: usize,
    iface: Iface,
    mac: String,
    nic: Option<usize>,
}

/// How a line names its interface.
enum Iface {
    /// `ethN` or `N`: the N-th interface in probe order.
    Probed(usize),
    /// Any other Linux interface name.
    Named(String),
}

/// The stable name a networkd `.link` file gives NIC `nic` when the
/// discovery gave no name of the machine's own.
pub(crate) fn stable_name(nic: usize) -> String {
    format!("fnn{nic}")
}

impl MacTable {
    /// Reads lines `PC IFACE MAC [NIC]` (PC by number or host name; IFACE
    /// as the machine names it, or `ethN`, or a number; NIC from 0 as on
    /// the labels) as a discovery run reports them.
    pub fn parse(
        text: &str,
        source: &str,
        names: &dyn Fn(&str) -> Option<usize>,
        ifaces: &Interfaces,
    ) -> Result<MacTable, AddressError> {
        let mut entries = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = format!("{source}:{}", i + 1);
            entries.push(read_line(line, at, names)?);
        }
        Self::assign(entries, ifaces)
    }

    /// Reads `--macs PATH`: a discovery file, or a folder of `PC.json`
    /// files, each the output of `ip -j link` on that PC.
    pub fn read(
        path: &Path,
        names: &dyn Fn(&str) -> Option<usize>,
        ifaces: &Interfaces,
    ) -> Result<MacTable, MacReadError> {
        if !path.is_dir() {
            let text = fnn_core::input::read_text(path)?;
            return Ok(Self::parse(&text, &fnn_core::input::shown(path), names, ifaces)?);
        }
        let shown = fnn_core::input::shown(path);
        let listing = std::fs::read_dir(path).map_err(|e| MacReadError::Dir {
            path: shown.clone(),
            reason: e.to_string(),
        })?;
        let mut files: Vec<_> = listing
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(MacReadError::Empty(shown));
        }
        let mut entries = Vec::new();
        for file in files {
            let text = fnn_core::input::read_text(&file)?;
            let source = fnn_core::input::shown(&file);
            let stem = file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let pc = stem
                .parse()
                .ok()
                .or_else(|| names(&stem))
                .ok_or_else(|| AddressError::MacLine {
                    at: source.clone(),
                    problem: format!(
                        "{} is not a PC number or host name: name each file after its PC (k05.json)",
                        fnn_core::escape::shown(&stem)
                    ),
                })?;
            entries.extend(ip_link_json(&text, &source, pc)?);
        }
        Ok(Self::assign(entries, ifaces)?)
    }

    /// Gives every entry its NIC number and builds the table.
    fn assign(entries: Vec<Entry>, ifaces: &Interfaces) -> Result<MacTable, AddressError> {
        let mut t = MacTable::default();
        let mut seen_macs = HashSet::new();
        let mut by_pc: BTreeMap<usize, Vec<Entry>> = BTreeMap::new();
        for e in entries {
            if !seen_macs.insert(e.mac.clone()) {
                t.problems.push(format!("{}: MAC {} appears twice", e.at, e.mac));
            }
            by_pc.entry(e.pc).or_default().push(e);
        }
        for (pc, mut list) in by_pc {
            // Fixed numbers first; then the machine's own names, in
            // natural order, take the NIC numbers left.
            let fixed = |e: &Entry| match (&e.iface, e.nic) {
                (_, Some(n)) => Some(n),
                (Iface::Probed(i), None) => Some(ifaces.nic_of(*i)),
                (Iface::Named(_), None) => None,
            };
            list.sort_by(|a, b| match (&a.iface, &b.iface) {
                (Iface::Named(x), Iface::Named(y)) => natural(x).cmp(&natural(y)),
                _ => std::cmp::Ordering::Equal,
            });
            let taken: HashSet<usize> = list.iter().filter_map(fixed).collect();
            let mut free = (0..).filter(|n| !taken.contains(n));
            let mut lines: HashMap<usize, String> = HashMap::new();
            let mut names: HashMap<String, String> = HashMap::new();
            for e in &list {
                let nic = match fixed(e) {
                    Some(n) => n,
                    None => free.next().unwrap_or(usize::MAX),
                };
                if let Some(first) = lines.insert(nic, e.at.clone()) {
                    return Err(AddressError::MacLine {
                        at: e.at.clone(),
                        problem: format!("PC {pc} NIC {nic} was already given at {first}"),
                    });
                }
                let name = match &e.iface {
                    Iface::Named(n) => Some(n.clone()),
                    Iface::Probed(_) => None,
                };
                if let Some(n) = &name
                    && let Some(first) = names.insert(n.clone(), e.at.clone())
                {
                    return Err(AddressError::MacLine {
                        at: e.at.clone(),
                        problem: format!("PC {pc} has two interfaces named `{n}` (also at {first})"),
                    });
                }
                t.nics.insert(
                    (pc, nic),
                    Nic {
                        mac: e.mac.clone(),
                        name,
                    },
                );
            }
        }
        Ok(t)
    }

    /// The MAC of a NIC, or a locally administered placeholder (marked).
    pub fn mac(&self, pc: usize, nic: usize) -> (String, bool) {
        match self.nics.get(&(pc, nic)) {
            Some(n) => (n.mac.clone(), true),
            None => (
                format!("02:00:00:{:02x}:{:02x}:{:02x}", (pc >> 8) & 0xff, pc & 0xff, nic & 0xff),
                false,
            ),
        }
    }

    /// The discovered MAC of a NIC, if any.
    pub(crate) fn known_mac(&self, pc: usize, nic: usize) -> Option<&str> {
        self.nics.get(&(pc, nic)).map(|n| n.mac.as_str())
    }

    /// The name the machine gives NIC `nic` of PC `pc`: the discovered one,
    /// else `ethN` from the probe order.
    pub fn iface(&self, pc: usize, nic: usize, order: &Interfaces) -> String {
        match self.nics.get(&(pc, nic)).and_then(|n| n.name.clone()) {
            Some(name) => name,
            None => order.name(nic),
        }
    }

    /// The NIC of PC `pc` that `name` is: its discovered name, its name in
    /// the probe order (when the PC's NICs were not discovered by name), or
    /// the stable name a networkd `.link` file gives it.
    pub fn nic_named(&self, pc: usize, name: &str, order: &Interfaces) -> Option<usize> {
        let mine = self.nics.range((pc, 0)..(pc + 1, 0));
        let mut named = false;
        for (&(_, nic), n) in mine {
            match &n.name {
                Some(x) if x == name => return Some(nic),
                Some(_) => named = true,
                None => {}
            }
        }
        if let Some(k) = name.strip_prefix("fnn").and_then(whole_number) {
            return Some(k);
        }
        match super::addresses::interface_number(name) {
            Some(i) if !named => Some(order.nic_of(i)),
            _ => None,
        }
    }

    /// Mismatches between the discovered NICs and the design's.
    pub fn check(&self, design: &Design, names: &dyn Fn(usize) -> String) -> Vec<String> {
        let mut out = self.problems.clone();
        for &(pc, nic) in self.nics.keys() {
            if pc >= design.pcs() {
                out.push(format!("PC {pc} in the MAC file is not in the design"));
            } else if nic >= design.nics_used(pc) as usize {
                out.push(format!("{} NIC {nic} has a MAC but no cable in the design", names(pc)));
            }
        }
        for pc in 0..design.pcs() {
            for nic in 0..design.nics_used(pc) as usize {
                if !self.nics.contains_key(&(pc, nic)) {
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

/// Why `--macs` could not be read.
#[derive(Debug, thiserror::Error)]
pub enum MacReadError {
    #[error(transparent)]
    Input(#[from] fnn_core::input::InputError),
    #[error(transparent)]
    Content(#[from] AddressError),
    #[error("cannot read the folder {path}: {reason}")]
    Dir { path: String, reason: String },
    #[error("no `ip -j link` outputs (PC.json) in the folder {0}")]
    Empty(String),
}

/// A name or address on a discovery line, or in `--nic-names`, that does
/// not read.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum NameError {
    #[error(
        "{} is not an interface name (1 to 15 letters, digits, `-`, `_` or `.`, not starting with `-`, as `ip link` lists them: enp1s0f0, ens2, eth0) nor a number",
        fnn_core::escape::shown(.0)
    )]
    Interface(String),
    #[error("{} is not a MAC address (aa:bb:cc:dd:ee:ff)", fnn_core::escape::shown(.0))]
    Mac(String),
    #[error("`{0}` is a probe-order name: give the names the machine uses")]
    ProbeOrder(String),
    #[error(
        "`{later}` comes before `{earlier}`: list the names in slot order, which is their natural order (enp1s0f0, enp1s0f1, enp2s0, enp10s0)"
    )]
    OutOfOrder { earlier: String, later: String },
}

/// One `PC IFACE MAC [NIC]` line.
fn read_line(line: &str, at: String, names: &dyn Fn(&str) -> Option<usize>) -> Result<Entry, AddressError> {
    let bad = |problem: String| AddressError::MacLine {
        at: at.clone(),
        problem,
    };
    let f: Vec<&str> = line.split_whitespace().collect();
    let (pc, iface, mac, nic) = match f.as_slice() {
        [pc, iface, mac] => (pc, iface, mac, None),
        [pc, iface, mac, nic] => (pc, iface, mac, Some(nic)),
        _ => {
            return Err(bad(format!(
                "expected `PC IFACE MAC` or `PC IFACE MAC NIC`, found {}",
                fnn_core::escape::shown(line)
            )));
        }
    };
    let shown = fnn_core::escape::shown;
    let pc = pc
        .parse::<usize>()
        .ok()
        .or_else(|| names(pc))
        .ok_or_else(|| bad(format!("{} is not a PC number or host name", shown(pc))))?;
    let iface = interface(iface).map_err(|e| bad(e.to_string()))?;
    let mac = mac_address(mac).map_err(|e| bad(e.to_string()))?;
    let nic = match nic {
        Some(n) => Some(
            whole_number(n)
                .filter(|&n| n < 64)
                .ok_or_else(|| bad(format!("{} is not a NIC number (0 to 63, as on the labels)", shown(n))))?,
        ),
        None => None,
    };
    Ok(Entry {
        at,
        pc,
        iface,
        mac,
        nic,
    })
}

/// An interface as a discovery line gives it.
fn interface(text: &str) -> Result<Iface, NameError> {
    if let Some(i) = super::addresses::interface_number(text).or_else(|| whole_number(text)) {
        return Ok(Iface::Probed(i));
    }
    if valid_name(text) {
        return Ok(Iface::Named(text.to_string()));
    }
    Err(NameError::Interface(text.to_string()))
}

/// A list of NIC names in slot order (`enp1s0f0,enp1s0f1,enp2s0`), as a
/// machine with predictable naming gives them: each a valid name, each
/// after the one before in natural order (the order a discovery file's
/// names are given NIC numbers in).
pub fn name_list(text: &str) -> Result<Vec<String>, NameError> {
    let names: Vec<String> = text.split(',').map(|n| n.trim().to_string()).collect();
    for n in &names {
        interface(n).and_then(|i| match i {
            Iface::Named(_) => Ok(()),
            Iface::Probed(_) => Err(NameError::ProbeOrder(fnn_core::escape::one_line(n))),
        })?;
    }
    if let Some(w) = names.windows(2).find(|w| natural(&w[0]) >= natural(&w[1])) {
        return Err(NameError::OutOfOrder {
            earlier: w[0].clone(),
            later: w[1].clone(),
        });
    }
    Ok(names)
}

/// A Linux interface name fnn-tui writes into scripts and unit files: at
/// most 15 bytes (IFNAMSIZ), plain characters only (the kernel allows
/// more, but no machine's own naming uses them), not an option to `ip`.
pub(crate) fn valid_name(name: &str) -> bool {
    (1..=15).contains(&name.len())
        && name != "."
        && name != ".."
        && !name.starts_with('-')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// A MAC address: two hex digits an octet, nothing else (`+a` parses as hex).
fn mac_address(text: &str) -> Result<String, NameError> {
    let mac = text.to_ascii_lowercase();
    let ok = mac.split(':').count() == 6
        && mac
            .split(':')
            .all(|o| o.len() == 2 && o.bytes().all(|b| b.is_ascii_hexdigit()));
    if ok {
        Ok(mac)
    } else {
        Err(NameError::Mac(text.to_string()))
    }
}

/// A name's natural sort key: runs of digits compare as numbers.
fn natural(name: &str) -> Vec<(bool, u64, String)> {
    let mut key = Vec::new();
    let mut rest = name;
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let (run, tail) = if digits > 0 {
            rest.split_at(digits)
        } else {
            rest.split_at(rest.bytes().take_while(|b| !b.is_ascii_digit()).count())
        };
        key.push((digits > 0, run.parse().unwrap_or(u64::MAX), run.to_string()));
        rest = tail;
    }
    key
}

/// Names of links that are not NICs, for `ip -j link` outputs taken
/// without `-d` (which would say so).
const VIRTUAL_NAMES: [&str; 5] = ["docker", "virbr", "br-", "veth", "bond"];

/// The Ethernet NICs of one PC's `ip -j link` output: not the loopback,
/// not a bridge, bond or VLAN (`ip -d` says what kind a link is), not
/// one without an address.
fn ip_link_json(text: &str, source: &str, pc: usize) -> Result<Vec<Entry>, AddressError> {
    #[derive(serde::Deserialize)]
    struct Link {
        ifname: String,
        #[serde(default)]
        link_type: String,
        #[serde(default)]
        address: Option<String>,
        #[serde(default)]
        linkinfo: Option<LinkInfo>,
    }
    #[derive(serde::Deserialize)]
    struct LinkInfo {
        #[serde(default)]
        info_kind: Option<String>,
    }
    let links: Vec<Link> = serde_json::from_str(text).map_err(|e| AddressError::MacLine {
        at: format!("{source}:{}:{}", e.line(), e.column()),
        problem: format!("not the JSON `ip -j link` prints: {e}"),
    })?;
    let mut out = Vec::new();
    for (i, l) in links.into_iter().enumerate() {
        // `ip -d` says what kind each link is; without it, the usual
        // virtual links are known by their names.
        let virtual_link = match l.linkinfo {
            Some(info) => info.info_kind.is_some_and(|k| k != "veth"),
            None => VIRTUAL_NAMES.iter().any(|p| l.ifname.starts_with(p)),
        };
        let Some(address) = l.address.filter(|_| l.link_type == "ether" && !virtual_link) else {
            continue;
        };
        let at = format!("{source}: link {} ({})", i + 1, fnn_core::escape::shown(&l.ifname));
        let bad = |problem: String| AddressError::MacLine {
            at: at.clone(),
            problem,
        };
        if !valid_name(&l.ifname) {
            return Err(bad(NameError::Interface(l.ifname).to_string()));
        }
        let mac = mac_address(&address).map_err(|e| bad(e.to_string()))?;
        if mac == "00:00:00:00:00:00" {
            continue;
        }
        out.push(Entry {
            at,
            pc,
            iface: Iface::Named(l.ifname),
            mac,
            nic: None,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &str) -> Option<usize> {
        s.strip_prefix('k').and_then(|n| n.parse().ok())
    }

    #[test]
    fn macs_are_read_remapped_and_checked() {
        let ifaces = Interfaces::parse("1,2,4,3").unwrap();
        let t = MacTable::parse(
            "k01 eth2 AA:BB:CC:00:00:01\n0 0 aa:bb:cc:00:00:02\n",
            "m",
            &names,
            &ifaces,
        )
        .unwrap();
        assert_eq!(t.mac(1, 3), ("aa:bb:cc:00:00:01".into(), true));
        assert_eq!(t.iface(1, 3, &ifaces), "eth2");
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
    /// `0x+a`), a name `ip` would take for an option, a name too long for
    /// the kernel, characters no shell word or unit file should carry.
    #[test]
    fn macs_and_interfaces_are_read_strictly() {
        let ifaces = Interfaces::parse("1,2").unwrap();
        let names = |s: &str| s.parse().ok();
        for line in [
            "0 eth0 +a:+b:+c:+d:+e:+f",
            "0 -eth1 aa:bb:cc:dd:ee:ff",
            "0 enp1s0f0abcdefgh aa:bb:cc:dd:ee:ff",
            "0 en$(x) aa:bb:cc:dd:ee:ff",
            "0 en\u{1b}p aa:bb:cc:dd:ee:ff",
            "0 enp1s0 aa:bb:cc:dd:ee:ff 99",
            "0 enp1s0 aa:bb:cc:dd:ee:ff 1 extra",
        ] {
            let e = MacTable::parse(line, "m", &names, &ifaces).unwrap_err().to_string();
            assert!(e.starts_with("m:1: "), "{line}: {e}");
            assert!(!e.contains('\u{1b}'), "control characters are escaped: {e}");
        }
        let ok = MacTable::parse("0 eth1 aa:bb:cc:dd:ee:ff\n1 0 aa:bb:cc:dd:ee:fe", "m", &names, &ifaces);
        assert!(ok.is_ok());
    }

    /// Predictable names take NIC numbers in PCI order (natural order of
    /// the names, whatever order the lines come in); a NIC column wins.
    #[test]
    fn machine_names_take_nic_numbers_in_natural_order() {
        let ifaces = Interfaces::parse("1,2,3").unwrap();
        let text = "k1 enp10s0 00:00:00:00:00:03\nk1 enp2s0 00:00:00:00:00:02\nk1 enp1s0f1 00:00:00:00:00:01\n\
                    k2 ens9 00:00:00:00:01:00 2\nk2 ens10 00:00:00:00:01:01\nk2 ens11 00:00:00:00:01:02\n";
        let t = MacTable::parse(text, "m", &names, &ifaces).unwrap();
        assert_eq!(t.iface(1, 0, &ifaces), "enp1s0f1");
        assert_eq!(t.iface(1, 1, &ifaces), "enp2s0");
        assert_eq!(t.iface(1, 2, &ifaces), "enp10s0");
        assert_eq!(t.iface(2, 2, &ifaces), "ens9");
        assert_eq!(t.iface(2, 0, &ifaces), "ens10");
        assert_eq!(t.nic_named(1, "enp2s0", &ifaces), Some(1));
        assert_eq!(t.nic_named(1, "fnn2", &ifaces), Some(2), "the networkd name");
        assert_eq!(
            t.nic_named(1, "eth0", &ifaces),
            None,
            "k1's NICs have names of their own"
        );
        assert_eq!(t.nic_named(0, "eth2", &ifaces), Some(2));
        let twice = MacTable::parse(
            "k1 a 00:00:00:00:00:01 0\nk1 b 00:00:00:00:00:02 0\n",
            "m",
            &names,
            &ifaces,
        );
        assert!(
            twice
                .unwrap_err()
                .to_string()
                .contains("m:2: PC 1 NIC 0 was already given at m:1")
        );
    }

    /// A real `ip -d -j link` (iproute2 6.1): a bridge with its port, a
    /// management NIC and two FNN NICs; the bridge is left out, the rest
    /// take NIC numbers in natural order of their names.
    #[test]
    fn a_real_ip_link_output_is_read() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/ip-link");
        let names = |s: &str| s.strip_prefix('n').and_then(|n| n.parse().ok());
        let ifaces = Interfaces::parse("1,2,3,4").unwrap();
        let t = MacTable::read(Path::new(dir), &names, &ifaces).unwrap();
        let got: Vec<String> = (0..5).map(|nic| t.iface(1, nic, &ifaces)).collect();
        assert_eq!(got, ["eno1", "enp1s0f0", "enp1s0f1", "enp2s0", "eth4"]);
        assert_eq!(t.known_mac(1, 3), Some("3a:0c:e1:91:7e:95"));
        assert!(
            t.problems.is_empty(),
            "the bridge (its port's MAC) is skipped: {:?}",
            t.problems
        );
    }

    #[test]
    fn a_folder_of_ip_link_outputs_is_read_by_pc() {
        let dir = tempfile::tempdir().unwrap();
        let k3 = r#"[{"ifindex":1,"ifname":"lo","link_type":"loopback","address":"00:00:00:00:00:00"},
            {"ifindex":2,"ifname":"enp2s0","link_type":"ether","address":"52:54:00:00:00:02"},
            {"ifindex":3,"ifname":"enp1s0","link_type":"ether","address":"52:54:00:00:00:01"},
            {"ifindex":4,"ifname":"br0","link_type":"ether","address":"52:54:00:00:00:09","linkinfo":{"info_kind":"bridge"}}]"#;
        fnn_core::fs::write_in_place(dir.path().join("k3.json"), k3).unwrap();
        fnn_core::fs::write_in_place(dir.path().join("notes.txt"), "ignored").unwrap();
        let ifaces = Interfaces::parse("1,2").unwrap();
        let t = MacTable::read(dir.path(), &names, &ifaces).unwrap();
        assert_eq!(t.iface(3, 0, &ifaces), "enp1s0");
        assert_eq!(t.mac(3, 1).0, "52:54:00:00:00:02");
        assert_eq!(t.known_mac(3, 2), None, "the bridge is not a NIC");
        fnn_core::fs::write_in_place(dir.path().join("k4.json"), "[{\"ifname\": 3}]").unwrap();
        let e = MacTable::read(dir.path(), &names, &ifaces).unwrap_err().to_string();
        assert!(e.contains("k4.json:1:") && e.contains("ip -j link"), "{e}");
        std::fs::remove_file(dir.path().join("k4.json")).unwrap();
        fnn_core::fs::write_in_place(dir.path().join("nobody.json"), "[]").unwrap();
        let e = MacTable::read(dir.path(), &names, &ifaces).unwrap_err().to_string();
        assert!(e.contains("nobody.json") && e.contains("not a PC"), "{e}");
    }
}
