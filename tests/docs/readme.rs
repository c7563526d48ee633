//! The README and the guide, followed as a newcomer would: every command
//! of their `sh` and `console` blocks (a `console` command is a line after
//! `$ `), in order — the README's, then the guide's index and its chapters
//! in the order the index lists them — in one fresh copy of the
//! repository's tracked files, with the release binary on PATH as
//! `fnn-tui` (what the README's install step puts there). Each must exit
//! as the document says: 0, unless its comment says `# exit N`. Commands
//! that open the designer run in a pseudo-terminal and are quit with `q`;
//! `sudo` commands need root (and emulate's tools).

use crate::common;

use crate::common::{Need, Source};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One command of a document.
#[derive(Debug, Clone, PartialEq)]
struct Step {
    /// 1-based line in the document where the command starts.
    line: usize,
    /// The command as written (continuations joined).
    text: String,
    /// The exit status the document promises.
    exit: i32,
}

/// What the walk does with a step.
#[derive(Debug, PartialEq)]
enum Action {
    /// Run with `sh -c`, as root when the document says `sudo`.
    Shell { command: String, root: bool },
    /// The live designer with these arguments, in a pseudo-terminal.
    Designer(Vec<String>),
    /// Not run here, and why.
    Skip(&'static str),
}

/// The commands of every `sh` and `console` block, in order.
fn steps(document: &str) -> Vec<Step> {
    let mut out = Vec::new();
    let mut block: Option<&str> = None;
    let mut pending: Option<Step> = None;
    for (i, raw) in document.lines().enumerate() {
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
    if command == "cargo test-all" {
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

/// A file of the repository, by its path from the repository's root.
fn read(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The chapters the guide's index links to (`](NAME.md)`, a file beside
/// it), in the order it lists them, each once.
fn chapters(index: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in index.split("](").skip(1) {
        let target = part.split(')').next().unwrap_or("");
        let beside = !target.contains('/') && target.ends_with(".md");
        if beside && target != "README.md" && !out.iter().any(|c| c == target) {
            out.push(target.to_string());
        }
    }
    out
}

/// The documents whose commands the walk runs, in a reader's order: the
/// README, the guide's index, then its chapters as the index lists them.
fn documents() -> Vec<String> {
    let mut out = vec!["README.md".to_string(), "docs/README.md".to_string()];
    out.extend(chapters(&read("docs/README.md")).iter().map(|c| format!("docs/{c}")));
    out
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
/// asks about unsaved work) quits it with status 0. `at` is the step's
/// `document:line`.
fn designer(bin: &Path, args: &[String], dir: &Path, step: &Step, at: &str) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut tui = common::pty::Tui::start_program(bin, &args, dir);
    tui.wait_for("│ gen ");
    tui.keys("q");
    std::thread::sleep(Duration::from_millis(300));
    if tui.child.try_wait().unwrap().is_none() {
        tui.keys("y");
    }
    let status = tui.exit_status();
    assert!(status.success(), "{at}: `{}` exited with {status:?}", step.text);
}

/// Words the shell itself runs.
const SHELL_WORDS: &[&str] = &["cd", "echo", "printf", "test", "export"];

/// Where a documented command's program comes from (named when it is missing).
fn tool_source(program: &'static str) -> Source {
    match program {
        "rate" => Source::Crate("rate"),
        other => Source::Apt(other),
    }
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// Chapters whose commands make everything they read: each is walked in
/// a copy of its own, beside the rest, which keeps it standing alone.
const ALONE: [&str; 1] = ["docs/sizing.md"];

#[test]
fn every_command_of_the_readme_and_the_guide_exits_as_written() {
    let documents: Vec<String> = documents()
        .into_iter()
        .filter(|d| !ALONE.contains(&d.as_str()))
        .collect();
    walk(&documents);
}

#[test]
fn every_command_of_the_chapters_that_stand_alone_exits_as_written() {
    let listed = documents();
    for chapter in ALONE {
        assert!(
            listed.iter().any(|d| d == chapter),
            "{chapter} is not in the guide's index"
        );
    }
    walk(&ALONE.map(String::from));
}

/// Runs the documents' commands in order, in one fresh copy of the
/// repository, each as its document says.
fn walk(documents: &[String]) {
    let documents: Vec<(&String, Vec<Step>)> = documents.iter().map(|d| (d, steps(&read(d)))).collect();
    let total: usize = documents.iter().map(|(_, s)| s.len()).sum();
    assert!(total > 5, "the documents' commands were not found: {documents:?}");
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
    for (document, steps) in &documents {
        for step in steps {
            let at = format!("{document}:{}", step.line);
            if !walk_step(step, &at, &bin, &dir, &path) {
                // The rest may build on what this command makes.
                return;
            }
        }
    }
}

/// Runs one step as its document says; false when the machine lacks what
/// it needs (said in one NOT RUN line, or a failure under CI).
fn walk_step(step: &Step, at: &str, bin: &Path, dir: &Path, path: &str) -> bool {
    let network = [
        Need::Root,
        Need::Program("ip", Source::Apt("iproute2")),
        Need::Program("ping", Source::Apt("iputils-ping")),
    ];
    match action(step) {
        Action::Skip(why) => eprintln!("{at}: not run here ({why}): {}", step.text),
        Action::Designer(args) => designer(bin, &args, dir, step, at),
        Action::Shell { command, root } => {
            let name = format!("readme::{at} `{}`", without_comment(&step.text));
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
                return false;
            }
            let (status, output) = shell(&command, dir, path, Duration::from_secs(600));
            assert_eq!(
                status,
                Some(step.exit),
                "{at}: `{}` should exit {}; it printed:\n{output}",
                step.text,
                step.exit
            );
        }
    }
    true
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut folders = vec!["src".to_string()];
    for krate in std::fs::read_dir(root.join("crates")).unwrap().flatten() {
        folders.push(format!("crates/{}/src", krate.file_name().to_string_lossy()));
    }
    folders
        .iter()
        .flat_map(|f| [format!("{f}/{module}.rs"), format!("{f}/{module}/mod.rs")])
        .collect()
}

/// Every test the README or a guide chapter names as holding a promise
/// (a `file::test` or `module::tests[::test]` in a table's last column)
/// exists: a renamed or deleted test cannot leave a promise unproved and
/// still cited.
#[test]
fn every_test_the_documents_cite_for_a_promise_exists() {
    let mut cited = 0;
    for document in documents() {
        let text = read(&document);
        for row in text.lines().filter(|l| l.starts_with('|') && l.contains("::")) {
            let last = row.trim_end_matches('|').rsplit('|').next().unwrap();
            for name in last.split('`').skip(1).step_by(2) {
                cited += 1;
                assert_cited_test_exists(&document, name);
            }
        }
    }
    assert!(cited >= 10, "the Safety tables cite {cited} tests");
}

/// Where the integration tests' module `name` may be: a module of one
/// area's test binary (`tests/AREA/NAME.rs`).
fn test_files(name: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut areas: Vec<String> = std::fs::read_dir(root.join("tests"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("main.rs").is_file())
        .map(|e| format!("tests/{}/{name}.rs", e.file_name().to_string_lossy()))
        .collect();
    areas.sort();
    areas
}

/// `name` (`file::test`, `module::tests[::test]`) is a test of the crate.
fn assert_cited_test_exists(document: &str, name: &str) {
    let parts: Vec<&str> = name.split("::").collect();
    let (candidates, test) = match parts.iter().position(|p| *p == "tests") {
        Some(i) => (module_files(&parts[..i].join("/")), parts.get(i + 1).copied()),
        None => (test_files(parts[0]), parts.get(1).copied()),
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = candidates
        .iter()
        .find(|f| root.join(f).exists())
        .unwrap_or(&candidates[0])
        .clone();
    let text = std::fs::read_to_string(root.join(&file))
        .unwrap_or_else(|_| panic!("{document} cites `{name}`, but there is no file {file}"));
    let wanted = match test {
        Some(t) => format!("fn {t}("),
        None => "mod tests".to_string(),
    };
    assert!(
        text.contains(&wanted),
        "{document} cites `{name}`, but {file} has no `{wanted}`"
    );
}

/// The README is read in minutes: at most 250 lines, opening (in its first
/// 15) with the two commands, the designer's and the tests'.
#[test]
fn the_readme_is_short_and_opens_with_both_commands() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(lines <= 250, "README.md has {lines} lines; at most 250");
    let first: Vec<String> = steps(&readme)
        .iter()
        .filter(|s| s.line <= 15)
        .map(|s| without_comment(&s.text).to_string())
        .collect();
    for command in ["cargo run --release", "cargo test-all"] {
        assert!(
            first.iter().any(|c| c == command),
            "`{command}` is not among the README's first 15 lines' commands: {first:?}"
        );
    }
}

/// The guide's index lists every chapter in docs/ (so the walk runs every
/// chapter's commands), and there are at least six.
#[test]
fn the_guide_index_lists_every_chapter() {
    let listed = chapters(&read("docs/README.md"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let on_disk: Vec<String> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".md") && n != "README.md")
        .collect();
    for chapter in &on_disk {
        assert!(listed.contains(chapter), "docs/README.md does not list docs/{chapter}");
    }
    for chapter in &listed {
        assert!(
            on_disk.contains(chapter),
            "docs/README.md lists docs/{chapter}, which is not there"
        );
    }
    assert!(listed.len() >= 6, "the guide has {} chapters: {listed:?}", listed.len());
}

/// BENCHMARKS.md is a summary, at most 400 lines (its history is in git).
#[test]
fn the_benchmarks_are_a_summary() {
    let lines = read("BENCHMARKS.md").lines().count();
    assert!(lines <= 400, "BENCHMARKS.md has {lines} lines; at most 400");
}

/// GitHub's anchor for a heading: lower case, punctuation other than `-`
/// and `_` dropped, spaces made `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown document's headings (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            inside = !inside;
        } else if !inside && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// Every relative link of the README, the guide and BENCHMARKS.md
/// (`](path)`, `](path#heading)`) leads to a file of the repository, and
/// to a heading it has.
#[test]
fn every_link_of_the_readme_and_the_guide_leads_somewhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut links = 0;
    for document in documents().into_iter().chain(["BENCHMARKS.md".to_string()]) {
        let text = read(&document);
        let folder = Path::new(&document).parent().unwrap_or(Path::new(""));
        for part in text.split("](").skip(1) {
            let target = part.split(')').next().unwrap_or("");
            if target.contains("://") {
                continue;
            }
            links += 1;
            let (file, heading) = target.split_once('#').unwrap_or((target, ""));
            let path = if file.is_empty() {
                PathBuf::from(&document)
            } else {
                folder.join(file)
            };
            assert!(
                root.join(&path).exists(),
                "{document}: the link `{target}` leads to no file"
            );
            if !heading.is_empty() {
                let there = read(&path.to_string_lossy());
                assert!(
                    anchors(&there).iter().any(|a| a == heading),
                    "{document}: `{target}`: {} has no such heading",
                    path.display()
                );
            }
        }
    }
    assert!(links > 20, "{links} links found");
}
