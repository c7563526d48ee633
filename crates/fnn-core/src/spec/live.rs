//! The spec as it stands in a run: the one it started from, with the
//! live weights, GA parameters and pins, and its pair files read in so it
//! stands on its own (what a session saves and an edit is checked
//! against).

use super::{Cluster, PairFilePlace, PatternSpec, Spec, read_pair_file};

/// The spec as it stands in a run: its own, self-contained, with the live
/// weights, GA parameters and pins of `c`.
pub fn live_spec(spec: &Spec, c: &Cluster) -> Spec {
    let mut spec = self_contained(spec);
    spec.weights = c.weights.clone();
    spec.ga = c.ga.clone();
    spec.pins = c
        .pins
        .list()
        .into_iter()
        .map(|(pc, switch, must)| super::PinSpec {
            pc,
            switch,
            kind: if must {
                super::PinKind::Must
            } else {
                super::PinKind::Forbid
            },
        })
        .collect();
    spec
}

/// The spec with pair files read in, so the session stands on its own.
fn self_contained(spec: &Spec) -> Spec {
    let mut out = spec.clone();
    for p in &mut out.patterns {
        if let PatternSpec::PairFile {
            path,
            weight,
            named_by_user,
        } = p
            && let Ok(pairs) = read_pair_file(
                path,
                if *named_by_user {
                    PairFilePlace::AsTyped
                } else {
                    PairFilePlace::InFolder(spec.base_dir.as_ref())
                },
                spec.pcs.count,
                &spec.source,
                "pair-file",
                super::MAX_PATTERN_PAIRS,
            )
        {
            *p = PatternSpec::Pairs {
                pairs: pairs.into_iter().map(|(a, b, w)| vec![a as f64, b as f64, w]).collect(),
                weight: *weight,
            };
        }
    }
    out
}
