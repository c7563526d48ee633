//! An output folder written as a unit: every file goes into a private
//! staging folder beside the target, and the finished folder is swapped in
//! with one rename. Until then the previous output is intact; a crash
//! leaves the old output or the new one, never a mix, plus a staging
//! folder the next output written into the same folder removes.
//!
//! Everything is done through folder handles ([`crate::fs`]): the staging
//! folder is made inside the parent's handle, files are created through
//! the staging folder's handle, and the swap is a rename relative to the
//! parent's handle. Another user who can write the parent may rename the
//! staging folder or plant links in its place: the files still land in
//! our own folder, and a staging name that no longer holds it is refused
//! rather than swapped in.
//!
//! A list of what fnn-tui wrote (`.fnn-tui-output`, one `KIND PATH` a
//! line) is kept in the folder. A new output of one kind replaces that
//! kind's old files (a 32-PC export over a 64-PC one leaves no script for
//! PC 40), and carries everything else across: other kinds' outputs (the
//! designer's comparison beside an export) and files the user put there.

use crate::fs::Dir;
use rustix::fs::{FileType, OFlags};
use std::collections::BTreeSet;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// The list of files fnn-tui wrote into an output folder.
pub const MANIFEST: &str = ".fnn-tui-output";

/// The most of a list that is read (a list of 16,384 PCs' files is a few MB).
const MANIFEST_LIMIT: u64 = 64 << 20;

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

/// The folder an output is made in cannot be written: named as an
/// absolute path (`.` said nothing of where), with why it must be.
fn unwritable_parent(parent: &Path, name: &str, e: &std::io::Error) -> OutputError {
    let parent = std::path::absolute(parent).unwrap_or_else(|_| parent.to_path_buf());
    OutputError::Io {
        path: crate::escape::terminal(&parent.display().to_string()),
        reason: format!(
            "{}: {} is first written beside where it goes, in this folder, then swapped in; give a folder you can write to",
            crate::input::os_reason(e),
            crate::escape::terminal(name)
        ),
    }
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> OutputError + '_ {
    move |e| OutputError::Io {
        path: crate::escape::terminal(&path.display().to_string()),
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
    /// The folder the output goes in, and the output's name there.
    parent: Dir,
    name: String,
    /// The staging folder (locked while we live: a staging folder whose
    /// lock is free is a dead writer's and may be removed), and its name
    /// in `parent`.
    staging: Dir,
    staging_name: String,
    written: BTreeSet<String>,
    committed: bool,
    /// What the output is of (the cluster), kept in the list of files.
    identity: Option<String>,
}

/// The parent folder of `target`, opened (and created), and the output's
/// name in it; refused when that name is a link or not a folder.
fn open_parent(target: &Path) -> Result<(Dir, String), OutputError> {
    let shown = || crate::escape::terminal(&target.display().to_string());
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| n != "." && n != "..")
        .ok_or_else(|| OutputError::Refused {
            path: shown(),
            why: "an output folder is written as a whole and swapped in by name: give it a name (not `.` or `..`)"
                .into(),
        })?;
    let parent_path = crate::fs::parent_of(target);
    let parent = Dir::create_all(parent_path).map_err(|e| unwritable_parent(parent_path, &name, &e))?;
    match parent.entry(&name).map_err(io(target))? {
        Some(e) if e.kind == FileType::Symlink => Err(OutputError::Refused {
            path: shown(),
            why: "it is a link (an output folder is replaced whole, never followed); give the folder it points to"
                .into(),
        }),
        Some(e) if e.kind != FileType::Directory => Err(OutputError::Refused {
            path: shown(),
            why: "it exists and is not a folder".into(),
        }),
        _ => Ok((parent, name)),
    }
}

impl Staged {
    /// Starts an output of `kind` (`export`, `design`, …) for `target`.
    pub fn new(target: &Path, kind: &str) -> Result<Staged, OutputError> {
        let target = if target.as_os_str().is_empty() {
            Path::new(".")
        } else {
            target
        };
        let (parent, name) = open_parent(target)?;
        Staged::start(target, kind, parent, name)
    }

    fn start(target: &Path, kind: &str, parent: Dir, name: String) -> Result<Staged, OutputError> {
        clean_stale(&parent);
        let (staging_name, staging) = claim_staging(&parent, &name, target)?;
        Ok(Staged {
            target: target.to_path_buf(),
            kind: kind.to_string(),
            parent,
            name,
            staging,
            staging_name,
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
        let target = if target.as_os_str().is_empty() {
            Path::new(".")
        } else {
            target
        };
        let (parent, name) = open_parent(target)?;
        if !force {
            check_reuse(&parent, &name, target, identity)?;
        }
        let mut s = Staged::start(target, kind, parent, name)?;
        s.identity = Some(identity.replace('\n', " "));
        Ok(s)
    }

    /// The staging folder's path (for messages and tests; it may have moved).
    pub(crate) fn staging_path(&self) -> PathBuf {
        crate::fs::parent_of(&self.target).join(&self.staging_name)
    }

    /// The previous output, if there is one (never through a link).
    fn old_output(&self) -> Option<Dir> {
        self.parent.open_dir(&self.name).ok()
    }

    /// A new file at `rel`, to be written through the returned writer.
    pub fn create(&mut self, rel: &str) -> Result<BufWriter<File>, OutputError> {
        if !is_plain_relative(rel) {
            return Err(OutputError::NotPlain(rel.to_string()));
        }
        let shown = self.target.join(rel);
        let (dir, file) = split_rel(rel);
        let sub = self.staging.make_dirs(dir).map_err(io(&shown))?;
        let f = sub.create_or_truncate(file, 0o666).map_err(io(&shown))?;
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
        let old_dir = self.old_output();
        let old = old_dir.as_ref().map(read_manifest).unwrap_or_default();
        if let Some(d) = &old_dir {
            self.carry_over(d, &old)?;
        }
        let mut manifest: Vec<String> = old
            .iter()
            .filter(|(k, rel)| *k != self.kind && !self.written.contains(rel) && exists_in(&self.staging, rel))
            .map(|(k, rel)| format!("{k} {rel}"))
            .collect();
        manifest.extend(self.written.iter().map(|rel| format!("{} {rel}", self.kind)));
        manifest.sort();
        let identity = self
            .identity
            .clone()
            .or_else(|| old_dir.as_ref().and_then(read_identity));
        if let Some(id) = identity {
            manifest.insert(0, format!("{IDENTITY}{id}"));
        }
        let list = self.target.join(MANIFEST);
        self.staging
            .create_or_truncate(MANIFEST, 0o666)
            .and_then(|mut f| f.write_all((manifest.join("\n") + "\n").as_bytes()))
            .map_err(io(&list))?;
        // One sync for every file (syncfs), not one per file: thousands
        // of scripts at 16,384 PCs.
        self.staging.sync_fs().map_err(io(&self.target))?;
        let mode = 0o777 & !crate::atomic::umask();
        self.staging.set_mode(mode).map_err(io(&self.target))?;
        self.check_staging_in_place()?;
        self.swap_in()?;
        self.committed = true;
        let _ = self.parent.sync();
        // After the exchange the staging name holds the previous output.
        let _ = self.parent.remove_all(&self.staging_name);
        Ok(self.written.iter().map(|rel| self.target.join(rel)).collect())
    }

    /// Refuses to swap in whatever another user put at the staging name
    /// (they may rename our folder away in a folder they can write).
    fn check_staging_in_place(&self) -> Result<(), OutputError> {
        let ours = self.staging.identity().map_err(io(&self.target))?;
        let there = self.parent.entry(&self.staging_name).map_err(io(&self.target))?;
        if there.is_some_and(|e| e.kind == FileType::Directory && (e.dev, e.ino) == ours) {
            return Ok(());
        }
        Err(OutputError::Refused {
            path: crate::escape::terminal(&self.target.display().to_string()),
            why: format!(
                "the staging folder {} was moved or replaced while the output was written (another user can write \
                 that folder); nothing was swapped in: write the output into a folder only you can write",
                crate::escape::terminal(&self.staging_path().display().to_string())
            ),
        })
    }

    /// Links into the staging folder every old entry this output does not
    /// replace: the user's files, and other kinds' outputs.
    fn carry_over(&self, old_dir: &Dir, old: &[(String, String)]) -> Result<(), OutputError> {
        let ours: BTreeSet<&str> = old
            .iter()
            .filter(|(k, _)| *k == self.kind)
            .map(|(_, rel)| rel.as_str())
            .collect();
        let Ok(entries) = walk_dir(old_dir) else { return Ok(()) };
        for rel in entries {
            if rel == MANIFEST || rel == INCOMPLETE_MARKER || ours.contains(rel.as_str()) || self.written.contains(&rel)
            {
                continue;
            }
            let shown = self.target.join(&rel);
            let (dir, file) = split_rel(&rel);
            let to = self.staging.make_dirs(dir).map_err(io(&shown))?;
            if to.entry(file).map_err(io(&shown))?.is_some() {
                continue;
            }
            let from = open_rel_dir(old_dir, dir).map_err(io(&shown))?;
            // A hard link: the same file, whatever its size, nothing copied.
            if from.hard_link(file, &to, file).is_err() {
                let mut src = from.open_file(file, OFlags::RDONLY, 0).map_err(io(&shown))?;
                let mut dst = to.create_new(file, 0o666).map_err(io(&shown))?;
                std::io::copy(&mut src, &mut dst).map_err(io(&shown))?;
            }
        }
        Ok(())
    }

    /// Puts the staging folder at the target's name: a rename when nothing
    /// is there, else an atomic exchange of the two names (the old output
    /// then sits at the staging name, for the caller to remove).
    fn swap_in(&self) -> Result<(), OutputError> {
        let (p, s, t) = (&self.parent, self.staging_name.as_str(), self.name.as_str());
        let r = match p.rename_noreplace(s, p, t) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => p.exchange(s, p, t),
            r => r,
        };
        r.map_err(|e| OutputError::Io {
            path: crate::escape::terminal(&self.target.display().to_string()),
            reason: format!(
                "{} (swapping the finished output in needs a file system that can exchange two names: ext4, xfs, btrfs, tmpfs; the previous output is untouched)",
                crate::input::os_reason(&e)
            ),
        })
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if self.committed {
            return;
        }
        let ours = self.staging.identity().ok();
        let there = self.parent.entry(&self.staging_name).ok().flatten();
        if there.is_some_and(|e| Some((e.dev, e.ino)) == ours) {
            let _ = self.parent.remove_all(&self.staging_name);
        } else if let Ok(entries) = self.staging.entries() {
            // Moved away by someone else: empty it where it is.
            for (n, _) in entries {
                let _ = self.staging.remove_all(&n);
            }
        }
    }
}

/// `rel`'s folder part (maybe empty) and its file name.
fn split_rel(rel: &str) -> (&str, &str) {
    rel.rsplit_once('/').unwrap_or(("", rel))
}

/// The folder `rel` below `dir`, never through a link.
fn open_rel_dir(dir: &Dir, rel: &str) -> std::io::Result<Dir> {
    let mut d = dir.clone();
    for c in rel.split('/').filter(|c| !c.is_empty()) {
        d = d.open_dir(c)?;
    }
    Ok(d)
}

/// Whether something is at `rel` below `dir`.
fn exists_in(dir: &Dir, rel: &str) -> bool {
    let (sub, file) = split_rel(rel);
    open_rel_dir(dir, sub).is_ok_and(|d| d.entry(file).is_ok_and(|e| e.is_some()))
}

/// Kept for exports written by versions that marked an unfinished
/// export with a file instead of staging it: never carried over.
pub const INCOMPLETE_MARKER: &str = "EXPORT-INCOMPLETE.txt";

fn staging_prefix(name: &str) -> String {
    format!(".{name}{STAGING}")
}

const STAGING: &str = ".staging-";

/// A staging folder's name before it is locked. The clean-up takes only
/// staging names, so it never finds a live writer's folder between its
/// making and its lock: two outputs started at once in one folder removed
/// each other's fresh staging folders ("no such file or directory").
const CLAIMING: &str = ".claiming-";

/// A claiming folder the clean-up may take: unlocked and this old (its
/// writer was killed between making it and renaming it, an instant).
const CLAIM_STALE_SECS: i64 = 60;

/// A new staging folder for output `name` in `parent`, locked: made under
/// a claiming name, locked, then renamed to its staging name.
fn claim_staging(parent: &Dir, name: &str, target: &Path) -> Result<(String, Dir), OutputError> {
    let parent_path = crate::fs::parent_of(target);
    let claiming_prefix = format!(".{name}{CLAIMING}");
    let (claim, staging) = crate::fs::temp::temp_dir_in(parent, &claiming_prefix, 0o700)
        .map_err(|e| unwritable_parent(parent_path, name, &e))?;
    let staging_name = format!("{}{}", staging_prefix(name), &claim[claiming_prefix.len()..]);
    let claimed = match staging.try_lock() {
        Ok(true) => parent
            .rename_noreplace(&claim, parent, &staging_name)
            .map_err(io(target)),
        // A folder made this instant under a name no clean-up takes: its
        // lock is free unless the file system has none.
        Ok(false) => Err(io(target)(std::io::Error::other(
            "the new staging folder is locked by another process",
        ))),
        Err(e) => Err(io(target)(std::io::Error::other(format!(
            "cannot lock the staging folder ({}); the file system must support flock",
            crate::input::os_reason(&e)
        )))),
    };
    match claimed {
        Ok(()) => Ok((staging_name, staging)),
        Err(e) => {
            let _ = parent.remove_all(&claim);
            Err(e)
        }
    }
}

/// Removes the staging folders in `parent` whose writer is gone, whatever
/// output they were for: a killed export's is removed by the next output
/// of any kind written into the same folder.
fn clean_stale(parent: &Dir) {
    let Ok(entries) = parent.entries() else { return };
    for (name, kind) in entries {
        let staging = name.contains(STAGING);
        if !name.starts_with('.') || !(staging || name.contains(CLAIMING)) || kind != FileType::Directory {
            continue;
        }
        let Ok(d) = parent.open_dir(&name) else { continue };
        if (staging || seconds_old(&d) >= CLAIM_STALE_SECS) && d.try_lock().unwrap_or(false) {
            let _ = parent.remove_all(&name);
        }
    }
}

/// Seconds since `d` was last changed (0 when unknown).
fn seconds_old(d: &Dir) -> i64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |t| t.as_secs() as i64);
    rustix::fs::fstat(d).map_or(0, |st| now - st.st_mtime)
}

/// The list's line that says what its outputs are of.
const IDENTITY: &str = "# of: ";

/// The text of a folder's list, read without following a link.
fn manifest_text(dir: &Dir) -> Option<String> {
    let f = dir.open_file(MANIFEST, OFlags::RDONLY | OFlags::NONBLOCK, 0).ok()?;
    if !f.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    f.take(MANIFEST_LIMIT).read_to_end(&mut bytes).ok()?;
    String::from_utf8(bytes).ok()
}

fn read_identity(dir: &Dir) -> Option<String> {
    let text = manifest_text(dir)?;
    text.lines().find_map(|l| l.strip_prefix(IDENTITY)).map(str::to_string)
}

/// Refuses a folder that holds anything but earlier outputs of `identity`.
fn check_reuse(parent: &Dir, name: &str, target: &Path, identity: &str) -> Result<(), OutputError> {
    let Ok(dir) = parent.open_dir(name) else { return Ok(()) };
    // An earlier output of the same design, with anything the user added
    // (carried across): no need to walk a folder of thousands of scripts.
    let old = read_identity(&dir);
    if old.as_deref() == Some(identity) {
        return Ok(());
    }
    let Ok(entries) = walk_dir(&dir) else { return Ok(()) };
    let entries: Vec<String> = entries
        .into_iter()
        .filter(|rel| rel != MANIFEST && rel != INCOMPLETE_MARKER)
        .collect();
    if entries.is_empty() {
        return Ok(());
    }
    let refused = |why: String| OutputError::Occupied {
        path: crate::escape::terminal(&target.display().to_string()),
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
    let listed: BTreeSet<String> = read_manifest(&dir).into_iter().map(|(_, rel)| rel).collect();
    if let Some(other) = entries.iter().find(|rel| !listed.contains(*rel)) {
        return Err(refused(format!(
            "it holds files fnn-tui did not write (such as {})",
            crate::escape::terminal(other)
        )));
    }
    Ok(())
}

/// The `KIND PATH` lines of a folder's list (none when it has none).
fn read_manifest(dir: &Dir) -> Vec<(String, String)> {
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
fn walk_dir(dir: &Dir) -> std::io::Result<Vec<String>> {
    let mut out = Vec::new();
    let mut stack = vec![(String::new(), dir.clone())];
    while let Some((rel, d)) = stack.pop() {
        for (name, kind) in d.entries()? {
            let r = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            if kind == FileType::Directory {
                stack.push((r, d.open_dir(&name)?));
            } else {
                out.push(r);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files_under(dir: &Path) -> Vec<String> {
        let mut v = walk_dir(&Dir::open(dir).unwrap()).unwrap();
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
        crate::fs::write_in_place(out.join("NOTES.md"), "mine").unwrap();
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
        let staging = s.staging_path();
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
    fn a_killed_outputs_staging_is_removed_by_the_next_output_of_any_kind() {
        let d = tempfile::tempdir().unwrap();
        let mut killed = Staged::new(&d.path().join("build"), "export").unwrap();
        killed.write("routing/k00.sh", b"half").unwrap();
        let dead = killed.staging_path();
        // Killed: nothing ran its cleanup, and its lock went with it.
        killed.committed = true;
        drop(killed);
        let live = Staged::new(&d.path().join("compare"), "compare").unwrap();
        let mut other = Staged::new(&d.path().join("design"), "design").unwrap();
        assert!(!dead.exists(), "another output in the folder removed the dead staging");
        assert!(live.staging_path().exists(), "a live writer's staging stays");
        other.write("switches.txt", b"x").unwrap();
        other.commit().unwrap();
        drop(live);
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_link_or_a_file_at_the_target_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let elsewhere = d.path().join("elsewhere");
        crate::fs::make_dirs(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, d.path().join("link")).unwrap();
        crate::fs::write_in_place(d.path().join("file"), "x").unwrap();
        for name in ["link", "file"] {
            assert!(Staged::new(&d.path().join(name), "export").is_err(), "{name}");
        }
        assert!(Staged::new(Path::new("."), "export").is_err());
    }

    /// Outputs started at once into one folder: each one's clean-up of
    /// dead writers' staging folders must never take another's fresh one
    /// (it did between its making and its lock: "cannot write /tmp: no
    /// such file or directory" from tests writing into /tmp together).
    #[test]
    fn outputs_started_at_once_in_one_folder_keep_their_staging_folders() {
        let d = tempfile::tempdir().unwrap();
        let failures = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for t in 0..4 {
                let (d, failures) = (&d, &failures);
                scope.spawn(move || {
                    for i in 0..300 {
                        let target = d.path().join(format!("out-{t}-{i}"));
                        if let Err(e) = Staged::new(&target, "test") {
                            eprintln!("{e}");
                            failures.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert_eq!(failures.into_inner(), 0);
        let left: Vec<String> = std::fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(left.is_empty(), "abandoned outputs leave nothing: {left:?}");
    }
}
