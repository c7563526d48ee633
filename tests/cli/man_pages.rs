//! `fnn-tui man --out DIR`: a page per command, each with the sections a
//! man page reader looks for, and no reference to a page that is not
//! there.

use assert_cmd::Command;
use std::collections::BTreeMap;

fn fnn() -> Command {
    Command::cargo_bin("fnn-tui").unwrap()
}

/// Every page written, by file name, as plain text (roff's `\-` and
/// apostrophe escapes undone).
fn pages() -> BTreeMap<String, String> {
    let dir = tempfile::tempdir().unwrap();
    fnn().args(["man", "--out"]).arg(dir.path()).assert().success();
    std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        // The folder also holds the mark that fnn-tui wrote it.
        .filter(|p| p.extension().is_some_and(|x| x == "1"))
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, text.replace("\\-", "-").replace("\\*(Aq", "'"))
        })
        .collect()
}

/// The commands `fnn-tui --help` lists (clap's own `help` aside).
fn commands() -> Vec<String> {
    let out = fnn().arg("--help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let list = help.split("Commands:").nth(1).unwrap().split("\n\n").next().unwrap();
    list.lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(String::from)
        .collect()
}

#[test]
fn every_command_has_a_page_with_keys_files_environment_and_exit_status() {
    let pages = pages();
    let commands = commands();
    assert!(commands.len() >= 10, "{commands:?}");
    assert!(pages.contains_key("fnn-tui.1"));
    for c in &commands {
        assert!(
            pages.contains_key(&format!("fnn-tui-{c}.1")),
            "no page for {c}: {:?}",
            pages.keys()
        );
    }
    assert_eq!(pages.len(), commands.len() + 1, "{:?}", pages.keys());
    for (name, page) in &pages {
        for section in [
            ".SH NAME",
            ".SH SYNOPSIS",
            ".SH KEYS",
            ".SH FILES",
            ".SH ENVIRONMENT",
            ".SH \"EXIT STATUS\"",
            ".SH \"SEE ALSO\"",
        ] {
            assert!(page.contains(section), "{name} has no {section}");
        }
        assert!(
            !page.contains(".SH EXTRA"),
            "{name} still has the exit status under EXTRA"
        );
        let exit = page.split(".SH \"EXIT STATUS\"").nth(1).unwrap();
        for status in ["0 ", "1 ", "2 ", "130 "] {
            assert!(exit.contains(&format!("\n  {status}")), "{name}: no status {status}");
        }
        assert!(page.contains("FNN_TUI_MEMORY_BUDGET"), "{name}");
    }
}

#[test]
fn every_page_a_man_page_names_is_one_that_is_written() {
    let written = pages();
    for (name, page) in &written {
        let mut refs = 0;
        for (at, _) in page.match_indices("(1)") {
            let start = page[..at]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .map_or(0, |i| i + 1);
            let target = &page[start..at];
            refs += 1;
            assert!(
                written.contains_key(&format!("{target}.1")),
                "{name} refers to {target}(1), which is not written"
            );
        }
        assert!(refs > 0, "{name} refers to no other page");
        assert!(!page.contains("fnn-tui-help"), "{name}");
    }
}

/// The designer's page lists every key of the keymap it dispatches with,
/// by the name config.toml rebinds it with.
#[test]
fn the_designer_page_lists_every_binding_of_the_keymap() {
    use fnn_tui::tui::keymap::{Keymap, action_name};
    let pages = pages();
    let main = &pages["fnn-tui.1"];
    let keys = main
        .split(".SH KEYS")
        .nth(1)
        .unwrap()
        .split(".SH FILES")
        .next()
        .unwrap();
    for b in Keymap::default().bindings {
        assert!(
            keys.contains(&format!("[{}]", action_name(b.action))),
            "{:?} missing",
            b.action
        );
        assert!(keys.contains(b.help.split(' ').next().unwrap()), "{}", b.help);
    }
    assert!(main.contains("config.toml"));
    let check = &pages["fnn-tui-check.1"];
    assert!(check.contains("fnn-tui(1)"));
}

/// The page lists what the `?` help lists beyond the keymap: ctrl-c, the
/// keys that edit a prompt's text, and the mouse.
#[test]
fn the_designer_page_lists_ctrl_c_the_editing_keys_and_the_mouse() {
    use fnn_tui::tui::keymap::{CTRL_C_HELP, MOUSE_HELP, key_name};
    let pages = pages();
    let keys = pages["fnn-tui.1"]
        .split(".SH KEYS")
        .nth(1)
        .unwrap()
        .split(".SH FILES")
        .next()
        .unwrap()
        .to_string();
    // roff escapes `-` as `\-`.
    let keys = keys.replace("\\-", "-");
    assert!(keys.contains("ctrl-c") && keys.contains(CTRL_C_HELP), "{keys}");
    for (k, what) in fnn_tui::tui::line_edit::editing_keys() {
        assert!(
            keys.contains(&key_name(&k)) && keys.contains(what),
            "{} missing: {keys}",
            key_name(&k)
        );
    }
    assert!(
        keys.contains("Mouse") && keys.contains(&MOUSE_HELP.replace("\\-", "-")),
        "{keys}"
    );
}
