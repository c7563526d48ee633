//! The sweep's CSV: one row per size, read back to resume a sweep.

use super::Point;

pub const HEADER: &str = "pcs,nics,bound,width,gap,switches,switch_bound,method,seconds";

pub fn to_csv(points: &[Point]) -> String {
    let mut out = String::from(HEADER);
    out.push('\n');
    for p in points {
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{:.3}\n",
            p.pcs,
            p.nics,
            p.bound,
            p.width,
            p.gap(),
            p.switches,
            p.switch_bound,
            p.method.replace(',', ";"),
            p.seconds
        ));
    }
    out
}

/// Reads a CSV written by [`to_csv`]; errors name the file, the line and
/// the field. A last line cut short (an interrupted write) is dropped.
pub fn parse_csv(text: &str, source: &str) -> Result<Vec<Point>, super::SweepError> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, h)) if h.trim() == HEADER => {}
        _ => return Err(super::SweepError::Header { file: source.into() }),
    }
    let complete = text.ends_with('\n');
    let rows: Vec<(usize, &str)> = lines.filter(|(_, l)| !l.trim().is_empty()).collect();
    let mut points = Vec::with_capacity(rows.len());
    for (k, &(i, line)) in rows.iter().enumerate() {
        match parse_row(line) {
            Ok(p) => points.push(p),
            Err(_) if k + 1 == rows.len() && !complete => break,
            Err(field) => {
                return Err(super::SweepError::Field {
                    file: source.into(),
                    line: i + 1,
                    field,
                });
            }
        }
    }
    Ok(points)
}

fn parse_row(line: &str) -> Result<Point, &'static str> {
    let f: Vec<&str> = line.split(',').map(str::trim).collect();
    if f.len() != 9 {
        return Err("seconds");
    }
    fn num<T: std::str::FromStr>(s: &str, name: &'static str) -> Result<T, &'static str> {
        s.parse().map_err(|_| name)
    }
    Ok(Point {
        pcs: num(f[0], "pcs")?,
        nics: num(f[1], "nics")?,
        bound: num(f[2], "bound")?,
        width: num(f[3], "width")?,
        switches: num(f[5], "switches")?,
        switch_bound: num(f[6], "switch_bound")?,
        method: f[7].to_string(),
        seconds: num(f[8], "seconds")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Point> {
        vec![Point {
            pcs: 10,
            nics: 5,
            bound: 3,
            width: 3,
            switches: 17,
            switch_bound: 17,
            method: "GA".into(),
            seconds: 0.25,
        }]
    }

    #[test]
    fn round_trips_and_drops_a_cut_last_line() {
        let text = to_csv(&sample());
        assert_eq!(parse_csv(&text, "s.csv").unwrap(), sample());
        let cut = format!("{text}11,5,4,");
        assert_eq!(parse_csv(&cut, "s.csv").unwrap(), sample());
        let bad = format!("{text}11,x,4,4,0,1,1,GA,0.1\n");
        assert_eq!(
            parse_csv(&bad, "s.csv").unwrap_err().to_string(),
            "s.csv: line 3: field `nics` is not valid"
        );
        assert!(parse_csv("a,b\n", "s.csv").unwrap_err().to_string().contains("header"));
    }
}
