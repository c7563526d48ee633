//! Counts in words: "1 file", "3 files".

/// `n` and the noun, plural unless `n` is 1 (regular nouns: `es` after
/// s, x, ch and sh, else `s`).
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else if ["s", "x", "ch", "sh"].iter().any(|end| noun.ends_with(end)) {
        format!("{n} {noun}es")
    } else {
        format!("{n} {noun}s")
    }
}

/// Sorted numbers as runs: `[3, 7, 8, 9]` is "3, 7-9".
pub fn runs(numbers: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let mut j = i;
        while j + 1 < numbers.len() && numbers[j + 1] == numbers[j] + 1 {
            j += 1;
        }
        out.push(match j - i {
            0 => numbers[i].to_string(),
            _ => format!("{}-{}", numbers[i], numbers[j]),
        });
        i = j + 1;
    }
    out.join(", ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs_join_neighbours() {
        assert_eq!(super::runs(&[3, 7, 8, 9]), "3, 7-9");
        assert_eq!(super::runs(&[64]), "64");
        assert_eq!(super::runs(&[]), "");
    }

    #[test]
    fn one_is_singular_and_the_rest_plural() {
        assert_eq!(super::count(1, "file"), "1 file");
        assert_eq!(super::count(0, "file"), "0 files");
        assert_eq!(super::count(2065, "file"), "2065 files");
        assert_eq!(super::count(2, "switch"), "2 switches");
        assert_eq!(super::count(3, "NIC"), "3 NICs");
    }
}
