//! Reading what a user hands us: regular files only, bounded in size, with
//! the operating system's reason in every error.
//!
//! A spec, table or pair file is text a person wrote; anything far larger
//! is a mistake (`/dev/zero`, a log file passed by accident) and must be
//! refused before it is read into memory. A FIFO or a device would block
//! or never end, so only regular files are read.
//!
//! Every file is opened once and then checked on what was opened (`fstat`
//! on the descriptor), never looked up by its name a second time: a name
//! someone else can change between a check and an open proves nothing.
//! A file the user typed is opened as typed (a link they name is theirs to
//! follow). A file a spec names is opened beneath the spec's own folder,
//! through the folder's descriptor taken when the spec was read, and may
//! not leave it: no absolute path, no `..`, no link out of the folder
//! (`openat2` with `RESOLVE_BENEATH`; where the kernel lacks it, no link at
//! all).

use rustix::fs::{Mode, OFlags, ResolveFlags};
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Tables, MAC and interface files, sweep CSVs (read line by line).
pub(crate) const MAX_TEXT_BYTES: u64 = 16 << 20;
/// Specs, price lists and configuration (TOML): parsing TOML takes ~90
/// times the file's size in memory, so a 4 MiB spec peaks near 400 MB.
/// Long pair lists belong in pair files, which are streamed.
pub const MAX_TOML_BYTES: u64 = 4 << 20;
/// Pair files are streamed; this bounds their length.
pub const MAX_PAIR_FILE_BYTES: u64 = 256 << 20;
/// Lines of a pair file, and of any streamed file.
pub(crate) const MAX_LINES: usize = 10_000_000;
/// Characters in one line of a streamed file.
pub(crate) const MAX_LINE_BYTES: usize = 4096;

/// Why a file could not be read. Every message names the file.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum InputError {
    #[error("cannot read {path}: {reason}")]
    Unreadable { path: String, reason: String },
    #[error("cannot read {path}: not a regular file (a directory, device or pipe); give a file")]
    NotRegular { path: String },
    #[error("cannot read {path}: {} than the {} MiB allowed for this kind of file", size_words(*.bytes), .limit >> 20)]
    TooLarge {
        path: String,
        bytes: Option<u64>,
        limit: u64,
    },
    #[error("cannot read {path}: line {line} is not valid UTF-8 text; is this the right file?")]
    NotUtf8 { path: String, line: usize },
    #[error("{path}: line {line} is longer than {MAX_LINE_BYTES} characters")]
    LineTooLong { path: String, line: usize },
    #[error("{path}: more than {MAX_LINES} lines")]
    TooManyLines { path: String },
    /// A file named inside a folder leads out of it (a link, or `..`).
    #[error("cannot read {path}: it leads outside {folder} (through a link)")]
    Outside { path: String, folder: String },
    /// A line's content was refused by the reader's caller.
    #[error("{0}")]
    Refused(String),
}

fn size_words(bytes: Option<u64>) -> String {
    match bytes {
        Some(b) => format!("{b} bytes is more"),
        None => "more".into(),
    }
}

fn unreadable(shown: &str, e: &std::io::Error) -> InputError {
    InputError::Unreadable {
        path: shown.to_string(),
        reason: os_reason(e),
    }
}

/// A path as messages show it: control characters, newlines included,
/// escaped (`\n`), so a name cannot add lines to a message or a log.
pub fn shown(path: &Path) -> String {
    crate::escape::line(&path.display().to_string())
}

/// How every user file is opened: read only, not becoming our terminal,
/// and without waiting for a writer (a FIFO would block the open itself).
fn read_flags() -> OFlags {
    OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC
}

/// A folder held open: files named relative to it are opened through this
/// descriptor, so the folder cannot be swapped for another between reads.
#[derive(Clone, Debug)]
pub struct Folder {
    path: PathBuf,
    fd: Arc<OwnedFd>,
}

impl PartialEq for Folder {
    fn eq(&self, other: &Folder) -> bool {
        self.path == other.path
    }
}

impl Folder {
    /// Opens the folder `dir` as typed (`""` is the current folder).
    pub fn open(dir: &Path) -> Result<Folder, InputError> {
        let at = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let fd = rustix::fs::open(at, read_flags() | OFlags::DIRECTORY, Mode::empty())
            .map_err(|e| unreadable(&shown(dir), &e.into()))?;
        Ok(Folder {
            path: dir.to_path_buf(),
            fd: Arc::new(fd),
        })
    }

    /// The folder as it was named.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Opens the file `path` the user typed, as typed, once: then checks what
/// was opened (a regular file of at most `max` bytes).
pub(crate) fn open_user_file(path: &Path, max: u64) -> Result<File, InputError> {
    let fd = rustix::fs::open(path, read_flags(), Mode::empty()).map_err(|e| unreadable(&shown(path), &e.into()))?;
    checked(File::from(fd), &shown(path), max)
}

/// Opens the file `path` the user typed together with its folder, both
/// once, the file through the folder's descriptor: for files that name
/// other files relative to themselves (a spec and its pair files).
pub(crate) fn open_user_file_and_folder(path: &Path, max: u64) -> Result<(Folder, File), InputError> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        let file = open_user_file(path, max)?;
        return Ok((Folder::open(Path::new("."))?, file));
    };
    // A missing folder is reported as the file the user typed, not as a
    // folder they never named.
    let folder = Folder::open(dir).map_err(|e| match e {
        InputError::Unreadable { reason, .. } => InputError::Unreadable {
            path: shown(path),
            reason,
        },
        other => other,
    })?;
    let fd = rustix::fs::openat(&*folder.fd, name, read_flags(), Mode::empty())
        .map_err(|e| unreadable(&shown(path), &e.into()))?;
    let file = checked(File::from(fd), &shown(path), max)?;
    Ok((folder, file))
}

/// Opens `relative` beneath `folder`, once: no absolute path, no `..` and
/// no link leading out of the folder; then checks what was opened.
pub(crate) fn open_beneath(folder: &Folder, relative: &Path, max: u64) -> Result<File, InputError> {
    let name = shown(&folder.path.join(relative));
    let outside = || InputError::Outside {
        path: name.clone(),
        folder: shown(&folder.path),
    };
    let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
    let fd = match rustix::fs::openat2(&*folder.fd, relative, read_flags(), Mode::empty(), resolve) {
        Err(rustix::io::Errno::NOSYS) => open_without_links(folder, relative),
        other => other,
    };
    match fd {
        Ok(fd) => checked(File::from(fd), &name, max),
        Err(rustix::io::Errno::XDEV | rustix::io::Errno::LOOP) => Err(outside()),
        Err(e) => Err(unreadable(&name, &e.into())),
    }
}

/// [`open_beneath`] for kernels without `openat2`: one component at a
/// time, following no link at all (ELOOP on one) and no `..`.
fn open_without_links(folder: &Folder, relative: &Path) -> rustix::io::Result<OwnedFd> {
    use std::path::Component;
    let parts: Vec<_> = relative.components().collect();
    let mut at: Option<OwnedFd> = None;
    for (i, part) in parts.iter().enumerate() {
        let Component::Normal(name) = part else {
            if matches!(part, Component::CurDir) {
                continue;
            }
            return Err(rustix::io::Errno::XDEV);
        };
        let last = i + 1 == parts.len();
        let flags = read_flags() | OFlags::NOFOLLOW | if last { OFlags::empty() } else { OFlags::DIRECTORY };
        let dir = at.as_ref().unwrap_or(&*folder.fd);
        let next = rustix::fs::openat(dir, *name, flags, Mode::empty()).map_err(|e| {
            // A link met as a folder reads as "not a directory".
            if e == rustix::io::Errno::NOTDIR {
                rustix::io::Errno::LOOP
            } else {
                e
            }
        })?;
        at = Some(next);
    }
    at.ok_or(rustix::io::Errno::ISDIR)
}

/// `file` if what was opened is a regular file of at most `max` bytes.
fn checked(file: File, shown: &str, max: u64) -> Result<File, InputError> {
    let meta = file.metadata().map_err(|e| unreadable(shown, &e))?;
    if !meta.is_file() {
        return Err(InputError::NotRegular { path: shown.into() });
    }
    if meta.len() > max {
        return Err(InputError::TooLarge {
            path: shown.into(),
            bytes: Some(meta.len()),
            limit: max,
        });
    }
    Ok(file)
}

/// The whole text of a regular file of at most `max` bytes, as UTF-8.
pub fn read_text_limited(path: &Path, max: u64) -> Result<String, InputError> {
    read_opened(open_user_file(path, max)?, &shown(path), max)
}

/// The whole text of an opened and checked file, as UTF-8.
pub(crate) fn read_opened(f: File, shown: &str, max: u64) -> Result<String, InputError> {
    let mut bytes = Vec::new();
    // The file may grow after the check: read one byte past the limit to
    // notice.
    f.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| unreadable(shown, &e))?;
    if bytes.len() as u64 > max {
        return Err(InputError::TooLarge {
            path: shown.into(),
            bytes: None,
            limit: max,
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        InputError::NotUtf8 {
            path: shown.into(),
            line: e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1,
        }
    })
}

/// [`read_text_limited`] with the limit for hand-written text files.
pub fn read_text(path: &Path) -> Result<String, InputError> {
    read_text_limited(path, MAX_TEXT_BYTES)
}

/// Calls `f(line number, line)` for every line of a regular file, never
/// holding more than one line: for files that may be long (pair files).
pub(crate) fn for_each_line(
    path: &Path,
    max_bytes: u64,
    f: impl FnMut(usize, &str) -> Result<(), InputError>,
) -> Result<(), InputError> {
    lines_of(open_user_file(path, max_bytes)?, &shown(path), max_bytes, f)
}

/// [`for_each_line`] for a file named beneath `folder` ([`open_beneath`]).
pub(crate) fn for_each_line_beneath(
    folder: &Folder,
    relative: &Path,
    max_bytes: u64,
    f: impl FnMut(usize, &str) -> Result<(), InputError>,
) -> Result<(), InputError> {
    let file = open_beneath(folder, relative, max_bytes)?;
    lines_of(file, &shown(&folder.path.join(relative)), max_bytes, f)
}

fn lines_of(
    file: File,
    shown: &str,
    max_bytes: u64,
    mut f: impl FnMut(usize, &str) -> Result<(), InputError>,
) -> Result<(), InputError> {
    let mut r = BufReader::new(file.take(max_bytes + 1));
    let mut buf = Vec::new();
    let mut line_no = 0;
    loop {
        buf.clear();
        let n = (&mut r)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| unreadable(shown, &e))?;
        if n == 0 {
            return Ok(());
        }
        line_no += 1;
        if line_no > MAX_LINES {
            return Err(InputError::TooManyLines { path: shown.into() });
        }
        if buf.len() > MAX_LINE_BYTES && !buf.ends_with(b"\n") {
            return Err(InputError::LineTooLong {
                path: shown.into(),
                line: line_no,
            });
        }
        let text = std::str::from_utf8(&buf).map_err(|_| InputError::NotUtf8 {
            path: shown.into(),
            line: line_no,
        })?;
        f(line_no, text.trim_end_matches(['\n', '\r']))?;
    }
}

/// The OS reason without Rust's "(os error 2)" suffix (kept beside the
/// writing module, which reads nothing of this one's).
pub use crate::fs::os_reason;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_devices_big_files_and_bad_utf8_with_reasons() {
        let e = read_text(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        let e = read_text(Path::new("/nonexistent/x.toml")).unwrap_err().to_string();
        assert!(e.contains("/nonexistent/x.toml") && e.contains("no such file"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.txt");
        crate::fs::write_in_place(&big, vec![b'a'; 2000]).unwrap();
        let e = read_text_limited(&big, 1000).unwrap_err().to_string();
        assert!(e.contains("2000 bytes"), "{e}");
        let bad = dir.path().join("bad.txt");
        crate::fs::write_in_place(&bad, b"ok\n\xff\xfe\n").unwrap();
        let e = read_text(&bad).unwrap_err().to_string();
        assert!(e.contains("line 2 is not valid UTF-8"), "{e}");
    }

    /// A folder holding `in.txt`, a link to it, a link out of the folder
    /// (absolute and by `..`), and a private file outside.
    fn links() -> (tempfile::TempDir, Folder) {
        let top = tempfile::tempdir().unwrap();
        crate::fs::write_in_place(top.path().join("secret"), "root:x\n").unwrap();
        let dir = top.path().join("spec");
        crate::fs::make_dirs(dir.join("sub")).unwrap();
        crate::fs::write_in_place(dir.join("in.txt"), "0 1\n").unwrap();
        std::os::unix::fs::symlink("in.txt", dir.join("inside")).unwrap();
        std::os::unix::fs::symlink(top.path().join("secret"), dir.join("absolute")).unwrap();
        std::os::unix::fs::symlink("../secret", dir.join("up")).unwrap();
        std::os::unix::fs::symlink("..", dir.join("sub/parent")).unwrap();
        let folder = Folder::open(&dir).unwrap();
        (top, folder)
    }

    #[test]
    fn a_file_beneath_a_folder_may_not_lead_out_of_it() {
        let (_top, f) = links();
        let read = |rel: &str| open_beneath(&f, Path::new(rel), 1 << 20).map(|file| read_opened(file, rel, 1 << 20));
        assert_eq!(read("in.txt").unwrap().unwrap(), "0 1\n");
        // Links that stay inside the folder are followed.
        assert_eq!(read("inside").unwrap().unwrap(), "0 1\n");
        assert_eq!(read("sub/parent/in.txt").unwrap().unwrap(), "0 1\n");
        for out in ["absolute", "up", "../secret", "sub/parent/../secret"] {
            let e = read(out).unwrap_err();
            assert!(matches!(e, InputError::Outside { .. }), "{out}: {e}");
            assert!(!e.to_string().contains("root:x"), "{out}: {e}");
        }
    }

    #[test]
    fn without_openat2_no_link_at_all_is_followed() {
        let (_top, f) = links();
        assert!(open_without_links(&f, Path::new("in.txt")).is_ok());
        assert!(open_without_links(&f, Path::new("./in.txt")).is_ok());
        for link in ["inside", "absolute", "up", "sub/parent/in.txt", "../secret"] {
            let e = open_without_links(&f, Path::new(link)).unwrap_err();
            assert!(
                e == rustix::io::Errno::LOOP || e == rustix::io::Errno::XDEV,
                "{link}: {e}"
            );
        }
    }

    #[test]
    fn the_folder_is_held_not_looked_up_again() {
        let (top, f) = links();
        // Swap the folder for another after it was opened: reads still
        // come from the folder that was opened.
        std::fs::rename(top.path().join("spec"), top.path().join("moved")).unwrap();
        crate::fs::make_dirs(top.path().join("spec")).unwrap();
        crate::fs::write_in_place(top.path().join("spec/in.txt"), "planted\n").unwrap();
        let file = open_beneath(&f, Path::new("in.txt"), 1 << 20).unwrap();
        assert_eq!(read_opened(file, "in.txt", 1 << 20).unwrap(), "0 1\n");
    }

    #[test]
    fn a_fifo_is_refused_at_once_without_waiting_for_a_writer() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        let e = read_text(&fifo).unwrap_err();
        assert!(matches!(e, InputError::NotRegular { .. }), "{e}");
    }

    #[test]
    fn a_path_with_a_newline_is_shown_on_one_line() {
        let e = read_text(Path::new("/nonexistent/a\nFORGED")).unwrap_err().to_string();
        assert!(e.contains("a\\nFORGED") && !e.contains('\n'), "{e}");
    }

    #[test]
    fn streams_lines_and_caps_their_length() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("p.txt");
        crate::fs::write_in_place(&p, "0 1\r\n1 2\n").unwrap();
        let mut seen = Vec::new();
        for_each_line(&p, 1 << 20, |n, l| {
            seen.push((n, l.to_string()));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, vec![(1, "0 1".to_string()), (2, "1 2".to_string())]);
        crate::fs::write_in_place(&p, vec![b'7'; MAX_LINE_BYTES + 10]).unwrap();
        let e = for_each_line(&p, 1 << 20, |_, _| Ok(())).unwrap_err().to_string();
        assert!(e.contains("line 1 is longer"), "{e}");
    }
}
