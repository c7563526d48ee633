//! Turning command-line arguments into a resolved, feasible cluster.

use super::{QuickArgs, SearchArgs};
use fnn_tui::design::{Design, parse_table};
use fnn_tui::spec::{
    Cluster, Coverage, NicOverride, PatternSpec, QuickFlags, Spec, SpecError, SwitchModel, UplinkMode, check_feasible,
};
use std::path::Path;

pub fn quick_flags(q: &QuickArgs, o: &SearchArgs) -> QuickFlags {
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
        no_constructions: o.no_constructions,
        local_search: o.local_search,
        portfolio: o.portfolio,
    }
}

/// The spec from a file, else the default (a generic cluster when quick
/// hardware flags describe it, KLAT2 otherwise), with the flags applied.
pub fn spec(path: Option<&Path>, flags: &QuickFlags) -> Result<Spec, SpecError> {
    let base = match path {
        Some(p) => Spec::load(p)?,
        None if flags.describes_hardware() => Spec {
            // Named by its hardware once the flags are applied.
            name: String::new(),
            source: fnn_tui::spec::QUICK_SOURCE.into(),
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

/// The spec's pins checked together by the exact model within its short
/// budget: refused when proved impossible (a search could never obey
/// them), a note on stderr when not settled in time.
pub fn check_pins(c: &Cluster) -> Result<(), SpecError> {
    use fnn_tui::exact::{PINS_BUDGET, PinsVerdict, check_pins};
    match check_pins(c, PINS_BUDGET) {
        PinsVerdict::Possible => Ok(()),
        PinsVerdict::Impossible(why) => Err(SpecError::infeasible(&c.source, why)),
        PinsVerdict::NotProved(why) => {
            super::out::errln!("note: {why}; going on without that proof");
            Ok(())
        }
    }
}

/// The cluster a switch table belongs to: the spec or quick flags when
/// given, else the hardware the table itself implies (with `--pairs` and
/// `--sparse` still applied).
pub fn table_cluster(spec: Option<&Path>, quick: &QuickArgs, text: &str, source: &str) -> anyhow::Result<Cluster> {
    let flags = quick_flags(quick, &SearchArgs::default());
    if spec.is_some() || flags.describes_hardware() {
        return Ok(cluster(&self::spec(spec, &flags)?)?);
    }
    let bare = parse_table(text, source, 0, 0)?;
    let mut inferred = inferred_spec(&bare, source);
    if let Some(p) = &quick.pairs {
        inferred.patterns.push(PatternSpec::PairFile {
            path: p.display().to_string(),
            weight: 1.0,
            named_by_user: true,
        });
    }
    if quick.sparse {
        inferred.coverage = Coverage::Sparse;
    }
    Ok(inferred.resolve()?)
}

/// The hardware a table implies when no spec is given: its PCs with as many
/// NICs as they use, one switch per line exactly as wide as its PC list.
pub fn inferred_spec(design: &Design, source: &str) -> Spec {
    let used = design.ports_used();
    let max_nics = (0..design.pcs()).map(|pc| design.nics_used(pc)).max().unwrap_or(0);
    let mut spec = Spec {
        // The name reaches every exported file: only the file's name, made safe.
        name: fnn_tui::spec::text::sanitize_label(&format!(
            "{} (inferred)",
            Path::new(source)
                .file_name()
                .map_or(source.into(), |n| n.to_string_lossy())
        )),
        source: source.to_string(),
        ..Spec::default()
    };
    spec.pcs.count = design.pcs().max(1);
    spec.pcs.nics = max_nics;
    spec.pcs.overrides = (0..design.pcs())
        .filter(|&pc| design.nics_used(pc) != max_nics)
        .map(|pc| NicOverride {
            pc,
            nics: design.nics_used(pc),
        })
        .collect();
    spec.uplink.mode = UplinkMode::None;
    spec.switches = used
        .iter()
        .map(|&u| SwitchModel {
            ports: u.max(2),
            count: Some(1),
            ..SwitchModel::default()
        })
        .collect();
    spec
}
