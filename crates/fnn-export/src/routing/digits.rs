//! Numbers inside names (`eth12`, a NIC column, a port's digits), read
//! strictly: shared by the address plan, the MAC discovery and verify.

/// Digits only, as a number (`str::parse` would take a leading `+`).
pub fn whole_number(text: &str) -> Option<usize> {
    if text.is_empty() || text.len() > 9 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}
