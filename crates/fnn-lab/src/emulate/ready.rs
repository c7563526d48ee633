//! Whether this machine can run a rehearsal, asked before anything is
//! built: root, every program the rehearsal or the scripts it runs will
//! start (each named with the Debian package to install), and a hosts
//! file. One answer for the command line and the designer's F5, so a
//! missing `ping` is refused up front instead of every switch flooding
//! because no NIC announced itself.

use super::Boot;
use fnn_export::routing::tools::{self, PATH, Tool};
use std::path::{Path, PathBuf};

/// Why this machine cannot run a rehearsal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unavailable {
    #[error("emulate needs root (network namespaces): run it as root (`sudo fnn-tui emulate …`)")]
    NotRoot,
    #[error(
        "emulate needs {}, which this machine lacks: install {} (`apt-get install {}`) and run again",
        list(.0),
        if .0.len() == 1 { "it" } else { "them" },
        packages(.0)
    )]
    Missing(Vec<Tool>),
    #[error(
        "{0} does not exist on this machine, and `ip netns exec` gives each PC its hosts file by binding it over {0}: create it (`printf '127.0.0.1 localhost\\n' > {0}`) and run again"
    )]
    NoHostsFile(String),
}

fn list(tools: &[Tool]) -> String {
    tools.iter().map(Tool::to_string).collect::<Vec<_>>().join(", ")
}

/// Each package once, in the order first named.
fn packages(tools: &[Tool]) -> String {
    let mut p: Vec<&str> = Vec::new();
    for t in tools {
        if !p.contains(&t.package) {
            p.push(t.package);
        }
    }
    p.join(" ")
}

/// What a run will do, which decides the programs it starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Uses {
    pub boot: Boot,
    /// Rate-limited links (`tc`).
    pub traffic: bool,
    /// The probe scripts.
    pub probes: bool,
    /// lldpd in every PC.
    pub lldp: bool,
    /// Only removing what earlier runs left (`--clean`): `ip` alone.
    pub clean: bool,
}

/// `sh` runs every PC's script.
const SH: Tool = Tool {
    program: "sh",
    package: "dash",
};
/// Limits every cable's rate.
const TC: Tool = Tool {
    program: "tc",
    package: "iproute2",
};
/// A private mount namespace for a daemon started in a PC (lldpd, networkd).
const UNSHARE: Tool = Tool {
    program: "unshare",
    package: "util-linux",
};
const MOUNT: Tool = Tool {
    program: "mount",
    package: "mount",
};

impl Uses {
    /// Every program the run starts or the scripts it runs start, each once.
    pub fn programs(&self) -> Vec<Tool> {
        if self.clean {
            return vec![tools::IP];
        }
        let mut all = vec![tools::IP, SH];
        all.extend_from_slice(match self.boot {
            Boot::Script => tools::SETUP,
            Boot::Networkd => tools::ANNOUNCE,
        });
        if self.boot == Boot::Networkd {
            all.extend_from_slice(super::networkd::NEEDS);
            all.extend([UNSHARE, MOUNT]);
        }
        if self.probes {
            all.extend_from_slice(tools::PROBE);
        }
        if self.traffic {
            all.push(TC);
        }
        if self.lldp {
            all.extend_from_slice(super::lldp::NEEDS);
            all.extend([UNSHARE, MOUNT]);
        }
        let mut once = Vec::with_capacity(all.len());
        for t in all {
            if !once.contains(&t) {
                once.push(t);
            }
        }
        once
    }
}

/// Whether this machine can do what `uses` says, checked in the order a
/// person fixes it: root first, then every missing program at once, then
/// the hosts file.
pub fn ready(uses: &Uses) -> Result<(), Unavailable> {
    if !rustix::process::geteuid().is_root() {
        return Err(Unavailable::NotRoot);
    }
    have(&uses.programs())?;
    if uses.clean {
        return Ok(());
    }
    hosts_file(Path::new(HOSTS))
}

/// Whether this machine can run the designer's rehearsal (scripts,
/// nothing more); why not otherwise.
pub fn available() -> Result<(), Unavailable> {
    ready(&Uses::default())
}

/// Every program of `tools` found, or the missing ones.
fn have(tools: &[Tool]) -> Result<(), Unavailable> {
    let missing: Vec<Tool> = tools.iter().copied().filter(|t| find(t.program).is_none()).collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(Unavailable::Missing(missing))
    }
}

/// Where `program` is, looked up as the scripts' `command -v` does under
/// [`PATH`] (an absolute path is taken as it is): an executable regular
/// file.
pub fn find(program: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let runnable = |p: &Path| std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
    if program.contains('/') {
        let p = PathBuf::from(program);
        return runnable(&p).then_some(p);
    }
    std::env::split_paths(PATH)
        .map(|d| d.join(program))
        .find(|p| runnable(p))
}

/// The machine's hosts file, which `ip netns exec` covers with each PC's.
const HOSTS: &str = "/etc/hosts";

/// `ip netns exec` gives a namespace its own hosts file by binding it over
/// `path`, which only works where the file exists (a minimal container or
/// chroot may have none): say so before building anything, instead of
/// every ping failing to resolve its PC's name.
fn hosts_file(path: &Path) -> Result<(), Unavailable> {
    if path.is_file() {
        return Ok(());
    }
    Err(Unavailable::NoHostsFile(path.display().to_string()))
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
        fnn_core::fs::write_in_place(&missing, "127.0.0.1 localhost\n").unwrap();
        assert!(hosts_file(&missing).is_ok());
    }

    #[test]
    fn a_missing_program_is_named_with_its_package() {
        let ghost = Tool {
            program: "fnn-tui-no-such-program",
            package: "no-such-package",
        };
        let e = have(&[tools::IP, ghost, ghost]).unwrap_err().to_string();
        assert!(
            e.contains("`fnn-tui-no-such-program` (Debian package no-such-package)"),
            "{e}"
        );
        assert!(e.contains("apt-get install no-such-package`"), "{e}");
        assert!(!e.contains("iproute2"), "only what is missing: {e}");
    }

    #[test]
    fn each_option_adds_the_programs_it_runs() {
        let base = Uses::default().programs();
        assert!(base.contains(&tools::PING) && base.contains(&tools::IP), "{base:?}");
        assert!(!base.contains(&TC));
        let traffic = Uses {
            traffic: true,
            ..Uses::default()
        };
        assert!(traffic.programs().contains(&TC));
        let lldp = Uses {
            lldp: true,
            ..Uses::default()
        };
        assert!(lldp.programs().iter().any(|t| t.program == "lldpcli"));
        let networkd = Uses {
            boot: Boot::Networkd,
            ..Uses::default()
        };
        let packages: Vec<&str> = networkd.programs().iter().map(|t| t.package).collect();
        assert!(
            packages.contains(&"udev") && packages.contains(&"systemd"),
            "{packages:?}"
        );
        let clean = Uses {
            clean: true,
            ..Uses::default()
        };
        assert_eq!(clean.programs(), vec![tools::IP]);
    }
}
