//! The programs the generated scripts run, the Debian package each comes
//! in, and the lines that start every script: a fixed `PATH` (they run as
//! root, so a program is never taken from the caller's `PATH`, where
//! anyone's folder may come first) and a check that every program is
//! there, which stops the script before it changes anything and names
//! what to install. A script that ran on without `ping` would configure
//! everything and announce nothing, and every switch would flood.

use std::fmt::Write as _;

/// Where root's programs are, in root's own folders only: the `PATH` every
/// script sets and fnn-tui itself runs programs with.
pub const PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// A program, and the Debian package that provides it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tool {
    /// Its name on [`PATH`], or an absolute path for one that is on no `PATH`.
    pub program: &'static str,
    pub package: &'static str,
}

impl std::fmt::Display for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` (Debian package {})", self.program, self.package)
    }
}

const fn tool(program: &'static str, package: &'static str) -> Tool {
    Tool { program, package }
}

pub const IP: Tool = tool("ip", "iproute2");
/// Each NIC's one frame to its switch at boot, and the probes.
pub const PING: Tool = tool("ping", "iputils-ping");
pub(crate) const CAT: Tool = tool("cat", "coreutils");
pub(crate) const SLEEP: Tool = tool("sleep", "coreutils");
pub(crate) const MKTEMP: Tool = tool("mktemp", "coreutils");
pub(crate) const RM: Tool = tool("rm", "coreutils");
pub(crate) const GREP: Tool = tool("grep", "grep");

/// What `fnn-setup` runs: `ip`, `ping` to announce each NIC, and `cat`
/// and `sleep` to find each NIC by its MAC.
pub const SETUP: &[Tool] = &[IP, PING, CAT, SLEEP];
/// What `fnn-announce` runs (the networkd path's part of `fnn-setup`).
pub const ANNOUNCE: &[Tool] = SETUP;
/// What `fnn-probe` runs.
pub const PROBE: &[Tool] = &[IP, PING, CAT, GREP, MKTEMP, RM, SLEEP];

/// How a script that lacks a program ends: the shell's "command not found".
pub(crate) const MISSING_EXIT: u8 = 127;

/// The first lines of a script named `who` (after its comments and `set
/// -e`): [`set_path`], then [`check`].
pub(crate) fn script_start(s: &mut String, who: &str, tools: &[Tool]) {
    set_path(s);
    check(s, who, tools);
}

/// The line that sets the fixed `PATH`, before anything runs.
pub(crate) fn set_path(s: &mut String) {
    let _ = write!(
        s,
        "# Run as root: programs come from root's own folders, never the caller's PATH.\n\
         PATH={PATH}\n\
         export PATH\n"
    );
}

/// Every program in `tools` looked up, all the missing ones named with
/// their packages on stderr, and exit [`MISSING_EXIT`] before anything
/// else runs.
pub fn check(s: &mut String, who: &str, tools: &[Tool]) {
    let list: Vec<String> = tools.iter().map(|t| format!("{}:{}", t.program, t.package)).collect();
    let _ = write!(
        s,
        "# Every program this script runs, and its Debian package: stop before\n\
         # changing anything when one is missing.\n\
         missing=\n\
         for tool in {}; do\n\
         \tcommand -v \"${{tool%%:*}}\" >/dev/null 2>&1 || missing=\"$missing ${{tool%%:*}} (Debian package ${{tool#*:}})\"\n\
         done\n\
         if [ -n \"$missing\" ]; then\n\
         \techo \"{who}: missing program(s):$missing; install them and run again\" >&2\n\
         \texit {MISSING_EXIT}\n\
         fi\n",
        list.join(" ")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_sets_path_before_it_looks_anything_up() {
        let mut s = String::new();
        script_start(&mut s, "fnn-setup", SETUP);
        let path = s.find(&format!("PATH={PATH}\n")).unwrap();
        assert!(path < s.find("command -v").unwrap(), "{s}");
        assert!(s.contains("ping:iputils-ping"), "{s}");
    }
}
