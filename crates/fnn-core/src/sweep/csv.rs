//! The sweep's CSV: one row per size, read back to resume a sweep. Written
//! and read by the `csv` crate, so a proof's words may hold commas.

use super::Point;
use super::settle::Mark;

pub const HEADER: &str = "pcs,nics,bound,width,gap,switches,switch_bound,method,seconds,mark,proof";
/// The header before the exact mode's columns; such a file still resumes.
const HEADER_V1: &str = "pcs,nics,bound,width,gap,switches,switch_bound,method,seconds";

pub fn to_csv(points: &[Point]) -> String {
    let header = std::iter::once(HEADER.split(',').map(String::from).collect::<Vec<_>>());
    let rows = points.iter().map(|p| {
        vec![
            p.pcs.to_string(),
            p.nics.to_string(),
            p.bound.to_string(),
            p.width.to_string(),
            p.gap().to_string(),
            p.switches.to_string(),
            p.switch_bound.to_string(),
            p.method.clone(),
            format!("{:.3}", p.seconds),
            p.mark.as_str().to_string(),
            p.proof.clone(),
        ]
    });
    crate::escape::csv(header.chain(rows))
}

/// Reads a CSV written by [`to_csv`] (or by a version without the mark and
/// proof columns); errors name the file, the line and the field. A last
/// line cut short (an interrupted write) is dropped.
pub fn parse_csv(text: &str, source: &str) -> Result<Vec<Point>, super::SweepError> {
    let header = text.lines().next().map(str::trim);
    let old = match header {
        Some(HEADER) => false,
        Some(HEADER_V1) => true,
        _ => return Err(super::SweepError::Header { file: source.into() }),
    };
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .has_headers(true)
        .from_reader(text.as_bytes());
    let complete = text.ends_with('\n');
    let rows: Vec<_> = reader.records().collect();
    let mut points = Vec::with_capacity(rows.len());
    let mut seen = std::collections::HashMap::new();
    for (k, row) in rows.iter().enumerate() {
        let line = row
            .as_ref()
            .ok()
            .and_then(|r| r.position())
            .map_or(k + 2, |p| p.line() as usize);
        let parsed = match row {
            Ok(r) if r.iter().all(|f| f.trim().is_empty()) => continue,
            Ok(r) => parse_row(r, old),
            Err(_) => Err("pcs"),
        };
        match parsed {
            Ok(p) => {
                if let Some(first) = seen.insert((p.pcs, p.nics), line) {
                    return Err(super::SweepError::Duplicate {
                        file: source.into(),
                        line,
                        pcs: p.pcs,
                        nics: p.nics,
                        first,
                    });
                }
                points.push(p)
            }
            Err(_) if k + 1 == rows.len() && !complete => break,
            Err(field) => {
                return Err(super::SweepError::Field {
                    file: source.into(),
                    line,
                    field,
                });
            }
        }
    }
    Ok(points)
}

fn parse_row(f: &csv::StringRecord, old: bool) -> Result<Point, &'static str> {
    let want = if old { 9 } else { 11 };
    if f.len() != want {
        return Err(if old { "seconds" } else { "proof" });
    }
    fn num<T: std::str::FromStr>(s: &str, name: &'static str) -> Result<T, &'static str> {
        s.trim().parse().map_err(|_| name)
    }
    let mut p = Point {
        pcs: num(&f[0], "pcs")?,
        nics: num(&f[1], "nics")?,
        bound: num(&f[2], "bound")?,
        width: num(&f[3], "width")?,
        switches: num(&f[5], "switches")?,
        switch_bound: num(&f[6], "switch_bound")?,
        method: f[7].to_string(),
        seconds: num(&f[8], "seconds")?,
        mark: Mark::Open,
        proof: String::new(),
    };
    if old {
        // Nothing was proved then, except what the bound itself says.
        (p.mark, p.proof) = super::unproved(&p);
    } else {
        p.mark = Mark::parse(f[9].trim()).ok_or("mark")?;
        p.proof = f[10].to_string();
    }
    check_ranges(&p)?;
    p.rebound();
    Ok(p)
}

/// The most PCs (and ports) a sweep row may name: what a spec takes.
const MOST: usize = 1 << 16;

/// A row that could not have been written by a sweep: sizes past what a
/// spec takes, a width under its own lower bound (a gap below zero), a
/// switch count under its bound, a time that is not a time.
fn check_ranges(p: &Point) -> Result<(), &'static str> {
    let fits = |v: u64| v >= 1 && v <= MOST as u64;
    if !(3..=MOST).contains(&p.pcs) {
        return Err("pcs");
    }
    if !(1..=64).contains(&p.nics) {
        return Err("nics");
    }
    if !fits(p.bound) {
        return Err("bound");
    }
    if !fits(p.width.into()) || u64::from(p.width) < p.bound {
        return Err("width");
    }
    if !fits(p.switch_bound) {
        return Err("switch_bound");
    }
    if !fits(p.switches as u64) || (p.switches as u64) < p.switch_bound {
        return Err("switches");
    }
    if !p.seconds.is_finite() || p.seconds < 0.0 {
        return Err("seconds");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Point> {
        vec![
            Point {
                pcs: 10,
                nics: 5,
                bound: 3,
                width: 3,
                switches: 17,
                switch_bound: 17,
                method: "GA".into(),
                seconds: 0.25,
                mark: Mark::Optimal,
                proof: "at the lower bound".into(),
            },
            Point {
                pcs: 9,
                nics: 3,
                bound: 5,
                width: 5,
                switches: 6,
                switch_bound: 6,
                method: "construction: a, b".into(),
                seconds: 0.5,
                mark: Mark::Optimal,
                proof: "4 ports impossible on up to 8 switches: a SAT model, \"quoted\" (0.48 s)".into(),
            },
        ]
    }

    #[test]
    fn round_trips_and_drops_a_cut_last_line() {
        let text = to_csv(&sample());
        assert!(text.starts_with(HEADER));
        assert_eq!(parse_csv(&text, "s.csv").unwrap(), sample());
        let cut = format!("{text}11,5,4,");
        assert_eq!(parse_csv(&cut, "s.csv").unwrap(), sample());
        let bad = format!("{text}11,x,4,4,0,1,1,GA,0.1,open,\n");
        assert_eq!(
            parse_csv(&bad, "s.csv").unwrap_err().to_string(),
            "s.csv: line 4: field `nics` is not valid"
        );
        let mark = format!("{text}11,5,4,4,0,1,1,GA,0.1,proved,\n");
        assert_eq!(
            parse_csv(&mark, "s.csv").unwrap_err().to_string(),
            "s.csv: line 4: field `mark` is not valid"
        );
        assert!(parse_csv("a,b\n", "s.csv").unwrap_err().to_string().contains("header"));
        let again = format!("{text}10,5,3,3,0,17,17,GA,0.1,optimal,\n");
        assert_eq!(
            parse_csv(&again, "s.csv").unwrap_err().to_string(),
            "s.csv: line 4: a second row for 10 PCs with 5 NICs (the first is on line 2)"
        );
        for (row, field) in [
            ("11,5,4,1,-3,1,1,GA,0.1,open,", "width"),
            ("99999999999,5,4,4,0,1,1,GA,0.1,open,", "pcs"),
            ("11,5,4,4,0,1,2,GA,0.1,open,", "switches"),
            ("11,5,4,4,0,1,1,GA,NaN,open,", "seconds"),
            ("11,0,4,4,0,1,1,GA,0.1,open,", "nics"),
        ] {
            let bad = format!("{text}{row}\n");
            let err = parse_csv(&bad, "s.csv").unwrap_err().to_string();
            assert_eq!(err, format!("s.csv: line 4: field `{field}` is not valid"), "{row}");
        }
    }

    #[test]
    fn a_sweep_written_before_the_marks_resumes() {
        let text = format!("{HEADER_V1}\n16,4,5,7,2,12,12,GA,0.010\n10,5,3,3,0,17,17,GA,0.250\n");
        let pts = parse_csv(&text, "s.csv").unwrap();
        assert_eq!((pts[0].mark, pts[1].mark), (Mark::Open, Mark::Optimal));
        assert!(
            pts[1].proof.starts_with("at the lower bound: 2 ports ruled out"),
            "{}",
            pts[1].proof
        );
    }

    /// A cell an older, weaker bound left open is at today's bound when
    /// read back: 28 PCs with 4 NICs were bound 9, the plane bound says 10.
    #[test]
    fn a_resumed_cell_takes_the_stronger_bound() {
        let text = format!("{HEADER}\n28,4,9,10,1,12,9,construction: x,16.3,open,\n");
        let pts = parse_csv(&text, "s.csv").unwrap();
        assert_eq!((pts[0].bound, pts[0].mark), (10, Mark::Optimal));
        assert!(pts[0].proof.contains("projective plane of order 3"), "{}", pts[0].proof);
    }
}
