//! Working inside a PC's network namespace from this process: a thread of
//! its own joins the namespace (`setns`), so sockets it opens and the
//! `/proc/sys/net` it writes are the PC's, while every other thread stays
//! in the host's. Thousands of PCs are set up and probed this way without
//! starting a process for each.

use rustix::thread::LinkNameSpaceType;
use std::fs::File;
use std::io;
use std::os::fd::AsFd;
use std::path::Path;

/// Where `ip netns add` pins a namespace by name.
const NETNS_DIR: &str = "/run/netns";

/// Runs `f` on a new thread inside the named namespace and returns its
/// result. The thread ends with `f`, so it never has to find its way back.
pub fn within<T: Send>(ns: &str, f: impl FnOnce() -> io::Result<T> + Send) -> io::Result<T> {
    let target = File::open(Path::new(NETNS_DIR).join(ns))?;
    std::thread::scope(|s| {
        let thread = s.spawn(|| {
            // Only this thread moves, and nothing else runs on it.
            rustix::thread::move_into_link_name_space(target.as_fd(), Some(LinkNameSpaceType::Network))?;
            f()
        });
        thread.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
    })
}

/// Turns IPv6 off in the current thread's namespace, for the links there
/// and any made later: its autoconfiguration multicasts would be counted
/// against the scripts, which configure IPv4 only. Absent when the kernel
/// has no IPv6, and then there is nothing to silence.
pub(crate) fn no_ipv6_here() {
    for f in ["all", "default"] {
        let _ = fnn_core::fs::kernel::set(
            std::path::Path::new(&format!("/proc/sys/net/ipv6/conf/{f}/disable_ipv6")),
            "1",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_namespace_that_does_not_exist_is_an_error_naming_nothing_made() {
        let e = within("fnn-tui-no-such-namespace", || Ok(())).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
    }
}
