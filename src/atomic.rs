//! Atomic file writes: a reader (or a crash) sees the old file or the new
//! one, never half of one.
//!
//! The new text goes to a temporary file beside the target, is synced,
//! renamed over the target, and the directory is synced so the rename
//! itself survives a power cut. A crash can still leave a temporary file
//! behind; [`clean_stale_temps`] removes those of processes that are gone.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
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
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = temp_beside(path)?;
    tmp.write_all(bytes)?;
    // On failure the temporary is removed when `tmp` drops.
    persist(tmp, path)
}

/// A new temporary file beside `path`, to be [`persist`]ed over it once
/// complete (and removed if dropped first).
///
/// Created exclusively (`O_CREAT | O_EXCL`, which never follows a
/// symlink) under a random name, so a file or link someone planted in a
/// shared folder is never written through. It gets the mode a new file
/// would get (0666 less the umask), not tempfile's 0600.
pub fn temp_beside(path: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    // With its prefix and suffix the temporary's name must still fit the
    // file system's 255 bytes: a long name is cut (it is renamed anyway).
    let name = cut_to_bytes(&name, 128);
    tempfile::Builder::new()
        .prefix(&temp_prefix(name, std::process::id()))
        .permissions(std::fs::Permissions::from_mode(0o666 & !umask()))
        .tempfile_in(dir)
}

/// The longest start of `text` of at most `most` bytes, on a character
/// boundary.
pub fn cut_to_bytes(text: &str, most: usize) -> &str {
    let mut end = most.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Syncs a [`temp_beside`] file, renames it over `path`, then syncs the
/// directory so the rename itself survives a power cut.
pub fn persist(tmp: tempfile::NamedTempFile, path: &Path) -> std::io::Result<()> {
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => sync_dir(d),
        _ => sync_dir(Path::new(".")),
    }
}

/// A new folder of our own in the system's temporary folder: created
/// exclusively under a random name starting with `prefix`, mode 0700, and
/// kept (the caller removes it). Never a name someone else could have made
/// first, so nothing written or run from it can be planted.
pub fn private_dir(prefix: &str) -> std::io::Result<std::path::PathBuf> {
    Ok(tempfile::Builder::new()
        .prefix(prefix)
        .permissions(std::fs::Permissions::from_mode(0o700))
        .tempdir()?
        .keep())
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
            // SAFETY: umask has no preconditions; the value is put back at once.
            unsafe {
                let old = libc::umask(0o022);
                libc::umask(old);
                old as u32
            }
        })
    })
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
