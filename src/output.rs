//! An output folder written as a unit: every file goes into a private
//! staging folder beside the target, and the finished folder is swapped in
//! with one rename. Until then the previous output is intact; a crash
//! leaves the old output or the new one, never a mix, plus a staging
//! folder the next writer removes.
//!
//! A list of what fnn-tui wrote (`.fnn-tui-output`, one `KIND PATH` a
//! line) is kept in the folder. A new output of one kind replaces that
//! kind's old files (a 32-PC export over a 64-PC one leaves no script for
//! PC 40), and carries everything else across: other kinds' outputs (the
//! designer's comparison beside an export) and files the user put there.

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The list of files fnn-tui wrote into an output folder.
pub const MANIFEST: &str = ".fnn-tui-output";

/// Why an output was not written. The OS reason is always quoted.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum OutputError {
    #[error("refusing to write {0:?}: not a plain file name inside the output directory")]
    NotPlain(String),
    #[error("refusing to write into {path}: {why}")]
    Refused { path: String, why: String },
    /// The folder holds something else than earlier outputs of this design.
    #[error(
        "refusing to write into {path}: {why}; give another folder, or `--force` to replace what fnn-tui wrote there"
    )]
    Occupied { path: String, why: String },
    #[error("cannot write {path}: {reason}")]
    Io { path: String, reason: String },
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> OutputError + '_ {
    move |e| OutputError::Io {
        path: path.display().to_string(),
        reason: crate::input::os_reason(&e),
    }
}

/// Whether `rel` is a relative path of plain components: letters, digits,
/// `-`, `_` and `.`, none empty, none starting with a dot (so no `..`).
pub fn is_plain_relative(rel: &str) -> bool {
    !rel.is_empty()
        && rel.split('/').all(|c| {
            !c.is_empty() && !c.starts_with('.') && c.chars().all(|ch| ch.is_ascii_alphanumeric() || "-_.".contains(ch))
        })
}

/// An output being written: files go to the staging folder as they are
/// made (nothing is held in memory), [`Staged::commit`] swaps it in.
pub struct Staged {
    target: PathBuf,
    kind: String,
    staging: PathBuf,
    /// Locked while we live: a staging folder whose lock is free is a
    /// dead writer's and may be removed.
    lock: File,
    written: BTreeSet<String>,
    committed: bool,
    /// What the output is of (the cluster), kept in the list of files.
    identity: Option<String>,
}

impl Staged {
    /// Starts an output of `kind` (`export`, `design`, …) for `target`.
    pub fn new(target: &Path, kind: &str) -> Result<Staged, OutputError> {
        let target = if target.as_os_str().is_empty() {
            Path::new(".")
        } else {
            target
        };
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| n != "." && n != "..")
            .ok_or_else(|| OutputError::Refused {
                path: target.display().to_string(),
                why: "an output folder is written as a whole and swapped in by name: give it a name (not `.` or `..`)"
                    .into(),
            })?;
        let parent = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&parent).map_err(io(&parent))?;
        if let Ok(m) = std::fs::symlink_metadata(target)
            && !m.file_type().is_dir()
        {
            return Err(OutputError::Refused {
                path: target.display().to_string(),
                why: if m.file_type().is_symlink() {
                    "it is a link (an output folder is replaced whole, never followed)".into()
                } else {
                    "it exists and is not a folder".into()
                },
            });
        }
        clean_stale(&parent, &name);
        let staging = tempfile::Builder::new()
            .prefix(&staging_prefix(&name))
            .permissions(std::fs::Permissions::from_mode(0o700))
            .tempdir_in(&parent)
            .map_err(io(&parent))?
            .keep();
        let lock = File::open(&staging).map_err(io(&staging))?;
        // SAFETY: flock on a descriptor we own.
        unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        Ok(Staged {
            target: target.to_path_buf(),
            kind: kind.to_string(),
            staging,
            lock,
            written: BTreeSet::new(),
            committed: false,
            identity: None,
        })
    }

    /// Starts an output of `kind` that says what it is of (`identity`, one
    /// line). A folder holding anything else is refused unless `force`:
    /// files fnn-tui did not write, or an output of something else (a
    /// builder must never find two clusters' labels in one folder).
    pub fn new_for(target: &Path, kind: &str, identity: &str, force: bool) -> Result<Staged, OutputError> {
        if !force {
            check_reuse(target, identity)?;
        }
        let mut s = Staged::new(target, kind)?;
        s.identity = Some(identity.replace('\n', " "));
        Ok(s)
    }

    /// A new file at `rel`, to be written through the returned writer.
    pub fn create(&mut self, rel: &str) -> Result<BufWriter<File>, OutputError> {
        if !is_plain_relative(rel) {
            return Err(OutputError::NotPlain(rel.to_string()));
        }
        let path = self.staging.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o777)
                .create(parent)
                .map_err(io(parent))?;
        }
        let f = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .custom_flags(libc::O_NOFOLLOW)
            .mode(0o666)
            .open(&path)
            .map_err(io(&self.target.join(rel)))?;
        self.written.insert(rel.to_string());
        Ok(BufWriter::with_capacity(1 << 16, f))
    }

    /// Writes a whole file at `rel`.
    pub fn write(&mut self, rel: &str, bytes: &[u8]) -> Result<(), OutputError> {
        let shown = self.target.join(rel);
        let mut w = self.create(rel)?;
        w.write_all(bytes).and_then(|_| w.flush()).map_err(io(&shown))
    }

    /// Reports a failed streamed write with the file's name.
    pub fn failed(&self, rel: &str, e: std::io::Error) -> OutputError {
        io(&self.target.join(rel))(e)
    }

    /// Carries over what stays, syncs, and swaps the staging folder in.
    /// Returns the files this output wrote, under the target.
    pub fn commit(mut self) -> Result<Vec<PathBuf>, OutputError> {
        let old = read_manifest(&self.target);
        self.carry_over(&old)?;
        let mut manifest: Vec<String> = old
            .iter()
            .filter(|(k, rel)| *k != self.kind && !self.written.contains(rel) && self.staging.join(rel).exists())
            .map(|(k, rel)| format!("{k} {rel}"))
            .collect();
        manifest.extend(self.written.iter().map(|rel| format!("{} {rel}", self.kind)));
        manifest.sort();
        let identity = self.identity.clone().or_else(|| read_identity(&self.target));
        if let Some(id) = identity {
            manifest.insert(0, format!("{IDENTITY}{id}"));
        }
        let list = self.staging.join(MANIFEST);
        std::fs::write(&list, manifest.join("\n") + "\n").map_err(io(&self.target.join(MANIFEST)))?;
        // One sync for every file (syncfs), not one per file: thousands
        // of scripts at 16,384 PCs.
        // SAFETY: syncfs on a descriptor we own.
        if unsafe { libc::syncfs(self.lock.as_raw_fd()) } != 0 {
            return Err(io(&self.target)(std::io::Error::last_os_error()));
        }
        let mode = 0o777 & !crate::atomic::umask();
        std::fs::set_permissions(&self.staging, std::fs::Permissions::from_mode(mode)).map_err(io(&self.staging))?;
        swap_in(&self.staging, &self.target)?;
        self.committed = true;
        let parent = self.staging.parent().unwrap_or(Path::new("."));
        let _ = crate::atomic::sync_dir(parent);
        // After the exchange the staging name holds the previous output.
        let _ = std::fs::remove_dir_all(&self.staging);
        Ok(self.written.iter().map(|rel| self.target.join(rel)).collect())
    }

    /// Links into the staging folder every old entry this output does not
    /// replace: the user's files, and other kinds' outputs.
    fn carry_over(&self, old: &[(String, String)]) -> Result<(), OutputError> {
        let ours: BTreeSet<&str> = old
            .iter()
            .filter(|(k, _)| *k == self.kind)
            .map(|(_, rel)| rel.as_str())
            .collect();
        let Ok(entries) = walk(&self.target) else { return Ok(()) };
        for rel in entries {
            if rel == MANIFEST || rel == INCOMPLETE_MARKER || ours.contains(rel.as_str()) || self.written.contains(&rel)
            {
                continue;
            }
            let (from, to) = (self.target.join(&rel), self.staging.join(&rel));
            if let Some(p) = to.parent() {
                std::fs::create_dir_all(p).map_err(io(p))?;
            }
            if to.exists() {
                continue;
            }
            // A hard link: the same file, whatever its size, nothing copied.
            if std::fs::hard_link(&from, &to).is_err() {
                std::fs::copy(&from, &to).map_err(io(&from))?;
            }
        }
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.staging);
        }
    }
}

/// Kept for exports written by versions that marked an unfinished
/// export with a file instead of staging it: never carried over.
pub const INCOMPLETE_MARKER: &str = "EXPORT-INCOMPLETE.txt";

fn staging_prefix(name: &str) -> String {
    format!(".{name}.staging-")
}

/// Removes staging folders of `name` in `parent` whose writer is gone.
fn clean_stale(parent: &Path, name: &str) {
    let prefix = staging_prefix(name);
    let Ok(entries) = std::fs::read_dir(parent) else { return };
    for e in entries.flatten() {
        if !e.file_name().to_string_lossy().starts_with(&prefix) || !e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let Ok(f) = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_DIRECTORY)
            .open(e.path())
        else {
            continue;
        };
        // SAFETY: flock on a descriptor we own.
        if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// The `KIND PATH` lines of a folder's list (none when it has none).
/// The list's line that says what its outputs are of.
const IDENTITY: &str = "# of: ";

fn manifest_text(dir: &Path) -> Option<String> {
    crate::input::read_text_limited(&dir.join(MANIFEST), 64 << 20).ok()
}

fn read_identity(dir: &Path) -> Option<String> {
    let text = manifest_text(dir)?;
    text.lines().find_map(|l| l.strip_prefix(IDENTITY)).map(str::to_string)
}

/// Refuses a folder that holds anything but earlier outputs of `identity`.
fn check_reuse(target: &Path, identity: &str) -> Result<(), OutputError> {
    // An earlier output of the same design, with anything the user added
    // (carried across): no need to walk a folder of thousands of scripts.
    let old = read_identity(target);
    if old.as_deref() == Some(identity) {
        return Ok(());
    }
    let Ok(entries) = walk(target) else { return Ok(()) };
    let entries: Vec<String> = entries
        .into_iter()
        .filter(|rel| rel != MANIFEST && rel != INCOMPLETE_MARKER)
        .collect();
    if entries.is_empty() {
        return Ok(());
    }
    let refused = |why: String| OutputError::Occupied {
        path: target.display().to_string(),
        why,
    };
    if let Some(old) = old {
        return Err(refused(format!(
            "it holds the output of another design ({}; this one is {})",
            crate::escape::terminal(&old),
            crate::escape::terminal(identity)
        )));
    }
    // Outputs from before the list said what they are of are fnn-tui's own
    // files, replaced kind by kind as ever; anything else is the user's.
    let listed: BTreeSet<String> = read_manifest(target).into_iter().map(|(_, rel)| rel).collect();
    if let Some(other) = entries.iter().find(|rel| !listed.contains(*rel)) {
        return Err(refused(format!(
            "it holds files fnn-tui did not write (such as {})",
            crate::escape::terminal(other)
        )));
    }
    Ok(())
}

fn read_manifest(dir: &Path) -> Vec<(String, String)> {
    let Some(text) = manifest_text(dir) else {
        return Vec::new();
    };
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(' '))
        .filter(|(_, rel)| is_plain_relative(rel))
        .map(|(k, rel)| (k.to_string(), rel.to_string()))
        .collect()
}

/// Every file (and link) under `dir`, as relative paths; links are not followed.
fn walk(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        for e in std::fs::read_dir(dir.join(&rel))?.flatten() {
            let r = rel.join(e.file_name());
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(r);
            } else {
                out.push(r.to_string_lossy().into_owned());
            }
        }
    }
    Ok(out)
}

/// Puts `staging` at `target`: a plain rename when there is nothing
/// there, else an atomic exchange of the two names (the old output then
/// sits at `staging`, for the caller to remove).
fn swap_in(staging: &Path, target: &Path) -> Result<(), OutputError> {
    if std::fs::symlink_metadata(target).is_err() {
        return std::fs::rename(staging, target).map_err(io(target));
    }
    let c = |p: &Path| {
        std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).map_err(|_| OutputError::Io {
            path: p.display().to_string(),
            reason: "the name holds a NUL byte".into(),
        })
    };
    let (a, b) = (c(staging)?, c(target)?);
    // SAFETY: two valid C strings; renameat2 reads them only.
    let r = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if r == 0 {
        return Ok(());
    }
    let e = std::io::Error::last_os_error();
    Err(OutputError::Io {
        path: target.display().to_string(),
        reason: format!(
            "{} (swapping the finished output in needs a file system that can exchange two names: ext4, xfs, btrfs, tmpfs; the previous output is untouched)",
            crate::input::os_reason(&e)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files_under(dir: &Path) -> Vec<String> {
        let mut v = walk(dir).unwrap();
        v.sort();
        v
    }

    #[test]
    fn plain_relative_paths_only() {
        for ok in ["switches.txt", "routing/scripts/fnn-setup-k00.sh", "fat-tree/bom.csv"] {
            assert!(is_plain_relative(ok), "{ok}");
        }
        for bad in ["", "/etc/passwd", "../x", "a/../b", ".hidden", "a//b", "a b", "a\nb"] {
            assert!(!is_plain_relative(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_new_output_replaces_its_kinds_files_and_keeps_the_rest() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        let mut s = Staged::new(&out, "export").unwrap();
        s.write("a.txt", b"1").unwrap();
        s.write("routing/k40.sh", b"old").unwrap();
        s.commit().unwrap();
        std::fs::write(out.join("NOTES.md"), "mine").unwrap();
        let mut s = Staged::new(&out, "compare").unwrap();
        s.write("compare.txt", b"c").unwrap();
        s.commit().unwrap();
        let mut s = Staged::new(&out, "export").unwrap();
        s.write("a.txt", b"2").unwrap();
        // Until the commit, the previous output is all there is.
        assert_eq!(std::fs::read_to_string(out.join("a.txt")).unwrap(), "1");
        s.commit().unwrap();
        assert_eq!(
            files_under(&out),
            [MANIFEST, "NOTES.md", "a.txt", "compare.txt"],
            "the stale script went, the notes and the comparison stayed"
        );
        assert_eq!(std::fs::read_to_string(out.join("a.txt")).unwrap(), "2");
        assert!(
            std::fs::read_dir(d.path()).unwrap().count() == 1,
            "no staging folder left"
        );
    }

    #[test]
    fn an_abandoned_output_leaves_the_old_one_and_its_staging_is_cleaned() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        let mut s = Staged::new(&out, "design").unwrap();
        s.write("switches.txt", b"old").unwrap();
        s.commit().unwrap();
        let mut s = Staged::new(&out, "design").unwrap();
        s.write("switches.txt", b"new").unwrap();
        // A crash: the staging folder stays, its lock is released.
        let staging = s.staging.clone();
        s.committed = true;
        drop(s);
        assert!(staging.exists());
        assert_eq!(std::fs::read_to_string(out.join("switches.txt")).unwrap(), "old");
        let s = Staged::new(&out, "design").unwrap();
        assert!(!staging.exists(), "a dead writer's staging is removed");
        drop(s);
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_link_or_a_file_at_the_target_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let elsewhere = d.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, d.path().join("link")).unwrap();
        std::fs::write(d.path().join("file"), "x").unwrap();
        for name in ["link", "file"] {
            assert!(Staged::new(&d.path().join(name), "export").is_err(), "{name}");
        }
        assert!(Staged::new(Path::new("."), "export").is_err());
    }
}
