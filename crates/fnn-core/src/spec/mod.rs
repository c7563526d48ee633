//! The cluster specification: the TOML a user writes, its
//! validation with errors that name the file and field, the feasibility
//! bounds checked before any search, and the resolved [`Cluster`] the engine
//! works on.

mod cluster;
mod error;
mod feasibility;
mod live;
mod memory;
mod model;
mod patterns;
mod quick;
mod resolve;
pub(crate) use resolve::{MAX_SPEED_MBPS, amount, check_number};
pub mod text;

pub use cluster::{Cluster, Pins, SwitchSlot, Uplink};
pub use error::SpecError;
pub use feasibility::check_feasible;
pub use live::live_spec;
pub use memory::{LEAN_MASKS_ABOVE, SearchMemory};
pub use model::{
    CableColor, CableSpec, Coverage, GaParams, NicOverride, NicSpec, PatternSpec, PcSpec, PinKind, PinSpec, Preset,
    RackSpec, Spec, SwitchModel, UplinkMode, UplinkSpec, Weights, threads_for,
};
pub use patterns::{MAX_PATTERN_PAIRS, MAX_PATTERN_WEIGHT, PairFilePlace, pair_weights, parse_pairs, read_pair_file};
pub use quick::{QUICK_SOURCE, QuickFlags, hardware_name, parse_switch_groups, quick_cluster, quick_spec, sparse_spec};

use std::path::Path;

/// The built-in default: KLAT2 as the papers describe it.
pub(crate) const KLAT2_TOML: &str = include_str!("../../../../assets/specs/klat2.toml");

impl Spec {
    /// Parses a spec; `source` names the file in every error.
    pub fn from_toml(text: &str, source: &str) -> Result<Spec, SpecError> {
        let mut spec: Spec = toml::from_str(text).map_err(|e| SpecError::Parse {
            file: source.to_string(),
            message: match pattern_error(text) {
                Some(m) => {
                    let line = e
                        .span()
                        .map_or(0, |s| text[..s.start.min(text.len())].matches('\n').count() + 1);
                    format!("line {line}: {m}")
                }
                None => one_line_toml_error(text, &e),
            },
        })?;
        spec.source = source.to_string();
        Ok(spec)
    }

    pub fn load(path: &Path) -> Result<Spec, SpecError> {
        let source = crate::input::shown(path);
        let io = |e: crate::input::InputError| SpecError::Io {
            file: source.clone(),
            message: e.to_string(),
        };
        // The folder is held from here on: the pair files the spec names
        // are opened through it, never by a name looked up again.
        let max = crate::input::MAX_TOML_BYTES;
        let (folder, file) = crate::input::open_user_file_and_folder(path, max).map_err(io)?;
        let text = crate::input::read_opened(file, &source, max).map_err(io)?;
        let mut spec = Spec::from_toml(&text, &source)?;
        spec.base_dir = Some(folder);
        spec.source = source;
        Ok(spec)
    }

    pub fn klat2() -> Spec {
        let mut spec = Spec::from_toml(KLAT2_TOML, "assets/specs/klat2.toml").expect("the built-in KLAT2 spec parses");
        spec.source = "built-in KLAT2 spec".to_string();
        spec
    }

    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).expect("a spec always serializes")
    }
}

/// A `[[patterns]]` entry is read by its `kind` tag, and serde then loses
/// the field and line of a bad value ("expected usize" at the header).
/// Find the entry and the field: the field is the one whose removal
/// changes the error.
fn pattern_error(text: &str) -> Option<String> {
    use serde::Deserialize;
    let table: toml::Table = text.parse().ok()?;
    let patterns = table.get("patterns")?.as_array()?;
    for (i, p) in patterns.iter().enumerate() {
        let Err(e) = PatternSpec::deserialize(p.clone()) else {
            continue;
        };
        let message = e.message().trim().replace('\n', " ");
        let kind = p.get("kind").and_then(|k| k.as_str()).unwrap_or("?");
        let field = p.as_table().and_then(|t| {
            t.keys().filter(|k| *k != "kind").find(|k| {
                let mut without = t.clone();
                without.remove(*k);
                PatternSpec::deserialize(toml::Value::Table(without))
                    .err()
                    .is_none_or(|e2| e2.message().trim().replace('\n', " ") != message)
            })
        });
        let at = field.map_or(String::new(), |f| format!(".{f}"));
        return Some(format!("field `patterns[{i}]{at}` (kind \"{kind}\"): {message}"));
    }
    None
}

/// `line L, column C: message`, so a bad spec gets a one-line reason.
pub fn one_line_toml_error(text: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim().replace('\n', " ");
    match e.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            let column = before.len() - line_start + 1;
            let shown: String = text[line_start..]
                .lines()
                .next()
                .unwrap_or("")
                .trim()
                .chars()
                .take(60)
                .collect();
            format!("line {line}, column {column} (`{shown}`): {message}")
        }
        None => message,
    }
}
