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

/// Why the config file was not used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error(transparent)]
    Read(#[from] crate::input::InputError),
    #[error("{path}: {message}")]
    Toml { path: String, message: String },
    #[error("{path}: keys: {source}")]
    Keys {
        path: String,
        source: super::keymap::KeyError,
    },
    #[error("{path}: {source}")]
    Theme {
        path: String,
        source: super::theme::NotAColour,
    },
}

/// The keymap and theme, from defaults, the config file (if any) and NO_COLOR.
pub fn load(path: Option<&Path>, no_color: bool) -> Result<(Keymap, Theme), ConfigError> {
    let mut keymap = Keymap::default();
    let mut theme = if no_color { Theme::plain() } else { Theme::colored() };
    let Some(path) = path.filter(|p| p.exists()) else {
        return Ok((keymap, theme));
    };
    let shown = path.display().to_string();
    let text = crate::input::read_text_limited(path, crate::input::MAX_TOML_BYTES)?;
    let file: ConfigFile = toml::from_str(&text).map_err(|e| ConfigError::Toml {
        path: shown.clone(),
        message: crate::spec::one_line_toml_error(&text, &e),
    })?;
    keymap.apply_overrides(&file.keys).map_err(|source| ConfigError::Keys {
        path: shown.clone(),
        source,
    })?;
    theme
        .apply(&file.theme)
        .map_err(|source| ConfigError::Theme { path: shown, source })?;
    Ok((keymap, theme))
}

pub fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}
