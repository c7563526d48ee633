//! The README, followed as a newcomer would: every command of its `sh` and
//! `console` blocks (a `console` command is a line after `$ `), in order,
//! in a fresh copy of the repository's tracked files, with the release
//! binary on PATH as `fnn-tui` (what the README's install step puts there).
//! Each must exit as the README says: 0, unless its comment says
//! `# exit N`. Commands that open the designer run in a pseudo-terminal
//! and are quit with `q`; `sudo` commands need root (and emulate's tools).

mod common;

use common::{Need, Source};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One command of the README.
#[derive(Debug, Clone, PartialEq)]
struct Step {
    /// 1-based line in README.md where the command starts.
    line: usize,
    /// The command as written (continuations joined).
    text: String,
    /// The exit status the README promises.
    exit: i32,
}

/// What the walk does with a step.
#[derive(Debug, PartialEq)]
enum Action {
    /// Run with `sh -c`, as root when the README says `sudo`.
    Shell { command: String, root: bool },
    /// The live designer with these arguments, in a pseudo-terminal.
    Designer(Vec<String>),
    /// Not run here, and why.
    Skip(&'static str),
}

/// The commands of every `sh` and `console` block, in order.
fn steps(readme: &str) -> Vec<Step> {
    let mut out = Vec::new();
    let mut block: Option<&str> = None;
    let mut pending: Option<Step> = None;
    for (i, raw) in readme.lines().enumerate() {
        let line = raw.trim_end();
        if let Some(info) = line.strip_prefix("```") {
            block = match block {
                Some(_) => None,
                None => Some(info.split_whitespace().next().unwrap_or("")),
            };
            continue;
        }
        let command = match block {
            Some("sh") => Some(line),
            Some("console") => line.strip_prefix("$ "),
            _ => None,
        };
        if let Some(mut step) = pending.take() {
            // A continuation of the previous line.
            step.text.push(' ');
            step.text.push_str(line.trim());
            finish(step, &mut pending, &mut out);
            continue;
        }
        let Some(command) = command.map(str::trim) else {
            continue;
        };
        if command.is_empty() || command.starts_with('#') {
            continue;
        }
        let step = Step {
            line: i + 1,
            text: command.to_string(),
            exit: 0,
        };
        finish(step, &mut pending, &mut out);
    }
    out
}

/// A step whose line ends in `\` waits for its continuation; otherwise it
/// is complete and its promised exit status is read from its comment.
fn finish(mut step: Step, pending: &mut Option<Step>, out: &mut Vec<Step>) {
    if let Some(head) = step.text.strip_suffix('\\') {
        step.text = head.trim_end().to_string();
        *pending = Some(step);
        return;
    }
    step.exit = promised_exit(&step.text);
    out.push(step);
}

/// `# exit N` in the comment, else 0.
fn promised_exit(command: &str) -> i32 {
    let Some((_, comment)) = command.split_once(" #") else {
        return 0;
    };
    comment
        .split("exit ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// The command without its trailing comment.
fn without_comment(command: &str) -> &str {
    command.split_once(" #").map_or(command, |(c, _)| c).trim()
}

fn action(step: &Step) -> Action {
    let command = without_comment(&step.text);
    let command = command
        .strip_prefix("cargo run --release --")
        .map(|rest| format!("fnn-tui{rest}"))
        .unwrap_or_else(|| match command {
            "cargo run --release" => "fnn-tui".into(),
            other => other.into(),
        });
    if command == "scripts/setup-tests && cargo test" {
        return Action::Skip("the test suite itself");
    }
    // The README's own install step: the walk has already put the release
    // binary on PATH as fnn-tui, which is all that step does.
    if command.split_whitespace().take(2).eq(["cargo", "install"]) {
        return Action::Skip("the walk puts the release binary on PATH as fnn-tui, as this does");
    }
    let (root, command) = match command.strip_prefix("sudo ") {
        Some(rest) => (true, rest.to_string()),
        None => (false, command),
    };
    let words: Vec<&str> = command.split_whitespace().collect();
    let opens_designer =
        words.first() == Some(&"fnn-tui") && words.get(1).is_none_or(|w| ["--spec", "--resume"].contains(w));
    if opens_designer && !command.contains('>') && !command.contains('|') {
        return Action::Designer(words[1..].iter().map(|w| w.to_string()).collect());
    }
    Action::Shell { command, root }
}

/// The repository's tracked files, copied into `to` (a fresh clone's
/// content, with the working tree's edits).
fn copy_tracked_files(to: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .expect("git runs (the walk copies the files git tracks)");
    assert!(
        out.status.success(),
        "git ls-files: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    for name in out.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let name = std::str::from_utf8(name).expect("UTF-8 file names");
        let (from, dest) = (root.join(name), to.join(name));
        if !from.is_file() {
            continue; // deleted in the working tree
        }
        std::fs::create_dir_all(dest.parent().expect("a parent")).unwrap();
        std::fs::copy(&from, &dest).unwrap_or_else(|e| panic!("copy {name}: {e}"));
    }
}

/// Runs `command` with `sh -c` in `dir`, giving up after `limit`.
fn shell(command: &str, dir: &Path, path: &str, limit: Duration) -> (Option<i32>, String) {
    let log = dir.join(".walk-output");
    let file = std::fs::File::create(&log).unwrap();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .stdin(Stdio::null())
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .spawn()
        .expect("sh runs");
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&log);
    (status, text)
}

/// The designer opens, shows a running search, and `q` (then `y` if it
/// asks about unsaved work) quits it with status 0.
fn designer(bin: &Path, args: &[String], dir: &Path, step: &Step) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut tui = common::pty::Tui::start_program(bin, &args, dir);
    tui.wait_for("│ gen ");
    tui.keys("q");
    std::thread::sleep(Duration::from_millis(300));
    if tui.child.try_wait().unwrap().is_none() {
        tui.keys("y");
    }
    let status = tui.exit_status();
    assert!(
        status.success(),
        "README.md:{}: `{}` exited with {status:?}",
        step.line,
        step.text
    );
}

/// Words the shell itself runs.
const SHELL_WORDS: &[&str] = &["cd", "echo", "printf", "test", "export"];

/// Where a README command's program comes from (named when it is missing).
fn tool_source(program: &'static str) -> Source {
    match program {
        "rate" => Source::Crate("rate"),
        other => Source::Apt(other),
    }
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

#[test]
fn every_readme_command_exits_as_the_readme_says() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let steps = steps(&readme);
    assert!(steps.len() > 20, "the README's commands were not found: {steps:?}");
    let bin = common::release_binary();
    let bin_dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(&bin, bin_dir.path().join("fnn-tui")).unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let clone = tempfile::tempdir().unwrap();
    let dir: PathBuf = clone.path().to_path_buf();
    copy_tracked_files(&dir);
    let network = [
        Need::Root,
        Need::Program("ip", Source::Apt("iproute2")),
        Need::Program("ping", Source::Apt("iputils-ping")),
    ];
    for step in &steps {
        match action(step) {
            Action::Skip(why) => eprintln!("README.md:{}: not run here ({why}): {}", step.line, step.text),
            Action::Designer(args) => designer(&bin, &args, &dir, step),
            Action::Shell { command, root } => {
                let name = format!("readme::README.md:{} `{}`", step.line, without_comment(&step.text));
                let program = command.split_whitespace().next().unwrap_or("sh");
                let mut needs = if root { network.to_vec() } else { Vec::new() };
                if program != "fnn-tui" && !SHELL_WORDS.contains(&program) {
                    let program = leak(program);
                    needs.push(Need::Program(program, tool_source(program)));
                }
                // What a rehearsal's options start beside iproute2.
                if root && command.contains("--boot networkd") {
                    needs.push(Need::Program("udevadm", Source::Apt("udev")));
                    needs.push(Need::Program("networkctl", Source::Apt("systemd")));
                }
                if root && command.contains(" emulate ") && command.contains("--lldp") {
                    needs.push(Need::Program("lldpd", Source::Apt("lldpd")));
                }
                if !common::machine_has(&name, &needs) {
                    // The rest may build on what this command makes.
                    return;
                }
                let (status, output) = shell(&command, &dir, &path, Duration::from_secs(600));
                assert_eq!(
                    status,
                    Some(step.exit),
                    "README.md:{}: `{}` should exit {}; it printed:\n{output}",
                    step.line,
                    step.text,
                    step.exit
                );
            }
        }
    }
}

#[test]
fn the_walk_reads_blocks_continuations_and_promised_exits() {
    let readme = "text\n```sh\ncargo run --release   # the designer\n# a comment\nfnn-tui design --pcs 8 \\\n    -o d   # exit 1: none\n```\n```toml\nx = 1\n```\n```console\n$ sudo fnn-tui emulate --session klat2\noutput\n```\n";
    let s = steps(readme);
    assert_eq!(s.len(), 3, "{s:?}");
    assert_eq!(action(&s[0]), Action::Designer(vec![]));
    assert_eq!(s[1].text, "fnn-tui design --pcs 8 -o d   # exit 1: none");
    assert_eq!((s[1].line, s[1].exit), (5, 1));
    assert_eq!(
        action(&s[2]),
        Action::Shell {
            command: "fnn-tui emulate --session klat2".into(),
            root: true
        }
    );
    assert_eq!(
        action(&Step {
            line: 1,
            text: "fnn-tui --resume klat2".into(),
            exit: 0
        }),
        Action::Designer(vec!["--resume".into(), "klat2".into()])
    );
    assert!(matches!(
        action(&Step {
            line: 1,
            text: "fnn-tui --version".into(),
            exit: 0
        }),
        Action::Shell { .. }
    ));
    assert_eq!(promised_exit("fnn-tui x  # exit 2"), 2);
    assert_eq!(promised_exit("fnn-tui x  # exits fine"), 0);
}

/// Where a library module's file may be, in whichever crate holds it.
fn module_files(module: &str) -> Vec<String> {
    let mut folders = vec!["src".to_string()];
    for krate in std::fs::read_dir("crates").unwrap().flatten() {
        folders.push(format!("crates/{}/src", krate.file_name().to_string_lossy()));
    }
    folders
        .iter()
        .flat_map(|f| [format!("{f}/{module}.rs"), format!("{f}/{module}/mod.rs")])
        .collect()
}

/// Every test the README names as holding a promise (a `file::test` or
/// `module::tests[::test]` in a table's last column) exists: a renamed or
/// deleted test cannot leave a promise unproved and still cited.
#[test]
fn every_test_the_readme_cites_for_a_promise_exists() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let mut cited = 0;
    for row in readme.lines().filter(|l| l.starts_with('|') && l.contains("::")) {
        let last = row.trim_end_matches('|').rsplit('|').next().unwrap();
        for name in last.split('`').skip(1).step_by(2) {
            cited += 1;
            let parts: Vec<&str> = name.split("::").collect();
            let (candidates, test) = match parts.iter().position(|p| *p == "tests") {
                Some(i) => (module_files(&parts[..i].join("/")), parts.get(i + 1).copied()),
                None => (vec![format!("tests/{}.rs", parts[0])], parts.get(1).copied()),
            };
            let file = candidates
                .iter()
                .find(|f| Path::new(f).exists())
                .unwrap_or(&candidates[0])
                .clone();
            let text = std::fs::read_to_string(&file).unwrap_or_else(|_| panic!("`{name}`: no file {file}"));
            let wanted = match test {
                Some(t) => format!("fn {t}("),
                None => "mod tests".to_string(),
            };
            assert!(
                text.contains(&wanted),
                "README cites `{name}`, but {file} has no `{wanted}`"
            );
        }
    }
    assert!(cited >= 10, "the Safety tables cite {cited} tests");
}
