//! Opening a folder by path, one component at a time, following no link
//! that another user could have made or could change (the rule is in the
//! module doc of [`crate::fs`]).

use rustix::fs::{AtFlags, FileType, Mode, OFlags, openat};
use std::collections::VecDeque;
use std::ffi::OsString;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;
use std::path::{Component, Path, PathBuf};

/// The most links followed in one path, as the kernel's own limit.
const MAX_LINKS: usize = 40;

/// A handle on the folder `path` (read-only, for `*at` calls), its
/// missing components created (mode 0777 less the umask) if `create`.
pub(crate) fn open_dir(path: &Path, create: bool) -> io::Result<OwnedFd> {
    let start = if path.is_absolute() { "/" } else { "." };
    let mut cur = open_path(rustix::fs::CWD, start)?;
    let mut todo: VecDeque<OsString> = components(path);
    let mut shown = PathBuf::from(if path.is_absolute() { "/" } else { "" });
    let mut links = 0;
    while let Some(c) = todo.pop_front() {
        shown.push(&c);
        match open_path(&cur, &c) {
            Ok(next) => cur = next,
            Err(rustix::io::Errno::NOENT) if create => {
                match rustix::fs::mkdirat(&cur, &c, Mode::from_raw_mode(0o777)) {
                    Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                    Err(e) => return Err(named(&shown, e.into())),
                }
                cur = open_path(&cur, &c).map_err(|e| named(&shown, e.into()))?;
            }
            Err(e @ (rustix::io::Errno::NOTDIR | rustix::io::Errno::LOOP)) => {
                let st =
                    rustix::fs::statat(&cur, &c, AtFlags::SYMLINK_NOFOLLOW).map_err(|e| named(&shown, e.into()))?;
                if FileType::from_raw_mode(st.st_mode) != FileType::Symlink {
                    return Err(named(&shown, e.into()));
                }
                let target = PathBuf::from(OsString::from_vec(
                    rustix::fs::readlinkat(&cur, &c, Vec::new())
                        .map_err(|e| named(&shown, e.into()))?
                        .into_bytes(),
                ));
                if !trusted(&cur, &st)? {
                    return Err(untrusted_link(&shown, &target));
                }
                links += 1;
                if links > MAX_LINKS {
                    return Err(named(&shown, rustix::io::Errno::LOOP.into()));
                }
                shown.pop();
                if target.is_absolute() {
                    cur = open_path(rustix::fs::CWD, "/")?;
                    shown = PathBuf::from("/");
                }
                for t in components(&target).into_iter().rev() {
                    todo.push_front(t);
                }
            }
            Err(e) => return Err(named(&shown, e.into())),
        }
    }
    Ok(openat(
        &cur,
        ".",
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )?)
}

/// The path's components as names to open (`.` dropped, `..` kept).
fn components(path: &Path) -> VecDeque<OsString> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_os_string()),
            Component::ParentDir => Some(OsString::from("..")),
            _ => None,
        })
        .collect()
}

/// One component, as a handle good only for `*at` calls (so a folder the
/// caller may search but not list can be passed through).
fn open_path(dir: impl AsFd, name: impl rustix::path::Arg) -> rustix::io::Result<OwnedFd> {
    openat(
        dir,
        name,
        OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
}

/// Whether a link could only have been made, or changed, by root or by
/// the user running fnn-tui: it is theirs, in a folder that is theirs
/// and that no one else may write.
fn trusted(dir: &OwnedFd, link: &rustix::fs::Stat) -> io::Result<bool> {
    let me = rustix::process::geteuid().as_raw();
    let ours = |uid: u32| uid == 0 || uid == me;
    let d = rustix::fs::fstat(dir)?;
    Ok(ours(link.st_uid) && ours(d.st_uid) && d.st_mode & 0o022 == 0)
}

fn untrusted_link(shown: &Path, target: &Path) -> io::Error {
    let esc = |p: &Path| crate::escape::terminal(&p.display().to_string());
    let real = std::fs::canonicalize(shown)
        .map(|r| format!(" ({})", esc(&r)))
        .unwrap_or_default();
    io::Error::other(format!(
        "{} is a link (to {}) that another user made or could change: fnn-tui never writes through such a link; \
         give the real path{real} instead",
        esc(shown),
        esc(target)
    ))
}

/// An OS error with the path component it happened at.
fn named(shown: &Path, e: io::Error) -> io::Error {
    io::Error::new(
        e.kind(),
        format!(
            "{}: {}",
            crate::escape::terminal(&shown.display().to_string()),
            super::os_reason(&e)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn chmod(p: &Path, mode: u32) {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    /// A link of the user's own (or root's), in a folder nobody else may
    /// write, is followed: `/var/run -> /run`.
    #[test]
    fn a_link_only_its_owner_could_make_is_followed() {
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("real");
        std::fs::create_dir(&real).unwrap();
        std::os::unix::fs::symlink("real", d.path().join("alias")).unwrap();
        chmod(d.path(), 0o755);
        let fd = open_dir(&d.path().join("alias/new/deeper"), true).unwrap();
        let st = rustix::fs::fstat(&fd).unwrap();
        let made = std::fs::metadata(real.join("new/deeper")).unwrap();
        assert_eq!(
            (st.st_dev, st.st_ino),
            (
                std::os::unix::fs::MetadataExt::dev(&made),
                std::os::unix::fs::MetadataExt::ino(&made)
            )
        );
    }

    /// The same link in a folder others may write could be swapped at any
    /// moment: refused, naming the link and the real path.
    #[test]
    fn a_link_in_a_folder_others_write_is_refused_naming_it() {
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("real");
        std::fs::create_dir(&real).unwrap();
        let shared = d.path().join("shared");
        std::fs::create_dir(&shared).unwrap();
        std::os::unix::fs::symlink(&real, shared.join("alias")).unwrap();
        chmod(&shared, 0o777);
        let e = open_dir(&shared.join("alias/new"), true).unwrap_err().to_string();
        let link = shared.join("alias").display().to_string();
        assert!(e.starts_with(&format!("{link} is a link")), "{e}");
        assert!(e.contains(&format!("give the real path ({})", real.display())), "{e}");
        assert!(!real.join("new").exists(), "nothing was made through it");
    }

    #[test]
    fn a_missing_folder_is_named_and_not_made_unless_asked() {
        let d = tempfile::tempdir().unwrap();
        let e = open_dir(&d.path().join("no/such"), false).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(e.to_string().contains("no: no such file"), "{e}");
    }
}
