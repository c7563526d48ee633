//! Looking a PC's targets up in its own hosts file, as the resolver's
//! `files` source does for `ping NAME`: the first line naming a host
//! gives its address, names match without regard to case, and what
//! follows `#` is a comment.

use std::collections::HashMap;
use std::net::Ipv4Addr;

/// Every IPv4 name in a hosts file, lower-cased, at its first address.
pub fn addresses(text: &str) -> HashMap<String, Ipv4Addr> {
    let mut out = HashMap::new();
    for line in text.lines() {
        let mut words = line.split('#').next().unwrap_or("").split_whitespace();
        let Some(Ok(addr)) = words.next().map(str::parse::<Ipv4Addr>) else {
            continue;
        };
        for name in words {
            out.entry(name.to_ascii_lowercase()).or_insert(addr);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_line_naming_a_host_wins_and_comments_are_skipped() {
        let text =
            "# hosts\n127.0.0.1 localhost\n10.1.0.2 K02 k02.cluster # the route\n10.2.0.2 k02\n::1 k03\nbad k04\n";
        let a = addresses(text);
        assert_eq!(a.get("k02"), Some(&Ipv4Addr::new(10, 1, 0, 2)));
        assert_eq!(a.get("k02.cluster"), Some(&Ipv4Addr::new(10, 1, 0, 2)));
        assert_eq!(a.get("localhost"), Some(&Ipv4Addr::LOCALHOST));
        assert!(!a.contains_key("the") && !a.contains_key("k03") && !a.contains_key("k04"));
    }
}
