//! Temporary files and folders under random names, created exclusively
//! relative to a folder handle: never a name someone else made first,
//! never through a link.

use super::Dir;
use std::fs::File;
use std::io;

/// How many random names to try before giving up (each taken name is
/// someone else's file, or a planted link).
const TRIES: usize = 64;

/// A random name: `prefix` and 12 letters or digits.
fn random_name(prefix: &str) -> String {
    use rand::RngExt;
    const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut rng = rand::rng();
    let tail: String = (0..12)
        .map(|_| CHARS[rng.random_range(0..CHARS.len())] as char)
        .collect();
    format!("{prefix}{tail}")
}

/// Calls `make` with fresh random names until one is free.
fn fresh<T>(prefix: &str, mut make: impl FnMut(&str) -> io::Result<T>) -> io::Result<(String, T)> {
    for _ in 0..TRIES {
        let name = random_name(prefix);
        match make(&name) {
            Ok(t) => return Ok((name, t)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("no free temporary name starting {prefix:?} after {TRIES} tries"),
    ))
}

/// A temporary file in a folder, removed when dropped unless persisted.
#[derive(Debug)]
pub struct TempFile {
    dir: Dir,
    name: String,
    file: File,
    kept: bool,
}

impl TempFile {
    /// A new empty file in `dir` named `prefix` and random characters,
    /// mode `mode` less the umask.
    pub fn new_in(dir: &Dir, prefix: &str, mode: u32) -> io::Result<TempFile> {
        let (name, file) = fresh(prefix, |n| dir.create_new(n, mode))?;
        Ok(TempFile {
            dir: dir.clone(),
            name,
            file,
            kept: false,
        })
    }

    pub fn as_file(&self) -> &File {
        &self.file
    }

    pub(crate) fn as_file_mut(&mut self) -> &mut File {
        &mut self.file
    }

    /// The folder it is in.
    pub fn dir(&self) -> &Dir {
        &self.dir
    }

    /// Syncs it and renames it to `to` in its folder (replacing a file or
    /// link there, never following it), then syncs the folder.
    pub(crate) fn persist(mut self, to: &str) -> io::Result<File> {
        self.file.sync_all()?;
        self.dir.rename(&self.name, &self.dir, to)?;
        self.kept = true;
        self.dir.sync()?;
        self.file.try_clone()
    }

    /// Renames it to `to` only if nothing has that name yet; `Ok(None)`
    /// (and the temporary removed) when something does.
    pub fn persist_noclobber(mut self, to: &str) -> io::Result<Option<File>> {
        match self.dir.rename_noreplace(&self.name, &self.dir, to) {
            Ok(()) => {
                self.kept = true;
                Ok(Some(self.file.try_clone()?))
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(None),
            Err(e) => Err(e),
        }
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.kept {
            let _ = self.dir.remove_file(&self.name);
        }
    }
}

/// A new folder in `dir` named `prefix` and random characters, mode
/// `mode` (less the umask), and its handle.
pub(crate) fn temp_dir_in(dir: &Dir, prefix: &str, mode: u32) -> io::Result<(String, Dir)> {
    let (name, ()) = fresh(prefix, |n| dir.make_dir(n, mode))?;
    let handle = dir.open_dir(&name)?;
    Ok((name, handle))
}

/// A new folder of our own in the system's temporary folder: created
/// exclusively under a random name starting with `prefix`, mode 0700, and
/// kept (the caller removes it). Never a name someone else could have made
/// first, so nothing written or run from it can be planted.
pub fn private_dir(prefix: &str) -> io::Result<std::path::PathBuf> {
    let tmp = std::env::temp_dir();
    let parent = Dir::open(&tmp)?;
    let (name, _) = temp_dir_in(&parent, prefix, 0o700)?;
    Ok(tmp.join(name))
}
