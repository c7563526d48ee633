//! `fnn-tui completions SHELL` and `fnn-tui man`: generated from the same
//! clap definitions the command line parses, so they never drift from it.

use super::out;
use super::{CompletionsArgs, ManArgs};
use anyhow::Context;
use std::process::ExitCode;

pub fn completions(args: &CompletionsArgs) -> anyhow::Result<ExitCode> {
    let mut cmd = super::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "fnn-tui", &mut out);
    print(&out)
}

/// Writes `bytes` to stdout; a reader that went away (`| head`) is not an
/// error.
fn print(bytes: &[u8]) -> anyhow::Result<ExitCode> {
    out::stdout_bytes(bytes)?;
    Ok(ExitCode::SUCCESS)
}

/// The man page on stdout, or with `--out DIR` a page per command
/// (`fnn-tui.1`, `fnn-tui-design.1`, ...), written whole or not at all.
pub fn man(args: &ManArgs) -> anyhow::Result<ExitCode> {
    let Some(dir) = &args.out else {
        return print(super::man::main_page()?.as_bytes());
    };
    let files = super::man::pages()?;
    fnn_tui::export::write_files(dir, "man", &files).with_context(|| format!("cannot write {}", dir.display()))?;
    out::outln!(
        "wrote {} into {}",
        fnn_tui::words::count(files.len(), "man page"),
        dir.display()
    )?;
    Ok(ExitCode::SUCCESS)
}
