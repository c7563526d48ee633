//! How much memory a command may take: what the machine (or the cgroup a
//! container runs in) has free, less a margin, so a model or population
//! that would not fit is refused with its estimate instead of being
//! killed half-way (or taking the machine down with it).

/// The share of the free memory one command plans to use: the rest is
/// for the allocator's slack, the other racer's thread and the machine.
const SHARE_PERCENT: u64 = 75;

/// Overrides the measured budget (bytes, or with a K/M/G suffix), for a
/// machine shared with jobs the kernel's figures do not show.
pub const ENV: &str = "FNN_TUI_MEMORY_BUDGET";

/// The bytes a command may plan to allocate.
pub fn memory() -> u64 {
    if let Some(b) = std::env::var(ENV).ok().and_then(|v| parse_size(&v)) {
        return b;
    }
    let free = available().unwrap_or(4 << 30);
    free / 100 * SHARE_PERCENT
}

/// The smaller of the kernel's `MemAvailable` and what this process's
/// cgroup (v2) still allows.
fn available() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let mut free = meminfo_kb(&meminfo, "MemAvailable")? * 1024;
    if let Some(room) = cgroup_room() {
        free = free.min(room);
    }
    Some(free)
}

fn meminfo_kb(meminfo: &str, key: &str) -> Option<u64> {
    meminfo
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
}

/// `memory.max - memory.current` of this process's cgroup, when it has a
/// limit.
fn cgroup_room() -> Option<u64> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = own.lines().find_map(|l| l.strip_prefix("0::"))?;
    let dir = std::path::Path::new("/sys/fs/cgroup").join(path.trim_start_matches('/'));
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).ok();
    let max: u64 = read("memory.max")?.trim().parse().ok()?;
    let current: u64 = read("memory.current")?.trim().parse().ok()?;
    Some(max.saturating_sub(current))
}

/// `123`, `512K`, `4M`, `2G` (powers of 1024), as bytes.
pub fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let (digits, shift) = match t.char_indices().last()? {
        (i, 'k' | 'K') => (&t[..i], 10),
        (i, 'm' | 'M') => (&t[..i], 20),
        (i, 'g' | 'G') => (&t[..i], 30),
        _ => (t, 0),
    };
    digits.parse::<u64>().ok()?.checked_mul(1 << shift)
}

/// `3.2 GB`, `410 MB`: an estimate in the unit a person reads.
pub fn human(bytes: u64) -> String {
    const GB: f64 = (1u64 << 30) as f64;
    const MB: f64 = (1u64 << 20) as f64;
    let b = bytes as f64;
    if b >= GB {
        format!("{:.1} GB", b / GB)
    } else if b >= MB {
        format!("{:.0} MB", b / MB)
    } else {
        format!("{:.0} KB", (b / 1024.0).max(1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_with_or_without_a_suffix() {
        assert_eq!(parse_size("123"), Some(123));
        assert_eq!(parse_size("4k"), Some(4096));
        assert_eq!(parse_size(" 2G "), Some(2 << 30));
        assert_eq!(parse_size("1.5G"), None);
        assert_eq!(parse_size("G"), None);
        assert_eq!(parse_size("99999999999999999999G"), None);
        assert_eq!(parse_size(""), None);
    }

    #[test]
    fn meminfo_is_read_by_key() {
        let m = "MemTotal:       24000000 kB\nMemFree: 100 kB\nMemAvailable:   20000000 kB\n";
        assert_eq!(meminfo_kb(m, "MemAvailable"), Some(20_000_000));
        assert_eq!(meminfo_kb(m, "MemFree"), Some(100));
        assert_eq!(meminfo_kb(m, "Swap"), None);
    }

    #[test]
    fn this_machine_has_a_budget() {
        let b = memory();
        assert!(b > 16 << 20, "budget {b}");
        assert_eq!(human(3 << 29), "1.5 GB");
        assert_eq!(human(410 << 20), "410 MB");
        assert_eq!(human(730 << 10), "730 KB");
    }
}
