//! Turning command-line arguments into a resolved, feasible cluster.

use super::QuickArgs;
use fnn_tui::spec::{Cluster, QuickFlags, Spec, SpecError, check_feasible};
use std::path::Path;

pub struct Overrides {
    pub seed: Option<u64>,
    pub generations: Option<u64>,
    pub time_limit: Option<f64>,
    pub threads: Option<usize>,
}

pub fn quick_flags(q: &QuickArgs, o: Overrides) -> QuickFlags {
    QuickFlags {
        pcs: q.pcs,
        nics: q.nics,
        switches: q.switches.clone(),
        pairs: q.pairs.clone(),
        sparse: q.sparse,
        seed: o.seed,
        generations: o.generations,
        time_limit: o.time_limit,
        threads: o.threads,
    }
}

/// The spec from a file, else the default (a generic cluster when quick
/// hardware flags describe it, KLAT2 otherwise), with the flags applied.
pub fn spec(path: Option<&Path>, flags: &QuickFlags) -> Result<Spec, SpecError> {
    let base = match path {
        Some(p) => Spec::load(p)?,
        None if flags.describes_hardware() => Spec {
            name: "command line".into(),
            source: "command line".into(),
            ..Spec::default()
        },
        None => Spec::klat2(),
    };
    flags.apply(base)
}

/// A cluster that is well-formed and not provably impossible.
pub fn cluster(spec: &Spec) -> Result<Cluster, SpecError> {
    let c = spec.resolve()?;
    check_feasible(&c)?;
    Ok(c)
}
