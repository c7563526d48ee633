//! Styles in one place (ratatui's demo2 `Theme`), with a monochrome variant
//! for NO_COLOR and cable colours parsed from the spec.

use crate::spec::CableColor;
use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

#[derive(Clone, Debug)]
pub struct Theme {
    pub color: bool,
    pub border: Style,
    pub border_focus: Style,
    pub title: Style,
    pub header: Style,
    pub selected: Style,
    pub cursor: Style,
    pub problem: Style,
    pub pin: Style,
    pub forbid: Style,
    pub muted: Style,
    pub good: Style,
    pub bad: Style,
    pub status: Style,
    pub best: Style,
    pub mean: Style,
    pub phase: Style,
}

impl Theme {
    pub fn colored() -> Theme {
        Theme {
            color: true,
            border: Style::new().fg(Color::DarkGray),
            border_focus: Style::new().fg(Color::Cyan),
            title: Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
            header: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            selected: Style::new().bg(Color::Rgb(40, 60, 90)),
            cursor: Style::new().add_modifier(Modifier::REVERSED),
            problem: Style::new().fg(Color::LightRed).add_modifier(Modifier::BOLD),
            pin: Style::new().fg(Color::LightGreen).add_modifier(Modifier::BOLD),
            forbid: Style::new().fg(Color::Red),
            muted: Style::new().fg(Color::DarkGray),
            good: Style::new().fg(Color::LightGreen).add_modifier(Modifier::BOLD),
            bad: Style::new().fg(Color::LightRed).add_modifier(Modifier::BOLD),
            status: Style::new().bg(Color::Rgb(30, 30, 40)),
            best: Style::new().fg(Color::LightGreen),
            mean: Style::new().fg(Color::LightBlue),
            phase: Style::new().fg(Color::Yellow),
        }
    }

    /// NO_COLOR: modifiers only.
    pub fn plain() -> Theme {
        let s = Style::new();
        Theme {
            color: false,
            border: s,
            border_focus: s.add_modifier(Modifier::BOLD),
            title: s.add_modifier(Modifier::BOLD),
            header: s.add_modifier(Modifier::BOLD),
            selected: s.add_modifier(Modifier::REVERSED),
            cursor: s.add_modifier(Modifier::REVERSED),
            problem: s.add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            pin: s.add_modifier(Modifier::BOLD),
            forbid: s,
            muted: s.add_modifier(Modifier::DIM),
            good: s.add_modifier(Modifier::BOLD),
            bad: s.add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            status: s,
            best: s,
            mean: s.add_modifier(Modifier::DIM),
            phase: s.add_modifier(Modifier::BOLD),
        }
    }

    /// The cable colour of a switch, repeating when switches outnumber colours.
    pub fn cable(&self, colors: &[CableColor], switch: usize) -> Style {
        if !self.color || colors.is_empty() {
            return Style::new();
        }
        let c = &colors[switch % colors.len()];
        Style::new().fg(parse_hex(&c.hex).unwrap_or(Color::White))
    }

    pub fn apply(&mut self, o: &ThemeOverrides) -> Result<(), NotAColour> {
        if !self.color {
            return Ok(());
        }
        let set = |style: &mut Style, v: &Option<String>, field: &'static str| {
            if let Some(v) = v {
                let c = parse_hex(v)
                    .or_else(|| v.parse::<Color>().ok())
                    .ok_or_else(|| NotAColour {
                        field,
                        value: crate::escape::one_line(v),
                    })?;
                *style = style.fg(c);
            }
            Ok(())
        };
        set(&mut self.border_focus, &o.border_focus, "border_focus")?;
        set(&mut self.problem, &o.problem, "problem")?;
        set(&mut self.pin, &o.pin, "pin")?;
        set(&mut self.forbid, &o.forbid, "forbid")?;
        set(&mut self.best, &o.best, "best")?;
        set(&mut self.mean, &o.mean, "mean")?;
        set(&mut self.header, &o.header, "header")?;
        Ok(())
    }
}

/// A theme override that names no colour.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[error("theme.{field}: `{value}` is not a colour (use #rrggbb or a name like \"red\")")]
pub struct NotAColour {
    pub field: &'static str,
    pub value: String,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThemeOverrides {
    pub border_focus: Option<String>,
    pub problem: Option<String>,
    pub pin: Option<String>,
    pub forbid: Option<String>,
    pub best: Option<String>,
    pub mean: Option<String>,
    pub header: Option<String>,
}

pub fn parse_hex(s: &str) -> Option<Color> {
    let h = s.strip_prefix('#')?;
    if h.len() != 6 {
        return None;
    }
    let v = u32::from_str_radix(h, 16).ok()?;
    Some(Color::Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8))
}
