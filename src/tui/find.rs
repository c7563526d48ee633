//! `/` in the designer: what the user typed, read as a PC, a switch or
//! both, so the grid's cursor can go there.

use crate::spec::Cluster;

/// Where to put the grid's cursor: a PC's row, a switch's column, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub pc: Option<usize>,
    pub switch: Option<usize>,
}

/// What a find names that is not there, with what is.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum NotFound {
    #[error("no PC or switch called {word:?}: {pcs}; {switches}")]
    Stranger {
        word: String,
        pcs: String,
        switches: String,
    },
    #[error("type a PC or a switch: {pcs}; {switches}")]
    Empty { pcs: String, switches: String },
    #[error("there is no {what} {number}: {range}")]
    Number {
        what: &'static str,
        number: String,
        range: String,
    },
}

/// Reads `query`: a PC's name (`k10`), a switch as `s3`, `sw3` or
/// `switch 3`, a bare number as a PC's number, or a PC and a switch
/// together (`k10 s3`). The error says what was not found and what is.
pub fn find(c: &Cluster, query: &str) -> Result<Found, NotFound> {
    let mut found = Found { pc: None, switch: None };
    let words: Vec<&str> = query.split_whitespace().collect();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let lower = w.to_ascii_lowercase();
        let switch_word = ["switch", "sw"].contains(&lower.as_str()) && i + 1 < words.len();
        // A PC's own name wins over `sN` (PCs may be named s0, s1, ...).
        let pc = (!switch_word).then(|| c.pc_named(w)).flatten();
        let switch_text = if switch_word {
            i += 1;
            Some(words[i])
        } else {
            ["switch", "sw", "s"]
                .iter()
                .find_map(|p| lower.strip_prefix(p))
                .filter(|rest| is_number(rest))
        };
        if let Some(pc) = pc {
            found.pc = Some(pc);
        } else if let Some(n) = switch_text {
            found.switch = Some(number(n, c.switch_count(), "switch", || switches(c))?);
        } else if is_number(w) {
            found.pc = Some(number(w, c.pcs(), "PC", || pcs(c))?);
        } else {
            return Err(NotFound::Stranger {
                word: w.to_string(),
                pcs: pcs(c),
                switches: switches(c),
            });
        }
        i += 1;
    }
    if found == (Found { pc: None, switch: None }) {
        return Err(NotFound::Empty {
            pcs: pcs(c),
            switches: switches(c),
        });
    }
    Ok(found)
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn number(s: &str, count: usize, what: &'static str, range: impl Fn() -> String) -> Result<usize, NotFound> {
    match s.parse::<usize>() {
        Ok(n) if n < count => Ok(n),
        _ => Err(NotFound::Number {
            what,
            number: s.to_string(),
            range: range(),
        }),
    }
}

fn pcs(c: &Cluster) -> String {
    format!("PCs are {}..{}", c.pc_name(0), c.pc_name(c.pcs().saturating_sub(1)))
}

fn switches(c: &Cluster) -> String {
    format!("switches s0..s{} (or `switch N`)", c.switch_count().saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn klat2() -> Cluster {
        crate::spec::Spec::klat2().resolve().unwrap()
    }

    #[test]
    fn names_numbers_and_switches_are_found_and_strangers_are_named() {
        let c = klat2();
        let at = |pc, switch| Ok(Found { pc, switch });
        assert_eq!(find(&c, "k10"), at(Some(10), None));
        assert_eq!(find(&c, "10"), at(Some(10), None));
        assert_eq!(find(&c, "s3"), at(None, Some(3)));
        assert_eq!(find(&c, "switch 3"), at(None, Some(3)));
        assert_eq!(find(&c, "Sw3 k63"), at(Some(63), Some(3)));
        let e = find(&c, "k64").unwrap_err().to_string();
        assert!(e.contains("\"k64\"") && e.contains("k00..k63"), "{e}");
        let e = find(&c, "s99").unwrap_err().to_string();
        assert!(e.contains("no switch 99") && e.contains("s0..s"), "{e}");
        assert!(find(&c, "  ").is_err());
    }
}
