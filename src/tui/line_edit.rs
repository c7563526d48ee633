//! One-line text editing shared by the prompts and the form's fields,
//! through the `tui-input` crate: the usual terminal keys (backspace,
//! ctrl-h, ctrl-u, ctrl-w, ctrl-a / ctrl-e, arrows and home / end move
//! the cursor), and no other control or alt chord inserted as a letter.

use ratatui::crossterm::event::{Event, KeyEvent};
use tui_input::backend::crossterm::to_input_request;
use tui_input::{Input, InputRequest};

/// A line of text with a cursor.
#[derive(Clone, Debug, Default)]
pub struct TextInput(Input);

impl PartialEq for TextInput {
    fn eq(&self, other: &Self) -> bool {
        self.value() == other.value() && self.0.cursor() == other.0.cursor()
    }
}

impl From<String> for TextInput {
    fn from(s: String) -> Self {
        TextInput(Input::new(s))
    }
}

impl From<&str> for TextInput {
    fn from(s: &str) -> Self {
        s.to_string().into()
    }
}

impl TextInput {
    pub fn value(&self) -> &str {
        self.0.value()
    }

    /// The text with the cursor drawn where it is.
    pub fn with_cursor(&self) -> String {
        let at = self.0.cursor();
        let v = self.value();
        let split = v.char_indices().nth(at).map_or(v.len(), |(i, _)| i);
        format!("{}▏{}", &v[..split], &v[split..])
    }
}

/// The editing keys the help and the README name (the arrows, home and
/// end move the cursor too, but in a form they also move between fields).
pub fn editing_keys() -> [(KeyEvent, &'static str); 4] {
    use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    let ctrl = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
    [
        (
            KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE),
            "delete the character before the cursor",
        ),
        (ctrl('h'), "delete the character before the cursor"),
        (ctrl('u'), "clear the line"),
        (ctrl('w'), "delete the word before the cursor"),
    ]
}

/// What a key did to the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edited {
    Changed,
    /// A character the line does not accept (`accept` said no).
    Refused(char),
    /// Not an editing key: the caller handles it (enter, esc, up, down, tab).
    NotEditing,
}

/// Applies `key` to `text`; `accept` says which typed characters belong.
pub fn edit(text: &mut TextInput, key: KeyEvent, accept: impl Fn(char) -> bool) -> Edited {
    match to_input_request(&Event::Key(key)) {
        Some(InputRequest::InsertChar(c)) if !accept(c) => Edited::Refused(c),
        Some(req) => {
            text.0.handle(req);
            Edited::Changed
        }
        None => Edited::NotEditing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyCode, KeyModifiers};

    fn key(c: char, m: KeyModifiers) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), m)
    }

    /// Ctrl-u and ctrl-w were inserted as letters.
    #[test]
    fn the_usual_editing_keys_work_and_chords_are_not_letters() {
        let mut s = TextInput::from("out/fnn export");
        assert_eq!(edit(&mut s, key('w', KeyModifiers::CONTROL), |_| true), Edited::Changed);
        assert_eq!(s.value(), "out/fnn ");
        edit(&mut s, key('w', KeyModifiers::CONTROL), |_| true);
        assert_eq!(s.value(), "out/");
        edit(&mut s, key('u', KeyModifiers::CONTROL), |_| true);
        assert_eq!(s.value(), "");
        assert_eq!(edit(&mut s, key('x', KeyModifiers::ALT), |_| true), Edited::NotEditing);
        assert_eq!(s.value(), "");
        let digits = |c: char| c.is_ascii_digit();
        assert_eq!(edit(&mut s, key('7', KeyModifiers::NONE), digits), Edited::Changed);
        assert_eq!(edit(&mut s, key('x', KeyModifiers::NONE), digits), Edited::Refused('x'));
        assert_eq!(s.value(), "7");
        // The cursor moves; typing goes where it is.
        let mut t = TextInput::from("ac");
        edit(&mut t, KeyEvent::new(KeyCode::Left, KeyModifiers::NONE), |_| true);
        edit(&mut t, key('b', KeyModifiers::NONE), |_| true);
        assert_eq!((t.value(), t.with_cursor().as_str()), ("abc", "ab▏c"));
    }
}
