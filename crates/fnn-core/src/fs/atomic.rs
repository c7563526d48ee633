//! Atomic file writes: a reader (or a crash) sees the old file or the new
//! one, never half of one.
//!
//! The new text goes to a temporary file beside the target (created
//! exclusively under a random name, relative to the folder's handle), is
//! synced, renamed over the target relative to the same handle, and the
//! folder is synced so the rename itself survives a power cut. A full disk
//! fails the write before the rename: the old file stays whole. A link at
//! the target's name is replaced, never written through. A crash can still
//! leave a temporary file behind; [`clean_stale_temps`] removes those of
//! processes that are gone.

use super::Dir;
pub use super::temp::{TempFile, private_dir};
use std::io::Write;
use std::path::Path;

/// The prefix of a temporary beside `name` for process `pid`:
/// `.NAME.tmp-PID-`, followed by random characters.
fn temp_prefix(name: &str, pid: u32) -> String {
    format!(".{name}.tmp-{pid}-")
}

/// The process id in a temporary's name, if it is one of ours (older
/// versions named them `.NAME.tmp-PID`, without the random part).
fn temp_pid(file_name: &str) -> Option<u32> {
    let rest = file_name.strip_prefix('.')?;
    let (_, tail) = rest.rsplit_once(".tmp-")?;
    tail.split('-').next()?.parse().ok()
}

/// Writes `bytes` to a [`temp_beside`] file, syncs it, renames it over
/// `path`, then syncs the directory.
pub fn write_atomic(path: impl AsRef<Path>, bytes: impl AsRef<[u8]>) -> std::io::Result<()> {
    let (dir, name) = super::parent_and_name(path.as_ref())?;
    write_atomic_in(&dir, &name, bytes.as_ref())
}

/// [`write_atomic`] of the file `name` in the open folder `dir`.
pub fn write_atomic_in(dir: &Dir, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = temp_in(dir, name)?;
    tmp.as_file_mut().write_all(bytes)?;
    // On failure the temporary is removed when `tmp` drops.
    tmp.persist(name).map(drop)
}

fn temp_in(dir: &Dir, name: &str) -> std::io::Result<TempFile> {
    // With its prefix and suffix the temporary's name must still fit the
    // file system's 255 bytes: a long name is cut (it is renamed anyway).
    let name = cut_to_bytes(name, 128);
    TempFile::new_in(dir, &temp_prefix(name, std::process::id()), 0o666)
}

/// The longest start of `text` of at most `most` bytes, on a character
/// boundary.
pub(crate) fn cut_to_bytes(text: &str, most: usize) -> &str {
    let mut end = most.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The process's umask, read once: from /proc/self/status, which reads it
/// without changing it (setting and restoring it would, for a moment,
/// give other threads' new files another mask).
pub(crate) fn umask() -> u32 {
    static UMASK: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *UMASK.get_or_init(|| {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let from_proc = status
            .lines()
            .find_map(|l| l.strip_prefix("Umask:"))
            .and_then(|v| u32::from_str_radix(v.trim(), 8).ok());
        from_proc.unwrap_or_else(|| {
            // Put back at once.
            let old = rustix::process::umask(rustix::fs::Mode::from_raw_mode(0o022));
            rustix::process::umask(old);
            old.as_raw_mode()
        })
    })
}

/// Syncs a directory, so renames and removals in it are on disk.
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    Dir::open(dir)?.sync()
}

/// Removes the temporaries a crashed fnn-tui left in `dir` (not those of
/// a process still running, which may be writing them now). Returns how
/// many it removed.
pub fn clean_stale_temps(dir: &Path) -> usize {
    let Ok(d) = Dir::open(dir) else { return 0 };
    let Ok(entries) = d.entries() else { return 0 };
    let mut removed = 0;
    for (name, kind) in entries {
        let Some(pid) = temp_pid(&name) else { continue };
        let alive = pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists();
        if !alive && kind == rustix::fs::FileType::RegularFile && d.remove_file(&name).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// A name of 250 bytes fits the file system, but with a temporary's
    /// prefix and suffix it did not ("File name too long").
    #[test]
    fn a_long_name_is_written_through_a_shorter_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let long = format!("{}.toml", "é".repeat(123));
        assert_eq!(long.len(), 251);
        let p = dir.path().join(&long);
        write_atomic(&p, b"x").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "x");
        assert_eq!(cut_to_bytes("aé", 2), "a");
        assert_eq!(cut_to_bytes("ab", 9), "ab");
    }

    #[test]
    fn stale_temporaries_of_dead_processes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        // PIDs above the kernel's maximum (4194304) never run.
        let dead = dir.path().join(format!("{}a1B2c3", temp_prefix("s.toml", 999_999_999)));
        // Named by an older version, without the random part.
        let old_dead = dir.path().join(".s.toml.tmp-999999998");
        let mine = dir
            .path()
            .join(format!("{}x9Y8z7", temp_prefix("s.toml", std::process::id())));
        let other = dir.path().join(".s.toml.bak");
        for p in [&dead, &old_dead, &mine, &other] {
            std::fs::write(p, "x").unwrap();
        }
        assert_eq!(clean_stale_temps(dir.path()), 2);
        assert!(!dead.exists() && !old_dead.exists() && mine.exists() && other.exists());
    }

    /// Someone who can write to the output folder plants a link where a
    /// predictable temporary would go, pointing at a file they may not
    /// write: the write must not go through it.
    #[test]
    fn a_planted_link_is_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "secret").unwrap();
        let pid = std::process::id();
        for planted in [format!(".a.txt.tmp-{pid}"), format!(".a.txt.tmp-{pid}-")] {
            std::os::unix::fs::symlink(&victim, dir.path().join(planted)).unwrap();
        }
        let p = dir.path().join("a.txt");
        write_atomic(&p, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "secret");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        assert!(!std::fs::symlink_metadata(&p).unwrap().file_type().is_symlink());
    }

    #[test]
    fn the_file_gets_the_mode_a_new_file_would() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        write_atomic(&p, b"x").unwrap();
        let plain = dir.path().join("plain.txt");
        std::fs::File::create(&plain).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&p), mode(&plain));
        assert_eq!(mode(&p), 0o666 & !umask());
    }
}
