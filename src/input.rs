//! Reading what a user hands us: regular files only, bounded in size, with
//! the operating system's reason in every error.
//!
//! A spec, table or pair file is text a person wrote; anything far larger
//! is a mistake (`/dev/zero`, a log file passed by accident) and must be
//! refused before it is read into memory. A FIFO or a device would block
//! or never end, so only regular files are read.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// Tables, MAC and interface files, sweep CSVs (read line by line).
pub const MAX_TEXT_BYTES: u64 = 16 << 20;
/// Specs, price lists and configuration (TOML): parsing TOML takes ~90
/// times the file's size in memory, so a 4 MiB spec peaks near 400 MB.
/// Long pair lists belong in pair files, which are streamed.
pub const MAX_TOML_BYTES: u64 = 4 << 20;
/// Pair files are streamed; this bounds their length.
pub const MAX_PAIR_FILE_BYTES: u64 = 256 << 20;
/// Lines of a pair file, and of any streamed file.
pub const MAX_LINES: usize = 10_000_000;
/// Characters in one line of a streamed file.
pub const MAX_LINE_BYTES: usize = 4096;

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

fn unreadable(path: &Path, e: &std::io::Error) -> InputError {
    InputError::Unreadable {
        path: path.display().to_string(),
        reason: os_reason(e),
    }
}

/// Opens `path` if it is a regular file no larger than `max` bytes.
fn open_regular(path: &Path, max: u64) -> Result<std::fs::File, InputError> {
    let shown = || path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| unreadable(path, &e))?;
    if !meta.is_file() {
        return Err(InputError::NotRegular { path: shown() });
    }
    if meta.len() > max {
        return Err(InputError::TooLarge {
            path: shown(),
            bytes: Some(meta.len()),
            limit: max,
        });
    }
    std::fs::File::open(path).map_err(|e| unreadable(path, &e))
}

/// The whole text of a regular file of at most `max` bytes, as UTF-8.
pub fn read_text_limited(path: &Path, max: u64) -> Result<String, InputError> {
    let f = open_regular(path, max)?;
    let mut bytes = Vec::new();
    // The file may grow between the check and the read: read one byte
    // past the limit to notice.
    f.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| unreadable(path, &e))?;
    if bytes.len() as u64 > max {
        return Err(InputError::TooLarge {
            path: path.display().to_string(),
            bytes: None,
            limit: max,
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        InputError::NotUtf8 {
            path: path.display().to_string(),
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
pub fn for_each_line(
    path: &Path,
    max_bytes: u64,
    mut f: impl FnMut(usize, &str) -> Result<(), InputError>,
) -> Result<(), InputError> {
    let shown = || path.display().to_string();
    let mut r = BufReader::new(open_regular(path, max_bytes)?.take(max_bytes + 1));
    let mut buf = Vec::new();
    let mut line_no = 0;
    loop {
        buf.clear();
        let n = (&mut r)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| unreadable(path, &e))?;
        if n == 0 {
            return Ok(());
        }
        line_no += 1;
        if line_no > MAX_LINES {
            return Err(InputError::TooManyLines { path: shown() });
        }
        if buf.len() > MAX_LINE_BYTES && !buf.ends_with(b"\n") {
            return Err(InputError::LineTooLong {
                path: shown(),
                line: line_no,
            });
        }
        let text = std::str::from_utf8(&buf).map_err(|_| InputError::NotUtf8 {
            path: shown(),
            line: line_no,
        })?;
        f(line_no, text.trim_end_matches(['\n', '\r']))?;
    }
}

/// The OS reason without Rust's "(os error 2)" suffix.
pub fn os_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_lowercase(),
        None => s,
    }
}

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
        std::fs::write(&big, vec![b'a'; 2000]).unwrap();
        let e = read_text_limited(&big, 1000).unwrap_err().to_string();
        assert!(e.contains("2000 bytes"), "{e}");
        let bad = dir.path().join("bad.txt");
        std::fs::write(&bad, b"ok\n\xff\xfe\n").unwrap();
        let e = read_text(&bad).unwrap_err().to_string();
        assert!(e.contains("line 2 is not valid UTF-8"), "{e}");
    }

    #[test]
    fn streams_lines_and_caps_their_length() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("p.txt");
        std::fs::write(&p, "0 1\r\n1 2\n").unwrap();
        let mut seen = Vec::new();
        for_each_line(&p, 1 << 20, |n, l| {
            seen.push((n, l.to_string()));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, vec![(1, "0 1".to_string()), (2, "1 2".to_string())]);
        std::fs::write(&p, vec![b'7'; MAX_LINE_BYTES + 10]).unwrap();
        let e = for_each_line(&p, 1 << 20, |_, _| Ok(())).unwrap_err().to_string();
        assert!(e.contains("line 1 is longer"), "{e}");
    }
}
