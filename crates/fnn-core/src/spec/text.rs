//! What text a spec may hold. Names reach root boot scripts,
//! compiled headers, SVG opened in browsers and file names, so they are
//! limited at load to characters no output format treats specially; the
//! writers escape as well (`crate::escape`), so a field added later
//! without a rule here still cannot break out of its place.

use super::error::SpecError;
use crate::escape::shown;

/// Longest label (names, models, colour names).
pub(crate) const MAX_LABEL: usize = 64;
/// Longest host-name prefix.
pub(crate) const MAX_PREFIX: usize = 32;

/// The characters of a label besides ASCII letters and digits.
pub(crate) const LABEL_PUNCTUATION: &str = " ._,+-/()";

/// Describes the label rule for messages and the README.
pub(crate) fn label_rule() -> String {
    format!(
        "up to {MAX_LABEL} characters: ASCII letters, digits, spaces and {}, not starting or ending with a space",
        LABEL_PUNCTUATION
            .trim_start()
            .chars()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(" ")
    )
}

/// Whether `s` is a label: a name, model or colour name.
pub(crate) fn is_label(s: &str) -> bool {
    s.len() <= MAX_LABEL
        && s.trim() == s
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || LABEL_PUNCTUATION.contains(c))
}

/// Whether `s` is a host-name prefix: a letter, then letters, digits or
/// `-`. Host names are the prefix plus a number, and name files
/// (`fnn-setup-<host>.sh`) and lines of /etc/hosts.
pub(crate) fn is_prefix(s: &str) -> bool {
    let mut chars = s.chars();
    s.len() <= MAX_PREFIX
        && chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// Whether `s` is a colour `#rrggbb`.
pub(crate) fn is_hex_color(s: &str) -> bool {
    s.len() == 7 && s.starts_with('#') && s[1..].chars().all(|c| c.is_ascii_hexdigit())
}

/// `Ok` when `fits`, else an error naming the field, the value and `rule`.
fn check(file: &str, field: &str, value: &str, fits: bool, rule: &str) -> Result<(), SpecError> {
    if fits {
        return Ok(());
    }
    Err(SpecError::field(
        file,
        field,
        format!("{} is not allowed: use {rule}", shown(value)),
    ))
}

/// `value` as a label, or an error naming the field and the rule.
pub(crate) fn check_label(file: &str, field: &str, value: &str, allow_empty: bool) -> Result<(), SpecError> {
    let fits = is_label(value) && (allow_empty || !value.is_empty());
    check(file, field, value, fits, &label_rule())
}

pub(crate) fn check_prefix(file: &str, field: &str, value: &str) -> Result<(), SpecError> {
    let rule = format!(
        "up to {MAX_PREFIX} characters, a letter first, then letters, digits or `-` (host names are the prefix plus a number)"
    );
    check(file, field, value, is_prefix(value), &rule)
}

pub(crate) fn check_hex_color(file: &str, field: &str, value: &str) -> Result<(), SpecError> {
    check(
        file,
        field,
        value,
        is_hex_color(value),
        "a colour `#rrggbb` (six hex digits)",
    )
}

/// A label made from arbitrary text (a file name, say): characters
/// outside the rule become `_`, and it is cut to length.
pub fn sanitize_label(s: &str) -> String {
    let mapped: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || LABEL_PUNCTUATION.contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(MAX_LABEL)
        .collect();
    let t = mapped.trim().to_string();
    if t.is_empty() { "cluster".into() } else { t }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_prefixes_and_colours() {
        for ok in [
            "KLAT2",
            "modular, 1 line card (18 ports)",
            "RealTek-based 100Mb/s Fast Ethernet",
            "",
        ] {
            assert!(is_label(ok), "{ok}");
        }
        for bad in [
            "k\ntouch pwned #",
            "x */ int pwned = 1; /*",
            "a\"b",
            "a'b",
            "$(id)",
            " lead",
            "<b>",
            &"x".repeat(65),
        ] {
            assert!(!is_label(bad), "{bad}");
        }
        for ok in ["k", "node", "rack-a"] {
            assert!(is_prefix(ok), "{ok}");
        }
        for bad in ["", "../../x", "1n", "a b", "n_1", "k\n", &"k".repeat(33)] {
            assert!(!is_prefix(bad), "{bad}");
        }
        assert!(is_hex_color("#1f4fD1"));
        for bad in ["#1f4fd1\"><script>", "1f4fd1", "#12345", "#gggggg"] {
            assert!(!is_hex_color(bad), "{bad}");
        }
        assert_eq!(sanitize_label("../t\"x\n.txt"), "../t_x_.txt");
        assert_eq!(shown("a\nb"), "\"a\\nb\"");
    }
}
