//! The namespaces, bridges and files of one rehearsal, named with a
//! per-run prefix and removed when the [`Testbed`] is dropped.

use super::EmulateError;
use super::commands::{remove_links, run};
use super::registry::Registration;
use crate::spec::Cluster;
use std::path::{Path, PathBuf};

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
