//! The run registry: one record per emulate run under `/run/fnn-tui`,
//! locked for as long as the run lives, so that whatever a killed run left
//! (namespaces, links, `/etc/netns` folders, its scratch folder) is found
//! and removed by the next run or by `fnn-tui emulate --clean`.
//!
//! A run's names all start with its prefix: `fe` and four random
//! characters, taken by creating the record exclusively, so two runs never
//! share one, even in separate PID namespaces (where process ids repeat).
//! The record is held with `flock`, which the kernel drops when the
//! process dies however it dies: an unlocked record is a dead run.

use super::EmulateError;
use rand::RngExt;
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Where the records live: root's, on a tmpfs, emptied at boot.
pub const RUN_DIR: &str = "/run/fnn-tui";

/// How long a prefix is: `fe` and four characters from [a-z0-9].
const PREFIX_LEN: usize = 6;

/// A live run's record, locked until it is dropped (which removes it,
/// unless the run's testbed is kept for inspection).
#[derive(Debug)]
pub(crate) struct Registration {
    pub prefix: String,
    path: PathBuf,
    file: File,
    kept: bool,
}

/// What an earlier run left and this one removed.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Removed {
    /// The prefixes of the runs whose leftovers were removed.
    pub runs: Vec<String>,
    pub namespaces: usize,
    pub links: usize,
    pub folders: usize,
}

impl Removed {
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// One line for a person.
    pub fn text(&self) -> String {
        format!(
            "removed what {} earlier emulate run(s) left ({}): {} namespace(s), {} link(s), {} folder(s)",
            self.runs.len(),
            self.runs.join(", "),
            self.namespaces,
            self.links,
            self.folders
        )
    }
}

/// Which records a sweep removes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sweep {
    /// Only runs that died (before every run).
    Dead,
    /// Those and the testbeds kept with `--keep` (`emulate --clean`).
    DeadAndKept,
}

impl Registration {
    /// Registers a new run under a fresh prefix.
    pub fn new() -> Result<Registration, EmulateError> {
        Registration::new_in(Path::new(RUN_DIR))
    }

    pub(super) fn new_in(dir: &Path) -> Result<Registration, EmulateError> {
        own_dir(dir)?;
        let mut rng = rand::rng();
        for _ in 0..100 {
            let prefix: String = std::iter::once("fe".to_string())
                .chain((0..PREFIX_LEN - 2).map(|_| {
                    let c = b"abcdefghijklmnopqrstuvwxyz0123456789"[rng.random_range(0..36)];
                    (c as char).to_string()
                }))
                .collect();
            if in_use(&prefix) {
                continue;
            }
            let path = dir.join(format!("{prefix}.run"));
            let Some(file) = create_locked(dir, &path)? else {
                continue;
            };
            let mut r = Registration {
                prefix,
                path,
                file,
                kept: false,
            };
            r.note(&format!("pid {}", std::process::id()))?;
            return Ok(r);
        }
        Err(EmulateError::Io {
            path: dir.display().to_string(),
            reason: "no free run prefix after 100 tries".into(),
        })
    }

    /// Records a folder the run made outside the names its prefix covers.
    pub(crate) fn note_folder(&mut self, dir: &Path) -> Result<(), EmulateError> {
        self.note(&format!("folder {}", dir.display()))
    }

    fn note(&mut self, line: &str) -> Result<(), EmulateError> {
        writeln!(self.file, "{line}")
            .and_then(|_| self.file.sync_data())
            .map_err(|e| super::io(&self.path, e))
    }

    /// The record's file (`PREFIX.run`, or `PREFIX.kept` once kept).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The testbed stays for inspection: the record stays, marked kept, so
    /// that later runs leave it alone and `emulate --clean` removes it.
    pub fn keep(&mut self) {
        let kept = self.path.with_extension("kept");
        if fnn_core::fs::rename_beside(&self.path, &kept).is_ok() {
            self.path = kept;
            self.kept = true;
        }
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        // Removed while still locked: a sweep never sees it half-gone.
        if !self.kept {
            let _ = fnn_core::fs::remove_file(&self.path);
        }
    }
}

/// Removes what dead runs (and, for `--clean`, kept ones) left.
pub fn sweep(which: Sweep) -> Result<Removed, EmulateError> {
    sweep_in(Path::new(RUN_DIR), which)
}

pub(super) fn sweep_in(dir: &Path, which: Sweep) -> Result<Removed, EmulateError> {
    let mut removed = Removed::default();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(removed),
        Err(e) => return Err(super::io(dir, e)),
    };
    own_dir(dir)?;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some((prefix, kind)) = name.split_once('.') else {
            continue;
        };
        if !valid_prefix(prefix) || !(kind == "run" || (kind == "kept" && which == Sweep::DeadAndKept)) {
            continue;
        }
        let path = e.path();
        let Ok(file) = fnn_core::fs::Dir::open(dir).and_then(|d| d.open_file(&name, rustix::fs::OFlags::RDONLY, 0))
        else {
            continue;
        };
        // Locked: its run is alive. Gone once locked: its run ended and
        // removed the record (and its testbed) in between.
        if !try_lock(&file, &path)? || !still_named(&file, &path) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        remove_leftovers(prefix, &text, &mut removed);
        let _ = fnn_core::fs::remove_file(&path);
        removed.runs.push(prefix.to_string());
    }
    removed.runs.sort();
    Ok(removed)
}

/// Removes everything named with `prefix`, and the folders its record lists.
fn remove_leftovers(prefix: &str, record: &str, removed: &mut Removed) {
    let namespaces: Vec<String> = names_in("/run/netns")
        .into_iter()
        .filter(|n| n.starts_with(&format!("{prefix}-")))
        .collect();
    let links: Vec<String> = names_in("/sys/class/net")
        .into_iter()
        .filter(|n| n.len() > prefix.len() && n.starts_with(prefix))
        .collect();
    super::commands::remove_links(&namespaces, &links);
    removed.namespaces += namespaces.len();
    removed.links += links.len();
    for ns in names_in("/etc/netns")
        .into_iter()
        .filter(|n| n.starts_with(&format!("{prefix}-")))
    {
        if fnn_core::fs::remove_all(&Path::new("/etc/netns").join(ns)).is_ok() {
            removed.folders += 1;
        }
    }
    for dir in record.lines().filter_map(|l| l.strip_prefix("folder ")) {
        let dir = Path::new(dir);
        // Only a scratch folder of this run, whatever the record says.
        let ours = dir
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(&format!("{prefix}-scripts-")));
        if ours && fnn_core::fs::remove_all(dir).is_ok() {
            removed.folders += 1;
        }
    }
}

fn names_in(dir: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|it| {
            it.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Whether any namespace, link or `/etc/netns` folder already has a name
/// with this prefix (made by a run under another `/run`, say).
fn in_use(prefix: &str) -> bool {
    ["/run/netns", "/sys/class/net", "/etc/netns"]
        .iter()
        .flat_map(|d| names_in(d))
        .any(|n| n.starts_with(prefix))
}

fn valid_prefix(p: &str) -> bool {
    p.len() == PREFIX_LEN && p.starts_with("fe") && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// Creates the record at `path`, already locked: it is made and locked
/// under a random name, then given its own name only if none has it. A
/// record created first and locked after would be unlocked for a moment,
/// and a sweep in that moment takes the live run for a dead one and
/// deletes its record. `None` when the name is taken.
fn create_locked(dir: &Path, path: &Path) -> Result<Option<File>, EmulateError> {
    // Created exclusively (never through a link), mode 0600; the name
    // has no `.`, so a sweep never reads it as a record.
    let handle = fnn_core::fs::Dir::open(dir).map_err(|e| super::io(dir, e))?;
    let tmp = fnn_core::fs::temp::TempFile::new_in(&handle, "new-", 0o600).map_err(|e| super::io(dir, e))?;
    if !try_lock(tmp.as_file(), dir)? {
        return Ok(None);
    }
    let name = fnn_core::fs::file_name(path).map_err(|e| super::io(path, e))?;
    tmp.persist_noclobber(&name).map_err(|e| super::io(path, e))
}

/// Whether `path` still names the file `f` is open on.
fn still_named(f: &File, path: &Path) -> bool {
    match (f.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

/// Locks `f` (the record at `path`) for this process: `false` when
/// another holds it. Any other failure is no answer about the run, and
/// is reported rather than taken for a live one.
fn try_lock(f: &File, path: &Path) -> Result<bool, EmulateError> {
    match f.try_lock() {
        Ok(()) => Ok(true),
        Err(std::fs::TryLockError::WouldBlock) => Ok(false),
        Err(std::fs::TryLockError::Error(e)) => Err(EmulateError::Lock {
            path: path.display().to_string(),
            reason: e.to_string(),
        }),
    }
}

/// Makes the registry folder, or checks the one there is ours: a real
/// folder (not a link), owned by this user, writable by nobody else.
fn own_dir(dir: &Path) -> Result<(), EmulateError> {
    let made = fnn_core::fs::parent_and_name(dir).and_then(|(parent, name)| parent.make_dir(&name, 0o700));
    match made {
        Ok(()) => return Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            return Err(EmulateError::Setup {
                command: format!("creating {}", dir.display()),
                reason: "Permission denied".into(),
            });
        }
        Err(e) => return Err(super::io(dir, e)),
    }
    let m = std::fs::symlink_metadata(dir).map_err(|e| super::io(dir, e))?;
    let me = rustix::process::geteuid().as_raw();
    if !m.file_type().is_dir() || m.uid() != me || m.permissions().mode() & 0o022 != 0 {
        return Err(EmulateError::Io {
            path: dir.display().to_string(),
            reason: format!(
                "not a folder of user {me} that only it may write (a link, another owner, or group/world-writable): \
                 emulate keeps its run records there and will not trust it; remove it"
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_are_fresh_and_a_live_run_is_never_swept() {
        let d = tempfile::tempdir().unwrap();
        let reg = d.path().join("reg");
        let a = Registration::new_in(&reg).unwrap();
        let b = Registration::new_in(&reg).unwrap();
        assert_ne!(a.prefix, b.prefix);
        assert!(valid_prefix(&a.prefix), "{}", a.prefix);
        assert_eq!(std::fs::metadata(&reg).unwrap().permissions().mode() & 0o777, 0o700);
        // Both alive (locked through their own descriptors): left alone.
        assert!(sweep_in(&reg, Sweep::DeadAndKept).unwrap().is_empty());
        assert!(a.path.exists());
        drop(a);
        assert_eq!(std::fs::read_dir(&reg).unwrap().count(), 1);
    }

    #[test]
    fn a_dead_runs_record_is_swept_and_a_kept_one_only_by_clean() {
        let d = tempfile::tempdir().unwrap();
        let reg = d.path().join("reg");
        own_dir(&reg).unwrap();
        // Records no process holds: a killed run, a kept testbed.
        fnn_core::fs::write_in_place(reg.join("fezz01.run"), "pid 1\n").unwrap();
        fnn_core::fs::write_in_place(reg.join("fezz02.kept"), "pid 2\n").unwrap();
        fnn_core::fs::write_in_place(reg.join("notours.run"), "").unwrap();
        assert_eq!(sweep_in(&reg, Sweep::Dead).unwrap().runs, ["fezz01"]);
        assert!(reg.join("fezz02.kept").exists());
        assert_eq!(sweep_in(&reg, Sweep::DeadAndKept).unwrap().runs, ["fezz02"]);
        assert!(reg.join("notours.run").exists());
    }

    /// Only "held by another" means a live run; a lock that fails for any
    /// other reason (here: a descriptor flock cannot use) says so, with
    /// the record's path, instead of passing for a live run.
    #[test]
    fn a_lock_that_fails_is_reported_not_taken_for_a_live_run() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("fezz03.run");
        fnn_core::fs::write_in_place(&path, "pid 3\n").unwrap();
        let holder = File::open(&path).unwrap();
        assert!(try_lock(&holder, &path).unwrap(), "free: locked");
        assert!(
            !try_lock(&File::open(&path).unwrap(), &path).unwrap(),
            "held by another"
        );
        let no_lock = rustix::fs::open(&path, rustix::fs::OFlags::PATH, rustix::fs::Mode::empty()).unwrap();
        let e = try_lock(&File::from(no_lock), &path).unwrap_err().to_string();
        assert!(
            e.contains("cannot lock") && e.contains(&path.display().to_string()),
            "{e}"
        );
    }

    #[test]
    fn a_registry_folder_others_may_write_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let reg = d.path().join("reg");
        fnn_core::fs::make_dirs(&reg).unwrap();
        std::fs::set_permissions(&reg, std::fs::Permissions::from_mode(0o777)).unwrap();
        let e = Registration::new_in(&reg).unwrap_err().to_string();
        assert!(e.contains("will not trust it"), "{e}");
        let link = d.path().join("link");
        std::os::unix::fs::symlink(d.path(), &link).unwrap();
        assert!(Registration::new_in(&link).is_err());
    }

    /// Runs that start and end while others sweep are never taken for
    /// dead: a record is locked from the moment it has its name until
    /// the moment it loses it.
    #[test]
    fn a_sweep_never_takes_a_run_starting_or_ending_for_a_dead_one() {
        let d = tempfile::tempdir().unwrap();
        let reg = d.path().join("reg");
        own_dir(&reg).unwrap();
        let done = std::sync::atomic::AtomicBool::new(false);
        let swept = std::thread::scope(|s| {
            let runs = s.spawn(|| {
                for _ in 0..20_000 {
                    drop(Registration::new_in(&reg).unwrap());
                }
                done.store(true, std::sync::atomic::Ordering::Relaxed);
            });
            let mut swept = Vec::new();
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                swept.extend(sweep_in(&reg, Sweep::Dead).unwrap().runs);
            }
            runs.join().unwrap();
            swept
        });
        assert!(swept.is_empty(), "live runs swept as dead: {swept:?}");
        assert_eq!(std::fs::read_dir(&reg).unwrap().count(), 0);
    }
}
