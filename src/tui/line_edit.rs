//! One-line text editing shared by the prompts and the form's fields:
//! the usual terminal keys (backspace, ctrl-h, ctrl-u clears, ctrl-w
//! deletes a word), and no control or alt chord inserted as a letter.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// What a key did to the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edited {
    Changed,
    /// A character the line does not accept (`accept` said no).
    Refused(char),
    /// Not an editing key: the caller handles it (enter, esc, arrows).
    NotEditing,
}

/// Applies `key` to `text`; `accept` says which typed characters belong.
pub fn edit(text: &mut String, key: KeyEvent, accept: impl Fn(char) -> bool) -> Edited {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    match key.code {
        KeyCode::Backspace => {
            text.pop();
            Edited::Changed
        }
        KeyCode::Char('h') if ctrl => {
            text.pop();
            Edited::Changed
        }
        KeyCode::Char('u') if ctrl => {
            text.clear();
            Edited::Changed
        }
        KeyCode::Char('w') if ctrl => {
            let kept = text.trim_end().len();
            let start = text[..kept]
                .rfind(|c: char| c.is_whitespace() || c == '/')
                .map_or(0, |i| i + 1);
            text.truncate(start);
            Edited::Changed
        }
        KeyCode::Char(_) if ctrl || alt => Edited::NotEditing,
        KeyCode::Char(c) if accept(c) => {
            text.push(c);
            Edited::Changed
        }
        KeyCode::Char(c) => Edited::Refused(c),
        _ => Edited::NotEditing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(c: char, m: KeyModifiers) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), m)
    }

    /// Issue 12, problem 7: ctrl-u and ctrl-w were inserted as letters.
    #[test]
    fn the_usual_editing_keys_work_and_chords_are_not_letters() {
        let mut s = String::from("out/fnn export");
        assert_eq!(edit(&mut s, key('w', KeyModifiers::CONTROL), |_| true), Edited::Changed);
        assert_eq!(s, "out/fnn ");
        edit(&mut s, key('w', KeyModifiers::CONTROL), |_| true);
        assert_eq!(s, "out/");
        edit(&mut s, key('u', KeyModifiers::CONTROL), |_| true);
        assert_eq!(s, "");
        assert_eq!(edit(&mut s, key('x', KeyModifiers::ALT), |_| true), Edited::NotEditing);
        assert_eq!(s, "");
        let digits = |c: char| c.is_ascii_digit();
        assert_eq!(edit(&mut s, key('7', KeyModifiers::NONE), digits), Edited::Changed);
        assert_eq!(edit(&mut s, key('x', KeyModifiers::NONE), digits), Edited::Refused('x'));
        assert_eq!(s, "7");
    }
}
