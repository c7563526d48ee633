//! The one way fnn-tui creates, writes, renames and removes files and
//! folders. Nothing else in the crate does (a lint test holds it so).
//!
//! fnn-tui runs as root, in folders other users may write, on machines
//! where `fs.protected_symlinks` is 0. So every write works relative to a
//! folder handle this module opened itself, never by a full path the
//! kernel would resolve again later:
//!
//! * a path is opened one component at a time with
//!   `openat(O_DIRECTORY | O_NOFOLLOW)` ([`walk`]), so a link anywhere in
//!   it is seen, not followed;
//! * files are created `O_CREAT | O_EXCL | O_NOFOLLOW` under random
//!   names, written, synced, and swapped in with `renameat2` relative to
//!   the same handle ([`temp`], [`atomic`]); folders with `mkdirat`;
//!   removal with `unlinkat`, recursing through handles ([`dir`]).
//!
//! # Links in the user's own path
//!
//! A link in the path is followed only when nobody but root (or the user
//! running fnn-tui) could have made or changed it: the link is owned by
//! root or that user, **and** so is the folder holding it, which nobody
//! else may write (no group or other write bit). `/var/run -> /run` or a
//! distribution's `/home -> /var/home` pass; a link another user planted,
//! or any link in a shared folder such as `/tmp`, is refused with an error
//! naming the link and the real path to give instead ([`walk`]). Such a
//! trusted link can change only by the hand of someone who could write
//! the files directly anyway, so following it gives an attacker nothing.
//! Following the kernel's `openat2(RESOLVE_NO_SYMLINKS)` instead would
//! refuse those system links too, so the walk is used everywhere.

pub mod append;
pub mod atomic;
pub mod dir;
pub mod kernel;
pub mod temp;
pub mod walk;

pub use dir::Dir;
use std::path::Path;

/// The OS reason without Rust's "(os error 2)" suffix.
pub fn os_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_lowercase(),
        None => s,
    }
}

/// Creates `path` and the folders above it that are missing.
pub fn make_dirs(path: impl AsRef<Path>) -> std::io::Result<Dir> {
    Dir::create_all(path.as_ref())
}

/// The folder holding `path` (opened, not created) and its last name.
pub fn parent_and_name(path: &Path) -> std::io::Result<(Dir, String)> {
    let name = file_name(path)?;
    Ok((Dir::open(parent_of(path))?, name))
}

/// `path`'s folder, `.` for a bare name.
pub fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// `path`'s last component, which must be a plain name (not `.`, `..`).
pub fn file_name(path: &Path) -> std::io::Result<String> {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| n != "." && n != "..")
        .ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "{}: not a file name",
                    crate::escape::terminal(&path.display().to_string())
                ),
            )
        })
}

/// Writes a whole file in place (created or truncated, never through a
/// link): for folders only root writes, such as a run's private scratch
/// folder or `/etc/netns`, where no one can watch a half-written file.
pub fn write_in_place(path: impl AsRef<Path>, bytes: impl AsRef<[u8]>) -> std::io::Result<()> {
    use std::io::Write;
    let (dir, name) = parent_and_name(path.as_ref())?;
    dir.create_or_truncate(&name, 0o666)?.write_all(bytes.as_ref())
}

/// Sets the mode of the folder `path` (opened without following a link).
pub fn set_dir_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    Dir::open(path)?.set_mode(mode)
}

/// Removes the file (or link) at `path`, not following it.
pub fn remove_file(path: &Path) -> std::io::Result<()> {
    let (dir, name) = parent_and_name(path)?;
    dir.remove_file(&name)
}

/// Removes the folder `path` and everything in it, following no link.
pub fn remove_all(path: &Path) -> std::io::Result<()> {
    let (dir, name) = parent_and_name(path)?;
    dir.remove_all(&name)
}

/// Renames `from` to `to`, both in the same folder.
pub fn rename_beside(from: &Path, to: &Path) -> std::io::Result<()> {
    let (dir, a) = parent_and_name(from)?;
    let b = file_name(to)?;
    dir.rename(&a, &dir, &b)
}
