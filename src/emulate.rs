//! Rehearsing a design on real Linux networking (issue 13, first part):
//! a network namespace per PC named after it, a bridge per FNN switch
//! (and one for the uplink switch, joined to every FNN switch's uplink
//! port), a veth per NIC named as the setup scripts expect, the MACs read
//! from the veths and fed through the same MAC table a real cluster's
//! discovery file fills, every generated setup script run unmodified,
//! then a ping for every required pair by host name.
//!
//! Everything is named with a per-run prefix and removed when the
//! [`Testbed`] is dropped: on success, on failure, and on a panic.

use crate::design::Design;
use crate::routing::{BasicRouting, Interfaces, MacTable, scripts};
use crate::spec::{Cluster, Coverage, UplinkMode};
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Debug, thiserror::Error)]
pub enum EmulateError {
    #[error("emulate needs root (or CAP_NET_ADMIN) and iproute2: `{command}` failed: {reason}")]
    Setup { command: String, reason: String },
    #[error("cannot write {path}: {reason}")]
    Io { path: String, reason: String },
    #[error("interface names are at most 15 characters: `{0}` is too long (a shorter --prefix or name_prefix)")]
    NameTooLong(String),
}

/// What the rehearsal found.
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
    pub seconds: f64,
}

impl Summary {
    pub fn ok(&self) -> bool {
        self.failed.is_empty() && self.wrong_nic.is_empty()
    }

    pub fn text(&self) -> String {
        let mut s = format!(
            "{} PCs, {} ordered pairs pinged: {} answered, {} failed ({:.1} s)\n",
            self.pcs,
            self.pairs,
            self.answered,
            self.failed.len(),
            self.seconds
        );
        for (a, b) in self.failed.iter().take(50) {
            s.push_str(&format!("  no answer: {a} -> {b}\n"));
        }
        for (a, b, want, got) in self.wrong_nic.iter().take(50) {
            s.push_str(&format!(
                "  wrong NIC: {a} -> {b} leaves by {got}, the routing table says {want}\n"
            ));
        }
        s
    }
}

/// Runs `ip` (or another command) and returns its stdout, or why not.
fn run(args: &[&str]) -> Result<String, EmulateError> {
    let out = Command::new(args[0])
        .args(&args[1..])
        .output()
        .map_err(|e| EmulateError::Setup {
            command: args.join(" "),
            reason: e.to_string(),
        })?;
    if !out.status.success() {
        return Err(EmulateError::Setup {
            command: args.join(" "),
            reason: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The namespaces, bridges and files of one rehearsal; dropping it
/// removes them all (unless kept for inspection).
pub struct Testbed {
    pub prefix: String,
    namespaces: Vec<String>,
    bridges: Vec<String>,
    /// Links in this namespace that are not bridges (the uplink veths).
    links: Vec<String>,
    dirs: Vec<PathBuf>,
    pub keep: bool,
}

impl Drop for Testbed {
    fn drop(&mut self) {
        if self.keep {
            return;
        }
        // Deleting a namespace deletes the veth ends in it and so their
        // peers on the bridges.
        for ns in &self.namespaces {
            let _ = run(&["ip", "netns", "del", ns]);
        }
        // A bridge's ports outlive it; deleting one end of a veth deletes both.
        for link in self.links.iter().chain(&self.bridges) {
            let _ = run(&["ip", "link", "del", link]);
        }
        for d in &self.dirs {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

impl Testbed {
    /// The commands that remove what a kept testbed left.
    pub fn removal_commands(&self) -> Vec<String> {
        let mut v: Vec<String> = self.namespaces.iter().map(|ns| format!("ip netns del {ns}")).collect();
        v.extend(
            self.links
                .iter()
                .chain(&self.bridges)
                .map(|b| format!("ip link del {b}")),
        );
        v.extend(self.dirs.iter().map(|d| format!("rm -rf {}", d.display())));
        v
    }

    fn namespace(&self, c: &Cluster, pc: usize) -> String {
        format!("{}-{}", self.prefix, c.pc_name(pc))
    }

    fn ip_link(name: &str) -> Result<String, EmulateError> {
        if name.len() > 15 {
            return Err(EmulateError::NameTooLong(name.into()));
        }
        Ok(name.into())
    }
}

/// A short prefix unique to this process and call (interface names are
/// at most 15 characters): `fe`, the process id, a counter.
pub fn run_prefix() -> String {
    static RUNS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("fe{:x}{}", std::process::id() % 0xffff, (b'a' + (n % 26) as u8) as char)
}

/// Builds the design in namespaces, runs its setup scripts and pings every
/// required pair. The testbed is returned so the caller decides when it
/// goes (dropping it removes everything).
pub fn emulate(
    c: &Cluster,
    d: &Design,
    ifaces: &Interfaces,
    prefix: &str,
    keep: bool,
) -> Result<(Summary, Testbed), EmulateError> {
    let start = std::time::Instant::now();
    let mut tb = Testbed {
        prefix: prefix.to_string(),
        namespaces: Vec::new(),
        bridges: Vec::new(),
        links: Vec::new(),
        dirs: Vec::new(),
        keep,
    };
    // A bridge per FNN switch; the uplink switch joins every one of them.
    let bridge = |s: usize| format!("{prefix}b{s}");
    for s in 0..d.switches() {
        let b = Testbed::ip_link(&bridge(s))?;
        run(&["ip", "link", "add", &b, "type", "bridge"])?;
        tb.bridges.push(b.clone());
        run(&["ip", "link", "set", &b, "up"])?;
    }
    if c.uplink.mode != UplinkMode::None {
        let up = Testbed::ip_link(&format!("{prefix}up"))?;
        run(&["ip", "link", "add", &up, "type", "bridge"])?;
        tb.bridges.push(up.clone());
        run(&["ip", "link", "set", &up, "up"])?;
        for s in 0..d.switches() {
            let (a, b) = (format!("{prefix}u{s}"), format!("{prefix}v{s}"));
            Testbed::ip_link(&a)?;
            run(&["ip", "link", "add", &a, "type", "veth", "peer", "name", &b])?;
            tb.links.push(a.clone());
            run(&["ip", "link", "set", &a, "master", &bridge(s), "up"])?;
            run(&["ip", "link", "set", &b, "master", &up, "up"])?;
        }
    }
    // A namespace per PC, a veth per cabled NIC, named as the scripts expect.
    let mut macs_text = String::new();
    for pc in 0..d.pcs() {
        let ns = tb.namespace(c, pc);
        run(&["ip", "netns", "add", &ns])?;
        tb.namespaces.push(ns.clone());
        run(&["ip", "netns", "exec", &ns, "ip", "link", "set", "lo", "up"])?;
        for (nic, s) in d.switches_of(pc).into_iter().enumerate() {
            let (host, peer) = (format!("{prefix}{pc}x{nic}"), format!("{prefix}{pc}y{nic}"));
            Testbed::ip_link(&host)?;
            Testbed::ip_link(&peer)?;
            run(&["ip", "link", "add", &host, "type", "veth", "peer", "name", &peer])?;
            run(&["ip", "link", "set", &host, "master", &bridge(s), "up"])?;
            run(&["ip", "link", "set", &peer, "netns", &ns])?;
            let dev = ifaces.name(nic);
            run(&["ip", "netns", "exec", &ns, "ip", "link", "set", &peer, "name", &dev])?;
            let mac = run(&[
                "ip",
                "netns",
                "exec",
                &ns,
                "cat",
                &format!("/sys/class/net/{dev}/address"),
            ])?;
            macs_text.push_str(&format!("{pc} {dev} {}\n", mac.trim()));
        }
    }
    // The discovered MACs go through the same path a discovery file does.
    let names = |s: &str| (0..c.pcs()).find(|&pc| c.pc_name(pc) == s);
    let macs = MacTable::parse(&macs_text, "discovered", &names, ifaces).map_err(|e| EmulateError::Setup {
        command: "reading the veths' MACs".into(),
        reason: e.to_string(),
    })?;
    let r = BasicRouting::new(c, d);
    let work = std::env::temp_dir().join(format!("{prefix}-scripts"));
    std::fs::create_dir_all(&work).map_err(|e| io(&work, e))?;
    tb.dirs.push(work.clone());
    for pc in 0..d.pcs() {
        let ns = tb.namespace(c, pc);
        // `ip netns exec` shows /etc/netns/NS/hosts as the PC's /etc/hosts.
        let etc = PathBuf::from("/etc/netns").join(&ns);
        std::fs::create_dir_all(&etc).map_err(|e| io(&etc, e))?;
        tb.dirs.push(etc.clone());
        write(&etc.join("hosts"), &scripts::hosts(c, d, &r, pc))?;
        let script = work.join(format!("fnn-setup-{}.sh", c.pc_name(pc)));
        write(&script, &scripts::setup_script(c, d, &r, pc, ifaces, &macs))?;
        run(&["ip", "netns", "exec", &ns, "sh", &script.display().to_string()])?;
    }
    // Every required pair, both ways, by host name.
    let pairs: Vec<(usize, usize)> = match c.coverage {
        Coverage::Universal => (0..d.pcs())
            .flat_map(|a| (0..d.pcs()).filter(move |&b| b != a).map(move |b| (a, b)))
            .collect(),
        Coverage::Sparse => c.pattern.pairs().flat_map(|(a, b, _)| [(a, b), (b, a)]).collect(),
    };
    let (mut failed, mut wrong_nic) = (Vec::new(), Vec::new());
    for &(a, b) in &pairs {
        let ns = tb.namespace(c, a);
        let target = c.pc_name(b);
        let ok = Command::new("ip")
            .args(["netns", "exec", &ns, "ping", "-c", "1", "-W", "1", "-q", &target])
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            failed.push((c.pc_name(a), target.clone()));
        }
        // The interface the kernel picks for the address the hosts file
        // gives, against the NIC the routing table names.
        let want = match r.via(a, b) {
            Some(sw) => ifaces.name(d.nic_on(a, sw).unwrap_or(0)),
            None => ifaces.name(0),
        };
        let addr = scripts::address_for(&r, a, b).to_string();
        let got = run(&["ip", "netns", "exec", &ns, "ip", "route", "get", &addr])
            .ok()
            .and_then(|out| {
                out.split_whitespace()
                    .skip_while(|w| *w != "dev")
                    .nth(1)
                    .map(String::from)
            })
            .unwrap_or_else(|| "no route".into());
        if got != want {
            wrong_nic.push((c.pc_name(a), target, want, got));
        }
    }
    let summary = Summary {
        pcs: d.pcs(),
        pairs: pairs.len(),
        answered: pairs.len() - failed.len(),
        failed,
        wrong_nic,
        seconds: start.elapsed().as_secs_f64(),
    };
    Ok((summary, tb))
}

fn io(path: &Path, e: std::io::Error) -> EmulateError {
    EmulateError::Io {
        path: path.display().to_string(),
        reason: e.to_string(),
    }
}

fn write(path: &Path, text: &str) -> Result<(), EmulateError> {
    std::fs::write(path, text).map_err(|e| io(path, e))
}
