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

/// Text for one line of a message or a log: every control character,
/// newlines included, becomes a visible escape (`\n`, `\u{1b}`), so a
/// quoted path or name can neither add lines nor drive the terminal.
pub fn line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A log file's writer: each write is one event (the `tracing` formatter
/// writes an event whole), kept to one line by [`line`]: a path or name
/// holding a newline cannot forge a second log line.
pub struct LogLines<W>(pub W);

impl<W: std::io::Write> std::io::Write for LogLines<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        let body = text.strip_suffix('\n').unwrap_or(&text);
        self.0.write_all(format!("{}\n", line(body)).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// Text for the terminal (an error message): control characters other
/// than the line breaks become visible escapes (`\u{1b}`), so text quoted
/// from an input cannot move the cursor, recolour or clear the screen; a
/// line longer than `TERMINAL_LINE` characters is cut, saying how much.
pub fn terminal(s: &str) -> String {
    s.split('\n').map(terminal_line).collect::<Vec<_>>().join("\n")
}

/// The longest line [`terminal`] passes whole.
pub(crate) const TERMINAL_LINE: usize = 1000;

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

/// CSV text from rows, quoted by the CSV rules. A text cell a spreadsheet
/// would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return) is neutralised as OWASP recommends: a `'` before it,
/// and the cell quoted. Numbers (`-3`, `+1.5`) stay numbers.
pub fn csv<I, R, F>(rows: I) -> String
where
    I: IntoIterator<Item = R>,
    R: IntoIterator<Item = F>,
    F: AsRef<[u8]>,
{
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .into_iter()
            .map(|f| String::from_utf8_lossy(f.as_ref()).into_owned())
            .collect();
        let alone = cells.len() == 1;
        let line: Vec<String> = cells.iter().map(|c| csv_cell(c, alone)).collect();
        out.push_str(&line.join(","));
        out.push('\n');
    }
    out
}

/// One CSV cell: quoted when it holds a comma, a quote or a line break
/// (or is a row's only cell and empty, which would read as no row), and
/// when it is neutralised.
fn csv_cell(cell: &str, alone: bool) -> String {
    let formula = csv_formula(cell);
    let quote = formula || cell.contains([',', '"', '\n', '\r']) || (alone && cell.is_empty());
    let body = if formula { format!("'{cell}") } else { cell.to_string() };
    if quote {
        format!("\"{}\"", body.replace('"', "\"\""))
    } else {
        body
    }
}

/// Whether a spreadsheet would take `cell` for a formula: it starts with
/// one of OWASP's trigger characters and is not a plain number.
fn csv_formula(cell: &str) -> bool {
    let number = cell.bytes().all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
        && cell.parse::<f64>().is_ok_and(f64::is_finite);
    cell.starts_with(['=', '+', '-', '@', '\t', '\r']) && !number
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
    fn a_message_line_shows_newlines_and_escapes() {
        assert_eq!(line("a\nb\r\u{1b}[2J\tc"), "a\\nb\\r\\u{1b}[2J\\tc");
        assert_eq!(line("plain ünïcode"), "plain ünïcode");
    }

    #[test]
    fn a_log_event_stays_one_line() {
        use std::io::Write;
        let mut log = LogLines(Vec::new());
        log.write_all(b"saved path=/tmp/a\nFAKE ERROR root shell\n").unwrap();
        log.write_all(b"next\n").unwrap();
        let text = String::from_utf8(log.0).unwrap();
        assert_eq!(text, "saved path=/tmp/a\\nFAKE ERROR root shell\nnext\n");
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

    #[test]
    fn csv_text_a_spreadsheet_would_run_is_neutralised_and_numbers_stay() {
        let row = [
            "+CONCAT(1,2)",
            "-HYPERLINK(\"http://x\")",
            "=1+1",
            "@SUM(A1)",
            "\tx",
            "\r=1",
        ];
        let text = csv([row]);
        assert_eq!(
            text,
            "\"'+CONCAT(1,2)\",\"'-HYPERLINK(\"\"http://x\"\")\",\"'=1+1\",\"'@SUM(A1)\",\"'\tx\",\"'\r=1\"\n"
        );
        assert_eq!(csv([["-3", "+1.5", "-0.25", "a-b", ""]]), "-3,+1.5,-0.25,a-b,\n");
        assert_eq!(csv([[""]]), "\"\"\n");
    }
}
