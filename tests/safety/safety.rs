//! Nothing a user types escapes its place: hostile or careless input is
//! refused at load with the file, field and what is allowed; and, behind
//! that, every writer escapes by its own format's rules, proven here by
//! feeding hostile text straight to the real exporters and reading the
//! files back with real tools (sh with stub commands, gcc, rustc, an XML
//! parser, a CSV reader).

use crate::common;

use crate::common::{Need, Source};
use assert_cmd::Command;
use fnn_tui::export::{Options, write_all};
use fnn_tui::metrics::Metrics;
use fnn_tui::report::{Report, RunInfo};
use fnn_tui::spec::Cluster;
use std::path::Path;

fn fnn() -> Command {
    Command::cargo_bin("fnn-tui").unwrap()
}

/// Runs `fnn-tui args` in `dir`, expects exit 2 and returns stderr.
fn refused(dir: &Path, args: &[&str]) -> String {
    let out = fnn().current_dir(dir).args(args).assert().code(2);
    String::from_utf8(out.get_output().stderr.clone()).unwrap()
}

/// A small valid spec with `extra` TOML appended to its `[pcs]` table, or
/// in front of it when `top` is set.
fn spec(dir: &Path, top: &str, pcs_extra: &str) -> String {
    let text = format!("{top}\n[pcs]\ncount = 8\nnics = 3\n{pcs_extra}\n");
    std::fs::write(dir.join("s.toml"), text).unwrap();
    "s.toml".into()
}

#[test]
fn names_that_would_inject_are_refused_at_load() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let cases = [
        ("", "name_prefix = \"k\\ntouch pwned #\"", "pcs.name_prefix"),
        ("name = \"k\\ntouch pwned #\"", "", "field `name`"),
        ("name = \"x */ int pwned = 1; /*\"", "", "field `name`"),
        ("name = \"a \\\"quoted\\\" name\"", "", "field `name`"),
        ("", "name_prefix = \"../../../../outside/x\"", "pcs.name_prefix"),
        (
            "[[cables.colors]]\nname = \"blue\"\nhex = \"#1f4fd1\\\"><script>alert(1)</script>\"",
            "",
            "cables.colors[0].hex",
        ),
        ("[nic]\nmodel = \"$(reboot)\"", "", "nic.model"),
    ];
    for (top, pcs, field) in cases {
        let s = spec(p, top, pcs);
        let err = refused(p, &["design", &s, "-o", "out"]);
        assert!(
            err.contains(field) && err.contains("is not allowed: use"),
            "{field}: {err}"
        );
        assert!(!p.join("out").exists(), "nothing is written for a refused spec");
    }
}

#[test]
fn an_export_never_writes_outside_its_directory() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::create_dir(p.join("work")).unwrap();
    std::fs::write(p.join("work/t.txt"), "0: 0 1\n1: 1 2\n2: 0 2\n").unwrap();
    let s = spec(&p.join("work"), "", "name_prefix = \"../../../../outside/x\"");
    let err = refused(
        &p.join("work"),
        &["export", &s, "--table", "t.txt", "--only", "routing", "-o", "out"],
    );
    assert!(err.contains("pcs.name_prefix"), "{err}");
    // And behind the check: a cluster whose prefix got past it anyway.
    let mut c = common::quick(8, 3, "8x4");
    c.name_prefix = "../../outside/x".into();
    let design = fnn_tui::ga::Engine::new(c.clone()).best_design();
    let report = Report::new(&c, Metrics::compute(&design, &c), RunInfo::default());
    let out = p.join("work/out");
    let e = write_all(&out, &c, &design, &report, &Options::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("refusing to write"), "{e}");
    let outside: Vec<_> = walk(p).into_iter().filter(|f| !f.starts_with(p.join("work"))).collect();
    assert!(outside.is_empty(), "written outside: {outside:?}");
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let path = e.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// The hostile text used against the writers: it tries to end a comment,
/// a string, a line, an XML attribute and a CSV field, and to run commands.
const HOSTILE: &str =
    "x */ int pwned = 1; /* \"q\" 'a' <script>alert(1)</script> & $(touch pwned1) `touch pwned2`, c\\d\ntouch pwned3 #";

/// An exported 8-PC cluster whose name and first colour are hostile
/// (set after validation, as a future unvalidated field would be).
fn hostile_export(dir: &Path) -> Cluster {
    let mut c = common::quick(8, 3, "8x4");
    c.name = HOSTILE.into();
    c.cable_colors[0].name = HOSTILE.into();
    c.cable_colors[0].hex = "#1f4fd1\"><script>alert(1)</script>".into();
    let design = fnn_tui::ga::Engine::new(c.clone()).best_design();
    let report = Report::new(&c, Metrics::compute(&design, &c), RunInfo::default());
    write_all(dir, &c, &design, &report, &Options::default()).unwrap();
    c
}

/// The scripts set root's own PATH and run as root: they run here in a
/// private network namespace (nothing they do reaches this machine's
/// interfaces) and a private mount namespace whose `/usr/local/sbin`, first
/// in that PATH, holds the logging stubs.
#[test]
fn boot_scripts_run_with_hostile_names_run_nothing_but_ip() {
    let needs = [common::MASKING, &[Need::Program("cp", Source::Apt("coreutils"))]].concat();
    if !common::machine_has("safety::boot_scripts_run_with_hostile_names_run_nothing_but_ip", &needs) {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("out");
    hostile_export(&out);
    // Stub commands that log their arguments; nothing else is on PATH.
    let bin = d.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    // `touch` too: the hostile name tries to run it, and the stub would log it.
    // The probe scripts also read /sys (cat, grep) and use a private
    // temporary folder (mktemp, rm).
    let tmp = d.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    for cmd in ["ip", "ping", "touch", "cat", "grep", "mktemp", "rm", "sleep"] {
        let stub = bin.join(cmd);
        let answer = if cmd == "mktemp" { "echo \"$TMPD\"\n" } else { "" };
        std::fs::write(&stub, format!("#!/bin/sh\necho {cmd} \"$@\" >> \"$LOG\"\n{answer}")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let run = d.path().join("run");
    std::fs::create_dir(&run).unwrap();
    let log = d.path().join("log");
    let mut scripts = walk(&out.join("routing/scripts"));
    scripts.extend(walk(&out.join("routing/probe")));
    assert_eq!(scripts.len(), 16, "a setup and a probe script per PC");
    for script in &scripts {
        let status = std::process::Command::new("unshare")
            .args(["--net", "--mount", "/bin/sh", "-ec"])
            .arg("mount -t tmpfs stubs /usr/local/sbin; cp \"$1\"/* /usr/local/sbin/; exec /bin/sh \"$2\"")
            .arg("sh")
            .arg(&bin)
            .arg(script)
            .current_dir(&run)
            .env_clear()
            .env("PATH", common::ROOTS_PATH)
            .env("LOG", &log)
            .env("TMPD", &tmp)
            // No discovery file: the MACs are placeholders, which the
            // setup scripts install only when told to.
            .env("FNN_ALLOW_PLACEHOLDER_MACS", "1")
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "{}", script.display());
    }
    let ran: Vec<_> = std::fs::read_dir(&run)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(ran.is_empty(), "the scripts created {ran:?}");
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(log.lines().count() > 8 * 3);
    let allowed = ["ip ", "ping ", "cat ", "grep ", "mktemp ", "rm ", "sleep "];
    assert!(log.lines().all(|l| allowed.iter().any(|a| l.starts_with(a))), "{log}");
    assert!(!log.contains("pwned"), "{log}");
}

#[test]
fn the_c_and_rust_headers_compile_and_keep_the_name_as_data() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("out");
    hostile_export(&out);
    // C: both headers compile; the name macro is exactly the name.
    let main_c = d.path().join("main.c");
    std::fs::write(
        &main_c,
        "#include <stdio.h>\n#include \"fnn_routes.h\"\n#include \"fnn_mac_routes.h\"\nint main(void) { fputs(FNN_CLUSTER_NAME, stdout); return (int)fnn_route[0][0]; }\n",
    )
    .unwrap();
    let exe = d.path().join("c-names");
    let cc = std::process::Command::new("cc")
        .args(["-std=c99", "-Wall", "-Werror", "-o"])
        .arg(&exe)
        .arg(&main_c)
        .arg("-I")
        .arg(out.join("advanced"))
        .output()
        .expect("a C compiler (gcc) is on the machine");
    assert!(cc.status.success(), "{}", String::from_utf8_lossy(&cc.stderr));
    let printed = std::process::Command::new(&exe).output().unwrap();
    assert_eq!(String::from_utf8(printed.stdout).unwrap(), HOSTILE);
    // Rust: the module compiles and its name constant is exactly the name.
    let main_rs = d.path().join("main.rs");
    std::fs::write(
        &main_rs,
        format!(
            "#[path = {:?}]\n#[allow(dead_code)]\nmod fnn_routes;\nfn main() {{ print!(\"{{}}\", fnn_routes::CLUSTER_NAME); }}\n",
            out.join("advanced/fnn_routes.rs")
        ),
    )
    .unwrap();
    let exe = d.path().join("rust-names");
    let rustc = std::process::Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .args(["--edition", "2021", "-o"])
        .arg(&exe)
        .arg(&main_rs)
        .output()
        .unwrap();
    assert!(rustc.status.success(), "{}", String::from_utf8_lossy(&rustc.stderr));
    let printed = std::process::Command::new(&exe).output().unwrap();
    assert_eq!(String::from_utf8(printed.stdout).unwrap(), HOSTILE);
}

#[test]
fn svg_html_dot_and_csv_keep_hostile_text_as_text() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("out");
    let c = hostile_export(&out);
    // SVG parses as XML; the title is exactly the name; no script element.
    let svg = std::fs::read_to_string(out.join("racks/racks.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("racks.svg is well-formed XML");
    let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
    assert_eq!(title.text(), Some(format!("{HOSTILE}: rack placement").as_str()));
    assert!(doc.descendants().all(|n| !n.has_tag_name("script")));
    // HTML labels: the name and colour appear only escaped.
    let html = std::fs::read_to_string(out.join("labels.html")).unwrap();
    assert!(!html.contains("<script>"), "labels.html holds a raw <script>");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    // DOT: every quoted string is closed and the graph name reads back.
    let dot = std::fs::read_to_string(out.join("design.dot")).unwrap();
    let strings = dot_strings(&dot);
    assert_eq!(strings.first().map(String::as_str), Some(HOSTILE));
    assert!(dot.trim_end().ends_with('}'));
    // The cut list: every row has the header's columns; the colour is exact.
    let text = std::fs::read_to_string(out.join("cables.csv")).unwrap();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let width = r.headers().unwrap().len();
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|row| row.len() == width), "cables.csv: ragged rows");
    assert!(
        rows.iter().any(|row| &row[4] == HOSTILE),
        "cables.csv: the colour name was not kept"
    );
    let _ = c;
}

/// The quoted strings of a DOT file, unescaped; panics on one left open.
fn dot_strings(dot: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = dot.chars();
    while let Some(ch) = chars.next() {
        if ch != '"' {
            continue;
        }
        let mut s = String::new();
        loop {
            match chars.next().expect("a DOT string left open") {
                '\\' => match chars.next().expect("an escape") {
                    'n' => s.push('\n'),
                    other => s.push(other),
                },
                '"' => break,
                c => s.push(c),
            }
        }
        out.push(s);
    }
    out
}

#[test]
fn huge_pattern_parameters_are_refused_with_the_range() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let s = spec(
        p,
        "coverage = \"sparse\"\n[[patterns]]\nkind = \"ring\"\nk = 1000000000",
        "",
    );
    let err = refused(p, &["design", &s, "-o", "out"]);
    assert!(err.contains("patterns[0].k") && err.contains("use 1 to 4"), "{err}");
    let s = spec(
        p,
        "coverage = \"sparse\"\n[[patterns]]\nkind = \"grid\"\ndims = [100000, 100000]",
        "",
    );
    let err = refused(p, &["design", &s, "-o", "out"]);
    assert!(err.contains("patterns[0].dims"), "{err}");
}

#[test]
fn table_ids_are_range_checked_while_parsing() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    // KLAT2's hardware: 64 PCs, switches 0..8.
    let check = |table: &str| {
        std::fs::write(p.join("t.txt"), table).unwrap();
        let klat2 = ["--pcs", "64", "--nics", "4", "--switches", "31x8,8"];
        refused(p, &[&["check", "--table", "t.txt"][..], &klat2[..]].concat())
    };
    let err = check("0: 0 1 2\n1: 3 99\n");
    assert!(err.contains("t.txt:2: PC 99 is out of range 0..63"), "{err}");
    let err = check("999999: 0 1\n");
    assert!(err.contains("t.txt:1: switch 999999 is out of range 0..8"), "{err}");
    std::fs::write(p.join("t.txt"), "0: 0 100000\n").unwrap();
    let err = refused(p, &["check", "--table", "t.txt"]);
    assert!(err.contains("out of range: without a spec"), "{err}");
}

#[test]
fn pair_files_must_be_regular_files_of_bounded_size() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let err = refused(
        p,
        &[
            "design",
            "--pcs",
            "16",
            "--nics",
            "3",
            "--pairs",
            "/dev/zero",
            "--sparse",
            "-o",
            "out",
        ],
    );
    assert!(err.contains("/dev/zero") && err.contains("not a regular file"), "{err}");
    let fifo = p.join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let err = refused(
        p,
        &[
            "design", "--pcs", "16", "--nics", "3", "--pairs", "fifo", "--sparse", "-o", "out",
        ],
    );
    assert!(err.contains("not a regular file"), "{err}");
    std::fs::write(p.join("bad.txt"), b"0 1\n\xff\xfe 2\n").unwrap();
    let err = refused(
        p,
        &[
            "design", "--pcs", "16", "--nics", "3", "--pairs", "bad.txt", "--sparse", "-o", "out",
        ],
    );
    assert!(err.contains("line 2 is not valid UTF-8"), "{err}");
    let err = refused(p, &["check", "--table", "missing.txt"]);
    assert!(err.contains("missing.txt") && err.contains("no such file"), "{err}");
}

#[test]
fn ga_fields_and_weights_are_bounded() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let s = spec(p, "[ga]\npc_swap_rate = 2.0", "");
    let err = refused(p, &["design", &s, "-o", "out"]);
    assert!(
        err.contains("ga.pc_swap_rate") && err.contains("probability from 0 to 1"),
        "{err}"
    );
    let s = spec(p, "[weights]\nbandwidth = 1e300", "");
    let err = refused(p, &["design", &s, "-o", "out"]);
    assert!(
        err.contains("weights.bandwidth") && err.contains("from 0 to 1e6"),
        "{err}"
    );
}

#[test]
fn a_huge_spec_is_refused_before_it_is_parsed() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let mut text = String::from("[pcs]\ncount = 65536\nnics = 2\noverrides = [");
    for i in 0..1_000_000 {
        text.push_str(&format!("{{pc={},nics=1}},", i % 65536));
    }
    text.push_str("]\n");
    std::fs::write(p.join("big.toml"), text).unwrap();
    let err = refused(p, &["design", "big.toml", "-o", "out"]);
    assert!(err.contains("big.toml") && err.contains("MiB allowed"), "{err}");
    // Under the size limit, more overrides than PCs are refused before
    // anything is built for them.
    let s = spec(
        p,
        "",
        "overrides = [{pc=0,nics=1},{pc=1,nics=1},{pc=2,nics=1},{pc=3,nics=1},{pc=4,nics=1},{pc=5,nics=1},{pc=6,nics=1},{pc=7,nics=1},{pc=0,nics=2}]",
    );
    let err = refused(p, &["design", &s, "-o", "out"]);
    assert!(
        err.contains("pcs.overrides") && err.contains("at most one per PC"),
        "{err}"
    );
}

#[test]
fn spec_type_errors_name_the_pattern_field_and_line() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let s = spec(p, "coverage = \"sparse\"\n[[patterns]]\nkind = \"ring\"\nk = 1.5", "");
    let err = refused(p, &["design", &s, "-o", "out"]);
    assert!(
        err.contains("line 2") && err.contains("patterns[0].k") && err.contains("expected usize"),
        "{err}"
    );
    std::fs::write(
        p.join("prices.toml"),
        "[[switches]]\nmodel = \"a\"\nports = 8\nports = 9\n",
    )
    .unwrap();
    let err = refused(
        p,
        &[
            "cheapest",
            "--pcs",
            "8",
            "--nics",
            "2",
            "--prices",
            "prices.toml",
            "-o",
            "out",
        ],
    );
    assert!(err.contains("prices.toml") && err.contains("line 4"), "{err}");
}

/// The time limit counts from the start: building the first population
/// of a large design (7 s at 8192 PCs before, 28 s at 16384) is inside it
/// and stops spreading the population when the time is up.
#[test]
fn the_time_limit_holds_while_the_population_is_built() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let args = "design --pcs 16384 --nics 4 --switches 5200x13 --time-limit 0.5 -q -o out";
    fnn().current_dir(p).args(args.split(' ')).assert().success();
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p.join("out/report.json")).unwrap()).unwrap();
    // The construction alone takes longer than 0.5 s here: no generation
    // may start (before: the clock started after the build, so one did).
    assert_eq!(report["generations"], 0, "generations ran after the limit had passed");
    assert_eq!(report["stop_reason"], "TimeLimit");
}

/// Every amount has its range: a price of 1e308 (an infinite cost, a NaN
/// fitness), a NaN or negative power draw, a NaN cable price in a price
/// list are refused naming the file and field.
#[test]
fn amounts_out_of_range_are_refused_with_the_field() {
    let switch = |field: &str| {
        format!("[pcs]\ncount = 8\nnics = 3\n[[switches]]\nmodel = \"s\"\nports = 8\ncount = 6\n{field}\n")
    };
    for (field, named) in [
        ("price = 1e308", "switches[0].price"),
        ("price = nan", "switches[0].price"),
        ("power_w = nan", "switches[0].power_w"),
        ("power_w = -5.0", "switches[0].power_w"),
        ("power_w = 1e308", "switches[0].power_w"),
    ] {
        let e = fnn_tui::spec::Spec::from_toml(&switch(field), "s.toml")
            .and_then(|s| s.resolve().map(|_| ()))
            .expect_err(field)
            .to_string();
        assert!(
            e.contains("s.toml") && e.contains(named) && e.contains("not allowed"),
            "{field}: {e}"
        );
    }
    let list = |extra: &str| format!("{extra}\n[[switches]]\nmodel = \"s\"\nports = 8\nprice = 10.0\n");
    for (extra, named) in [
        ("cable_price = nan", "cable_price"),
        ("cable_price = 1e308", "cable_price"),
        ("[nic]\nmodel = \"n\"\nprice = -1.0\nspeed_mbps = 100.0", "nic.price"),
    ] {
        let e = fnn_tui::hardware::PriceList::from_toml(&list(extra), "p.toml")
            .expect_err(extra)
            .to_string();
        assert!(e.contains("p.toml") && e.contains(named), "{extra}: {e}");
    }
}

/// An error quoting a hostile input never sends its escape sequences to
/// the terminal: they are shown, not obeyed (a raw ESC in a spec's TOML, an
/// ESC in a pair-file path that does not exist).
#[test]
fn errors_quoting_inputs_never_drive_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.txt"), "0: 0 1 2\n").unwrap();
    std::fs::write(
        dir.path().join("raw.toml"),
        "name = \"\u{1b}[2Jx\"\n[pcs]\ncount = 3\nnics = 1\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("path.toml"),
        "[pcs]\ncount = 3\nnics = 1\n[[patterns]]\nkind = \"pair-file\"\npath = \"\\u001b]0;owned\\u0007\"\n",
    )
    .unwrap();
    for spec in ["raw.toml", "path.toml"] {
        let err = refused(dir.path(), &["check", spec, "--table", "t.txt"]);
        assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{spec}: {err:?}");
        assert!(err.contains(spec) && err.contains("\\u{1b}"), "{spec}: {err:?}");
    }
}

/// A spec names its pair file inside its own folder: never an absolute
/// path, `..`, or a link out of the folder (a spec someone else wrote must
/// not make fnn-tui, run as root, read a private file and quote it back).
/// A file typed with `--pairs` is the user's own choice and is read as given.
#[test]
fn a_spec_reads_pair_files_only_from_its_own_folder() {
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("shadow");
    std::fs::write(&secret, "root:*:20228:0:99999:7:::\n").unwrap();
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::os::unix::fs::symlink(&secret, p.join("link.txt")).unwrap();
    std::fs::create_dir(p.join("sub")).unwrap();
    std::fs::write(p.join("sub/pairs.txt"), "0 1\n2 3\n").unwrap();
    std::fs::write(p.join("t.txt"), "0: 0 1 2 3\n").unwrap();
    let with_path = |path: &str| {
        let text = format!(
            "[pcs]\ncount = 4\nnics = 1\n[[switches]]\nports = 8\n[[patterns]]\nkind = \"pair-file\"\npath = {path:?}\n"
        );
        std::fs::write(p.join("s.toml"), text).unwrap();
    };
    let secret_path = secret.display().to_string();
    for path in [secret_path.as_str(), "../shadow", "sub/../../shadow", "link.txt"] {
        with_path(path);
        let err = refused(p, &["check", "s.toml", "--table", "t.txt"]);
        assert!(!err.contains("root:"), "{path}: the file was read: {err}");
        assert!(
            err.contains("s.toml") && err.contains("patterns[0].path"),
            "{path}: {err}"
        );
        assert!(err.contains("--pairs"), "{path}: says how to read it: {err}");
    }
    with_path("sub/pairs.txt");
    fnn()
        .current_dir(p)
        .args(["check", "s.toml", "--table", "t.txt"])
        .assert()
        .success();
    // Typed by the user, read as given (the refusal quotes it, as a bad line).
    std::fs::write(&secret, "0 1\n").unwrap();
    fnn()
        .current_dir(p)
        .args([
            "check",
            "--pcs",
            "4",
            "--nics",
            "1",
            "--switches",
            "4x1",
            "--table",
            "t.txt",
            "--pairs",
        ])
        .arg(&secret)
        .assert()
        .success();
}

/// The exact mode plans its model before building it: one that would not
/// fit in the memory the machine has (or the budget it is given) is not
/// built, and the answer says how big it would have been. (Before: 1024
/// PCs took 15 GB and ran 120 s past a 5 s limit; 16384 PCs 24 GB.)
#[test]
fn an_exact_model_too_big_for_memory_is_refused_with_its_estimate() {
    let d = tempfile::tempdir().unwrap();
    for (args, budget) in [
        ("--pcs 4096 --nics 8 --switches 600x64", None),
        ("--pcs 256 --nics 6 --switches 60x32", Some("64M")),
    ] {
        let mut cmd = fnn();
        cmd.current_dir(d.path())
            .args(["design", "--exact", "--time-limit", "5", "-o", "out"]);
        cmd.args(args.split(' '));
        if let Some(b) = budget {
            cmd.env("FNN_TUI_MEMORY_BUDGET", b);
        }
        let out = cmd.assert().code(1).get_output().stdout.clone();
        let text = String::from_utf8_lossy(&out);
        assert!(
            text.contains("exact: unknown: a SAT model")
                && text.contains("would need about")
                && text.contains("no model built"),
            "{args}: {text}"
        );
        if budget.is_some() {
            assert!(text.contains("more than the 64 MB"), "{text}");
        }
        assert!(!d.path().join("out").exists(), "nothing written for an unknown");
    }
}

/// The proof and its CNF are written to temporaries created exclusively
/// and renamed over the names given: links planted at those names are
/// replaced, never written through (before: the solver opened the proof
/// with fopen, which follows them).
#[test]
fn proof_files_replace_planted_links_instead_of_writing_through_them() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let victim = p.join("victim");
    std::fs::write(&victim, "secret").unwrap();
    for name in ["five.drat", "five.drat.cnf"] {
        std::os::unix::fs::symlink(&victim, p.join(name)).unwrap();
    }
    fnn()
        .current_dir(p)
        .args("design --exact --pcs 8 --nics 3 --switches 4x5 -o five --proof five.drat".split(' '))
        .assert()
        .code(2);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "secret");
    for name in ["five.drat", "five.drat.cnf"] {
        let meta = std::fs::symlink_metadata(p.join(name)).unwrap();
        assert!(meta.file_type().is_file(), "{name} is a regular file now");
    }
    let cnf = std::fs::read_to_string(p.join("five.drat.cnf")).unwrap();
    assert!(cnf.lines().any(|l| l.starts_with("p cnf ")), "{cnf:.200}");
    let leftovers: Vec<_> = std::fs::read_dir(p)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// A population is capped by the memory it implies at the spec's size:
/// one that would not fit the budget is refused naming the field, with
/// the largest that fits, and that one runs. Commands that do not search
/// (check) are not held to it.
#[test]
fn a_population_too_big_for_memory_is_refused_with_the_largest_that_fits() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let spec = |population: u64| {
        let text = format!(
            "[pcs]\ncount = 2048\nnics = 4\n[[switches]]\nmodel = \"s\"\nports = 700\ncount = 13\n\
             [ga]\npopulation = {population}\nlocal_search = 0\ntime_limit_s = 0.5\n"
        );
        std::fs::write(p.join("big.toml"), text).unwrap();
    };
    spec(50_000);
    let out = fnn()
        .current_dir(p)
        .env("FNN_TUI_MEMORY_BUDGET", "64M")
        .args(["design", "big.toml", "-q", "-o", "out"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains("big.toml") && err.contains("ga.population") && err.contains("64 MB"),
        "{err}"
    );
    let fits: u64 = err
        .rsplit("use at most ")
        .next()
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or_else(|| panic!("no largest population in {err}"));
    assert!((2..50_000).contains(&fits), "{fits}");
    spec(fits);
    fnn()
        .current_dir(p)
        .env("FNN_TUI_MEMORY_BUDGET", "64M")
        .args(["design", "big.toml", "-q", "-o", "out"])
        .assert()
        .code(predicates::prelude::predicate::in_iter([0, 1]));
    spec(fits + 1);
    fnn()
        .current_dir(p)
        .env("FNN_TUI_MEMORY_BUDGET", "64M")
        .args(["design", "big.toml", "-q", "-o", "out"])
        .assert()
        .code(2);
    spec(50_000);
    fnn()
        .current_dir(p)
        .env("FNN_TUI_MEMORY_BUDGET", "64M")
        .args(["check", "big.toml", "--table", "out/switches.txt"])
        .assert()
        .code(predicates::prelude::predicate::in_iter([0, 1]));
}

/// `--log` to a FIFO nobody reads used to hang the command (opening it
/// for writing waits for a reader): it is refused at once, as is anything
/// else that is not a regular file.
#[test]
fn a_log_that_is_not_a_regular_file_is_refused_without_hanging() {
    let d = tempfile::tempdir().unwrap();
    let fifo = d.path().join("log.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let logged_to = |target: &Path| {
        fnn()
            .arg("--log")
            .arg(target)
            .args("check --pcs 8 --nics 3 --switches 4x6 --table none.txt".split(' '))
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .expect("runs")
    };
    let folder = logged_to(d.path());
    assert_eq!(folder.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&folder.stderr).contains("is a folder"));
    let out = logged_to(&fifo);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a hang is killed by the timeout, with no code"
    );
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("is a FIFO; the log must be a regular file"), "{text}");
}
