//! The `design` / `check` quick flags: a spec built from the command line
//! (`--pcs 64 --nics 4 --switches 31x8,8`), or overrides applied to a spec.

use super::error::SpecError;
use super::model::{Coverage, PatternSpec, PcSpec, Preset, Spec, SwitchModel, UplinkMode, UplinkSpec, Weights};
use std::path::PathBuf;

#[derive(Clone, Debug, Default)]
pub struct QuickFlags {
    pub pcs: Option<usize>,
    pub nics: Option<u32>,
    /// Groups `PORTSxCOUNT` (or `PORTS` for one, `PORTSx*` for as many as
    /// needed), comma separated; ports are those usable by PCs.
    pub switches: Option<String>,
    pub pairs: Option<PathBuf>,
    pub sparse: bool,
    pub seed: Option<u64>,
    pub generations: Option<u64>,
    pub time_limit: Option<f64>,
    pub threads: Option<usize>,
    pub no_constructions: bool,
    pub local_search: Option<u64>,
    pub portfolio: Option<Preset>,
}

impl QuickFlags {
    /// Whether the flags describe the hardware themselves.
    pub fn describes_hardware(&self) -> bool {
        self.pcs.is_some() || self.nics.is_some() || self.switches.is_some()
    }

    /// Applies the flags to `base`. Hardware flags replace the spec's
    /// hardware; the quick switch groups have no uplink reservation since
    /// their ports are already the ones usable by PCs.
    pub fn apply(&self, mut spec: Spec) -> Result<Spec, SpecError> {
        if let Some(p) = self.pcs {
            spec.pcs.count = p;
            spec.pcs.overrides.clear();
            spec.pcs.hot_spares = 0;
            spec.patterns.clear();
            spec.pins.clear();
        }
        if let Some(n) = self.nics {
            spec.pcs.nics = n;
            spec.pcs.overrides.clear();
        }
        if let Some(groups) = &self.switches {
            let parsed = parse_switch_groups(groups)
                .map_err(|m| SpecError::field("command line", "--switches", m.to_string()))?;
            let template = spec.switches.first().cloned().unwrap_or_default();
            spec.switches = parsed
                .into_iter()
                .map(|(ports, count)| SwitchModel {
                    model: format!("{ports}-port"),
                    ports,
                    count,
                    ..template.clone()
                })
                .collect();
            spec.uplink.mode = UplinkMode::None;
            spec.pcs.hot_spares = 0;
            spec.pins.clear();
        }
        if self.describes_hardware() && spec.name.is_empty() {
            // Named by its hardware, as messages and exported files show it.
            spec.name = hardware_name(&spec);
            if spec.source == QUICK_SOURCE {
                spec.source = spec.name.clone();
            }
        }
        if let Some(path) = &self.pairs {
            spec.patterns.push(PatternSpec::PairFile {
                path: crate::input::shown(path),
                weight: 1.0,
                named_by_user: true,
            });
        }
        if self.sparse {
            spec.coverage = Coverage::Sparse;
        }
        let ga = &mut spec.ga;
        if let Some(s) = self.seed {
            ga.seed = s;
        }
        if let Some(g) = self.generations {
            ga.generations = g;
        }
        if let Some(t) = self.time_limit {
            ga.time_limit_s = t;
        }
        if let Some(t) = self.threads {
            ga.threads = t;
        }
        if self.no_constructions {
            ga.constructions = false;
        }
        if let Some(m) = self.local_search {
            ga.local_search = m;
        }
        if let Some(p) = self.portfolio {
            ga.portfolio = p;
        }
        Ok(spec)
    }
}

/// The source of a spec built from the quick flags alone (no spec file),
/// until [`QuickFlags::apply`] names it by its hardware.
pub const QUICK_SOURCE: &str = "command line";

/// A quick-flag design's name: its hardware as the flags write it,
/// e.g. "64 PCs, 4 NICs, 31x8,8".
pub fn hardware_name(spec: &Spec) -> String {
    let groups: Vec<String> = spec
        .switches
        .iter()
        .map(|m| match m.count {
            Some(1) => m.ports.to_string(),
            Some(n) => format!("{}x{n}", m.ports),
            // `*` is not a label character: the name reaches file names.
            None => format!("{}-port as needed", m.ports),
        })
        .collect();
    format!(
        "{}, {}, {}",
        crate::words::count(spec.pcs.count, "PC"),
        crate::words::count(spec.pcs.nics as usize, "NIC"),
        groups.join(",")
    )
}

/// The spec the quick flags describe, for `pcs` PCs with `nics` NICs on
/// `switches` (as `--switches` takes it).
pub fn quick_spec(pcs: usize, nics: u32, switches: &str) -> Result<Spec, SpecError> {
    let flags = QuickFlags {
        pcs: Some(pcs),
        nics: Some(nics),
        switches: Some(switches.to_string()),
        ..QuickFlags::default()
    };
    flags.apply(Spec {
        name: format!("{pcs} PCs"),
        source: "command line".into(),
        ..Spec::default()
    })
}

/// A plain universal cluster from the quick flags: `pcs` PCs of `nics`
/// NICs on `switches` (e.g. `20x13`), no uplink, the built-in prices and
/// GA defaults (the sweep and the hardware search build many of these).
pub fn quick_cluster(pcs: usize, nics: u32, switches: &str) -> Result<super::Cluster, SpecError> {
    let cluster = quick_spec(pcs, nics, switches)?.resolve()?;
    super::check_feasible(&cluster)?;
    Ok(cluster)
}

/// A `--switches` group that does not parse.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[error(
    "`{group}` {problem}: use groups PORTSxCOUNT (ports usable by PCs), PORTS for one switch or PORTSx* for as many as needed, comma separated, e.g. 31x8,8"
)]
pub struct SwitchGroupError {
    pub group: String,
    pub problem: &'static str,
}

/// Parses `31x8,8` into [(31, Some(8)), (8, Some(1))]; `32x*` is as many as needed.
pub fn parse_switch_groups(text: &str) -> Result<Vec<(u32, Option<u32>)>, SwitchGroupError> {
    let mut out = Vec::new();
    for group in text.split(',').map(str::trim) {
        let bad = |problem| SwitchGroupError {
            group: group.to_string(),
            problem,
        };
        let (ports, count) = match group.split_once(['x', 'X']) {
            Some((p, "*")) => (p, None),
            Some((p, c)) => (p, Some(c)),
            None => (group, Some("1")),
        };
        let ports: u32 = ports.trim().parse().map_err(|_| bad("is not a switch group"))?;
        let count = match count {
            Some(c) => Some(c.trim().parse::<u32>().map_err(|_| bad("is not a switch group"))?),
            None => None,
        };
        if count == Some(0) {
            return Err(bad("has no switches"));
        }
        out.push((ports, count));
    }
    Ok(out)
}

/// A sparse spec of `pcs` PCs with `nics` NICs on exactly the switches
/// listed (`(ports, count)`), no uplink, coverage the only objective.
pub fn sparse_spec(name: &str, pcs: usize, nics: u32, switches: &[(u32, u32)], patterns: Vec<PatternSpec>) -> Spec {
    Spec {
        name: name.into(),
        coverage: Coverage::Sparse,
        pcs: PcSpec {
            count: pcs,
            nics,
            ..Default::default()
        },
        switches: switches
            .iter()
            .map(|&(ports, count)| SwitchModel {
                model: format!("{ports}-port"),
                ports,
                count: Some(count),
                price: 10.0 * ports as f64,
                ..Default::default()
            })
            .collect(),
        uplink: UplinkSpec {
            mode: UplinkMode::None,
            ..Default::default()
        },
        patterns,
        weights: Weights {
            bandwidth: 0.0,
            weakest: 0.0,
            ..Default::default()
        },
        ..Spec::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_klat2_groups() {
        assert_eq!(
            parse_switch_groups("31x8,8").unwrap(),
            vec![(31, Some(8)), (8, Some(1))]
        );
        assert_eq!(parse_switch_groups("32x*").unwrap(), vec![(32, None)]);
        assert!(
            parse_switch_groups("31x")
                .unwrap_err()
                .to_string()
                .contains("PORTSxCOUNT")
        );
        assert!(parse_switch_groups("ax2").is_err());
        assert!(parse_switch_groups("4x0").is_err());
    }
}
