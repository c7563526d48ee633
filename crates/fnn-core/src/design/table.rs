//! The canonical switch table of the FNN compiler paper ("The FNN Compiler's Output"):
//! one line per FNN switch, `S: p p p ...`, switch number, colon, sorted
//! 0-based PC numbers. Every other tool reads this table and a user may write
//! or edit it by hand, so the parser names the line of every problem.

use super::Design;
use std::collections::BTreeMap;
use thiserror::Error;

#[derive(Debug, Error, PartialEq, Eq)]
#[error("{source_name}:{line}: {message}")]
pub struct TableError {
    pub source_name: String,
    pub line: usize,
    pub message: String,
}

/// Prints the table: every switch that has at least one PC, ascending.
pub fn format_table(design: &Design) -> String {
    let mut out = String::new();
    for (s, pcs) in design.pcs_on_switches().iter().enumerate() {
        if pcs.is_empty() {
            continue;
        }
        out.push_str(&s.to_string());
        out.push(':');
        for pc in pcs {
            out.push(' ');
            out.push_str(&pc.to_string());
        }
        out.push('\n');
    }
    out
}

/// Parses a table. `#` starts a comment; blank lines are ignored. With
/// sizes from a spec (`pcs_hint`, `switches_hint` > 0) every number must
/// fall inside them; a 0 hint lets the table imply that size (the highest
/// number + 1), up to [`MAX_IMPLIED`]. Numbers are checked as they are
/// read, so a typo like PC 100000 is refused at once, not after building
/// a design that size.
pub fn parse_table(text: &str, source_name: &str, pcs_hint: usize, switches_hint: usize) -> Result<Design, TableError> {
    let err = |line: usize, message: String| TableError {
        source_name: source_name.to_string(),
        line,
        message,
    };
    let mut rows: BTreeMap<usize, (usize, Vec<usize>)> = BTreeMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (head, tail) = line.split_once(':').ok_or_else(|| {
            err(
                line_no,
                format!("expected `S: p p p` (switch number, colon, PC numbers), found `{line}`"),
            )
        })?;
        let switch = parse_number(head.trim(), "switch", switches_hint).map_err(|m| err(line_no, m.to_string()))?;
        if let Some((first, _)) = rows.get(&switch) {
            return Err(err(
                line_no,
                format!("switch {switch} is listed twice (first on line {first})"),
            ));
        }
        let mut pcs = Vec::new();
        for tok in tail
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
        {
            let pc =
                parse_number(tok, "PC", pcs_hint).map_err(|m| err(line_no, format!("{m} (on switch {switch})")))?;
            if pcs.contains(&pc) {
                return Err(err(
                    line_no,
                    format!("PC {pc} is listed twice on switch {switch}; a PC has at most one NIC on a switch"),
                ));
            }
            pcs.push(pc);
        }
        rows.insert(switch, (line_no, pcs));
    }
    let max_pc = rows.values().flat_map(|(_, p)| p.iter().copied()).max();
    let pcs = pcs_hint.max(max_pc.map_or(0, |p| p + 1));
    let switches = switches_hint.max(rows.keys().next_back().map_or(0, |s| s + 1));
    let mut design = Design::new(pcs, switches);
    for (switch, (_, list)) in rows {
        for pc in list {
            design.connect(pc, switch);
        }
    }
    Ok(design)
}

/// PCs and switches a table may imply without a spec: a typo must not
/// ask for a gigantic design (the metrics are quadratic in PCs).
pub(crate) const MAX_IMPLIED: usize = 1 << 14;

/// A PC or switch number, range-checked against the spec's size (`hint`)
/// or, with none, against [`MAX_IMPLIED`].
fn parse_number(tok: &str, what: &'static str, hint: usize) -> Result<usize, NumberError> {
    if tok.is_empty() || !tok.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NumberError::NotWhole {
            what,
            shown: crate::escape::shown(tok),
        });
    }
    let n = tok.parse::<usize>().unwrap_or(usize::MAX);
    let number = tok.to_string();
    match hint {
        0 if n >= MAX_IMPLIED => Err(NumberError::Implied { what, number }),
        h if h > 0 && n >= h => Err(NumberError::OutOfRange {
            what,
            number,
            last: h - 1,
        }),
        _ => Ok(n),
    }
}

/// A PC or switch number that does not read.
#[derive(Debug, Error, PartialEq, Eq)]
enum NumberError {
    #[error("{what} number {shown} is not a whole number (0, 1, 2, ...)")]
    NotWhole { what: &'static str, shown: String },
    #[error(
        "{what} {number} is out of range: without a spec a table may have {what}s 0..{} (give --spec or --pcs/--switches for more)",
        MAX_IMPLIED - 1
    )]
    Implied { what: &'static str, number: String },
    #[error("{what} {number} is out of range 0..{last}")]
    OutOfRange {
        what: &'static str,
        number: String,
        last: usize,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIX_PCS: &str = "0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n";

    #[test]
    fn round_trips_the_six_pc_example() {
        let d = parse_table(SIX_PCS, "t", 0, 0).unwrap();
        assert_eq!(d.pcs(), 6);
        assert_eq!(d.switches(), 3);
        assert_eq!(format_table(&d), SIX_PCS);
    }

    #[test]
    fn comments_blank_lines_and_commas_are_accepted() {
        let d = parse_table("# KLAT2\n\n1: 3, 2 # second\n0:0 1\n", "t", 0, 0).unwrap();
        assert_eq!(format_table(&d), "0: 0 1\n1: 2 3\n");
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse_table("0: 1 2\n0: 3\n", "x.txt", 0, 0).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.to_string().starts_with("x.txt:2: switch 0 is listed twice"));
        let e = parse_table("0: 1 two\n", "x.txt", 0, 0).unwrap_err();
        assert!(e.message.contains("\"two\" is not a whole number"), "{e}");
        let e = parse_table("0 1 2\n", "x.txt", 0, 0).unwrap_err();
        assert!(e.message.contains("expected `S: p p p`"), "{e}");
        let e = parse_table("0: 1 1\n", "x.txt", 0, 0).unwrap_err();
        assert!(e.message.contains("listed twice on switch 0"), "{e}");
        let e = parse_table("0: 99999999999\n", "x.txt", 0, 0).unwrap_err();
        assert!(e.message.contains("out of range: without a spec"), "{e}");
    }

    /// Ids are checked against the spec while parsing.
    #[test]
    fn numbers_outside_the_spec_are_refused_with_the_range() {
        let e = parse_table("0: 1 2\n1: 3 99\n", "t.txt", 64, 8).unwrap_err();
        assert_eq!(e.to_string(), "t.txt:2: PC 99 is out of range 0..63 (on switch 1)");
        let e = parse_table("999999: 1\n", "t.txt", 64, 8).unwrap_err();
        assert_eq!(e.to_string(), "t.txt:1: switch 999999 is out of range 0..7");
        assert!(parse_table("0: 16383\n", "t", 0, 0).is_ok());
        assert!(parse_table("16384: 0\n", "t", 0, 0).is_err());
    }

    #[test]
    fn hints_fix_the_sizes() {
        let d = parse_table("0: 0\n", "t", 10, 4).unwrap();
        assert_eq!((d.pcs(), d.switches()), (10, 4));
    }
}
