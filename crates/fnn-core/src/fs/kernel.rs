//! Kernel settings under `/proc/sys`: written in place (they are not
//! files that can be swapped), opened without following a link.

use rustix::fs::OFlags;
use std::io::Write;
use std::path::Path;

/// Writes `value` to the setting at `path` (under `/proc/sys`).
pub fn set(path: &Path, value: &str) -> std::io::Result<()> {
    let (dir, name) = super::parent_and_name(path)?;
    dir.open_file(&name, OFlags::WRONLY, 0)?.write_all(value.as_bytes())
}
