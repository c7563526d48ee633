//! Booting a PC with its systemd-networkd files instead of its setup
//! script: in the PC's namespace, under a private mount namespace that
//! shows the exported files as `/etc/systemd/network`, udev's own `.link`
//! matching (`udevadm test-builtin net_setup_link`) names each NIC, then
//! the real `systemd-networkd` configures addresses and permanent
//! neighbours, and is stopped once it has (what it set stays). The PC's
//! announcement script runs after, as its unit would.
//!
//! `/run` is a fresh tmpfs there (networkd's state goes in it and nowhere
//! else), and `/sys` is made read-only: networkd then takes
//! the links as udev-initialised, as it does in a container, instead of
//! waiting for a udev database the namespace does not have.

use super::EmulateError;
use super::commands::{run, run_until};
use fnn_core::escape::sh_word;
use fnn_export::routing::tools::Tool;
use std::path::Path;
use std::time::{Duration, Instant};

/// How long networkd may take to configure one PC.
const CONFIGURE_WAIT: Duration = Duration::from_secs(20);

/// The programs this boot needs, and the Debian packages they come in
/// (networkd is on no `PATH`).
pub(crate) const NEEDS: &[Tool] = &[
    Tool {
        program: "/lib/systemd/systemd-networkd",
        package: "systemd",
    },
    Tool {
        program: "udevadm",
        package: "udev",
    },
    Tool {
        program: "sed",
        package: "sed",
    },
];

/// Boots namespace `ns` from the `.link` and `.network` files in `dir`:
/// waits until every address in `addresses` is on a link and `neighbours`
/// permanent entries are in, then stops networkd.
pub fn boot(
    ns: &str,
    dir: &Path,
    addresses: &[std::net::Ipv4Addr],
    neighbours: usize,
    cancel: Option<&std::sync::atomic::AtomicBool>,
) -> Result<(), EmulateError> {
    let dir = sh_word(&dir.display().to_string());
    let script = format!(
        "set -e\n\
         mount --make-rprivate /\n\
         mount -o remount,ro /sys\n\
         mount -t tmpfs tmpfs /run\n\
         mkdir -p /run/systemd/netif\n\
         chown systemd-network:systemd-network /run/systemd/netif 2>/dev/null || true\n\
         mount --bind {dir} /etc/systemd/network\n\
         for d in /sys/class/net/*; do\n\
         \tn=${{d##*/}}\n\
         \t[ \"$n\" = lo ] && continue\n\
         \tnew=$(udevadm test-builtin net_setup_link \"$d\" | sed -n 's/^ID_NET_NAME=//p')\n\
         \tif [ -n \"$new\" ] && [ \"$new\" != \"$n\" ]; then ip link set \"$n\" name \"$new\"; fi\n\
         done\n\
         exec /lib/systemd/systemd-networkd\n"
    );
    let mut child = super::commands::command("ip")
        .args(["netns", "exec", ns, "unshare", "-m", "sh", "-c", &script])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| EmulateError::Setup {
            command: format!("systemd-networkd in {ns}"),
            reason: e.to_string(),
        })?;
    let outcome = wait_configured(ns, addresses, neighbours, cancel, &mut child);
    // Stopped on every path: what it configured stays in the kernel.
    let _ = child.kill();
    let output = child.wait_with_output();
    let said = output
        .map(|o| String::from_utf8_lossy(&o.stderr).into_owned())
        .unwrap_or_default();
    // udev and networkd read a file they cannot use with a warning
    // (`FILE:LINE: ...`) and go on: a rehearsal that passed would hide it.
    let complaints: Vec<&str> = said
        .lines()
        .filter(|l| l.contains("10-fnn-") && (l.contains(".link:") || l.contains(".network:")))
        .collect();
    let why = match outcome {
        Ok(()) if complaints.is_empty() => return Ok(()),
        Ok(()) => format!("it found fault with the files: {}", complaints.join(" / ")),
        Err(why) => format!(
            "{why} (it said: {})",
            said.lines().rev().take(5).collect::<Vec<_>>().join(" / ")
        ),
    };
    Err(EmulateError::Setup {
        command: format!("systemd-networkd in {ns}"),
        reason: why,
    })
}

/// Why networkd did not configure a namespace's links.
#[derive(Debug, thiserror::Error)]
enum NotConfigured {
    #[error("interrupted")]
    Interrupted,
    #[error("it exited ({0}) before configuring the links")]
    Exited(std::process::ExitStatus),
    #[error("not configured within {seconds} s: {have} of {want} permanent neighbours, addresses {addresses}")]
    TimedOut {
        seconds: u64,
        have: usize,
        want: usize,
        addresses: &'static str,
    },
}

/// Polls the namespace until networkd has done its work, gives up after
/// [`CONFIGURE_WAIT`], or stops when networkd exits or the run is cancelled.
fn wait_configured(
    ns: &str,
    addresses: &[std::net::Ipv4Addr],
    neighbours: usize,
    cancel: Option<&std::sync::atomic::AtomicBool>,
    child: &mut std::process::Child,
) -> Result<(), NotConfigured> {
    let deadline = Instant::now() + CONFIGURE_WAIT;
    loop {
        if cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed)) {
            return Err(NotConfigured::Interrupted);
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(NotConfigured::Exited(status));
        }
        let addrs = run(&["ip", "-n", ns, "-4", "-o", "addr", "show"]).unwrap_or_default();
        let have_addrs = addresses.iter().all(|a| addrs.contains(&format!("inet {a}/")));
        let neigh = run_until(&["ip", "-n", ns, "neigh", "show", "nud", "permanent"], cancel).unwrap_or_default();
        if have_addrs && neigh.lines().count() >= neighbours {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(NotConfigured::TimedOut {
                seconds: CONFIGURE_WAIT.as_secs(),
                have: neigh.lines().count(),
                want: neighbours,
                addresses: if have_addrs { "in place" } else { "missing" },
            });
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
