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

/// The form's rows, in order: the label is the spec field it edits, then
/// what the field does, shown under the form for the field being edited.
const FIELDS: &[(&str, Kind, &str)] = &[
    (
        "weights.uncovered",
        Kind::Real(|w, _| &mut w.uncovered),
        "required pairs that share no switch: the validity term, keep it the largest",
    ),
    (
        "weights.bandwidth",
        Kind::Real(|w, _| &mut w.bandwidth),
        "average links between pattern pairs (pairwise bandwidth); 0 ignores it",
    ),
    (
        "weights.weakest",
        Kind::Real(|w, _| &mut w.weakest),
        "links of the worst-served pattern pair; raises the weakest link",
    ),
    (
        "weights.balance",
        Kind::Real(|w, _| &mut w.balance),
        "penalty for uneven switch fill (0 even, 1 worst)",
    ),
    (
        "weights.cost",
        Kind::Real(|w, _| &mut w.cost),
        "hardware cost, as a share of the whole inventory's; favours fewer switches",
    ),
    (
        "weights.redundancy",
        Kind::Real(|w, _| &mut w.redundancy),
        "share of required pairs that keep a shared switch if any one switch fails",
    ),
    (
        "weights.rack_crossings",
        Kind::Real(|w, _| &mut w.rack_crossings),
        "cables that run between racks, by the rack placement",
    ),
    (
        "ga.population",
        Kind::Size(|_, g| &mut g.population),
        "members in each generation",
    ),
    (
        "ga.keep",
        Kind::Size(|_, g| &mut g.keep),
        "best members carried over unchanged each generation",
    ),
    (
        "ga.fudge",
        Kind::Size(|_, g| &mut g.fudge),
        "the last kept members swapped with random unkept ones, against stagnation",
    ),
    (
        "ga.cross",
        Kind::Size(|_, g| &mut g.cross),
        "members made by crossing two parents",
    ),
    (
        "ga.max_mutations",
        Kind::Small(|_, g| &mut g.max_mutations),
        "each mutant gets 1 to this many applications of the mutation operators",
    ),
    (
        "ga.pc_swap_rate",
        Kind::Real(|_, g| &mut g.pc_swap_rate),
        "share of mutations that swap two PCs' whole connection sets, the rest single connections (0..1)",
    ),
    (
        "ga.focus",
        Kind::Real(|_, g| &mut g.focus),
        "chance a mutation starts at a problem spot, a PC lacking a partner (0..1)",
    ),
    (
        "ga.generations",
        Kind::Count(|_, g| &mut g.generations),
        "generation limit of the run (0: none)",
    ),
    (
        "ga.local_search",
        Kind::Count(|_, g| &mut g.local_search),
        "tabu-search moves per improved member each generation (0: the papers' GA alone)",
    ),
];

/// What the field in row `i` does, in a line.
pub fn description(i: usize) -> &'static str {
    FIELDS.get(i).map_or("", |f| f.2)
}

/// Every field's label and current value.
pub fn rows(w: &Weights, g: &GaParams) -> Vec<(&'static str, String)> {
    let (mut w, mut g) = (w.clone(), g.clone());
    FIELDS
        .iter()
        .map(|(label, kind, _)| {
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

/// A form field whose text is not a number of its kind.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum FieldError {
    #[error("{label}: `{text}` is not a number")]
    NotANumber { label: &'static str, text: String },
    #[error("{label}: `{text}` is not a whole number")]
    NotWhole { label: &'static str, text: String },
}

/// Why the form's values were not taken: a field's text, or the spec
/// they make (checked exactly as a spec file would be).
#[derive(Debug, thiserror::Error)]
pub enum FormError {
    #[error(transparent)]
    Field(#[from] FieldError),
    #[error("{}", .0.without_file())]
    Spec(#[from] crate::spec::SpecError),
}

/// Reads the values (in the table's order) into `w` and `g`; the error
/// names the field whose text is not a number of its kind.
pub fn read(values: &[String], w: &mut Weights, g: &mut GaParams) -> Result<(), FieldError> {
    for ((label, kind, _), text) in FIELDS.iter().zip(values) {
        let v = text.trim();
        let text = || crate::escape::one_line(v);
        let whole = || FieldError::NotWhole { label, text: text() };
        match kind {
            Kind::Real(f) => *f(w, g) = v.parse().map_err(|_| FieldError::NotANumber { label, text: text() })?,
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
        let e = read(&bad, &mut Weights::default(), &mut GaParams::default())
            .unwrap_err()
            .to_string();
        assert_eq!(e, "ga.keep: `4.5` is not a whole number");
    }
}

/// Why the export form's values were not taken.
#[derive(Debug, thiserror::Error)]
pub enum ExportFormError {
    #[error("folder: give the folder to export into")]
    NoFolder,
    #[error("artifacts: `{0}` is not an artifact: use all or {all}", all = crate::export::ARTIFACTS.join(","))]
    NotAnArtifact(String),
    #[error("probe order: {0}")]
    ProbeOrder(crate::routing::addresses::AddressError),
}
