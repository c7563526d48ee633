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
//! Everything is named with a per-run prefix and removed when the
//! [`Testbed`] is dropped: on success, on failure, on a panic, and when
//! the cancel flag (set by Ctrl-C) stops the run.

mod capture;
mod commands;
mod registry;
mod summary;
mod testbed;
mod wiring;

pub use capture::Frames;
pub use registry::{RUN_DIR, Removed, Sweep, sweep};
pub use summary::Summary;
pub use testbed::Testbed;
pub use wiring::{Fault, FaultError, Wiring};

use crate::design::Design;
use crate::routing::{BasicRouting, Interfaces, MacTable, probe, scripts};
use crate::spec::{Cluster, Coverage, UplinkMode};
use capture::{Capture, Port};
use commands::{run, run_until};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

#[derive(Debug, thiserror::Error)]
pub enum EmulateError {
    #[error("`{command}` failed: {reason}{}", root_hint(reason))]
    Setup { command: String, reason: String },
    #[error("cannot write {path}: {reason}")]
    Io { path: String, reason: String },
    #[error(
        "{0} does not exist on this machine, and `ip netns exec` gives each PC its hosts file by binding it over {0}: create it (`printf '127.0.0.1 localhost\\n' > {0}`) and run again"
    )]
    NoHostsFile(String),
    #[error("interface names are at most 15 characters: `{0}` is too long (a shorter name_prefix)")]
    NameTooLong(String),
    #[error("interrupted: everything emulate created has been removed")]
    Interrupted,
}

/// Why a command may have failed, when the reason is the usual one.
fn root_hint(reason: &str) -> &'static str {
    let denied = ["not permitted", "Permission denied", "No such file", "not found"];
    if denied.iter().any(|d| reason.contains(d)) {
        " (emulate needs root, or CAP_NET_ADMIN, and iproute2)"
    } else {
        ""
    }
}

/// A progress callback: (what, done, of).
pub type Progress<'a> = &'a (dyn Fn(&str, usize, usize) + Sync);

/// How to run a rehearsal.
pub struct Options<'a> {
    /// Leave the testbed in place when it is dropped.
    pub keep: bool,
    /// The PCI probe order the scripts are generated for.
    pub ifaces: Interfaces,
    /// Faults built into the wiring (none for a rehearsal of the design).
    pub faults: Vec<Fault>,
    /// Run the probe scripts after the pings and write their results here.
    pub probe_results: Option<PathBuf>,
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
            faults: Vec::new(),
            probe_results: None,
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

    fn report(&self, what: &str, done: usize, of: usize) {
        if let Some(p) = self.progress {
            p(what, done, of);
        }
    }
}

/// Why this machine cannot run a rehearsal.
#[derive(Debug, thiserror::Error)]
pub enum Unavailable {
    #[error("it needs root (network namespaces and bridges)")]
    NotRoot,
    #[error("`{command}` is missing (install {package})")]
    Missing {
        command: &'static str,
        package: &'static str,
    },
    #[error(transparent)]
    Hosts(#[from] EmulateError),
}

/// Whether this machine can run a rehearsal: root, and the `ip` and
/// `ping` commands. Otherwise why not.
pub fn available() -> Result<(), Unavailable> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Err(Unavailable::NotRoot);
    }
    for (command, package) in [("ip", "iproute2"), ("ping", "iputils-ping")] {
        let ok = std::process::Command::new(command)
            .arg("-V")
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            return Err(Unavailable::Missing { command, package });
        }
    }
    Ok(hosts_file(Path::new(HOSTS))?)
}

/// The machine's hosts file, which `ip netns exec` covers with each PC's.
const HOSTS: &str = "/etc/hosts";

/// `ip netns exec` gives a namespace its own hosts file by binding it over
/// `path`, which only works where the file exists (a minimal container or
/// chroot may have none): say so before building anything, instead of
/// every ping failing to resolve its PC's name.
fn hosts_file(path: &Path) -> Result<(), EmulateError> {
    if path.is_file() {
        return Ok(());
    }
    Err(EmulateError::NoHostsFile(path.display().to_string()))
}

/// How many namespaces are worked on at once: pings mostly wait.
const WORKERS: usize = 8;

/// Builds the design in namespaces, runs its setup scripts and pings every
/// required pair. The testbed is returned so the caller decides when it
/// goes (dropping it removes everything).
pub fn emulate(c: &Cluster, d: &Design, o: &Options) -> Result<(Summary, Testbed), EmulateError> {
    hosts_file(Path::new(HOSTS))?;
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
    let wiring = Wiring::new(d, &o.ifaces, &o.faults);
    let ports = build(c, d, &wiring, tb, o)?;
    let macs = discover_macs(c, d, &wiring, tb, o)?;
    let capture = start_capture(&ports, d)?;
    let r = BasicRouting::new(c, d);
    let work = tb.work_dir()?;
    boot(c, d, &r, &macs, &work, tb, o)?;
    let pairs = required_pairs(c, d);
    let results = ping_pairs(c, d, &r, &pairs, tb, o)?;
    let seen = capture.finish();
    let mut summary = Summary::new(c, d, &r, &o.ifaces, &pairs, &results, &seen);
    if let Some(dir) = &o.probe_results {
        let capture = start_capture(&ports, d)?;
        probe_all(c, d, &r, &macs, &work, dir, tb, o)?;
        let seen = capture.finish();
        let mut frames = Frames::default();
        seen.frames.iter().for_each(|f| frames.add(f));
        summary.probe_frames = Some(frames);
    }
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

fn start_capture(ports: &HashMap<i32, Port>, d: &Design) -> Result<Capture, EmulateError> {
    Capture::start(ports.clone(), d.switches() + 1).map_err(|e| EmulateError::Setup {
        command: "an AF_PACKET socket to count frames".into(),
        reason: e.to_string(),
    })
}

/// The bridges, namespaces and veths; returns the bridge ports to watch.
fn build(
    c: &Cluster,
    d: &Design,
    w: &Wiring,
    tb: &mut Testbed,
    o: &Options,
) -> Result<HashMap<i32, Port>, EmulateError> {
    let prefix = tb.prefix.clone();
    let mut ports = HashMap::new();
    let bridge = |s: usize| format!("{prefix}b{s}");
    for s in 0..d.switches() {
        tb.add_bridge(&bridge(s))?;
    }
    if c.uplink.mode != UplinkMode::None {
        let up = format!("{prefix}up");
        tb.add_bridge(&up)?;
        for s in 0..d.switches() {
            let (a, b) = (format!("{prefix}u{s}"), format!("{prefix}v{s}"));
            tb.add_veth(&a, &b)?;
            run(&["ip", "link", "set", &a, "master", &bridge(s), "up"])?;
            run(&["ip", "link", "set", &b, "master", &up, "up"])?;
            ports.insert(
                testbed::ifindex(&a)?,
                Port {
                    bridge: s,
                    nic_mac: None,
                },
            );
            ports.insert(
                testbed::ifindex(&b)?,
                Port {
                    bridge: d.switches(),
                    nic_mac: None,
                },
            );
        }
    }
    for pc in 0..d.pcs() {
        o.check()?;
        o.report("building", pc, d.pcs());
        let ns = tb.namespace(c, pc);
        tb.add_namespace(&ns)?;
        for (nic, cable) in w.cables[pc].iter().enumerate() {
            let (host, peer) = (format!("{prefix}{pc}x{nic}"), format!("{prefix}{pc}y{nic}"));
            tb.add_veth(&host, &peer)?;
            run(&["ip", "link", "set", &peer, "netns", &ns])?;
            let dev = w.kernel[pc].name(nic);
            run(&["ip", "-n", &ns, "link", "set", &peer, "name", &dev])?;
            // A pulled cable: the host end stays down and on no bridge, so
            // the PC's NIC has no carrier.
            let Some(s) = *cable else { continue };
            run(&["ip", "link", "set", &host, "master", &bridge(s), "up"])?;
            let mac = testbed::mac(&ns, &dev)?;
            ports.insert(
                testbed::ifindex(&host)?,
                Port {
                    bridge: s,
                    nic_mac: Some(mac),
                },
            );
        }
    }
    Ok(ports)
}

/// The MACs as a discovery run on each PC reports them (by the names its
/// kernel gives), read through the same path a discovery file is.
fn discover_macs(c: &Cluster, d: &Design, w: &Wiring, tb: &Testbed, o: &Options) -> Result<MacTable, EmulateError> {
    let mut text = String::from("# PC IFACE MAC, discovered by fnn-tui emulate\n");
    for pc in 0..d.pcs() {
        let ns = tb.namespace(c, pc);
        for nic in 0..w.cables[pc].len() {
            let dev = w.kernel[pc].name(nic);
            let mac = testbed::mac(&ns, &dev)?;
            let hex: Vec<String> = mac.iter().map(|b| format!("{b:02x}")).collect();
            text.push_str(&format!("{} {dev} {}\n", c.pc_name(pc), hex.join(":")));
        }
    }
    if let Some(path) = &o.macs_out {
        write(path, &text)?;
    }
    let names = |s: &str| c.pc_named(s);
    MacTable::parse(&text, "discovered", &names, &o.ifaces).map_err(|e| EmulateError::Setup {
        command: "reading the veths' MACs".into(),
        reason: e.to_string(),
    })
}

/// Every PC's hosts file and setup script, run as at boot.
fn boot(
    c: &Cluster,
    d: &Design,
    r: &BasicRouting,
    macs: &MacTable,
    work: &Path,
    tb: &Testbed,
    o: &Options,
) -> Result<(), EmulateError> {
    for pc in 0..d.pcs() {
        o.check()?;
        o.report("booting", pc, d.pcs());
        let ns = tb.namespace(c, pc);
        // `ip netns exec` shows /etc/netns/NS/hosts as the PC's /etc/hosts.
        let etc = tb.etc_dir(&ns);
        std::fs::create_dir_all(&etc).map_err(|e| io(&etc, e))?;
        write(&etc.join("hosts"), &scripts::hosts(c, d, r, pc))?;
        let script = work.join(format!("fnn-setup-{}.sh", c.pc_name(pc)));
        write(&script, &scripts::setup_script(c, d, r, pc, &o.ifaces, macs))?;
        run_until(
            &["ip", "netns", "exec", &ns, "sh", &script.display().to_string()],
            o.cancel,
        )?;
    }
    Ok(())
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

/// One ping's outcome: answered, and the interface the kernel sends by.
#[derive(Clone, Debug)]
pub(crate) struct PingResult {
    pub answered: bool,
    pub dev: String,
}

/// In each PC's namespace, one shell pings its targets by host name and
/// asks the kernel which interface each address leaves by.
const PING_LOOP: &str = r#"while [ $# -gt 1 ]; do
  if ping -c 1 -W 1 -q "$1" >/dev/null 2>&1; then r=ok; else r=fail; fi
  d=$(ip -o route get "$2" 2>/dev/null | sed -n 's/.* dev \([^ ]*\).*/\1/p')
  echo "$r ${d:-none}"
  shift 2
done"#;

fn ping_pairs(
    c: &Cluster,
    d: &Design,
    r: &BasicRouting,
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
        let mut args: Vec<String> = ["ip", "netns", "exec", &tb.namespace(c, a), "sh", "-c", PING_LOOP, "sh"]
            .map(String::from)
            .to_vec();
        for &b in targets {
            args.push(c.pc_name(b));
            args.push(scripts::address_for(r, a, b).to_string());
        }
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let text = run_until(&argv, o.cancel)?;
        let n = done.fetch_add(targets.len(), Ordering::Relaxed) + targets.len();
        o.report("pinging", n, pairs.len());
        let mut lines = text.lines();
        Ok(targets
            .iter()
            .map(|&b| {
                let mut f = lines.next().unwrap_or("fail none").split(' ');
                let answered = f.next() == Some("ok");
                let dev = f.next().unwrap_or("none").to_string();
                ((a, b), PingResult { answered, dev })
            })
            .collect::<Vec<_>>())
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
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
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
        // The results folder is the user's and may be shared: written
        // through an exclusive temporary, never through a planted link.
        let out = dir.join(format!("fnn-probe-{name}.txt"));
        crate::atomic::write_atomic(&out, text.as_bytes()).map_err(|e| io(&out, e))?;
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

fn io(path: &Path, e: std::io::Error) -> EmulateError {
    EmulateError::Io {
        path: path.display().to_string(),
        reason: e.to_string(),
    }
}

/// Writes into the testbed's private scratch folder or /etc/netns (root's).
fn write(path: &Path, text: &str) -> Result<(), EmulateError> {
    std::fs::write(path, text).map_err(|e| io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_machine_without_a_hosts_file_is_told_before_anything_is_built() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("hosts");
        let e = hosts_file(&missing).unwrap_err().to_string();
        assert!(
            e.contains("does not exist") && e.contains(&missing.display().to_string()),
            "{e}"
        );
        std::fs::write(&missing, "127.0.0.1 localhost\n").unwrap();
        assert!(hosts_file(&missing).is_ok());
    }
}
