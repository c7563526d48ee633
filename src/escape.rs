//! Escaping text for each output format. The spec's text is
//! checked at load (`spec::text`), but every writer still escapes what it
//! copies, by the rules of its own format, so a field added later, or a
//! design loaded some other way, cannot break out of its place: a comment
//! stays a comment, a string stays a string, a name stays one token.

/// A value quoted for a message, control characters made visible and cut
/// short so a hostile value cannot flood or rewrite the terminal.
pub fn shown(value: &str) -> String {
    let cut: String = value.chars().take(40).collect();
    let more = if value.chars().count() > 40 { "…" } else { "" };
    format!("{:?}{more}", cut)
}

/// Characters a shell word may hold unquoted.
fn sh_plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || "._:/@%+=,-".contains(c)
}

/// A shell word: bare when it is plainly safe, else single-quoted (inside
/// single quotes only `'` is special; it becomes `'\''`).
pub fn sh_word(s: &str) -> String {
    if !s.is_empty() && s.chars().all(sh_plain) {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// A word on an `ip -batch` line: bare when plainly safe, else quoted.
/// `ip` splits its lines on blanks and takes a quoted word as it stands
/// (there is no escape inside quotes), so the quote used is one the word
/// does not hold; names and MACs are checked where they are read and
/// never hold both. `#` starts a comment there too.
pub fn batch_word(s: &str) -> String {
    if !s.is_empty() && s.chars().all(sh_plain) {
        s.to_string()
    } else if !s.contains('"') {
        format!("\"{s}\"")
    } else {
        format!("'{s}'")
    }
}

/// Text for one line of a comment (shell `#`, C and Rust `//`, plain text
/// reports): control characters, newlines included, become `?`, so the
/// comment cannot end before the line does.
pub fn one_line(s: &str) -> String {
    s.chars().map(|c| if c.is_control() { '?' } else { c }).collect()
}

/// Text for the terminal (an error message): control characters other
/// than the line breaks become visible escapes (`\u{1b}`), so text quoted
/// from an input cannot move the cursor, recolour or clear the screen; a
/// line longer than `TERMINAL_LINE` characters is cut, saying how much.
pub fn terminal(s: &str) -> String {
    s.split('\n').map(terminal_line).collect::<Vec<_>>().join("\n")
}

/// The longest line [`terminal`] passes whole.
pub const TERMINAL_LINE: usize = 1000;

fn terminal_line(line: &str) -> String {
    let mut out = String::new();
    for (shown, c) in line.chars().enumerate() {
        if shown == TERMINAL_LINE {
            let rest = line.chars().count() - shown;
            out.push_str(&format!("… ({rest} more characters)"));
            break;
        }
        if c.is_control() && c != '\t' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Text inside a C block comment: one line, and no `*/` to close it early.
pub fn c_comment(s: &str) -> String {
    one_line(s).replace("*/", "* /").replace("/*", "/ *")
}

/// A C string literal, quotes included: `\`, `"` and anything outside
/// printable ASCII escaped as octal (C has no fixed-length hex escape).
pub fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for b in s.bytes() {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            // `?` escaped too: `??/` is a trigraph in older C.
            b'?' => out.push_str("\\?"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out.push('"');
    out
}

/// A Rust string literal, quotes included.
pub fn rust_string(s: &str) -> String {
    format!("{s:?}")
}

/// Text for XML, SVG and HTML content and attribute values.
pub fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// A Graphviz DOT string, quotes included.
pub fn dot_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push('?'),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A host name for /etc/hosts, which has no quoting: anything but
/// letters, digits, `-` and `.` becomes `-`.
pub fn host_name(s: &str) -> String {
    let h: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if h.is_empty() { "-".into() } else { h }
}

/// CSV text from rows, quoted by the CSV rules (the `csv` crate).
pub fn csv<I, R, F>(rows: I) -> String
where
    I: IntoIterator<Item = R>,
    R: IntoIterator<Item = F>,
    F: AsRef<[u8]>,
{
    let mut w = csv::WriterBuilder::new().flexible(true).from_writer(Vec::new());
    for row in rows {
        w.write_record(row).expect("writing CSV to memory cannot fail");
    }
    let bytes = w.into_inner().expect("writing CSV to memory cannot fail");
    String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8")
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_batch_word_is_bare_when_plain_and_quoted_with_a_quote_it_lacks() {
        assert_eq!(super::batch_word("enp1s0f0"), "enp1s0f0");
        assert_eq!(super::batch_word("a b#c"), "\"a b#c\"");
        assert_eq!(super::batch_word("say \"x\""), "'say \"x\"'");
        assert_eq!(super::batch_word(""), "\"\"");
    }

    #[test]
    fn terminal_text_shows_control_characters_and_cuts_long_lines() {
        assert_eq!(terminal("a\u{1b}[2Jb\nc\td"), "a\\u{1b}[2Jb\nc\td");
        let long = "x".repeat(TERMINAL_LINE + 5);
        let cut = terminal(&long);
        assert!(cut.ends_with("… (5 more characters)"), "{cut:.40}");
        assert_eq!(cut.chars().filter(|&c| c == 'x').count(), TERMINAL_LINE);
    }

    use super::*;

    #[test]
    fn each_format_keeps_hostile_text_in_its_place() {
        assert_eq!(sh_word("eth0"), "eth0");
        assert_eq!(sh_word("a b"), "'a b'");
        assert_eq!(sh_word("x'; touch pwned; '"), "'x'\\''; touch pwned; '\\'''");
        assert_eq!(sh_word(""), "''");
        assert_eq!(one_line("k\ntouch pwned #"), "k?touch pwned #");
        assert_eq!(c_comment("x */ int pwned = 1; /*"), "x * / int pwned = 1; / *");
        assert_eq!(c_string("a\"b\\c\n?"), "\"a\\\"b\\\\c\\012\\?\"");
        assert_eq!(rust_string("a\"\n"), "\"a\\\"\\n\"");
        assert_eq!(xml("#1\"><script>&'"), "#1&quot;&gt;&lt;script&gt;&amp;&#39;");
        assert_eq!(dot_string("a\"b\\\nc"), "\"a\\\"b\\\\\\nc\"");
        assert_eq!(host_name("k\n10.0.0.1 evil"), "k-10.0.0.1-evil");
        assert_eq!(csv([["a,b", "c\"d", "e"]]), "\"a,b\",\"c\"\"d\",e\n");
    }
}
