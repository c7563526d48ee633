//! Appending to a file the user named, such as `--log FILE`, which may sit
//! in a folder other users write.

use rustix::fs::{FileType, OFlags};
use std::fs::File;
use std::io;
use std::path::Path;

/// Opens `path` for appending, creating it (mode 0666 less the umask) if
/// missing. Refused: a link at any component (see [`super::walk`]; the
/// last one is never followed), anything but a regular file (opened
/// non-blocking, so a FIFO is an error, not a hang), a file owned by
/// another user than the caller or root (theirs to plant), and a file
/// with a second name (a hard link to a file elsewhere).
/// `what` names the file in messages ("the log").
pub fn open_append(path: &Path, what: &str) -> io::Result<File> {
    let (dir, name) = super::parent_and_name(path)?;
    // Said before opening: a FIFO without a reader fails to open with a
    // reason that names no FIFO. The open checks again what it opened.
    if let Some(e) = dir.entry(&name)?
        && let Some(kind) = not_regular(e.kind)
    {
        return Err(io::Error::other(format!("it is {kind}; {what} must be a regular file")));
    }
    let file = dir
        .open_file(
            &name,
            OFlags::WRONLY | OFlags::APPEND | OFlags::CREATE | OFlags::NONBLOCK,
            0o666,
        )
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => io::Error::other(format!(
                "it is a link: fnn-tui never appends through a link (another user could point it anywhere); \
                 give the real file's path as {what}"
            )),
            Some(libc::EISDIR) => io::Error::other(format!("it is a folder; {what} must be a regular file")),
            _ => e,
        })?;
    let st = rustix::fs::fstat(&file)?;
    let me = rustix::process::geteuid().as_raw();
    let refuse = |why: String| Err(io::Error::other(why));
    if let Some(kind) = not_regular(FileType::from_raw_mode(st.st_mode)) {
        return refuse(format!("it is {kind}; {what} must be a regular file"));
    }
    if st.st_uid != me && st.st_uid != 0 {
        return refuse(format!(
            "it belongs to user {}, not to you (user {me}) or root: another user's file is never appended to; \
             remove it or give another path for {what}",
            st.st_uid
        ));
    }
    if st.st_nlink > 1 {
        return refuse(format!(
            "it has {} names (hard links), so it may be another file elsewhere; give {what} a file of its own",
            st.st_nlink
        ));
    }
    // Back to blocking writes for the log lines themselves.
    rustix::fs::fcntl_setfl(&file, OFlags::APPEND)?;
    Ok(file)
}

/// What a kind of file is, in words, unless it is a regular file (a link
/// is refused when opening, without following it).
fn not_regular(kind: FileType) -> Option<&'static str> {
    match kind {
        FileType::RegularFile | FileType::Symlink => None,
        FileType::Fifo => Some("a FIFO"),
        FileType::CharacterDevice | FileType::BlockDevice => Some("a device"),
        FileType::Socket => Some("a socket"),
        FileType::Directory => Some("a folder"),
        FileType::Unknown => Some("not a regular file"),
    }
}
