//! `config.toml` in the `directories` config folder
//! (`$XDG_CONFIG_HOME/fnn-tui/config.toml` on Linux): key and theme
//! overrides. NO_COLOR turns colour off whatever the file says.

use super::keymap::{Action, Keymap};
use super::theme::{Theme, ThemeOverrides};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    keys: BTreeMap<Action, Vec<String>>,
    #[serde(default)]
    theme: ThemeOverrides,
}

pub fn config_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "fnn-tui").map(|p| p.config_dir().join("config.toml"))
}

/// The keymap and theme, from defaults, the config file (if any) and NO_COLOR.
pub fn load(path: Option<&Path>, no_color: bool) -> Result<(Keymap, Theme), String> {
    let mut keymap = Keymap::default();
    let mut theme = if no_color { Theme::plain() } else { Theme::colored() };
    let Some(path) = path.filter(|p| p.exists()) else {
        return Ok((keymap, theme));
    };
    let shown = path.display();
    let text = crate::input::read_text_limited(path, crate::input::MAX_TOML_BYTES).map_err(|e| e.to_string())?;
    let file: ConfigFile =
        toml::from_str(&text).map_err(|e| format!("{shown}: {}", crate::spec::one_line_toml_error(&text, &e)))?;
    keymap
        .apply_overrides(&file.keys)
        .map_err(|e| format!("{shown}: keys: {e}"))?;
    theme.apply(&file.theme).map_err(|e| format!("{shown}: {e}"))?;
    Ok((keymap, theme))
}

pub fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}
