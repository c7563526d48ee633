//! The commands a rehearsal runs (`ip`, the PCs' scripts, pings), each
//! cancellable, and the removal of namespaces and links in a few `ip
//! -batch` processes at once.

use super::EmulateError;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};

/// Runs `ip` (or another command) and returns its stdout, or why not.
pub fn run(args: &[&str]) -> Result<String, EmulateError> {
    run_until(args, None)
}

/// [`run`] for a command that may take long (a script, a round of pings):
/// when `cancel` is set it is killed, with everything it started, within
/// a few milliseconds.
pub(crate) fn run_until(args: &[&str], cancel: Option<&AtomicBool>) -> Result<String, EmulateError> {
    run_with(args, None, cancel)
}

/// `ip -batch` with `script` on its standard input: thousands of links
/// and namespaces made by one process instead of one each. It stops at
/// the first command that fails and says which.
pub fn batch(script: &str, cancel: Option<&AtomicBool>) -> Result<(), EmulateError> {
    if script.is_empty() {
        return Ok(());
    }
    run_with(&["ip", "-batch", "-"], Some(script.as_bytes().to_vec()), cancel).map(drop)
}

pub(super) fn run_with(
    args: &[&str],
    input: Option<Vec<u8>>,
    cancel: Option<&AtomicBool>,
) -> Result<String, EmulateError> {
    let failed = |reason: String| EmulateError::Setup {
        command: args.join(" "),
        reason,
    };
    let mut child = command(args[0])
        .args(&args[1..])
        .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group: the whole group is killed on cancel.
        .process_group(0)
        .spawn()
        .map_err(|e| failed(e.to_string()))?;
    // Fed on a thread of its own: a large script would otherwise fill the
    // pipe while the child fills its output.
    let feeder = child.stdin.take().zip(input).map(|(mut stdin, bytes)| {
        std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        })
    });
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| failed(e.to_string()))? {
            break status;
        }
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            // The child leads a group of its own: its children go with it.
            let _ = rustix::process::kill_process_group(
                rustix::process::Pid::from_child(&child),
                rustix::process::Signal::KILL,
            );
            let _ = child.wait();
            return Err(EmulateError::Interrupted);
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    if let Some(f) = feeder {
        let _ = f.join();
    }
    let (out, err) = (out.join().unwrap_or_default(), err.join().unwrap_or_default());
    if !status.success() {
        return Err(failed(String::from_utf8_lossy(&err).trim().to_string()));
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// `program`, looked up (and everything it starts looks programs up) in
/// root's own folders: this runs as root, and the caller's `PATH` may
/// list a folder anyone can write first.
pub(super) fn command(program: &str) -> Command {
    let mut c = Command::new(program);
    c.env("PATH", fnn_export::routing::tools::PATH);
    c
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
    // A daemon a rehearsal started in a namespace (lldpd, networkd) would
    // keep it alive, links and all, after `netns del`.
    kill_processes_in(namespaces);
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

/// Kills every process whose network namespace is one of `namespaces`
/// (named as in /run/netns): one pass over /proc, matching each
/// process's namespace by its inode.
pub(super) fn kill_processes_in(namespaces: &[String]) {
    use std::os::unix::fs::MetadataExt;
    let inodes: std::collections::HashSet<u64> = namespaces
        .iter()
        .filter_map(|n| std::fs::metadata(std::path::Path::new("/run/netns").join(n)).ok())
        .map(|m| m.ino())
        .collect();
    if inodes.is_empty() {
        return;
    }
    let Ok(procs) = std::fs::read_dir("/proc") else { return };
    for p in procs.flatten() {
        let Some(pid) = p
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
            .and_then(rustix::process::Pid::from_raw)
        else {
            continue;
        };
        let inside = std::fs::metadata(p.path().join("ns/net")).is_ok_and(|m| inodes.contains(&m.ino()));
        if inside && pid != rustix::process::getpid() {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
        }
    }
}

/// How many `ip -batch` processes remove a testbed at once.
const REMOVERS: usize = 8;

/// Starts `ip -force -batch -` on `script` (errors are expected: a veth
/// end goes with its namespace).
fn ip_batch(script: &str) -> Option<std::process::Child> {
    let mut child = command("ip")
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
