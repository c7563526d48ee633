//! A folder handle: every create, rename and removal is made relative to
//! it (`openat`, `mkdirat`, `renameat2`, `unlinkat`), by a single name,
//! never following a link. Moving the folder, or planting a link where it
//! was, changes nothing about where these calls land.

use rustix::fs::{AtFlags, FileType, FlockOperation, Mode, OFlags, RenameFlags, openat};
use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// An open folder, and the path it was opened by (for messages only).
#[derive(Clone, Debug)]
pub struct Dir {
    fd: Arc<OwnedFd>,
    shown: PathBuf,
}

/// What is at a name in a folder, not following a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub kind: FileType,
    pub uid: u32,
    pub dev: u64,
    pub ino: u64,
}

impl AsFd for Dir {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

impl Dir {
    /// Opens the folder `path` (see [`super::walk`] for links in it).
    pub fn open(path: &Path) -> io::Result<Dir> {
        Ok(Dir::from_fd(super::walk::open_dir(path, false)?, path))
    }

    /// Opens the folder `path`, creating what is missing of it.
    pub(crate) fn create_all(path: &Path) -> io::Result<Dir> {
        Ok(Dir::from_fd(super::walk::open_dir(path, true)?, path))
    }

    fn from_fd(fd: OwnedFd, shown: &Path) -> Dir {
        Dir {
            fd: Arc::new(fd),
            shown: shown.to_path_buf(),
        }
    }

    /// The path this folder was opened by (it may have moved since).
    pub fn path(&self) -> &Path {
        &self.shown
    }

    /// The sub-folder `name`, not following a link.
    pub(crate) fn open_dir(&self, name: &str) -> io::Result<Dir> {
        let fd = openat(
            self,
            plain(name)?,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        Ok(Dir::from_fd(fd, &self.shown.join(name)))
    }

    /// Creates the sub-folder `name` with `mode` (less the umask).
    pub fn make_dir(&self, name: &str, mode: u32) -> io::Result<()> {
        Ok(rustix::fs::mkdirat(self, plain(name)?, Mode::from_raw_mode(mode))?)
    }

    /// The folder at `rel` (plain names joined by `/`) below this one,
    /// creating what is missing; a link on the way is an error.
    pub fn make_dirs(&self, rel: &str) -> io::Result<Dir> {
        let mut d = self.clone();
        for c in rel.split('/').filter(|c| !c.is_empty()) {
            match d.make_dir(c, 0o777) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
            d = d.open_dir(c)?;
        }
        Ok(d)
    }

    /// A new file `name` (`O_CREAT | O_EXCL`: never one already there,
    /// never through a link), mode `mode` less the umask.
    pub(crate) fn create_new(&self, name: &str, mode: u32) -> io::Result<File> {
        self.open_file(name, OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL, mode)
    }

    /// The file `name` emptied for writing, or created; a link there is
    /// an error, never followed.
    pub(crate) fn create_or_truncate(&self, name: &str, mode: u32) -> io::Result<File> {
        self.open_file(name, OFlags::WRONLY | OFlags::CREATE | OFlags::TRUNC, mode)
    }

    /// Opens `name` with `flags`, plus `O_NOFOLLOW | O_CLOEXEC`.
    pub fn open_file(&self, name: &str, flags: OFlags, mode: u32) -> io::Result<File> {
        let fd = openat(
            self,
            plain(name)?,
            flags | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(mode),
        )?;
        Ok(File::from(fd))
    }

    /// What is at `name`, if anything (a link is described, not followed).
    pub fn entry(&self, name: &str) -> io::Result<Option<Entry>> {
        match rustix::fs::statat(self, plain(name)?, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => Ok(Some(Entry {
                kind: FileType::from_raw_mode(st.st_mode),
                uid: st.st_uid,
                dev: st.st_dev,
                ino: st.st_ino,
            })),
            Err(rustix::io::Errno::NOENT) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// The names in this folder (not `.` and `..`), with their kinds.
    pub fn entries(&self) -> io::Result<Vec<(String, FileType)>> {
        let mut out = Vec::new();
        for e in rustix::fs::Dir::read_from(self)? {
            let e = e?;
            let name = OsString::from_vec(e.file_name().to_bytes().to_vec());
            let name = name.to_string_lossy().into_owned();
            if name != "." && name != ".." {
                let mut kind = e.file_type();
                if kind == FileType::Unknown {
                    kind = self.entry(&name)?.map_or(FileType::Unknown, |e| e.kind);
                }
                out.push((name, kind));
            }
        }
        Ok(out)
    }

    /// Renames `from` here to `to` in `dest`, replacing what is there
    /// (a link there is replaced, never followed).
    pub fn rename(&self, from: &str, dest: &Dir, to: &str) -> io::Result<()> {
        self.rename_with(from, dest, to, RenameFlags::empty())
    }

    /// Renames `from` here to `to` in `dest` only if nothing has that name.
    pub(crate) fn rename_noreplace(&self, from: &str, dest: &Dir, to: &str) -> io::Result<()> {
        self.rename_with(from, dest, to, RenameFlags::NOREPLACE)
    }

    /// Swaps the names `a` here and `b` in `dest` in one step.
    pub fn exchange(&self, a: &str, dest: &Dir, b: &str) -> io::Result<()> {
        self.rename_with(a, dest, b, RenameFlags::EXCHANGE)
    }

    fn rename_with(&self, from: &str, dest: &Dir, to: &str, flags: RenameFlags) -> io::Result<()> {
        Ok(rustix::fs::renameat_with(self, plain(from)?, dest, plain(to)?, flags)?)
    }

    /// A second name `to` in `dest` for the file `from` here (a link is
    /// linked as the link, not its target).
    pub fn hard_link(&self, from: &str, dest: &Dir, to: &str) -> io::Result<()> {
        Ok(rustix::fs::linkat(
            self,
            plain(from)?,
            dest,
            plain(to)?,
            AtFlags::empty(),
        )?)
    }

    /// Removes the file or link `name`.
    pub fn remove_file(&self, name: &str) -> io::Result<()> {
        Ok(rustix::fs::unlinkat(self, plain(name)?, AtFlags::empty())?)
    }

    /// Removes `name` and, if it is a folder, everything in it; links are
    /// removed, never followed. Nothing there is not an error.
    pub fn remove_all(&self, name: &str) -> io::Result<()> {
        match self.open_dir(name) {
            Ok(sub) => {
                for (n, _) in sub.entries()? {
                    sub.remove_all(&n)?;
                }
                match rustix::fs::unlinkat(self, name, AtFlags::REMOVEDIR) {
                    Ok(()) | Err(rustix::io::Errno::NOENT) => Ok(()),
                    Err(e) => Err(e.into()),
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            // A file or a link (opening it as a folder failed without following it).
            Err(_) => match rustix::fs::unlinkat(self, plain(name)?, AtFlags::empty()) {
                Ok(()) | Err(rustix::io::Errno::NOENT) => Ok(()),
                Err(e) => Err(e.into()),
            },
        }
    }

    /// Sets this folder's own mode.
    pub(crate) fn set_mode(&self, mode: u32) -> io::Result<()> {
        Ok(rustix::fs::fchmod(self, Mode::from_raw_mode(mode))?)
    }

    /// Syncs the folder, so renames and removals in it are on disk.
    pub fn sync(&self) -> io::Result<()> {
        Ok(rustix::fs::fsync(self)?)
    }

    /// Syncs the whole file system this folder is on (one call for
    /// thousands of files).
    pub(crate) fn sync_fs(&self) -> io::Result<()> {
        Ok(rustix::fs::syncfs(self)?)
    }

    /// Takes this folder's exclusive lock without waiting; `false` when
    /// another process holds it.
    pub fn try_lock(&self) -> io::Result<bool> {
        match rustix::fs::flock(self, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => Ok(true),
            Err(rustix::io::Errno::WOULDBLOCK) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// The identity of the folder itself (to check a name still holds it).
    pub fn identity(&self) -> io::Result<(u64, u64)> {
        let st = rustix::fs::fstat(self)?;
        Ok((st.st_dev, st.st_ino))
    }
}

/// `name` if it is one plain component: not empty, no `/`, not `.`/`..`.
fn plain(name: &str) -> io::Result<&str> {
    if name.is_empty() || name.contains('/') || name == "." || name == ".." || name.contains('\0') {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: not a plain file name", crate::escape::terminal(name)),
        ));
    }
    Ok(name)
}
