//! The namespaces, bridges and files of one rehearsal, named with a
//! per-run prefix and removed when the [`Testbed`] is dropped.

use super::EmulateError;
use super::commands::{batch, remove_links};
use super::netlink::Rtnl;
use super::netns;
use super::registry::Registration;
use fnn_core::escape::batch_word;
use fnn_core::spec::Cluster;
use std::collections::HashMap;
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
            let _ = fnn_core::fs::remove_all(d);
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

    /// Bridges (switches), without IPv6 so they send nothing of their own.
    pub(super) fn add_bridges(&mut self, names: &[String]) -> Result<(), EmulateError> {
        self.bridges.extend(Testbed::ip_links(names)?);
        batch(&lines(names, |b| format!("link add {b} type bridge")), None)?;
        names.iter().for_each(|b| no_ipv6(b));
        batch(&lines(names, |b| format!("link set {b} up")), None)
    }

    /// Veth pairs in the host's namespace (cables between switches),
    /// without IPv6; deleting either end deletes both.
    pub(super) fn add_veths(&mut self, pairs: &[(String, String)]) -> Result<(), EmulateError> {
        let ends: Vec<String> = pairs.iter().flat_map(|(a, b)| [a.clone(), b.clone()]).collect();
        Testbed::ip_links(&ends)?;
        self.links.extend(pairs.iter().map(|(a, _)| a.clone()));
        batch(
            &lines(pairs, |(a, b)| format!("link add {a} type veth peer name {b}")),
            None,
        )?;
        ends.iter().for_each(|e| no_ipv6(e));
        Ok(())
    }

    /// PCs, each with its loopback up and IPv6 off: its autoconfiguration
    /// multicasts would be counted against the scripts, which configure
    /// IPv4 only. Recorded before they are made, so a failure half-way
    /// still removes every one.
    pub(super) fn add_namespaces(&mut self, names: &[String]) -> Result<(), EmulateError> {
        self.namespaces.extend(names.iter().cloned());
        batch(&lines(names, |n| format!("netns add {}", batch_word(n))), None)?;
        for ns in names {
            netns::within(ns, || {
                netns::no_ipv6_here();
                let mut rtnl = Rtnl::open()?;
                match rtnl.links()?.iter().find(|l| l.name == "lo") {
                    Some(lo) => rtnl.set_up(lo.index),
                    None => Ok(()),
                }
            })
            .map_err(|e| EmulateError::Setup {
                command: format!("bringing lo up in {ns}"),
                reason: e.to_string(),
            })?;
        }
        Ok(())
    }

    /// A scratch folder for the scripts, removed with the testbed. Its
    /// scripts run as root, so it is created afresh (never one that is
    /// already there), with a random name and mode 0700: nobody else can
    /// plant or swap a script in it.
    pub(super) fn work_dir(&mut self) -> Result<PathBuf, EmulateError> {
        let prefix = format!("{}-scripts-", self.prefix);
        let work = fnn_core::atomic::private_dir(&prefix).map_err(|e| super::io(Path::new(&prefix), e))?;
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

    /// The names, if every one is short enough for a link.
    pub(super) fn ip_links(names: &[String]) -> Result<Vec<String>, EmulateError> {
        match names.iter().find(|n| n.len() > 15) {
            Some(long) => Err(EmulateError::NameTooLong(long.clone())),
            None => Ok(names.to_vec()),
        }
    }
}

impl Testbed {
    fn etc_dirs(&self) -> Vec<PathBuf> {
        self.namespaces.iter().map(|ns| self.etc_dir(ns)).collect()
    }
}

/// IPv6 off on a link in the host's namespace. Absent when the kernel has
/// no IPv6: then there is nothing to silence.
pub(super) fn no_ipv6(iface: &str) {
    let _ = fnn_core::fs::kernel::set(Path::new(&format!("/proc/sys/net/ipv6/conf/{iface}/disable_ipv6")), "1");
}

/// One `ip -batch` line per item.
pub(super) fn lines<T>(items: &[T], line: impl Fn(&T) -> String) -> String {
    items.iter().map(|i| line(i) + "\n").collect()
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

/// The MACs of the links in a namespace, by name.
pub(super) fn macs(ns: &str) -> Result<HashMap<String, [u8; 6]>, EmulateError> {
    let links = netns::within(ns, || Rtnl::open()?.links()).map_err(|e| EmulateError::Setup {
        command: format!("listing the links in {ns}"),
        reason: e.to_string(),
    })?;
    Ok(links
        .into_iter()
        .filter_map(|l| Some((l.name, l.mac.try_into().ok()?)))
        .collect())
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
