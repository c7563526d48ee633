//! Rehearsing a design on real Linux networking: a network
//! namespace per PC named after it, a bridge per FNN switch (and one for
//! the uplink switch, joined to every FNN switch's uplink port), a veth per
//! NIC named as the kernel would name it, the MACs read from the veths and
//! fed through the same MAC table a real cluster's discovery file fills,
//! every generated setup script run unmodified, then a ping for every
//! required pair by host name, checked against the routing table and the
//! frames every bridge carried. Optionally the wiring is built with faults
//! and the generated probe scripts run in every namespace, as `verify`
//! expects their results from a real cluster.
//!
//! It scales to a thousand PCs and a million pairs: the links are made by
//! a few `ip -batch` processes, the PCs boot a few at once, and the pings
//! come from this process, a thread per PC joining its namespace with a
//! raw ICMP socket and asking the kernel's routes over netlink, while the
//! frames are counted from a ring the kernel writes into.
//!
//! Everything is named with a per-run prefix and removed when the
//! [`Testbed`] is dropped: on success, on failure, on a panic, and when
//! the cancel flag (set by Ctrl-C) stops the run.

mod capture;
mod commands;
mod echo;
pub mod fattree;
mod hosts;
mod links;
mod lldp;
mod netlink;
mod netns;
mod networkd;
pub mod plot;
mod pump;
mod raw_socket;
mod ready;
mod registry;
mod summary;
mod testbed;
pub mod traffic;
mod tree;
mod wiring;

pub use capture::Frames;
pub use ready::{Unavailable, Uses, available, ready};
pub use registry::{RUN_DIR, Removed, Sweep, sweep};
pub use summary::Summary;
pub use testbed::Testbed;
pub use wiring::{Fault, FaultError, Wiring};

use capture::{Capture, Port};
use commands::{run, run_until};
use fnn_core::design::Design;
use fnn_core::escape::{batch_word, host_name};
use fnn_core::spec::{Cluster, Coverage, UplinkMode};
use fnn_export::routing::{BasicRouting, Interfaces, MacTable, probe, scripts};
use std::collections::HashMap;
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

#[derive(Debug, thiserror::Error)]
pub enum EmulateError {
    #[error("`{command}` failed: {reason}")]
    Setup { command: String, reason: String },
    #[error("cannot write {path}: {reason}")]
    Io { path: String, reason: String },
    #[error("cannot lock emulate's run record {path}: {reason} (the registry must be on a local file system)")]
    Lock { path: String, reason: String },
    #[error(transparent)]
    Unavailable(#[from] Unavailable),
    #[error("interface names are at most 15 characters: `{0}` is too long (a shorter name_prefix)")]
    NameTooLong(String),
    #[error("interrupted: everything emulate created has been removed")]
    Interrupted,
}

/// A progress callback: (what, done, of).
pub type Progress<'a> = &'a (dyn Fn(&str, usize, usize) + Sync);

/// How to run a rehearsal.
pub struct Options<'a> {
    /// Leave the testbed in place when it is dropped.
    pub keep: bool,
    /// The PCI probe order the scripts are generated for.
    pub ifaces: Interfaces,
    /// How each PC is booted: its setup script, or its networkd files.
    pub boot: Boot,
    /// The PCs' own names for their NICs in slot order (`enp1s0f0`, ...),
    /// instead of `ethN`.
    pub nic_names: Option<Vec<String>>,
    /// Faults built into the wiring (none for a rehearsal of the design).
    pub faults: Vec<Fault>,
    /// Run the probe scripts after the pings and write their results here.
    pub probe_results: Option<PathBuf>,
    /// Run lldpd in every PC, announce every switch port over LLDP and
    /// write each PC's `lldpcli -f json show neighbors` here.
    pub lldp_out: Option<PathBuf>,
    /// Rate-limit every cable and measure a traffic pattern's throughput.
    pub traffic: Option<traffic::TrafficOptions>,
    /// Write the MACs discovered on the veths here, as a discovery file.
    pub macs_out: Option<PathBuf>,
    /// Set (by a signal handler) to stop the run and remove everything.
    pub cancel: Option<&'a AtomicBool>,
    /// Called as work is done: (what, done, of).
    pub progress: Option<Progress<'a>>,
}

impl Options<'_> {
    pub fn new(ifaces: Interfaces) -> Self {
        Options {
            keep: false,
            ifaces,
            nic_names: None,
            boot: Boot::Script,
            faults: Vec::new(),
            probe_results: None,
            lldp_out: None,
            traffic: None,
            macs_out: None,
            cancel: None,
            progress: None,
        }
    }

    fn check(&self) -> Result<(), EmulateError> {
        match self.cancel {
            Some(f) if f.load(Ordering::Relaxed) => Err(EmulateError::Interrupted),
            _ => Ok(()),
        }
    }

    /// What the run will do, for [`ready()`].
    pub fn uses(&self) -> Uses {
        Uses {
            boot: self.boot,
            traffic: self.traffic.is_some(),
            probes: self.probe_results.is_some(),
            lldp: self.lldp_out.is_some(),
            clean: false,
        }
    }

    fn report(&self, what: &str, done: usize, of: usize) {
        if let Some(p) = self.progress {
            p(what, done, of);
        }
    }
}

/// How the PCs of a rehearsal are booted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Boot {
    /// Each PC runs its `fnn-setup` script.
    #[default]
    Script,
    /// Each PC's `.link` files name its NICs (udev's own matching) and the
    /// real systemd-networkd installs its `.network` files; then its
    /// `fnn-announce` script runs.
    Networkd,
}

/// How many namespaces are worked on at once: a booting PC mostly waits
/// on `ip`, and a pinging one on its replies.
const WORKERS: usize = 8;

/// Builds the design in namespaces, runs its setup scripts and pings every
/// required pair. The testbed is returned so the caller decides when it
/// goes (dropping it removes everything).
pub fn emulate(c: &Cluster, d: &Design, o: &Options) -> Result<(Summary, Testbed), EmulateError> {
    ready(&o.uses())?;
    // What killed runs left goes first, and the summary says so.
    let removed = registry::sweep(Sweep::Dead)?;
    let mut tb = Testbed::new(o.keep)?;
    match rehearse(c, d, o, &mut tb) {
        Ok(mut summary) => {
            summary.removed_before = removed;
            Ok((summary, tb))
        }
        Err(e) => {
            // `--keep` is for inspecting a finished run; a run that failed
            // half-way never prints its removal commands, so what it built
            // goes now.
            tb.keep = false;
            Err(e)
        }
    }
}

/// [`emulate`]'s work, building into `tb`.
fn rehearse(c: &Cluster, d: &Design, o: &Options, tb: &mut Testbed) -> Result<Summary, EmulateError> {
    let start = std::time::Instant::now();
    let wiring = Wiring::new(d, &o.ifaces, o.nic_names.as_deref(), &o.faults);
    let (ports, seen_macs) = build(c, d, &wiring, tb, o)?;
    let macs = discover_macs(c, &wiring, &seen_macs, tb, o)?;
    let pairs = required_pairs(c, d);
    let capture = start_capture(&ports, d, pairs.len())?;
    let r = BasicRouting::new(c, d);
    let work = tb.work_dir()?;
    boot(c, d, &r, &macs, &work, tb, o)?;
    await_announcements(&ports, o)?;
    let results = ping_pairs(c, d, &pairs, tb, o)?;
    let seen = capture.finish();
    let name = |pc: usize, nic: usize| match o.boot {
        Boot::Script => macs.iface(pc, nic, &o.ifaces),
        Boot::Networkd => fnn_export::routing::networkd::link_name(pc, nic, &macs, &o.ifaces),
    };
    let mut summary = Summary::new(c, d, &r, &name, &pairs, &results, &seen);
    if let Some(dir) = &o.probe_results {
        let capture = start_capture(&ports, d, pairs.len())?;
        probe_all(c, d, &r, &macs, &work, dir, tb, o)?;
        let seen = capture.finish();
        let mut frames = Frames::default();
        seen.frames.iter().for_each(|f| frames.add(f));
        summary.probe_frames = Some(frames);
    }
    let namespaces: Vec<String> = (0..d.pcs()).map(|pc| tb.namespace(c, pc)).collect();
    if let Some(t) = &o.traffic {
        let mut ends: Vec<(Option<String>, String)> = Vec::new();
        for (pc, cables) in wiring.cables.iter().enumerate() {
            for (nic, cable) in cables.iter().enumerate() {
                if cable.is_some() {
                    ends.push((Some(namespaces[pc].clone()), name(pc, nic)));
                    ends.push((None, host_end(&tb.prefix, pc, nic)));
                }
            }
        }
        if c.uplink.mode != UplinkMode::None {
            for s in 0..d.switches() {
                ends.push((None, format!("{}u{s}", tb.prefix)));
                ends.push((None, format!("{}v{s}", tb.prefix)));
            }
        }
        o.report("limiting links", 0, 1);
        links::limit_links(&ends, t.rate)?;
        o.report("traffic", 0, 1);
        summary.traffic = Some(traffic::rehearse(c, d, &r, &namespaces, t, o.cancel)?);
        if t.against_tree {
            // A testbed of its own, removed when this block ends.
            let mut tree_tb = Testbed::new(false)?;
            let (namespaces, ends) = tree::build(c, d.pcs(), &mut tree_tb)?;
            links::limit_links(&ends, t.rate)?;
            o.report("traffic on the tree", 0, 1);
            summary.traffic_tree = Some(traffic::rehearse_tree(c, d, &namespaces, t, o.cancel)?);
        }
        if let Some(shape) = &t.against_fat_tree {
            let mut fat_tb = Testbed::new(false)?;
            let (namespaces, ends) = fattree::build(c, d.pcs(), shape, &mut fat_tb)?;
            links::limit_links(&ends, t.rate)?;
            o.report("traffic on the fat-tree", 0, 1);
            summary.traffic_fat_tree = Some(traffic::rehearse_fat_tree(c, d, shape, &namespaces, t, o.cancel)?);
        }
    }
    if let Some(dir) = &o.lldp_out {
        let prefix = tb.prefix.clone();
        let ends = |pc: usize, nic: usize| host_end(&prefix, pc, nic);
        // lldpcli runs as lldpd's user (setuid), so the sockets' folder
        // must be searchable by it: a folder of its own, not listable.
        let sockets = tb.work_dir()?;
        fnn_core::fs::set_dir_mode(&sockets, 0o711).map_err(|e| io(&sockets, e))?;
        lldp::collect(c, &wiring, &namespaces, &ends, &sockets, dir, o)?;
    }
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

fn start_capture(ports: &HashMap<i32, Port>, d: &Design, pairs: usize) -> Result<Capture, EmulateError> {
    Capture::start(ports.clone(), d.switches() + 1, pairs).map_err(|e| EmulateError::Setup {
        command: "an AF_PACKET socket to count frames".into(),
        reason: e.to_string(),
    })
}

/// The switch-side end of PC `pc`'s NIC `nic`: a bridge port.
fn host_end(prefix: &str, pc: usize, nic: usize) -> String {
    format!("{prefix}{pc}x{nic}")
}

/// A PC's MACs by interface name, as its namespace lists them.
type Macs = HashMap<String, [u8; 6]>;

/// The uplink: a veth pair from each switch's bridge to the uplink
/// bridge (the last of `bridges`); returns their ends as bridge ports.
fn uplink_ports(
    d: &Design,
    tb: &mut Testbed,
    bridges: &[String],
    o: &Options,
) -> Result<HashMap<i32, Port>, EmulateError> {
    let prefix = tb.prefix.clone();
    let bridge = |s: usize| &bridges[s];
    let mut ports = HashMap::new();
    let pairs: Vec<(String, String)> = (0..d.switches())
        .map(|s| (format!("{prefix}u{s}"), format!("{prefix}v{s}")))
        .collect();
    tb.add_veths(&pairs)?;
    let up = &bridges[d.switches()];
    let enslave = |(s, (a, b)): (usize, &(String, String))| {
        format!("link set {a} master {} up\nlink set {b} master {up} up\n", bridge(s))
    };
    commands::batch(&pairs.iter().enumerate().map(enslave).collect::<String>(), o.cancel)?;
    for (s, (a, b)) in pairs.iter().enumerate() {
        ports.insert(
            testbed::ifindex(a)?,
            Port {
                bridge: s,
                nic_mac: None,
            },
        );
        ports.insert(
            testbed::ifindex(b)?,
            Port {
                bridge: d.switches(),
                nic_mac: None,
            },
        );
    }
    Ok(ports)
}

/// The bridges, namespaces and veths; returns the bridge ports to watch
/// and each PC's MACs.
/// Each kind is made by one `ip -batch` process, not one `ip` per link.
fn build(
    c: &Cluster,
    d: &Design,
    w: &Wiring,
    tb: &mut Testbed,
    o: &Options,
) -> Result<(HashMap<i32, Port>, Vec<Macs>), EmulateError> {
    let prefix = tb.prefix.clone();
    let bridge = |s: usize| format!("{prefix}b{s}");
    let mut bridges: Vec<String> = (0..d.switches()).map(bridge).collect();
    let uplink = c.uplink.mode != UplinkMode::None;
    if uplink {
        bridges.push(format!("{prefix}up"));
    }
    o.report("building", 0, d.pcs());
    tb.add_bridges(&bridges)?;
    let mut ports = match uplink {
        true => uplink_ports(d, tb, &bridges, o)?,
        false => HashMap::new(),
    };
    let namespaces: Vec<String> = (0..d.pcs()).map(|pc| tb.namespace(c, pc)).collect();
    tb.add_namespaces(&namespaces)?;
    o.check()?;
    // Each PC end is made in its namespace under the name its kernel
    // gives it.
    let host = |pc: usize, nic: usize| host_end(&prefix, pc, nic);
    // Made in the order the PC's kernel probes its slots, so the
    // interfaces' indexes (and `ip link`'s listing) follow it, not NIC order.
    let mut ends: Vec<(usize, usize, Option<usize>)> = (0..d.pcs())
        .flat_map(|pc| {
            w.cables[pc]
                .iter()
                .enumerate()
                .map(move |(nic, &cable)| (pc, nic, cable))
        })
        .collect();
    ends.sort_by_key(|&(pc, nic, _)| (pc, w.probed_at(pc, nic)));
    let names: Vec<String> = ends.iter().map(|&(pc, nic, _)| host(pc, nic)).collect();
    // Removed by name too: a deleted namespace takes its veths with it,
    // but only once the kernel gets round to it, after the removal returns.
    tb.links.extend(Testbed::ip_links(&names)?);
    let veth = |&(pc, nic, _): &(usize, usize, Option<usize>)| {
        let dev = batch_word(&w.name(pc, nic));
        format!(
            "link add {} type veth peer name {dev} netns {}",
            host(pc, nic),
            batch_word(&namespaces[pc])
        )
    };
    commands::batch(&testbed::lines(&ends, veth), o.cancel)?;
    names.iter().for_each(|n| testbed::no_ipv6(n));
    // A pulled cable: the host end stays down and on no bridge, so the
    // PC's NIC has no carrier.
    let plugged: String = ends
        .iter()
        .filter_map(|&(pc, nic, cable)| Some(format!("link set {} master {} up\n", host(pc, nic), bridge(cable?))))
        .collect();
    commands::batch(&plugged, o.cancel)?;
    let mut all_macs = Vec::with_capacity(d.pcs());
    for (pc, ns) in namespaces.iter().enumerate() {
        o.check()?;
        o.report("building", pc, d.pcs());
        let macs = testbed::macs(ns)?;
        for (nic, cable) in w.cables[pc].iter().enumerate() {
            let Some(s) = *cable else { continue };
            let dev = w.name(pc, nic);
            ports.insert(
                testbed::ifindex(&host(pc, nic))?,
                Port {
                    bridge: s,
                    nic_mac: macs.get(&dev).copied(),
                },
            );
        }
        all_macs.push(macs);
    }
    Ok((ports, all_macs))
}

/// The MACs as a discovery run on each PC reports them (by the names its
/// kernel gives), read through the same path a discovery file is.
fn discover_macs(c: &Cluster, w: &Wiring, seen: &[Macs], tb: &Testbed, o: &Options) -> Result<MacTable, EmulateError> {
    let mut text = String::from("# PC IFACE MAC, discovered by fnn-tui emulate\n");
    for (pc, macs) in seen.iter().enumerate() {
        for nic in 0..w.cables[pc].len() {
            let dev = w.name(pc, nic);
            let mac = macs.get(&dev).ok_or_else(|| EmulateError::Setup {
                command: format!("reading the MAC of {dev} in {}", tb.namespace(c, pc)),
                reason: "no such link".into(),
            })?;
            let hex: Vec<String> = mac.iter().map(|b| format!("{b:02x}")).collect();
            text.push_str(&format!("{} {dev} {}\n", c.pc_name(pc), hex.join(":")));
        }
    }
    if let Some(path) = &o.macs_out {
        // The user's file, maybe in a shared folder: staged and renamed,
        // so a full disk keeps the old one and a planted link is replaced.
        write_macs(path, &text)?;
    }
    let names = |s: &str| c.pc_named(s);
    MacTable::parse(&text, "discovered", &names, &o.ifaces).map_err(|e| EmulateError::Setup {
        command: "reading the veths' MACs".into(),
        reason: e.to_string(),
    })
}

/// Every PC's hosts file and setup script, run as at boot, a few PCs at
/// once as a cluster's PCs boot together.
fn boot(
    c: &Cluster,
    d: &Design,
    r: &BasicRouting,
    macs: &MacTable,
    work: &Path,
    tb: &Testbed,
    o: &Options,
) -> Result<(), EmulateError> {
    let done = AtomicUsize::new(0);
    parallel(d.pcs(), o, |pc| {
        let ns = tb.namespace(c, pc);
        // `ip netns exec` shows /etc/netns/NS/hosts as the PC's /etc/hosts.
        let etc = tb.etc_dir(&ns);
        fnn_core::fs::make_dirs(&etc).map_err(|e| io(&etc, e))?;
        write(&etc.join("hosts"), &scripts::hosts(c, d, r, pc))?;
        if o.boot == Boot::Networkd {
            return boot_networkd(c, d, r, macs, work, &ns, pc, o).map(|_| {
                o.report("booting", done.fetch_add(1, Ordering::Relaxed) + 1, d.pcs());
            });
        }
        let script = work.join(format!("fnn-setup-{}.sh", c.pc_name(pc)));
        write(&script, &scripts::setup_script(c, d, r, pc, &o.ifaces, macs))?;
        run_until(
            &["ip", "netns", "exec", &ns, "sh", &script.display().to_string()],
            o.cancel,
        )?;
        o.report("booting", done.fetch_add(1, Ordering::Relaxed) + 1, d.pcs());
        Ok(())
    })?;
    Ok(())
}

/// One PC booted from its networkd files, then its announcement script.
#[allow(clippy::too_many_arguments)]
fn boot_networkd(
    c: &Cluster,
    d: &Design,
    r: &BasicRouting,
    macs: &MacTable,
    work: &Path,
    ns: &str,
    pc: usize,
    o: &Options,
) -> Result<(), EmulateError> {
    use fnn_export::routing::networkd as files;
    let dir = work.join(format!("networkd-{pc}"));
    fnn_core::fs::make_dirs(&dir).map_err(|e| io(&dir, e))?;
    let switches = d.switches_of(pc);
    let mut addresses: Vec<Ipv4Addr> = switches
        .iter()
        .map(|&sw| fnn_export::routing::switch_ip(sw, pc))
        .collect();
    if c.uplink.mode != UplinkMode::None && !switches.is_empty() {
        addresses.push(fnn_export::routing::uplink_ip(pc));
    }
    for nic in 0..switches.len() {
        let (link, network) = files::file_names(nic);
        write(&dir.join(link), &files::link_file(c, d, pc, nic, &o.ifaces, macs))?;
        write(&dir.join(network), &files::network_file(c, d, r, pc, nic, macs))?;
    }
    let mut neighbours = 0;
    scripts::for_each_neighbour(c, d, r, pc, macs, |n| neighbours += usize::from(n.known));
    networkd::boot(ns, &dir, &addresses, neighbours, o.cancel)?;
    let script = work.join(format!("fnn-announce-{}.sh", c.pc_name(pc)));
    write(&script, &scripts::announce_script(c, d, r, pc, &o.ifaces, macs))?;
    run_until(
        &["ip", "netns", "exec", ns, "sh", &script.display().to_string()],
        o.cancel,
    )?;
    Ok(())
}

/// How long the NICs' boot-time announcements may take to reach their
/// switches before the pings start regardless.
const ANNOUNCE_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// Waits until every switch has learned the NIC on each of its ports from
/// the frame the NIC's setup script sends in the background, as on a
/// cluster, where traffic starts well after boot. A NIC that never
/// announces itself is not waited for past [`ANNOUNCE_WAIT`]: the pings
/// to it are flooded and counted.
fn await_announcements(ports: &HashMap<i32, Port>, o: &Options) -> Result<(), EmulateError> {
    let want: Vec<(u32, [u8; 6])> = ports
        .iter()
        .filter_map(|(&i, p)| Some((i as u32, p.nic_mac?)))
        .collect();
    let failed = |e: std::io::Error| EmulateError::Setup {
        command: "reading what the bridges have learned".into(),
        reason: e.to_string(),
    };
    let mut rtnl = netlink::Rtnl::open().map_err(failed)?;
    let deadline = std::time::Instant::now() + ANNOUNCE_WAIT;
    loop {
        o.check()?;
        let learned: std::collections::HashSet<(u32, Vec<u8>)> =
            rtnl.bridge_fdb().map_err(failed)?.into_iter().collect();
        let all = want.iter().all(|(i, mac)| learned.contains(&(*i, mac.to_vec())));
        if all || std::time::Instant::now() > deadline {
            return Ok(());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Every pair the spec requires, both ways.
fn required_pairs(c: &Cluster, d: &Design) -> Vec<(usize, usize)> {
    match c.coverage {
        Coverage::Universal => (0..d.pcs())
            .flat_map(|a| (0..d.pcs()).filter(move |&b| b != a).map(move |b| (a, b)))
            .collect(),
        Coverage::Sparse => c.pattern.pairs().flat_map(|(a, b, _)| [(a, b), (b, a)]).collect(),
    }
}

/// One ping's outcome: answered, and the interface the kernel sends by
/// (shared: a million pairs name a handful of interfaces).
#[derive(Clone, Debug)]
pub(crate) struct PingResult {
    pub answered: bool,
    pub dev: Arc<str>,
}

/// From inside each PC's namespace: every target's name looked up in the
/// PC's own hosts file (as `ping NAME` would), one echo request each from
/// a raw socket, and the interface the kernel routes the address by.
fn ping_pairs(
    c: &Cluster,
    d: &Design,
    pairs: &[(usize, usize)],
    tb: &Testbed,
    o: &Options,
) -> Result<HashMap<(usize, usize), PingResult>, EmulateError> {
    let mut by_source: Vec<Vec<usize>> = vec![Vec::new(); d.pcs()];
    for &(a, b) in pairs {
        by_source[a].push(b);
    }
    let done = AtomicUsize::new(0);
    let out = parallel(d.pcs(), o, |a| {
        let targets = &by_source[a];
        let ns = tb.namespace(c, a);
        let hosts_file = tb.etc_dir(&ns).join("hosts");
        let hosts = std::fs::read_to_string(&hosts_file).map_err(|e| io(&hosts_file, e))?;
        let known = hosts::addresses(&hosts);
        let names: Vec<String> = targets
            .iter()
            .map(|&b| host_name(&c.pc_name(b)).to_ascii_lowercase())
            .collect();
        let addrs: Vec<Option<Ipv4Addr>> = names.iter().map(|n| known.get(n.as_str()).copied()).collect();
        let probe = |e: std::io::Error| EmulateError::Setup {
            command: format!("pinging from {ns}"),
            reason: e.to_string(),
        };
        let results = netns::within(&ns, || {
            let to: Vec<Ipv4Addr> = addrs.iter().flatten().copied().collect();
            let mut answered = echo::echo_all(&to, a as u16, o.cancel)?.into_iter();
            let mut rtnl = netlink::Rtnl::open()?;
            let none: Arc<str> = Arc::from("none");
            let devs: HashMap<u32, Arc<str>> = rtnl
                .links()?
                .into_iter()
                .map(|l| (l.index, Arc::from(l.name)))
                .collect();
            addrs
                .iter()
                .map(|addr| {
                    let Some(addr) = *addr else {
                        return Ok(PingResult {
                            answered: false,
                            dev: none.clone(),
                        });
                    };
                    let dev = rtnl.route_oif(addr)?.and_then(|i| devs.get(&i).cloned());
                    Ok(PingResult {
                        answered: answered.next().unwrap_or(false),
                        dev: dev.unwrap_or_else(|| none.clone()),
                    })
                })
                .collect::<std::io::Result<Vec<_>>>()
        })
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::Interrupted => EmulateError::Interrupted,
            _ => probe(e),
        })?;
        let n = done.fetch_add(targets.len(), Ordering::Relaxed) + targets.len();
        o.report("pinging", n, pairs.len());
        Ok(targets.iter().map(|&b| (a, b)).zip(results).collect::<Vec<_>>())
    })?;
    Ok(out.into_iter().flatten().collect())
}

/// With the uplink unplugged (through it every switch reaches every other
/// and a miswired cable would still answer), every PC runs its probe
/// script; the results go to `dir` as `verify` reads them.
#[allow(clippy::too_many_arguments)]
fn probe_all(
    c: &Cluster,
    d: &Design,
    r: &BasicRouting,
    macs: &MacTable,
    work: &Path,
    dir: &Path,
    tb: &Testbed,
    o: &Options,
) -> Result<(), EmulateError> {
    if c.uplink.mode != UplinkMode::None {
        for s in 0..d.switches() {
            run(&["ip", "link", "set", &format!("{}u{s}", tb.prefix), "down"])?;
        }
    }
    // The results folder is the user's and may be shared: opened once,
    // never through a link another user could change, and written into
    // by its handle.
    let results = fnn_core::fs::make_dirs(dir).map_err(|e| io(dir, e))?;
    let done = AtomicUsize::new(0);
    parallel(d.pcs(), o, |pc| {
        let name = c.pc_name(pc);
        let script = work.join(format!("fnn-probe-{name}.sh"));
        write(&script, &probe::probe_script(c, d, r, pc, &o.ifaces, macs))?;
        let ns = tb.namespace(c, pc);
        let text = run_until(
            &["ip", "netns", "exec", &ns, "sh", &script.display().to_string()],
            o.cancel,
        )?;
        let file = format!("fnn-probe-{name}.txt");
        fnn_core::atomic::write_atomic_in(&results, &file, text.as_bytes()).map_err(|e| io(&dir.join(&file), e))?;
        o.report("probing", done.fetch_add(1, Ordering::Relaxed) + 1, d.pcs());
        Ok(())
    })?;
    Ok(())
}

/// `f(0..n)` on a few threads, in order; stops at the first error or when
/// the run is cancelled.
fn parallel<T: Send>(
    n: usize,
    o: &Options,
    f: impl Fn(usize) -> Result<T, EmulateError> + Sync,
) -> Result<Vec<T>, EmulateError> {
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let mut results: Vec<(usize, Result<T, EmulateError>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..WORKERS.min(n.max(1)))
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n || failed.load(Ordering::Relaxed) {
                            return mine;
                        }
                        let r = o.check().and_then(|_| f(i));
                        failed.fetch_or(r.is_err(), Ordering::Relaxed);
                        mine.push((i, r));
                    }
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    });
    results.sort_by_key(|(i, _)| *i);
    if let Some(pos) = results.iter().position(|(_, r)| r.is_err()) {
        return Err(results.swap_remove(pos).1.err().unwrap_or(EmulateError::Interrupted));
    }
    if results.len() < n {
        return Err(EmulateError::Interrupted);
    }
    Ok(results.into_iter().filter_map(|(_, r)| r.ok()).collect())
}

/// What a failed system call in `what` says.
fn failed(what: String) -> impl FnOnce(std::io::Error) -> EmulateError {
    move |e: std::io::Error| EmulateError::Setup {
        command: what,
        reason: e.to_string(),
    }
}

fn io(path: &Path, e: std::io::Error) -> EmulateError {
    EmulateError::Io {
        path: path.display().to_string(),
        reason: e.to_string(),
    }
}

/// Writes into the testbed's private scratch folder or /etc/netns (root's).
fn write(path: &Path, text: &str) -> Result<(), EmulateError> {
    fnn_core::fs::write_in_place(path, text.as_bytes()).map_err(|e| io(path, e))
}

/// Writes the `--macs` file: atomically, never through a link.
pub fn write_macs(path: &Path, text: &str) -> Result<(), EmulateError> {
    fnn_core::atomic::write_atomic(path, text.as_bytes()).map_err(|e| io(path, e))
}
