//! The tests' counts, from libtest's own lines, with the tests that could
//! not run taken out of "passed": libtest counts a test that returned
//! early as passed, so each such test leaves a note (see `tests/common`'s
//! `not_run`) and the tally moves it to "skipped".

use std::fmt;

#[derive(Debug, Default, PartialEq)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
    pub ignored: usize,
    /// Each test that did not run, with why.
    pub skipped: Vec<String>,
    /// The tests libtest reported FAILED, by name.
    pub failures: Vec<String>,
}

impl Tally {
    /// Takes in one line of `cargo test`'s output.
    pub fn read(&mut self, line: &str) {
        if let Some(counts) = line.strip_prefix("test result: ") {
            self.passed += count(counts, "passed");
            self.failed += count(counts, "failed");
            self.ignored += count(counts, "ignored");
        } else if let Some(name) = line.strip_prefix("test ").and_then(|l| l.strip_suffix(" ... FAILED")) {
            self.failures.push(name.to_string());
        }
    }

    /// Takes in the notes of the tests that did not run.
    pub fn skip(&mut self, notes: Vec<String>) {
        self.skipped = notes;
        self.skipped.sort();
    }

    /// The tests that ran and passed: libtest's passed less the skipped.
    pub fn ran_and_passed(&self) -> usize {
        self.passed.saturating_sub(self.skipped.len())
    }
}

/// The number before `word` in "ok. 12 passed; 0 failed; 1 ignored; ...".
fn count(counts: &str, word: &str) -> usize {
    let number = |part: &str| {
        let mut words = part.split_whitespace().rev();
        (words.next() == Some(word))
            .then(|| words.next()?.parse::<usize>().ok())
            .flatten()
    };
    counts.split(';').filter_map(number).sum()
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(
            f,
            "tests: {} passed, {} failed, {} skipped (could not run here), {} ignored",
            self.ran_and_passed(),
            self.failed,
            self.skipped.len(),
            self.ignored
        )?;
        for s in &self.skipped {
            writeln!(f, "  skipped {s}")?;
        }
        for name in &self.failures {
            writeln!(f, "  FAILED {name}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libtests_lines_are_summed_and_the_skipped_are_not_passed() {
        let mut t = Tally::default();
        t.read("test result: ok. 12 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 1.00s");
        t.read("test e2e_pty::it_quits ... FAILED");
        t.read("test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 2s");
        t.skip(vec!["emulate::a: needs root".into()]);
        assert_eq!((t.ran_and_passed(), t.failed, t.ignored), (14, 1, 1));
        assert_eq!(t.failures, ["e2e_pty::it_quits"]);
        let said = t.to_string();
        assert!(said.starts_with("tests: 14 passed, 1 failed, 1 skipped"), "{said}");
        assert!(said.contains("skipped emulate::a: needs root"), "{said}");
    }
}
