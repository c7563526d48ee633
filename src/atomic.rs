//! Atomic file writes: a reader (or a crash) sees the old file or the new
//! one, never half of one.
//!
//! The new text goes to a temporary file beside the target, is synced,
//! renamed over the target, and the directory is synced so the rename
//! itself survives a power cut. A crash can still leave a temporary file
//! behind; [`clean_stale_temps`] removes those of processes that are gone.

use std::io::Write;
use std::path::Path;

/// The temporary beside `name` for process `pid`: `.NAME.tmp-PID`.
fn temp_name(name: &str, pid: u32) -> String {
    format!(".{name}.tmp-{pid}")
}

/// The process id in a temporary's name, if it is one of ours.
fn temp_pid(file_name: &str) -> Option<u32> {
    let rest = file_name.strip_prefix('.')?;
    let (_, pid) = rest.rsplit_once(".tmp-")?;
    pid.parse().ok()
}

/// Writes `bytes` to a temporary file beside `path`, syncs it, renames it
/// over `path`, then syncs the directory.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = dir.join(temp_name(&name, std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        sync_dir(dir)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Syncs a directory, so renames and removals in it are on disk.
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

/// Removes the temporaries a crashed fnn-tui left in `dir` (not those of
/// a process still running, which may be writing them now). Returns how
/// many it removed.
pub fn clean_stale_temps(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    let mut removed = 0;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = temp_pid(&name) else { continue };
        let alive = pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists();
        if !alive && e.file_type().is_ok_and(|t| t.is_file()) && std::fs::remove_file(e.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn stale_temporaries_of_dead_processes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        // PIDs above the kernel's maximum (4194304) never run.
        let dead = dir.path().join(temp_name("s.toml", 999_999_999));
        let mine = dir.path().join(temp_name("s.toml", std::process::id()));
        let other = dir.path().join(".s.toml.bak");
        for p in [&dead, &mine, &other] {
            std::fs::write(p, "x").unwrap();
        }
        assert_eq!(clean_stale_temps(dir.path()), 1);
        assert!(!dead.exists() && mine.exists() && other.exists());
    }
}
