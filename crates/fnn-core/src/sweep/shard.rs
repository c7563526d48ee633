//! Shards of a sweep: a fixed, balanced share of the cells per shard, each
//! written to its own file under a line naming the settings, and the merge
//! that combines shard files in any order and refuses foreign ones.

use super::{Budget, Point, SweepError};

/// Shard `index` of `count` (1-based, as Slurm's array task ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Parses `I/N` with 1 <= I <= N.
    pub fn parse(text: &str) -> Result<Shard, SweepError> {
        let bad = || SweepError::Shard { text: text.to_string() };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The shard's file name in the output directory.
    pub fn file_name(&self) -> String {
        format!("shard-{}-of-{}.csv", self.index, self.count)
    }

    /// This shard's cells of `cells`: all cells ordered by expected cost,
    /// dealt round-robin, so each shard gets its share of the slow ones
    /// (the GA and exact search run only up to `budget.max_pcs` PCs).
    pub fn cells(&self, cells: &[(usize, u32)], budget: Budget) -> Vec<(usize, u32)> {
        let mut order = cells.to_vec();
        order.sort_by_key(|&(p, n)| (std::cmp::Reverse(cost(p, n, budget)), p, n));
        order
            .into_iter()
            .enumerate()
            .filter(|(k, _)| k % self.count == self.index - 1)
            .map(|(_, c)| c)
            .collect()
    }
}

/// A rough rank of a cell's cost: searched cells (GA, exact) first, the
/// larger and the more NICs the slower; construction-only cells after.
fn cost(pcs: usize, nics: u32, budget: Budget) -> (bool, usize) {
    let searched = budget.anneal > 0 || pcs <= budget.max_pcs && (budget.generations > 0 || budget.exact_s > 0.0);
    (searched, pcs * nics as usize)
}

/// What a shard was computed with; shards merge only when all agree.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub version: String,
    pub pcs: Vec<usize>,
    pub nics: Vec<usize>,
    pub budget: Budget,
}

/// The first line of a shard file.
const TAG: &str = "# fnn-tui sweep shard:";

impl Settings {
    /// Pairs of flag and value, in the order they are written.
    fn fields(&self) -> Vec<(&'static str, String)> {
        let list = |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join(",");
        vec![
            ("version", self.version.clone()),
            ("--pcs", list(&self.pcs)),
            ("--nics", list(&self.nics)),
            ("--generations", self.budget.generations.to_string()),
            ("--ga-pcs", self.budget.max_pcs.to_string()),
            ("--seed", self.budget.seed.to_string()),
            ("--exact-budget", self.budget.exact_s.to_string()),
            ("--anneal", self.budget.anneal.to_string()),
        ]
    }

    /// The line heading a shard file of `shard`.
    pub fn line(&self, shard: Shard) -> String {
        let fields: Vec<String> = self.fields().into_iter().map(|(k, v)| format!("{k} {v}")).collect();
        format!("{TAG} {}/{}; {}\n", shard.index, shard.count, fields.join("; "))
    }

    /// How `line` (a shard file's first line) differs from these settings,
    /// in words: "--pcs 3,4,5 there, 3,4,5,6 here"; empty when it agrees.
    fn differences(&self, line: &str) -> Result<Vec<String>, Unreadable> {
        let rest = line.strip_prefix(TAG).ok_or(Unreadable::NoTag)?;
        let mut parts = rest.split(';').map(str::trim);
        let _shard = parts.next().ok_or(Unreadable::OtherFields)?;
        let theirs: Vec<(&str, &str)> = parts
            .map(|p| p.split_once(' ').ok_or(Unreadable::OtherFields))
            .collect::<Result<_, _>>()?;
        let ours = self.fields();
        if theirs.len() != ours.len() || ours.iter().zip(&theirs).any(|((k, _), (tk, _))| k != tk) {
            return Err(Unreadable::OtherFields);
        }
        let mut diff = Vec::new();
        for ((k, v), (_, tv)) in ours.iter().zip(theirs) {
            if v != tv {
                diff.push(format!("{k} {} there, {} here", crate::escape::one_line(tv), v));
            }
        }
        Ok(diff)
    }
}

/// Why a shard file's first line is no settings line of this version.
enum Unreadable {
    /// Not a shard file at all.
    NoTag,
    /// A shard file whose settings are not the ones this version writes:
    /// one from before a setting was added, or a damaged line.
    OtherFields,
}

/// Splits a shard file's text into its settings line and its CSV.
pub fn split(text: &str) -> (&str, &str) {
    match text.split_once('\n') {
        Some((first, rest)) if first.starts_with(TAG) => (first, rest),
        _ => ("", text),
    }
}

/// Reads one shard file (`source` names it): its rows, when its settings
/// agree with `ours`; else an error naming the file and what differs.
pub fn read(text: &str, source: &str, ours: &Settings) -> Result<Vec<Point>, SweepError> {
    let (line, csv) = split(text);
    let refused = |what: String| SweepError::Foreign {
        file: source.to_string(),
        what,
    };
    match ours.differences(line) {
        Err(Unreadable::NoTag) => {
            return Err(refused(
                "it is not a shard file (no `# fnn-tui sweep shard:` first line)".into(),
            ));
        }
        Err(Unreadable::OtherFields) => {
            let wanted: Vec<&str> = ours.fields().iter().map(|(k, _)| *k).collect();
            return Err(refused(format!(
                "its settings line is not one this version writes (an older fnn-tui, or damaged): \
                 this version writes {}; compute the shard again with this version",
                wanted.join(", ")
            )));
        }
        Ok(d) if !d.is_empty() => return Err(refused(d.join("; "))),
        Ok(_) => {}
    }
    let points = super::parse_csv(csv, source)?;
    let wanted: std::collections::HashSet<(usize, u32)> = ours.cells().into_iter().collect();
    if let Some(p) = points.iter().find(|p| !wanted.contains(&(p.pcs, p.nics))) {
        return Err(refused(format!(
            "a row for {} PCs with {} NICs, outside the range",
            p.pcs, p.nics
        )));
    }
    Ok(points)
}

impl Settings {
    /// Every cell of the range, NICs outer as the sweep lists them.
    pub fn cells(&self) -> Vec<(usize, u32)> {
        self.nics
            .iter()
            .flat_map(|&n| self.pcs.iter().map(move |&p| (p, n as u32)))
            .collect()
    }
}

/// Adds `more` to `into`, a cell already there kept as it is, so merging
/// a shard twice, or in any order, gives the same rows; sorted as written.
pub fn merge(into: &mut Vec<Point>, more: Vec<Point>) {
    let have: std::collections::HashSet<(usize, u32)> = into.iter().map(|p| (p.pcs, p.nics)).collect();
    into.extend(more.into_iter().filter(|p| !have.contains(&(p.pcs, p.nics))));
    into.sort_by_key(|p| (p.nics, p.pcs));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        Settings {
            version: "1.0".into(),
            pcs: (3..=12).collect(),
            nics: vec![2, 3],
            budget: Budget::default(),
        }
    }

    #[test]
    fn shards_parse() {
        assert_eq!(Shard::parse("2/4").unwrap(), Shard { index: 2, count: 4 });
        for bad in ["0/4", "5/4", "4", "a/b", "1/0", ""] {
            let err = Shard::parse(bad).unwrap_err().to_string();
            assert!(err.contains("I/N"), "{bad}: {err}");
        }
    }

    /// Every cell in exactly one shard; shard sizes and searched cells
    /// each differ by at most one between shards.
    #[test]
    fn shards_partition_and_balance_the_slow_cells() {
        let s = Settings {
            pcs: (3..=200).collect(),
            ..settings()
        };
        let all = s.cells();
        let shards: Vec<Vec<(usize, u32)>> = (1..=4)
            .map(|i| Shard { index: i, count: 4 }.cells(&all, s.budget))
            .collect();
        let mut union: Vec<_> = shards.concat();
        union.sort();
        let mut want = all.clone();
        want.sort();
        assert_eq!(union, want);
        let spread = |f: &dyn Fn(&(usize, u32)) -> bool| {
            let n: Vec<usize> = shards.iter().map(|c| c.iter().filter(|x| f(x)).count()).collect();
            n.iter().max().unwrap() - n.iter().min().unwrap()
        };
        assert!(spread(&|_| true) <= 1);
        assert!(spread(&|&(p, _)| p <= 64) <= 1, "searched cells unevenly spread");
    }

    #[test]
    fn a_foreign_shard_is_refused_naming_what_differs() {
        let ours = settings();
        let shard = Shard { index: 1, count: 4 };
        let text = format!("{}{}", ours.line(shard), super::super::to_csv(&[]));
        assert_eq!(read(&text, "a.csv", &ours).unwrap(), vec![]);
        let other = Settings {
            pcs: (3..=13).collect(),
            version: "0.9".into(),
            ..settings()
        };
        let err = read(&text, "a.csv", &other).unwrap_err().to_string();
        assert!(err.starts_with("a.csv: refused:"), "{err}");
        assert!(err.contains("version 1.0 there, 0.9 here"), "{err}");
        assert!(err.contains("--pcs 3,4,5,6,7,8,9,10,11,12 there,"), "{err}");
        let seed = Settings {
            budget: Budget {
                seed: 2,
                ..Budget::default()
            },
            ..settings()
        };
        assert!(
            read(&text, "a.csv", &seed)
                .unwrap_err()
                .to_string()
                .contains("--seed 1 there, 2 here")
        );
        let plain = super::super::to_csv(&[]);
        assert!(
            read(&plain, "a.csv", &ours)
                .unwrap_err()
                .to_string()
                .contains("not a shard file")
        );
    }

    /// A shard written before `--anneal` existed lacks the setting: it is
    /// named as another version's shard, with what this one writes.
    #[test]
    fn a_shard_of_an_older_version_says_so() {
        let ours = settings();
        let line = ours.line(Shard { index: 1, count: 4 });
        let older = line.replace("; --anneal 0", "");
        assert_ne!(older, line);
        let text = format!("{older}{}", super::super::to_csv(&[]));
        let err = read(&text, "a.csv", &ours).unwrap_err().to_string();
        assert!(err.contains("not one this version writes (an older fnn-tui"), "{err}");
        assert!(
            err.contains("--exact-budget, --anneal; compute the shard again"),
            "{err}"
        );
    }
}
