//! The FNN atlas: for every size of 3 to 1024 PCs with 2 to 8 NICs, the
//! narrowest universal FNN known, the lower bound and the argument that
//! gives it, how the design was made, whether it is settled, and the
//! command that makes it again. Shipped as `data/atlas.csv`, built into
//! the program and parsed the first time a front end asks.
//!
//! A row is written from a sweep's point ([`Cell::of_point`]); `fnn-tui
//! sweep --atlas FILE` folds a sweep into an atlas file, keeping the
//! better row of each size ([`fold`]), so improvements from several runs
//! (each row with its own command) accumulate.

use crate::design::bounds;
use crate::sweep::{Budget, Mark, Point};
use std::collections::BTreeMap;
use std::sync::LazyLock;

pub const HEADER: &str = "pcs,nics,width,switches,bound,bound_by,method,status,reproduce";

/// The atlas shipped with this program.
const SHIPPED: &str = include_str!("../../../data/atlas.csv");

/// The PCs and NICs the shipped atlas covers, every pair of them.
pub const PCS: std::ops::RangeInclusive<usize> = 3..=1024;
pub const NICS: std::ops::RangeInclusive<u32> = 2..=8;

/// How far a size is settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Over the bound, nothing proved either way.
    Open,
    /// Over the bound, and one port less proved impossible on any number
    /// of switches by a SAT proof the DRAT checker `rate` accepted.
    Proved,
    /// At the lower bound: nothing narrower exists.
    AtBound,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::AtBound => "at-bound",
            Status::Proved => "proved",
            Status::Open => "open",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        [Status::AtBound, Status::Proved, Status::Open]
            .into_iter()
            .find(|m| m.as_str() == s)
    }
}

/// One size of the atlas.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub pcs: usize,
    pub nics: u32,
    /// The narrowest width known, and the switches of that design.
    pub width: u32,
    pub switches: usize,
    /// The lower bound on the width, and the argument that rules out one
    /// port less ([`argument`]).
    pub bound: u64,
    pub bound_by: String,
    /// "construction: projective plane of order 4", "GA, seed 1, 300
    /// generations" or "exact (SAT), 10 s per width".
    pub method: String,
    pub status: Status,
    /// The command that computes this row again (its `--out` a folder).
    pub reproduce: String,
}

/// The argument that gives the width bound of `pcs` PCs with `nics`
/// NICs: the first bound that rules out one port less.
pub fn argument(pcs: u64, nics: u64) -> &'static str {
    let narrower = bounds::width_bound(pcs, nics).saturating_sub(1);
    if narrower < 1 {
        "none"
    } else if narrower < bounds::min_width(pcs, nics) {
        "degree"
    } else if narrower < bounds::intersecting_width(pcs, nics) {
        "Füredi"
    } else if bounds::intersecting_refutation(pcs, nics, narrower).is_some() {
        "Füredi plane"
    } else if bounds::moment_refutation(pcs, nics, narrower).is_some() {
        "second moment"
    } else if crate::design::proved::proved_refutation(pcs, nics, narrower).is_some() {
        "case proof"
    } else {
        "pair capacity"
    }
}

/// The bound's argument as a phrase: "Füredi's bound".
fn bound_phrase(by: &str) -> String {
    match by {
        "Füredi" => "Füredi's bound".into(),
        "Füredi plane" => "Füredi's plane bound".into(),
        "case proof" => "the bound of a computer-checked case proof".into(),
        other => format!("the {other} bound"),
    }
}

impl Cell {
    pub fn gap(&self) -> i64 {
        self.width as i64 - self.bound as i64
    }

    /// The atlas row of a sweep's point computed with `budget`; `proved`
    /// says a checked SAT proof rules out one port less.
    pub fn of_point(p: &Point, budget: Budget, proved: bool) -> Cell {
        let status = if p.gap() <= 0 {
            Status::AtBound
        } else if proved && p.mark == Mark::Optimal {
            Status::Proved
        } else {
            Status::Open
        };
        let method = match p.method.as_str() {
            "GA" => format!("GA, seed {}, {} generations", budget.seed, budget.generations),
            "exact" => format!("exact (SAT), {} s per width", budget.exact_s),
            "annealing" => format!("annealing, seed {}, {} moves", budget.seed, budget.anneal),
            other => other.to_string(),
        };
        Cell {
            pcs: p.pcs,
            nics: p.nics,
            width: p.width,
            switches: p.switches,
            bound: p.bound,
            bound_by: argument(p.pcs as u64, p.nics as u64).into(),
            method,
            status,
            reproduce: reproduce(p.pcs, p.nics, budget),
        }
    }

    /// What the atlas knows, in words: "244 ports: at Füredi's bound
    /// (atlas)"; "45 ports: best known, one over the bound, not proved (atlas)".
    pub fn words(&self) -> String {
        let w = self.width;
        let over = match self.gap() {
            1 => "one".to_string(),
            g => g.to_string(),
        };
        match self.status {
            Status::AtBound => format!("{w} ports: at {} (atlas)", bound_phrase(&self.bound_by)),
            Status::Proved => format!(
                "{w} ports: proved optimal, {over} over the bound ({} ports ruled out by a checked SAT proof) (atlas)",
                w - 1
            ),
            Status::Open => format!("{w} ports: best known, {over} over the bound, not proved (atlas)"),
        }
    }

    /// The row as a sweep point, for the sweep's graph.
    pub fn to_point(&self) -> Point {
        Point {
            pcs: self.pcs,
            nics: self.nics,
            bound: self.bound,
            width: self.width,
            switches: self.switches,
            switch_bound: bounds::min_switches(self.pcs as u64, self.width as u64),
            method: self.method.clone(),
            seconds: 0.0,
            mark: if self.status == Status::Open {
                Mark::Open
            } else {
                Mark::Optimal
            },
            proof: String::new(),
        }
    }

    /// Better: narrower, then more settled.
    fn better_than(&self, other: &Cell) -> bool {
        (std::cmp::Reverse(self.width), self.status) > (std::cmp::Reverse(other.width), other.status)
    }
}

/// The one-size sweep that computes a row again; flags at their
/// defaults are left out, to keep the shipped file small.
fn reproduce(pcs: usize, nics: u32, b: Budget) -> String {
    let d = Budget::default();
    let mut out = format!("fnn-tui sweep --pcs {pcs} --nics {nics}");
    for (flag, value, default) in [
        ("--generations", b.generations.to_string(), d.generations.to_string()),
        ("--ga-pcs", b.max_pcs.to_string(), d.max_pcs.to_string()),
        ("--seed", b.seed.to_string(), d.seed.to_string()),
        ("--exact-budget", b.exact_s.to_string(), d.exact_s.to_string()),
        ("--anneal", b.anneal.to_string(), d.anneal.to_string()),
    ] {
        if value != default {
            out.push_str(&format!(" {flag} {value}"));
        }
    }
    out.push_str(" --out DIR");
    out
}

/// Folds `new` rows into `into`: each size keeps the better row, so a
/// weaker run never undoes a stronger one. Sorted by NICs, then PCs.
pub fn fold(into: &mut Vec<Cell>, new: Vec<Cell>) {
    let mut by: BTreeMap<(u32, usize), Cell> = into.drain(..).map(|c| ((c.nics, c.pcs), c)).collect();
    for c in new {
        match by.get(&(c.nics, c.pcs)) {
            Some(old) if !c.better_than(old) => {}
            _ => {
                by.insert((c.nics, c.pcs), c);
            }
        }
    }
    into.extend(by.into_values());
}

pub fn to_csv(cells: &[Cell]) -> String {
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    let _ = w.write_record(HEADER.split(','));
    for c in cells {
        let _ = w.write_record([
            c.pcs.to_string(),
            c.nics.to_string(),
            c.width.to_string(),
            c.switches.to_string(),
            c.bound.to_string(),
            c.bound_by.clone(),
            c.method.clone(),
            c.status.as_str().to_string(),
            c.reproduce.clone(),
        ]);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// What is wrong with an atlas file: `line` 1-based.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum AtlasError {
    #[error("{file}: line 1: expected the header `{HEADER}`")]
    Header { file: String },
    #[error("{file}: line {line}: field `{field}` is not valid")]
    Field {
        file: String,
        line: usize,
        field: &'static str,
    },
}

/// Parses an atlas file (`source` names it in errors).
pub fn parse(text: &str, source: &str) -> Result<Vec<Cell>, AtlasError> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut rows = r.records();
    let header_ok = matches!(rows.next(), Some(Ok(h)) if h.iter().collect::<Vec<_>>().join(",") == HEADER);
    if !header_ok {
        return Err(AtlasError::Header { file: source.into() });
    }
    rows.enumerate()
        .map(|(k, rec)| {
            let bad = |field| AtlasError::Field {
                file: source.into(),
                line: k + 2,
                field,
            };
            let f = rec.map_err(|_| bad("pcs"))?;
            row(&f).map_err(bad)
        })
        .collect()
}

fn row(f: &csv::StringRecord) -> Result<Cell, &'static str> {
    if f.len() != 9 {
        return Err("reproduce");
    }
    fn num<T: std::str::FromStr>(s: &str, name: &'static str) -> Result<T, &'static str> {
        s.trim().parse().map_err(|_| name)
    }
    Ok(Cell {
        pcs: num(&f[0], "pcs")?,
        nics: num(&f[1], "nics")?,
        width: num(&f[2], "width")?,
        switches: num(&f[3], "switches")?,
        bound: num(&f[4], "bound")?,
        bound_by: f[5].to_string(),
        method: f[6].to_string(),
        status: Status::parse(&f[7]).ok_or("status")?,
        reproduce: f[8].to_string(),
    })
}

/// The shipped atlas by (NICs, PCs), parsed once.
static ATLAS: LazyLock<BTreeMap<(u32, usize), Cell>> = LazyLock::new(|| {
    // The shipped file is checked by the tests; a broken one reads as empty.
    parse(SHIPPED, "data/atlas.csv")
        .unwrap_or_default()
        .into_iter()
        .map(|c| ((c.nics, c.pcs), c))
        .collect()
});

/// The shipped atlas's row for `pcs` PCs with `nics` NICs, if it has one.
pub fn lookup(pcs: usize, nics: u32) -> Option<&'static Cell> {
    ATLAS.get(&(nics, pcs))
}

/// Every row of the shipped atlas, by NICs then PCs.
pub fn shipped() -> Vec<&'static Cell> {
    ATLAS.values().collect()
}

/// The shipped atlas's text, as it is in `data/atlas.csv`.
pub fn shipped_text() -> &'static str {
    SHIPPED
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(width: u32, status: Status) -> Cell {
        Cell {
            pcs: 44,
            nics: 5,
            width,
            switches: 30,
            bound: 10,
            bound_by: "Füredi".into(),
            method: "construction: projective plane of order 4".into(),
            status,
            reproduce: "fnn-tui sweep --pcs 44 --nics 5 --out DIR".into(),
        }
    }

    #[test]
    fn rows_round_trip_and_fold_keeps_the_better() {
        let cells = vec![cell(11, Status::Open)];
        let text = to_csv(&cells);
        assert_eq!(parse(&text, "a.csv").unwrap(), cells);
        let mut into = cells.clone();
        fold(&mut into, vec![cell(12, Status::Proved)]);
        assert_eq!(into, cells, "a wider row never replaces a narrower one");
        fold(&mut into, vec![cell(11, Status::Proved)]);
        assert_eq!(into[0].status, Status::Proved, "the same width, more settled, wins");
        fold(&mut into, vec![cell(10, Status::AtBound)]);
        assert_eq!((into[0].width, into.len()), (10, 1));
        let bad = text.replace(",open,", ",proved-ish,");
        assert_eq!(
            parse(&bad, "a.csv").unwrap_err().to_string(),
            "a.csv: line 2: field `status` is not valid"
        );
        assert!(parse("pcs\n", "a.csv").unwrap_err().to_string().contains("header"));
    }

    /// A row the annealing search found names its seed and moves, and its
    /// command asks for them again.
    #[test]
    fn annealing_rows_carry_their_moves_and_seed() {
        let budget = Budget {
            generations: 0,
            anneal: 30_000_000,
            ..Budget::default()
        };
        let p = Point {
            pcs: 44,
            nics: 6,
            bound: 9,
            width: 9,
            switches: 30,
            switch_bound: 30,
            method: "annealing".into(),
            seconds: 1.0,
            mark: Mark::Optimal,
            proof: String::new(),
        };
        let c = Cell::of_point(&p, budget, false);
        assert_eq!(c.method, "annealing, seed 1, 30000000 moves");
        assert_eq!(c.status, Status::AtBound);
        assert_eq!(
            c.reproduce,
            "fnn-tui sweep --pcs 44 --nics 6 --generations 0 --anneal 30000000 --out DIR"
        );
    }

    #[test]
    fn words_say_what_is_known() {
        assert_eq!(
            cell(11, Status::Open).words(),
            "11 ports: best known, one over the bound, not proved (atlas)"
        );
        assert_eq!(cell(10, Status::AtBound).words(), "10 ports: at Füredi's bound (atlas)");
        assert!(
            cell(12, Status::Proved)
                .words()
                .starts_with("12 ports: proved optimal, 2 over the bound")
        );
    }

    /// The shipped atlas has every size of its range once, each row as
    /// a sweep would write it: an at-bound row at today's bound with the
    /// argument that gives it, an open or proved one over it, and the
    /// command that computes it again.
    #[test]
    fn the_shipped_atlas_is_complete_and_at_bound_rows_are_at_their_bound() {
        let cells = parse(shipped_text(), "data/atlas.csv").expect("the shipped atlas parses");
        let mut seen = std::collections::BTreeSet::new();
        for c in &cells {
            let at = format!("{} PCs with {} NICs", c.pcs, c.nics);
            assert!(
                PCS.contains(&c.pcs) && NICS.contains(&c.nics),
                "{at}: outside the range"
            );
            assert!(seen.insert((c.nics, c.pcs)), "{at}: a second row");
            let bound = bounds::width_bound(c.pcs as u64, c.nics as u64);
            assert_eq!(c.bound, bound, "{at}: the bound column is not today's bound");
            assert_eq!(c.bound_by, argument(c.pcs as u64, c.nics as u64), "{at}");
            match c.status {
                Status::AtBound => assert_eq!(c.width as u64, bound, "{at}: at-bound but not at its bound"),
                Status::Proved | Status::Open => assert!(c.width as u64 > bound, "{at}: {:?} at the bound", c.status),
            }
            assert!(
                c.switches >= bounds::min_switches(c.pcs as u64, c.width as u64) as usize,
                "{at}"
            );
            let command = format!("fnn-tui sweep --pcs {} --nics {} ", c.pcs, c.nics);
            assert!(c.reproduce.ends_with(" --out DIR"), "{at}: {}", c.reproduce);
            assert!(c.reproduce.starts_with(&command), "{at}: {}", c.reproduce);
        }
        assert_eq!(seen.len(), PCS.count() * NICS.count(), "sizes missing from the atlas");
        assert_eq!(shipped().len(), cells.len(), "the built-in atlas reads the same file");
        let c = lookup(1024, 5).expect("1024 PCs with 5 NICs");
        assert_eq!(c.words(), "244 ports: at Füredi's bound (atlas)");
    }

    #[test]
    fn arguments_name_the_bound_that_rules_out_one_port_less() {
        assert_eq!(argument(1024, 5), "Füredi");
        assert_eq!(argument(9, 3), "Füredi plane");
        assert_eq!(argument(24, 5), "second moment");
        assert_eq!(argument(8, 3), "degree");
        assert_eq!(argument(44, 5), "case proof");
        assert_eq!(argument(64, 6), "case proof");
        let c = lookup(44, 5).expect("44 PCs with 5 NICs");
        assert_eq!(
            c.words(),
            "12 ports: at the bound of a computer-checked case proof (atlas)"
        );
        let c = lookup(64, 6).expect("64 PCs with 6 NICs");
        assert_eq!(
            c.words(),
            "14 ports: at the bound of a computer-checked case proof (atlas)"
        );
        assert_eq!(argument(33, 6), "case proof");
        let c = lookup(33, 6).expect("33 PCs with 6 NICs");
        assert_eq!(
            c.words(),
            "8 ports: at the bound of a computer-checked case proof (atlas)"
        );
    }
}
