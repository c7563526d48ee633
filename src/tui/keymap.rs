//! One keymap feeds the dispatcher, the status bar hints and the help
//! popup, so they can never disagree (gitui's command lists). Keys can be
//! overridden from the config file by action name.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    Quit,
    TogglePause,
    Step,
    NextPane,
    PrevPane,
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
    Home,
    End,
    Pin,
    Forbid,
    ClearPin,
    Weights,
    Export,
    Save,
    SaveAs,
    Open,
    Restart,
    Racks,
    Compare,
    Sweep,
    Help,
    /// The messages of this run, newest first.
    Messages,
    /// Put the grid's cursor on a PC or switch typed by name.
    Find,
    /// The watch pace on or off (slowed generations, to follow the phases).
    Watch,
    /// Stop the designer and return to the shell (`fg` brings it back).
    Suspend,
    /// In a popup: apply, open, confirm.
    Accept,
    /// In a popup: close without doing anything.
    Cancel,
    /// In the export form: rehearse the design in network namespaces.
    Emulate,
    /// In the open list: delete the recovery file under the cursor.
    Delete,
    /// When asked before unsaved work is lost: go ahead, save first, stay.
    Yes,
    SaveFirst,
    No,
}

/// Where a binding applies. One keymap holds them all, so the dispatcher,
/// the status bar, the popups' footers and the help cannot disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// The designer's panes.
    Normal,
    /// Every popup (help, messages, prompts, the form, the open list).
    Popup,
    /// The question before unsaved work is lost.
    Confirm,
    /// Everywhere: the movement keys (panes, lists, help, rack view).
    Any,
}

#[derive(Debug)]
pub struct Binding {
    pub action: Action,
    pub keys: Vec<KeyEvent>,
    pub help: &'static str,
    /// The status bar's label; empty for bindings shown only in the help.
    pub hint: &'static str,
    pub context: Context,
}

#[derive(Debug)]
pub struct Keymap {
    pub bindings: Vec<Binding>,
}

fn k(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn c(ch: char) -> KeyEvent {
    k(KeyCode::Char(ch))
}

impl Default for Keymap {
    fn default() -> Self {
        Keymap {
            bindings: [pane_bindings(), move_bindings(), designer_bindings(), popup_bindings()]
                .into_iter()
                .flatten()
                .collect(),
        }
    }
}

/// Where an action's keys work.
fn context_of(action: Action) -> Context {
    use Action::*;
    match action {
        Up | Down | Left | Right | PageUp | PageDown | Home | End => Context::Any,
        Accept | Cancel | Emulate | Delete => Context::Popup,
        Yes | SaveFirst | No => Context::Confirm,
        _ => Context::Normal,
    }
}

fn b(action: Action, keys: Vec<KeyEvent>, help: &'static str, hint: &'static str) -> Binding {
    Binding {
        action,
        keys,
        help,
        hint,
        context: context_of(action),
    }
}

/// The search's pace and the panes.
fn pane_bindings() -> Vec<Binding> {
    use Action::*;
    vec![
        b(TogglePause, vec![c(' ')], "pause / resume the search", "pause"),
        b(Step, vec![c('n')], "run a single generation (pauses)", "step"),
        b(NextPane, vec![k(KeyCode::Tab)], "next pane", "pane"),
        b(PrevPane, vec![k(KeyCode::BackTab)], "previous pane", ""),
    ]
}

/// Movement, in every view and popup.
fn move_bindings() -> Vec<Binding> {
    use Action::*;
    vec![
        b(Up, vec![k(KeyCode::Up), c('k')], "move up", ""),
        b(Down, vec![k(KeyCode::Down), c('j')], "move down", ""),
        b(Left, vec![k(KeyCode::Left), c('h')], "move left (grid)", ""),
        b(Right, vec![k(KeyCode::Right), c('l')], "move right (grid)", ""),
        b(
            PageUp,
            vec![
                k(KeyCode::PageUp),
                KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL),
            ],
            "page up",
            "",
        ),
        b(
            PageDown,
            vec![
                k(KeyCode::PageDown),
                KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL),
            ],
            "page down",
            "",
        ),
        b(Home, vec![k(KeyCode::Home), c('g')], "first row", ""),
        b(End, vec![k(KeyCode::End), c('G')], "last row", ""),
    ]
}

/// The designer's commands.
fn designer_bindings() -> Vec<Binding> {
    use Action::*;
    vec![
        b(Pin, vec![c('p')], "pin the cell under the cursor (must)", "pin"),
        b(Forbid, vec![c('x')], "forbid the cell under the cursor", "forbid"),
        b(ClearPin, vec![c('c')], "clear the pin or forbid", ""),
        b(Weights, vec![c('w')], "edit weights and GA parameters", "weights"),
        b(Export, vec![c('e')], "export the best design", "export"),
        b(Save, vec![c('s')], "save the session", "save"),
        b(SaveAs, vec![c('S')], "save the session as", ""),
        b(Open, vec![c('o')], "open a saved session", ""),
        b(Restart, vec![c('R')], "restart with a new seed", ""),
        b(
            Racks,
            vec![c('r')],
            "rack view of the selected design (toggle)",
            "racks",
        ),
        b(
            Compare,
            vec![c('C')],
            "compare with fat-tree, tree, Stack-Ring, Stack-Mesh (toggle)",
            "compare",
        ),
        b(
            Sweep,
            vec![c('W')],
            "sweep: narrowest switches for 3..1024 PCs, 2..6 NICs (toggle; Left/Right pick NICs)",
            "sweep",
        ),
        b(
            Find,
            vec![c('/')],
            "find a PC or switch in the grid (k10, s3, k10 s3)",
            "",
        ),
        b(
            Watch,
            vec![c('v')],
            "watch pace: slowed generations, to follow both phases",
            "watch",
        ),
        b(Help, vec![c('?')], "help", "help"),
        b(
            Messages,
            vec![c('m')],
            "messages: every message of this run, newest first",
            "",
        ),
        b(
            Quit,
            vec![c('q')],
            "quit (asks only when you have unsaved edits; the search's progress goes to a recovery file)",
            "quit",
        ),
        b(
            Suspend,
            vec![KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL)],
            "suspend to the shell, from any view (fg returns)",
            "",
        ),
    ]
}

/// The keys of popups and questions.
fn popup_bindings() -> Vec<Binding> {
    use Action::*;
    vec![
        b(Accept, vec![k(KeyCode::Enter)], "apply / open / confirm", ""),
        b(
            Cancel,
            vec![k(KeyCode::Esc)],
            "close without applying; in the rack, compare and sweep views: back to the designer",
            "",
        ),
        b(
            Emulate,
            vec![k(KeyCode::F(5))],
            "export form: rehearse the design in network namespaces (emulate; root)",
            "",
        ),
        b(
            Delete,
            vec![c('d'), k(KeyCode::Delete)],
            "open list: delete the recovery file under the cursor (asks first)",
            "",
        ),
        b(
            Yes,
            vec![c('y')],
            "go ahead: a quit keeps the unsaved work in the recovery file; an open or restart loses it",
            "",
        ),
        b(SaveFirst, vec![c('s')], "save first, then go ahead", ""),
        b(No, vec![c('n'), k(KeyCode::Esc)], "stay", ""),
    ]
}

impl Keymap {
    /// The designer's action for a key (movement included).
    pub fn action(&self, key: &KeyEvent) -> Option<Action> {
        self.action_in(Context::Normal, key)
    }

    /// The action a key has in `context` (or everywhere).
    pub fn action_in(&self, context: Context, key: &KeyEvent) -> Option<Action> {
        let norm = normalize(key);
        self.bindings
            .iter()
            .filter(|b| b.context == context || b.context == Context::Any)
            .find(|b| b.keys.iter().any(|k| normalize(k) == norm))
            .map(|b| b.action)
    }

    pub fn keys_for(&self, action: Action) -> String {
        self.bindings
            .iter()
            .find(|b| b.action == action)
            .map(|b| b.keys.iter().map(key_name).collect::<Vec<_>>().join("/"))
            .unwrap_or_default()
    }

    /// The first key of an action that is not a plain character: what a
    /// text field (where characters are typed) still obeys.
    pub fn non_char_key_for(&self, action: Action) -> String {
        self.bindings
            .iter()
            .find(|b| b.action == action)
            .and_then(|b| {
                b.keys
                    .iter()
                    .find(|k| !matches!(k.code, KeyCode::Char(_)) || k.modifiers.contains(KeyModifiers::CONTROL))
            })
            .map(key_name)
            .unwrap_or_default()
    }

    /// Replaces the keys of the named actions; errors name the action or
    /// key. A key left doing two things where both apply is refused with
    /// both actions named: one of them would be unreachable. An action
    /// with no binding to replace is refused too, never ignored.
    pub fn apply_overrides(&mut self, overrides: &BTreeMap<Action, Vec<String>>) -> Result<(), KeyError> {
        for (action, names) in overrides {
            let keys = names.iter().map(|n| parse_key(n)).collect::<Result<Vec<_>, _>>()?;
            let Some(b) = self.bindings.iter_mut().find(|b| b.action == *action) else {
                return Err(KeyError::Unbound(action_name(*action)));
            };
            b.keys = keys;
        }
        self.conflict().map_or(Ok(()), Err)
    }

    /// The first key bound to two actions in contexts that overlap.
    fn conflict(&self) -> Option<KeyError> {
        let overlap = |a: Context, b: Context| a == b || a == Context::Any || b == Context::Any;
        for (i, a) in self.bindings.iter().enumerate() {
            for b in self
                .bindings
                .iter()
                .skip(i + 1)
                .filter(|b| overlap(a.context, b.context))
            {
                if let Some(k) = a
                    .keys
                    .iter()
                    .find(|k| b.keys.iter().any(|x| normalize(x) == normalize(k)))
                {
                    return Some(KeyError::Clash {
                        key: key_name(k),
                        first: action_name(a.action),
                        second: action_name(b.action),
                    });
                }
            }
        }
        None
    }
}

/// An action as the config file names it (`toggle-pause`).
pub fn action_name(a: Action) -> String {
    let mut out = String::new();
    for (i, ch) in format!("{a:?}").chars().enumerate() {
        if ch.is_ascii_uppercase() && i > 0 {
            out.push('-');
        }
        out.push(ch.to_ascii_lowercase());
    }
    out
}

/// Shift is part of the character for letters; compare without it.
fn normalize(k: &KeyEvent) -> (KeyCode, KeyModifiers) {
    let mut mods = k.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT);
    if matches!(k.code, KeyCode::BackTab) {
        mods = KeyModifiers::NONE;
    }
    (k.code, mods)
}

/// What ctrl-c does in the designer: not a rebindable action (it is also
/// the terminal's interrupt), so the help and the man page add it here.
pub const CTRL_C_HELP: &str = "quit now (unsaved work is autosaved)";

/// What the mouse does, for the help and the man page.
pub const MOUSE_HELP: &str = "click a cell: pin/unpin · right-click: forbid · wheel: scroll";

pub fn key_name(k: &KeyEvent) -> String {
    let base = match k.code {
        KeyCode::Char(' ') => "space".to_string(),
        KeyCode::Char(ch) => ch.to_string(),
        KeyCode::Tab => "tab".into(),
        KeyCode::BackTab => "shift-tab".into(),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::PageUp => "pgup".into(),
        KeyCode::PageDown => "pgdn".into(),
        KeyCode::Home => "home".into(),
        KeyCode::End => "end".into(),
        KeyCode::Enter => "enter".into(),
        KeyCode::Esc => "esc".into(),
        KeyCode::F(n) => format!("f{n}"),
        other => format!("{other:?}").to_lowercase(),
    };
    if k.modifiers.contains(KeyModifiers::CONTROL) {
        format!("ctrl-{base}")
    } else {
        base
    }
}

/// A `[keys]` override that cannot be applied.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum KeyError {
    #[error("`{0}` is not a key: use a character, space, tab, enter, esc, up, f1, ctrl-x, ...")]
    NotAKey(String),
    #[error("{0} has no key in the designer to replace: remove it from [keys]")]
    Unbound(String),
    #[error("`{key}` is bound to both {first} and {second}: give one of them another key")]
    Clash { key: String, first: String, second: String },
}

/// Parses `q`, `space`, `ctrl-d`, `tab`, `f1`, `up`, ...
pub fn parse_key(name: &str) -> Result<KeyEvent, KeyError> {
    let (mods, rest) = match name.strip_prefix("ctrl-") {
        Some(r) => (KeyModifiers::CONTROL, r),
        None => (KeyModifiers::NONE, name),
    };
    let code = match rest {
        "space" => KeyCode::Char(' '),
        "tab" => KeyCode::Tab,
        "shift-tab" | "backtab" => KeyCode::BackTab,
        "up" => KeyCode::Up,
        "down" => KeyCode::Down,
        "left" => KeyCode::Left,
        "right" => KeyCode::Right,
        "pgup" | "pageup" => KeyCode::PageUp,
        "pgdn" | "pagedown" => KeyCode::PageDown,
        "home" => KeyCode::Home,
        "end" => KeyCode::End,
        "enter" => KeyCode::Enter,
        "esc" => KeyCode::Esc,
        f if f.len() > 1 && f.starts_with('f') && f[1..].parse::<u8>().is_ok() => {
            KeyCode::F(f[1..].parse().unwrap_or(1))
        }
        s if s.chars().count() == 1 => KeyCode::Char(s.chars().next().unwrap_or(' ')),
        _ => {
            return Err(KeyError::NotAKey(crate::escape::one_line(name)));
        }
    };
    Ok(KeyEvent::new(code, mods))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_actions_and_overrides_replace_them() {
        let mut km = Keymap::default();
        assert_eq!(km.action(&c(' ')), Some(Action::TogglePause));
        assert_eq!(
            km.action(&KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT)),
            Some(Action::End)
        );
        let mut o = BTreeMap::new();
        o.insert(Action::TogglePause, vec!["ctrl-p".to_string(), "f5".into()]);
        km.apply_overrides(&o).unwrap();
        assert_eq!(km.action(&c(' ')), None);
        assert_eq!(
            km.action(&KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL)),
            Some(Action::TogglePause)
        );
        assert_eq!(km.keys_for(Action::TogglePause), "ctrl-p/f5");
        assert!(parse_key("ctrl-").is_err());
        // A key doing two things where both apply leaves one unreachable.
        assert_eq!(Keymap::default().conflict(), None, "the defaults collide nowhere");
        let mut clash = BTreeMap::new();
        clash.insert(Action::TogglePause, vec!["x".to_string()]);
        let e = Keymap::default().apply_overrides(&clash).unwrap_err().to_string();
        assert!(
            e.contains("`x`") && e.contains("toggle-pause") && e.contains("forbid"),
            "{e}"
        );
        // Across contexts that never meet, one key may serve both.
        let mut fine = BTreeMap::new();
        fine.insert(Action::Step, vec!["y".to_string()]);
        assert!(Keymap::default().apply_overrides(&fine).is_ok());
        assert!(parse_key("banana").unwrap_err().to_string().contains("banana"));
    }

    /// Every action the config file can name has a key to replace (the
    /// watch pace had none, so `[keys] watch = [...]` did nothing), and
    /// an override with nothing to replace is refused.
    #[test]
    fn every_action_the_config_can_name_is_bound() {
        #[derive(Deserialize)]
        struct One {
            a: Action,
        }
        // Serde lists every name it accepts when given one it does not.
        let e = toml::from_str::<One>("a = \"no-such-action\"")
            .err()
            .unwrap()
            .to_string();
        let listed = e.split("expected one of").nth(1).unwrap_or_default();
        let names: Vec<&str> = listed.split('`').skip(1).step_by(2).collect();
        assert!(names.len() > 30, "{e}");
        let km = Keymap::default();
        for name in names {
            let One { a } = toml::from_str(&format!("a = \"{name}\"")).unwrap();
            assert!(km.bindings.iter().any(|b| b.action == a), "{name} has no key");
        }
        let mut unbound = Keymap::default();
        unbound.bindings.retain(|b| b.action != Action::Watch);
        let o = BTreeMap::from([(Action::Watch, vec!["v".to_string()])]);
        let e = unbound.apply_overrides(&o).unwrap_err().to_string();
        assert!(e.contains("watch") && e.contains("[keys]"), "{e}");
    }
}
