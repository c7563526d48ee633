//! The weights and GA parameters form: one table of fields, each with how
//! to show its value and how to read it back, so the form's rows and its
//! parsing cannot disagree.

use crate::spec::{GaParams, Weights};

/// Where a field's value lives in the weights and GA parameters.
type Field<T> = for<'a> fn(&'a mut Weights, &'a mut GaParams) -> &'a mut T;

/// What a field holds, and so how its text is read.
#[derive(Clone, Copy)]
enum Kind {
    Real(Field<f64>),
    Count(Field<u64>),
    Size(Field<usize>),
    Small(Field<u32>),
}

/// The form's rows, in order: the label is the spec field it edits.
const FIELDS: &[(&str, Kind)] = &[
    ("weights.uncovered", Kind::Real(|w, _| &mut w.uncovered)),
    ("weights.bandwidth", Kind::Real(|w, _| &mut w.bandwidth)),
    ("weights.weakest", Kind::Real(|w, _| &mut w.weakest)),
    ("weights.balance", Kind::Real(|w, _| &mut w.balance)),
    ("weights.cost", Kind::Real(|w, _| &mut w.cost)),
    ("weights.redundancy", Kind::Real(|w, _| &mut w.redundancy)),
    ("weights.rack_crossings", Kind::Real(|w, _| &mut w.rack_crossings)),
    ("ga.population", Kind::Size(|_, g| &mut g.population)),
    ("ga.keep", Kind::Size(|_, g| &mut g.keep)),
    ("ga.fudge", Kind::Size(|_, g| &mut g.fudge)),
    ("ga.cross", Kind::Size(|_, g| &mut g.cross)),
    ("ga.max_mutations", Kind::Small(|_, g| &mut g.max_mutations)),
    ("ga.pc_swap_rate", Kind::Real(|_, g| &mut g.pc_swap_rate)),
    ("ga.focus", Kind::Real(|_, g| &mut g.focus)),
    ("ga.generations", Kind::Count(|_, g| &mut g.generations)),
    ("ga.local_search", Kind::Count(|_, g| &mut g.local_search)),
];

/// Every field's label and current value.
pub fn rows(w: &Weights, g: &GaParams) -> Vec<(&'static str, String)> {
    let (mut w, mut g) = (w.clone(), g.clone());
    FIELDS
        .iter()
        .map(|(label, kind)| {
            let value = match kind {
                Kind::Real(f) => f(&mut w, &mut g).to_string(),
                Kind::Count(f) => f(&mut w, &mut g).to_string(),
                Kind::Size(f) => f(&mut w, &mut g).to_string(),
                Kind::Small(f) => f(&mut w, &mut g).to_string(),
            };
            (*label, value)
        })
        .collect()
}

/// Reads the values (in the table's order) into `w` and `g`; the error
/// names the field whose text is not a number of its kind.
pub fn read(values: &[String], w: &mut Weights, g: &mut GaParams) -> Result<(), String> {
    for ((label, kind), text) in FIELDS.iter().zip(values) {
        let v = text.trim();
        let whole = || format!("{label}: `{v}` is not a whole number");
        match kind {
            Kind::Real(f) => *f(w, g) = v.parse().map_err(|_| format!("{label}: `{v}` is not a number"))?,
            Kind::Count(f) => *f(w, g) = v.parse().map_err(|_| whole())?,
            Kind::Size(f) => *f(w, g) = v.parse().map_err(|_| whole())?,
            Kind::Small(f) => *f(w, g) = v.parse().map_err(|_| whole())?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_reads_back_to_the_same_values() {
        let (mut w, mut g) = (Weights::default(), GaParams::default());
        w.redundancy = 2.5;
        g.local_search = 77;
        (g.population, g.keep, g.fudge, g.cross) = (300, 41, 5, 21);
        // Each label shows its own field (a row edits what it says).
        let shown: std::collections::BTreeMap<&str, String> = rows(&w, &g).into_iter().collect();
        let spec = toml::Value::try_from(&g).unwrap();
        for (label, value) in &shown {
            if let Some(field) = label.strip_prefix("ga.") {
                assert_eq!(spec[field].to_string(), *value, "{label}");
            }
        }
        assert_eq!(shown["weights.redundancy"], "2.5");
        let values: Vec<String> = rows(&w, &g).into_iter().map(|(_, v)| v).collect();
        let (mut w2, mut g2) = (Weights::default(), GaParams::default());
        read(&values, &mut w2, &mut g2).unwrap();
        assert_eq!((w2, g2), (w, g));
        let mut bad = values.clone();
        bad[8] = "4.5".into();
        let e = read(&bad, &mut Weights::default(), &mut GaParams::default()).unwrap_err();
        assert_eq!(e, "ga.keep: `4.5` is not a whole number");
    }
}
