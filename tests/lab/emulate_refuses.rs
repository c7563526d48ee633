//! `emulate` on a machine that cannot run it: refused before anything is
//! built, naming what is missing and the Debian package to install, or
//! that it needs root. A missing program is taken away only inside a
//! private mount namespace (`common::without`), never from the machine;
//! another user is `nobody`. And what it runs as root it takes from
//! root's own folders, never from the caller's `PATH`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

/// The KLAT2 paper's six PCs on three switches, as a table file, and the
/// flags that read it.
fn six_pcs(dir: &Path) -> Vec<String> {
    let table = dir.join("six.txt");
    std::fs::write(&table, "0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n").unwrap();
    ["--pcs", "6", "--nics", "2", "--switches", "4x3", "--table"]
        .iter()
        .map(|s| s.to_string())
        .chain([table.display().to_string()])
        .collect()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `fnn-tui emulate` on the six PCs with `extra` flags, on a machine
/// without `missing`; also the file `--macs` would have written, which
/// only a run that built the network writes.
fn emulate_without(missing: &[&str], extra: &[&str]) -> (Output, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let macs = dir.path().join("macs.txt");
    let mut args = vec!["emulate".to_string()];
    args.extend(six_pcs(dir.path()));
    args.extend(["--macs".to_string(), macs.display().to_string()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut w = common::without(missing, false, Path::new(env!("CARGO_BIN_EXE_fnn-tui")), &args);
    let out = w.command.output().unwrap();
    let built = macs.exists();
    // Kept past the folder's removal: only whether it was written matters.
    (out, if built { macs } else { PathBuf::new() })
}

/// Refused with exit 2 and nothing built: no summary, no MAC file.
fn assert_refused(out: &Output, macs: &Path, names: &[&str]) {
    let err = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "stdout: {}\nstderr: {err}",
        text(&out.stdout)
    );
    for n in names {
        assert!(err.contains(n), "names {n}: {err}");
    }
    assert!(out.stdout.is_empty(), "no summary: {}", text(&out.stdout));
    assert!(
        macs.as_os_str().is_empty(),
        "nothing is built, so no MACs are discovered: {err}"
    );
}

#[test]
fn without_ping_emulate_refuses_before_building_naming_iputils_ping() {
    let test = "emulate_refuses::without_ping_emulate_refuses_before_building_naming_iputils_ping";
    if !common::machine_has(test, common::MASKING) {
        return;
    }
    let _turn = crate::testbed_turn();
    let (out, macs) = emulate_without(&["ping"], &[]);
    assert_refused(&out, &macs, &["`ping` (Debian package iputils-ping)", "install it ("]);
}

#[test]
fn with_traffic_and_without_tc_emulate_refuses_before_building_naming_iproute2() {
    let test = "emulate_refuses::with_traffic_and_without_tc_emulate_refuses_before_building_naming_iproute2";
    if !common::machine_has(test, common::MASKING) {
        return;
    }
    let _turn = crate::testbed_turn();
    let (out, macs) = emulate_without(&["tc"], &["--traffic", "permutation:1", "--traffic-seconds", "1"]);
    assert_refused(&out, &macs, &["`tc` (Debian package iproute2)"]);
}

/// Whether user `nobody` can reach `path` (every folder above it searchable
/// by others).
fn others_reach(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.ancestors()
        .skip(1)
        .all(|d| d.metadata().is_ok_and(|m| m.permissions().mode() & 0o001 != 0))
}

#[test]
fn as_another_user_emulate_and_clean_say_they_need_root() {
    use std::os::unix::process::CommandExt;
    let test = "emulate_refuses::as_another_user_emulate_and_clean_say_they_need_root";
    if !common::machine_has(test, &[common::Need::Root]) {
        return;
    }
    let _turn = crate::testbed_turn();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_fnn-tui"));
    // A copy where nobody can run it, when the build is in a private folder.
    let spare = tempfile::tempdir().unwrap();
    let bin = if others_reach(&bin) {
        bin
    } else {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(spare.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let copy = spare.path().join("fnn-tui");
        std::fs::copy(&bin, &copy).unwrap();
        copy
    };
    const NOBODY: u32 = 65534;
    for args in [&["emulate", "--session", "klat2"][..], &["emulate", "--clean"]] {
        let out = std::process::Command::new(&bin)
            .args(args)
            .uid(NOBODY)
            .gid(NOBODY)
            .env("HOME", "/nonexistent")
            .current_dir("/")
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("emulate needs root (network namespaces)"),
            "{args:?}: {err}"
        );
        assert!(
            !err.contains("/run/fnn-tui"),
            "nothing attempted first: {args:?}: {err}"
        );
    }
}

#[test]
fn emulate_runs_programs_from_roots_folders_not_the_callers_path() {
    let test = "emulate_refuses::emulate_runs_programs_from_roots_folders_not_the_callers_path";
    if !common::machine_has(test, common::MASKING) {
        return;
    }
    let _turn = crate::testbed_turn();
    // Every program a rehearsal runs, planted first on the caller's PATH:
    // each that runs leaves its name in `ran`.
    let planted = tempfile::tempdir().unwrap();
    let ran = planted.path().join("ran");
    for p in ["ip", "tc", "sh", "ping", "cat", "sleep", "unshare", "mount"] {
        let fake = planted.path().join(p);
        std::fs::write(&fake, format!("#!/bin/sh\necho {p} >> '{}'\n", ran.display())).unwrap();
        std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    // A `ping` in root's folders, whether or not this machine has one (in
    // a private /usr/local/bin), so the run gets past its check; it
    // announces nothing, so the run may find flooding, which is not what
    // this test is about.
    let out = std::process::Command::new("unshare")
        .args([
            "--mount",
            "/bin/sh",
            "-ec",
            "mount -t tmpfs tmpfs /usr/local/bin\n\
             printf '#!/bin/sh\\nexit 0\\n' > /usr/local/bin/ping\n\
             chmod 755 /usr/local/bin/ping\n\
             p=$1; shift; exec /usr/bin/env PATH=\"$p\" \"$@\"",
            "sh",
        ])
        .arg(planted.path())
        .arg(env!("CARGO_BIN_EXE_fnn-tui"))
        .arg("emulate")
        .args(six_pcs(dir.path()))
        .output()
        .unwrap();
    let (said, err) = (text(&out.stdout), text(&out.stderr));
    let planted_ran = std::fs::read_to_string(&ran).unwrap_or_default();
    assert!(planted_ran.is_empty(), "ran the caller's {planted_ran}");
    assert!(
        said.contains("30 ordered pairs pinged"),
        "the run went through: {said}{err}"
    );
}
