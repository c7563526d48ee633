//! The namespaces, bridges and files of one rehearsal, named with a
//! per-run prefix and removed when the [`Testbed`] is dropped.

use super::EmulateError;
use super::registry::Registration;
use crate::spec::Cluster;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};

/// Runs `ip` (or another command) and returns its stdout, or why not.
pub fn run(args: &[&str]) -> Result<String, EmulateError> {
    run_until(args, None)
}

/// [`run`] for a command that may take long (a script, a round of pings):
/// when `cancel` is set it is killed, with everything it started, within
/// a few milliseconds.
pub fn run_until(args: &[&str], cancel: Option<&AtomicBool>) -> Result<String, EmulateError> {
    let failed = |reason: String| EmulateError::Setup {
        command: args.join(" "),
        reason,
    };
    let mut child = Command::new(args[0])
        .args(&args[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group: the whole group is killed on cancel.
        .process_group(0)
        .spawn()
        .map_err(|e| failed(e.to_string()))?;
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| failed(e.to_string()))? {
            break status;
        }
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            // SAFETY: kill has no memory preconditions; the group is the child's own.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            let _ = child.wait();
            return Err(EmulateError::Interrupted);
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let (out, err) = (out.join().unwrap_or_default(), err.join().unwrap_or_default());
    if !status.success() {
        return Err(failed(String::from_utf8_lossy(&err).trim().to_string()));
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Reads a child's pipe to its end on a thread of its own.
fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut buf);
        }
        buf
    })
}

/// Deletes namespaces (and with them the veth ends inside) and then links.
/// Each deletion waits for the kernel to let go of the device, so they go
/// in a few `ip -batch` processes at once (not one process per name): a
/// stopped KLAT2 run is gone within its two seconds.
pub(super) fn remove_links(namespaces: &[String], links: &[String]) {
    let ns: Vec<String> = namespaces.iter().map(|n| format!("netns del {n}\n")).collect();
    let ln: Vec<String> = links.iter().map(|l| format!("link del {l}\n")).collect();
    for commands in [ns, ln] {
        let per = commands.len().div_ceil(REMOVERS).max(1);
        let children: Vec<_> = commands.chunks(per).filter_map(|c| ip_batch(&c.concat())).collect();
        for mut child in children {
            let _ = child.wait();
        }
    }
}

/// How many `ip -batch` processes remove a testbed at once.
const REMOVERS: usize = 8;

/// Starts `ip -force -batch -` on `script` (errors are expected: a veth
/// end goes with its namespace).
fn ip_batch(script: &str) -> Option<std::process::Child> {
    let mut child = Command::new("ip")
        .args(["-force", "-batch", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(script.as_bytes());
    }
    Some(child)
}

/// The namespaces, bridges and files of one rehearsal; dropping it
/// removes them all (unless kept for inspection).
pub struct Testbed {
    pub prefix: String,
    pub(super) namespaces: Vec<String>,
    pub(super) bridges: Vec<String>,
    /// Links in this namespace that are not bridges (the uplink veths).
    pub(super) links: Vec<String>,
    pub(super) dirs: Vec<PathBuf>,
    pub keep: bool,
    registration: Registration,
}

impl Drop for Testbed {
    fn drop(&mut self) {
        if self.keep {
            self.registration.keep();
            return;
        }
        // Deleting a namespace deletes the veth ends in it and so their
        // peers on the bridges; a bridge's ports outlive it, and deleting
        // one end of a veth deletes both.
        let links: Vec<String> = self.links.iter().chain(&self.bridges).cloned().collect();
        remove_links(&self.namespaces, &links);
        for d in self.dirs.iter().chain(&self.etc_dirs()) {
            let _ = std::fs::remove_dir_all(d);
        }
        // The registration goes last (it drops after this), so a run
        // killed during the removal is still found by the next one.
    }
}

impl Testbed {
    /// A testbed under a freshly registered prefix (see [`Registration`]).
    pub(super) fn new(keep: bool) -> Result<Testbed, EmulateError> {
        Ok(Testbed::registered(Registration::new()?, keep))
    }

    fn registered(registration: Registration, keep: bool) -> Testbed {
        Testbed {
            prefix: registration.prefix.clone(),
            namespaces: Vec::new(),
            bridges: Vec::new(),
            links: Vec::new(),
            dirs: Vec::new(),
            keep,
            registration,
        }
    }

    /// A bridge (a switch), without IPv6 so it sends nothing of its own.
    pub(super) fn add_bridge(&mut self, name: &str) -> Result<(), EmulateError> {
        let b = Testbed::ip_link(name)?;
        run(&["ip", "link", "add", &b, "type", "bridge"])?;
        self.bridges.push(b.clone());
        no_ipv6("/proc/sys/net/ipv6/conf", &b);
        run(&["ip", "link", "set", &b, "up"])?;
        Ok(())
    }

    /// A veth pair (a cable); deleting either end deletes both.
    pub(super) fn add_veth(&mut self, a: &str, b: &str) -> Result<(), EmulateError> {
        Testbed::ip_link(a)?;
        Testbed::ip_link(b)?;
        run(&["ip", "link", "add", a, "type", "veth", "peer", "name", b])?;
        self.links.push(a.to_string());
        no_ipv6("/proc/sys/net/ipv6/conf", a);
        Ok(())
    }

    /// A PC. IPv6 is off in it: its autoconfiguration multicasts would be
    /// counted against the scripts, which configure IPv4 only.
    pub(super) fn add_namespace(&mut self, ns: &str) -> Result<(), EmulateError> {
        run(&["ip", "netns", "add", ns])?;
        self.namespaces.push(ns.to_string());
        run(&["ip", "-n", ns, "link", "set", "lo", "up"])?;
        let _ = run(&[
            "ip",
            "netns",
            "exec",
            ns,
            "sh",
            "-c",
            "for f in all default; do echo 1 > /proc/sys/net/ipv6/conf/$f/disable_ipv6; done 2>/dev/null",
        ]);
        Ok(())
    }

    /// A scratch folder for the scripts, removed with the testbed. Its
    /// scripts run as root, so it is created afresh (never one that is
    /// already there), with a random name and mode 0700: nobody else can
    /// plant or swap a script in it.
    pub(super) fn work_dir(&mut self) -> Result<PathBuf, EmulateError> {
        let prefix = format!("{}-scripts-", self.prefix);
        let work = crate::atomic::private_dir(&prefix).map_err(|e| super::io(Path::new(&prefix), e))?;
        self.registration.note_folder(&work)?;
        self.dirs.push(work.clone());
        Ok(work)
    }

    /// `/etc/netns/NS`, which `ip netns exec` binds over the PC's /etc.
    pub(super) fn etc_dir(&self, ns: &str) -> PathBuf {
        PathBuf::from("/etc/netns").join(ns)
    }
    /// The commands that remove what a kept testbed left.
    pub fn removal_commands(&self) -> Vec<String> {
        let mut v: Vec<String> = self.namespaces.iter().map(|ns| format!("ip netns del {ns}")).collect();
        v.extend(
            self.links
                .iter()
                .chain(&self.bridges)
                .map(|b| format!("ip link del {b}")),
        );
        v.extend(
            self.dirs
                .iter()
                .chain(&self.etc_dirs())
                .map(|d| format!("rm -rf {}", d.display())),
        );
        // A kept testbed's record is renamed `.kept` when the testbed drops.
        let record = self.registration.path();
        let record = if self.keep {
            record.with_extension("kept")
        } else {
            record.to_path_buf()
        };
        v.push(format!("rm -f {}", record.display()));
        v
    }

    pub(super) fn namespace(&self, c: &Cluster, pc: usize) -> String {
        format!("{}-{}", self.prefix, c.pc_name(pc))
    }

    pub(super) fn ip_link(name: &str) -> Result<String, EmulateError> {
        if name.len() > 15 {
            return Err(EmulateError::NameTooLong(name.into()));
        }
        Ok(name.into())
    }
}

impl Testbed {
    fn etc_dirs(&self) -> Vec<PathBuf> {
        self.namespaces.iter().map(|ns| self.etc_dir(ns)).collect()
    }
}

fn no_ipv6(conf: &str, iface: &str) {
    // Absent when the kernel has no IPv6: then there is nothing to silence.
    let _ = std::fs::write(format!("{conf}/{iface}/disable_ipv6"), "1");
}

/// The interface index of a link in this namespace.
pub(super) fn ifindex(name: &str) -> Result<i32, EmulateError> {
    let path = format!("/sys/class/net/{name}/ifindex");
    std::fs::read_to_string(&path)
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .ok_or_else(|| EmulateError::Setup {
            command: format!("reading {path}"),
            reason: "no such interface".into(),
        })
}

/// The MAC of an interface in a namespace.
pub(super) fn mac(ns: &str, dev: &str) -> Result<[u8; 6], EmulateError> {
    let text = run(&[
        "ip",
        "netns",
        "exec",
        ns,
        "cat",
        &format!("/sys/class/net/{dev}/address"),
    ])?;
    let bytes: Vec<u8> = text
        .trim()
        .split(':')
        .filter_map(|h| u8::from_str_radix(h, 16).ok())
        .collect();
    bytes.try_into().map_err(|_| EmulateError::Setup {
        command: format!("reading the MAC of {dev} in {ns}"),
        reason: format!("`{}` is not a MAC", text.trim()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn the_scratch_folder_is_new_private_and_never_the_same_name() {
        let reg = tempfile::tempdir().unwrap();
        let mut tb = Testbed::registered(Registration::new_in(reg.path()).unwrap(), false);
        let work = tb.work_dir().unwrap();
        // Never a name anyone could make first.
        assert!(work.file_name().unwrap().len() > format!("{}-scripts-", tb.prefix).len());
        let mode = std::fs::metadata(&work).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "{}", work.display());
        // The run's record names the folder, for a sweep after a kill.
        let record = std::fs::read_to_string(reg.path().join(format!("{}.run", tb.prefix))).unwrap();
        assert!(record.contains(&format!("folder {}", work.display())), "{record}");
        drop(tb);
        assert!(!work.exists(), "removed with the testbed");
        assert_eq!(
            std::fs::read_dir(reg.path()).unwrap().count(),
            0,
            "and so is the record"
        );
    }
}
