//! The man pages: clap_mangen's NAME, SYNOPSIS, DESCRIPTION, OPTIONS and
//! SUBCOMMANDS from the same definitions the command line parses, then
//! the sections clap knows nothing of: KEYS (from the designer's one
//! keymap), FILES, ENVIRONMENT, EXIT STATUS and SEE ALSO.

use super::exit;
use roff::{Roff, bold, italic, roman};

/// Every page: `fnn-tui.1` (the designer and the command list) and one
/// `fnn-tui-COMMAND.1` per command, as (file name, roff).
pub fn pages() -> anyhow::Result<Vec<(String, String)>> {
    let cmd = command();
    let names: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
    let mut pages = vec![("fnn-tui.1".to_string(), main_page()?)];
    for sub in cmd.get_subcommands() {
        let name = format!("fnn-tui-{}", sub.get_name());
        let sub = sub
            .clone()
            .name(name.clone())
            .bin_name(format!("fnn-tui {}", sub.get_name()));
        pages.push((format!("{name}.1"), page(sub, &command_sections(&names))?));
    }
    Ok(pages)
}

/// The main page alone (`fnn-tui man` with no folder).
pub fn main_page() -> anyhow::Result<String> {
    let cmd = command();
    let names: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
    page(cmd, &main_sections(&names))
}

/// The command line without clap's `help` command (it has no page: `fnn-tui
/// help X` is `fnn-tui X --help`) and without the exit-status table under
/// the help (it is a section of its own here, not clap's "EXTRA").
fn command() -> clap::Command {
    use clap::CommandFactory;
    super::Cli::command().disable_help_subcommand(true)
}

/// clap_mangen's page with `sections` before its VERSION section.
fn page(cmd: clap::Command, sections: &Roff) -> anyhow::Result<String> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut out)?;
    let page = String::from_utf8(out)?;
    // Both renderings open with the same apostrophe preamble: keep one.
    let ours = sections.render();
    let ours = ours.strip_prefix(&Roff::new().render()).unwrap_or(&ours).to_string();
    Ok(match page.find(".SH VERSION") {
        Some(at) => format!("{}{ours}{}", &page[..at], &page[at..]),
        None => page + &ours,
    })
}

fn main_sections(commands: &[String]) -> Roff {
    let mut r = Roff::new();
    keys(&mut r);
    files(&mut r, true);
    environment(&mut r);
    exit_status(&mut r);
    r.control("SH", ["SEE ALSO"]);
    let refs: Vec<String> = commands.iter().map(|c| format!("fnn-tui-{c}(1)")).collect();
    r.text([roman(refs.join(", "))]);
    r
}

fn command_sections(_commands: &[String]) -> Roff {
    let mut r = Roff::new();
    r.control("SH", ["KEYS"]);
    r.text([roman(
        "None: the command runs to its end without asking. The designer's keys are in fnn-tui(1).",
    )]);
    files(&mut r, false);
    environment(&mut r);
    exit_status(&mut r);
    r.control("SH", ["SEE ALSO"]);
    r.text([roman("fnn-tui(1)")]);
    r
}

/// The designer's keys, from the keymap it dispatches with, grouped by
/// where they apply, with the name `config.toml` rebinds each by.
#[cfg(feature = "tui")]
fn keys(r: &mut Roff) {
    use fnn_tui::tui::keymap::{Context, Keymap, action_name, key_name};
    r.control("SH", ["KEYS"]);
    r.text([roman(
        "The designer's keys (as its ? help lists them). Each can be rebound in config.toml (see FILES) \
         by the name in brackets: [keys] toggle-pause = [\"space\", \"P\"].",
    )]);
    let map = Keymap::default();
    let groups = [
        (Context::Normal, "In the designer"),
        (Context::Any, "Moving, everywhere"),
        (Context::Popup, "In a popup"),
        (Context::Confirm, "When asked before unsaved work is lost"),
    ];
    for (context, title) in groups {
        r.control("SS", [title]);
        for b in map.bindings.iter().filter(|b| b.context == context) {
            // As config.toml spells them: `up`, not an arrow.
            let keys: Vec<String> = b
                .keys
                .iter()
                .map(|k| match key_name(k).as_str() {
                    "↑" => "up".into(),
                    "↓" => "down".into(),
                    "←" => "left".into(),
                    "→" => "right".into(),
                    other => other.into(),
                })
                .collect();
            r.control("TP", []);
            r.text([bold(keys.join(", "))]);
            r.text([
                roman(format!("{} ", b.help)),
                italic(format!("[{}]", action_name(b.action))),
            ]);
        }
        if context == Context::Normal {
            r.control("TP", []);
            r.text([bold("ctrl-c")]);
            r.text([roman(fnn_tui::tui::keymap::CTRL_C_HELP)]);
        }
    }
    r.control("SS", ["Typing in prompts and forms"]);
    for (k, what) in fnn_tui::tui::line_edit::editing_keys() {
        r.control("TP", []);
        r.text([bold(key_name(&k))]);
        r.text([roman(what)]);
    }
    r.control("SS", ["Mouse"]);
    r.text([roman(fnn_tui::tui::keymap::MOUSE_HELP)]);
}

#[cfg(not(feature = "tui"))]
fn keys(r: &mut Roff) {
    r.control("SH", ["KEYS"]);
    r.text([roman(
        "This fnn-tui was built without the designer (cargo feature tui): it reads no keys.",
    )]);
}

fn files(r: &mut Roff, designer: bool) {
    r.control("SH", ["FILES"]);
    if !designer {
        r.text([roman(
            "The files its arguments name (see OPTIONS); a spec's pair files are read from the spec's own folder. \
             The designer's files are in fnn-tui(1).",
        )]);
        return;
    }
    let entries = [
        (
            "$XDG_CONFIG_HOME/fnn-tui/config.toml",
            "(~/.config/fnn-tui/config.toml when XDG_CONFIG_HOME is unset) the designer's [keys] and [theme] overrides; see KEYS.",
        ),
        (
            "$XDG_DATA_HOME/fnn-tui/sessions/",
            "(~/.local/share/fnn-tui/sessions/ when XDG_DATA_HOME is unset) saved sessions: o lists them, --resume NAME opens one.",
        ),
        (
            "$XDG_DATA_HOME/fnn-tui/sessions/recovery/",
            "the designer's recovery files, listed by o with the sessions.",
        ),
        ("./saves/", "sessions in the current folder, listed too."),
    ];
    for (path, what) in entries {
        r.control("TP", []);
        r.text([italic(path)]);
        r.text([roman(what)]);
    }
}

fn environment(r: &mut Roff) {
    r.control("SH", ["ENVIRONMENT"]);
    let entries = [
        (
            "NO_COLOR",
            "set and not empty: the designer draws without colour, whatever config.toml says.",
        ),
        (
            "XDG_CONFIG_HOME, XDG_DATA_HOME",
            "where config.toml and the sessions are (see FILES in fnn-tui(1)).",
        ),
        (
            fnn_tui::budget::ENV,
            "the memory a search may plan to use, in bytes or with a K, M or G suffix (by default three quarters \
             of what the machine or its cgroup has free); a search that would need more is refused with its estimate.",
        ),
    ];
    for (name, what) in entries {
        r.control("TP", []);
        r.text([bold(name)]);
        r.text([roman(what)]);
    }
}

/// The one exit-status table every command's --help shows, kept in its
/// columns.
fn exit_status(r: &mut Roff) {
    r.control("SH", ["EXIT STATUS"]);
    r.control("nf", []);
    for line in exit::TABLE.lines().skip(1) {
        r.text([roman(line)]);
    }
    r.control("fi", []);
}
