//! What a maintainer expects of the code's shape, read from the sources
//! and manifests: crates that depend only downwards, one module that
//! writes files, unsafe code only where it must be. (Formatting, clippy,
//! the core built alone and the declared Rust version are steps of the
//! test command, `cargo test-all`, which runs the tools.)

/// The crates of the workspace, bottom up, each with the workspace crates
/// it may depend on: the core knows neither the builder's outputs nor the
/// lab, and nothing below the front ends knows a terminal.
const LAYERS: [(&str, &[&str]); 5] = [
    ("fnn-sat", &[]),
    ("fnn-core", &["fnn-sat"]),
    ("fnn-export", &["fnn-core"]),
    ("fnn-lab", &["fnn-core", "fnn-export"]),
    ("fnn-tui", &["fnn-core", "fnn-export", "fnn-lab"]),
];

/// The manifest of a workspace crate (the front ends are the root package).
fn manifest_of(krate: &str) -> std::path::PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    match krate {
        "fnn-tui" => root.join("Cargo.toml"),
        _ => root.join("crates").join(krate).join("Cargo.toml"),
    }
}

/// The workspace crates a crate's manifest names, in any of its
/// dependency tables (build and dev dependencies too).
fn workspace_dependencies(krate: &str) -> Vec<String> {
    let text = std::fs::read_to_string(manifest_of(krate)).unwrap();
    let manifest: toml::Table = text.parse().unwrap();
    let tables = ["dependencies", "dev-dependencies", "build-dependencies"];
    let names = tables
        .iter()
        .filter_map(|t| manifest.get(*t).and_then(|d| d.as_table()))
        .flat_map(|d| d.keys().cloned());
    let ours: Vec<&str> = LAYERS.iter().map(|(name, _)| *name).collect();
    names.filter(|n| ours.contains(&n.as_str())).collect()
}

/// Each crate depends only on the crates below it, as the guide's Layout
/// section (docs/development.md) draws them; a new crate must be placed
/// here too.
#[test]
fn the_crates_depend_only_downwards() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut members: Vec<String> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    members.sort();
    let mut placed: Vec<&str> = LAYERS.iter().map(|(n, _)| *n).filter(|n| *n != "fnn-tui").collect();
    placed.sort();
    assert_eq!(members, placed, "crates/ holds crates the layers do not place");
    let mut wrong = Vec::new();
    for (krate, allowed) in LAYERS {
        for dep in workspace_dependencies(krate) {
            if !allowed.contains(&dep.as_str()) {
                wrong.push(format!("{krate} depends on {dep}, which is not below it"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `cargo test`, the README's test command, tests every crate: a crate
/// left out of the default members would have its unit tests skipped
/// without a word.
#[test]
fn cargo_test_tests_every_crate() {
    let text = std::fs::read_to_string(manifest_of("fnn-tui")).unwrap();
    let manifest: toml::Table = text.parse().unwrap();
    let defaults: Vec<String> = manifest["workspace"]["default-members"]
        .as_array()
        .expect("[workspace] default-members")
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    for (krate, _) in LAYERS {
        let member = if krate == "fnn-tui" {
            ".".to_string()
        } else {
            format!("crates/{krate}")
        };
        assert!(
            defaults.contains(&member),
            "`cargo test` leaves out {krate}: {defaults:?}"
        );
    }
}

/// Every `src` folder of the workspace: the front ends' and each crate's.
fn source_folders() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![root.join("src")];
    out.extend(
        LAYERS
            .iter()
            .filter(|(n, _)| *n != "fnn-tui")
            .map(|(n, _)| root.join("crates").join(n).join("src")),
    );
    out
}

/// Within each crate the modules form layers: no module uses, even
/// indirectly, a module that uses it. Read from the `crate::NAME` paths in
/// each module's files (comments left out), so a new cycle fails here,
/// named.
#[test]
fn the_library_modules_import_each_other_in_no_cycle() {
    for src in source_folders() {
        let mut uses = Uses::default();
        for (module, file) in rust_files(&src) {
            let text = std::fs::read_to_string(&file).unwrap();
            let code = text.lines().filter(|l| !l.trim_start().starts_with("//"));
            let used = uses.entry(module.clone()).or_default();
            for line in code {
                for part in line.split("crate::").skip(1) {
                    let name: String = part
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() && name != module {
                        used.insert(name);
                    }
                }
            }
        }
        let cycle = find_cycle(&uses);
        assert!(
            cycle.is_none(),
            "modules of {} that use each other: {}",
            src.display(),
            cycle.unwrap().join(" -> ")
        );
    }
}

/// Which modules each module uses.
type Uses = std::collections::BTreeMap<String, std::collections::BTreeSet<String>>;

/// Every `.rs` file under `src` (the binary's `cli` and `main` left out:
/// they are the top), with the top-level module it belongs to.
fn rust_files(src: &std::path::Path) -> Vec<(String, std::path::PathBuf)> {
    let mut out = Vec::new();
    let mut todo = vec![src.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = e.path();
            let rel = path.strip_prefix(src).unwrap();
            let top = rel.components().next().unwrap().as_os_str().to_string_lossy();
            let module = top.trim_end_matches(".rs").to_string();
            if ["cli", "main", "lib"].contains(&module.as_str()) {
                continue;
            }
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push((module, path));
            }
        }
    }
    out
}

/// A path of modules that comes back to its start, if the graph has one.
fn find_cycle(uses: &Uses) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        uses: &Uses,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == m) {
            let mut cycle = path[at..].to_vec();
            cycle.push(m.to_string());
            return Some(cycle);
        }
        if !done.insert(m.to_string()) {
            return None;
        }
        path.push(m.to_string());
        for next in uses.get(m).into_iter().flatten() {
            if let Some(c) = visit(next, uses, path, done) {
                return Some(c);
            }
        }
        path.pop();
        None
    }
    let mut done = Default::default();
    uses.keys().find_map(|m| visit(m, uses, &mut Vec::new(), &mut done))
}

/// What creates, writes, renames or removes a file or folder. Only the
/// writing module (`crates/fnn-core/src/fs/`) may: everywhere else a write by full path
/// could follow a link another user planted.
const WRITES: [&str; 16] = [
    "File::create",
    "OpenOptions",
    "fs::write",
    "fs::create_dir",
    "fs::rename",
    "DirBuilder",
    "tempfile::",
    "fs::remove_",
    "fs::copy",
    "fs::hard_link",
    "fs::set_permissions",
    "os::unix::fs::symlink",
    "libc::open",
    "libc::rename",
    "libc::unlink",
    "libc::mkdir",
];

/// Every `.rs` file of the sources, the examples and the benchmarks under
/// `root` (the writing module's folder `skip` left out), each with its code
/// as `without_tests` leaves it; files that are test modules left out.
fn code_files(root: &std::path::Path, skip: Option<&std::path::Path>) -> Vec<(std::path::PathBuf, String)> {
    let mut todo = source_folders();
    todo.push(root.join("examples"));
    todo.push(root.join("benches"));
    let mut files = Vec::new();
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = e.path();
            if Some(path.as_path()) == skip {
                continue;
            }
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                files.push(path);
            }
        }
    }
    let mut test_only = std::collections::BTreeSet::new();
    let kept: Vec<(std::path::PathBuf, String)> = files
        .iter()
        .map(|p| {
            let (code, tests) = without_tests(&std::fs::read_to_string(p).unwrap());
            test_only.extend(tests.into_iter().map(|m| p.with_file_name(format!("{m}.rs"))));
            (p.clone(), code)
        })
        .collect();
    kept.into_iter().filter(|(p, _)| !test_only.contains(p)).collect()
}

#[test]
fn only_the_writing_module_writes_files() {
    // Read at run time, so the same test binary can check another tree.
    let root = std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let writer = root.join("crates/fnn-core/src/fs");
    let mut offences = Vec::new();
    // The examples run as root too (the benchmarks' spec writers).
    for (path, code) in &code_files(&root, Some(&writer)) {
        for (n, line) in code.lines().enumerate() {
            let t = line.trim_start();
            if t.starts_with("//") {
                continue;
            }
            for w in WRITES.iter().filter(|w| calls(t, w)) {
                offences.push(format!(
                    "{}:{}: {w}",
                    path.strip_prefix(&root).unwrap().display(),
                    n + 1
                ));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "writes outside the writing module (fnn-core's src/fs/) in the sources or examples (use fnn_tui::fs, which never follows a link):\n{}",
        offences.join("\n")
    );
}

/// Whether `line` calls `what`, and not the writing module's own function
/// of that name (`crate::fs::create_dir_all`).
fn calls(line: &str, what: &str) -> bool {
    line.match_indices(what).any(|(i, _)| {
        let before = &line[..i];
        !["crate::", "fnn_tui::", "fnn_core::", "super::"]
            .iter()
            .any(|m| before.ends_with(m))
    })
}

/// `text` with every `#[cfg(test)]` item blanked (lines kept, so line
/// numbers still match), and the names of modules declared test-only.
fn without_tests(text: &str) -> (String, Vec<String>) {
    let mut out = Vec::new();
    let mut test_mods = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() != "#[cfg(test)]" {
            out.push(line.to_string());
            continue;
        }
        out.push(String::new());
        // Further attributes, then the item: one line, or a block.
        while lines.peek().is_some_and(|l| l.trim_start().starts_with("#[")) {
            lines.next();
            out.push(String::new());
        }
        let Some(item) = lines.next() else { break };
        out.push(String::new());
        let t = item.trim();
        if let Some(m) = t.strip_prefix("mod ").or_else(|| t.strip_prefix("pub mod "))
            && let Some(name) = m.strip_suffix(';')
        {
            test_mods.push(name.trim().to_string());
            continue;
        }
        let mut depth = item.matches('{').count() as i64 - item.matches('}').count() as i64;
        while depth > 0 {
            let Some(l) = lines.next() else { break };
            depth += l.matches('{').count() as i64 - l.matches('}').count() as i64;
            out.push(String::new());
        }
    }
    (out.join("\n"), test_mods)
}

/// Where unsafe code may stay: the SAT solver's FFI and the SIMD kernels.
/// Everything else goes through crates that wrap the system calls safely
/// (rustix, socket2, signal-hook, memmap2).
const UNSAFE_HOMES: [&str; 3] = ["src/exact/cadical.rs", "src/ga/wide_row.rs", "src/ga/band_rows.rs"];

/// The unsafe blocks and impls the rest of the crate may hold: each is a
/// kernel interface no crate wraps (see the files the test names).
const UNSAFE_ELSEWHERE: usize = 3;

/// Every unsafe block or impl under `src/`, as (file, line, whether a
/// `SAFETY:` comment stands on it or just above it).
fn unsafe_sites(root: &std::path::Path) -> Vec<(String, usize, bool)> {
    let mut files = Vec::new();
    let mut todo = vec![root.join("src")];
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = e.path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                files.push(path);
            }
        }
    }
    let mut sites = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let rel = path.strip_prefix(root).unwrap().display().to_string();
        for (n, line) in lines.iter().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let count = code.matches("unsafe {").count() + code.matches("unsafe impl").count();
            let explained = lines[n.saturating_sub(4)..=n].iter().any(|l| l.contains("SAFETY:"));
            sites.extend(std::iter::repeat_n((rel.clone(), n + 1, explained), count));
        }
    }
    sites.sort();
    sites
}

#[test]
fn unsafe_code_stays_in_the_solver_ffi_and_the_simd_kernels() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let elsewhere: Vec<String> = unsafe_sites(&root)
        .into_iter()
        .filter(|(file, _, _)| !UNSAFE_HOMES.contains(&file.as_str()))
        .map(|(file, line, _)| format!("{file}:{line}"))
        .collect();
    assert!(
        elsewhere.len() <= UNSAFE_ELSEWHERE,
        "{} unsafe blocks or impls outside {} (at most {UNSAFE_ELSEWHERE}; use rustix, socket2, signal-hook or memmap2):\n{}",
        elsewhere.len(),
        UNSAFE_HOMES.join(", "),
        elsewhere.join("\n")
    );
}

#[test]
fn every_unsafe_block_says_why_it_is_sound() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let unexplained: Vec<String> = unsafe_sites(&root)
        .into_iter()
        .filter(|(_, _, explained)| !explained)
        .map(|(file, line, _)| format!("{file}:{line}"))
        .collect();
    assert!(
        unexplained.is_empty(),
        "unsafe without a `// SAFETY:` comment on or just above it:\n{}",
        unexplained.join("\n")
    );
}

/// The most lines a function may take, signature to closing brace: past
/// it a function does several things, and each deserves a name.
const MOST_LINES: usize = 80;

/// The name of the function `line` starts, if it starts one.
fn function_name(line: &str) -> Option<&str> {
    let qualifiers = [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "async ",
        "unsafe ",
        "extern \"C\" ",
    ];
    let mut t = line.trim_start();
    while let Some(rest) = qualifiers.iter().find_map(|q| t.strip_prefix(q)) {
        t = rest;
    }
    let name = t.strip_prefix("fn ")?;
    let end = name
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(name.len());
    Some(&name[..end])
}

/// Each function of `code` as (line, name, lines it takes). The code is
/// formatted (`the_code_is_formatted`), so a body ends at the first line
/// that is its signature's indentation and a `}`.
fn functions(code: &str) -> Vec<(usize, &str, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = function_name(line) else { continue };
        if line.ends_with('}') || line.ends_with(';') {
            continue;
        }
        let close = format!("{}}}", &line[..line.len() - line.trim_start().len()]);
        let end = lines[i..].iter().position(|l| *l == close).unwrap_or(0);
        out.push((i + 1, name, end + 1));
    }
    out
}

#[test]
fn no_function_is_longer_than_80_lines() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut offences = Vec::new();
    for (path, code) in &code_files(&root, None) {
        let file = path.strip_prefix(&root).unwrap().display().to_string();
        for (line, name, length) in functions(code) {
            if length > MOST_LINES {
                offences.push(format!("{file}:{line}: {name} ({length} lines)"));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "functions over {MOST_LINES} lines (split each into well-named pieces):\n{}",
        offences.join("\n")
    );
}

/// Where the searches live: they are handed their time (a `Deadline`, a
/// `Budget`) and read no clock of their own, so the run alone decides
/// when time is up and a seed's run stays the same on any machine.
const SEARCHES: [&str; 2] = ["crates/fnn-core/src/ga", "crates/fnn-core/src/exact"];

/// Reading the clock directly (`crate::deadline` does it for everyone).
const CLOCK_READS: [&str; 3] = ["Instant::now", "SystemTime::now", ".elapsed()"];

#[test]
fn the_searches_read_no_clock() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut offences = Vec::new();
    for (path, code) in &code_files(&root, None) {
        let file = path.strip_prefix(&root).unwrap().display().to_string();
        if !SEARCHES.iter().any(|s| file.starts_with(s)) {
            continue;
        }
        for (n, line) in code.lines().enumerate() {
            let t = line.trim_start();
            for read in CLOCK_READS.iter().filter(|r| !t.starts_with("//") && t.contains(*r)) {
                offences.push(format!("{file}:{}: {read}", n + 1));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "the searches read the clock (take a Deadline or Budget from the caller; measure with deadline::Stopwatch):\n{}",
        offences.join("\n")
    );
}
