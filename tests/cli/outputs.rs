//! Outputs are written whole: an export or a design goes into a staging
//! folder beside its target and is swapped in by one rename, so a killed
//! run, a full disk or a smaller design written over a larger one never
//! leaves a mix of two outputs.

use crate::common;

use crate::common::Need;
use std::path::Path;
use std::time::SystemTime;

fn fnn(dir: &Path) -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("fnn-tui").unwrap();
    c.current_dir(dir);
    c
}

/// Every file under `dir` (relative paths), sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                out.push(e.path().strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

fn newest_change(dir: &Path) -> SystemTime {
    files(dir)
        .iter()
        .map(|f| std::fs::metadata(dir.join(f)).unwrap().modified().unwrap())
        .max()
        .unwrap()
}

/// `kill -9` in the middle of an export over a good one: the folder is
/// still the good export, every file of it and nothing newer; the next
/// export removes the half-written staging folder.
#[test]
fn an_export_killed_midway_leaves_the_previous_export_whole() {
    let d = tempfile::tempdir().unwrap();
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/specs/cluster-1024.toml");
    std::fs::copy(&spec, d.path().join("c.toml")).unwrap();
    fnn(d.path())
        .args(["design", "c.toml", "--generations", "1", "-o", "d", "-q"])
        .assert()
        .code(predicates::ord::lt(2));
    let export = [
        "export",
        "c.toml",
        "--table",
        "d/switches.txt",
        "--only",
        "routing",
        "-o",
        "e",
    ];
    fnn(d.path()).args(export).assert().success();
    let before = files(&d.path().join("e"));
    let written = newest_change(&d.path().join("e"));
    std::thread::sleep(std::time::Duration::from_millis(20));
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("fnn-tui"))
        .current_dir(d.path())
        .args(export)
        .spawn()
        .unwrap();
    // Wait until the new export has written a good part of its files.
    let staging = loop {
        let s = std::fs::read_dir(d.path())
            .unwrap()
            .flatten()
            .find(|e| e.file_name().to_string_lossy().starts_with(".e.staging-"));
        if let Some(s) =
            s.filter(|s| std::fs::read_dir(s.path().join("routing/scripts")).is_ok_and(|it| it.count() > 200))
        {
            break s.path();
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the export finished before it could be killed"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(staging.exists(), "the killed export's staging folder is left");
    assert_eq!(files(&d.path().join("e")), before, "the same files as the good export");
    assert_eq!(
        newest_change(&d.path().join("e")),
        written,
        "and none of them rewritten"
    );
    fnn(d.path()).args(export).assert().success();
    assert!(
        !staging.exists(),
        "the next export removed the dead one's staging folder"
    );
}

/// A 32-PC design exported over a 64-PC one: no script is left for
/// PCs 32..63; a file the user put in the folder stays.
#[test]
fn a_smaller_export_over_a_larger_one_leaves_none_of_its_files() {
    // (Asked for with --force: a folder holding another cluster's export
    // is refused without it.)
    let d = tempfile::tempdir().unwrap();
    let sizes = [("64", "31x8,8"), ("32", "31x4")];
    for (pcs, switches) in sizes {
        let args = ["--pcs", pcs, "--nics", "4", "--switches", switches];
        fnn(d.path())
            .args(["design"])
            .args(args)
            .args(["-o", &format!("d{pcs}"), "-q"])
            .assert()
            .code(predicates::ord::lt(2));
        let export = |extra: &[&str]| {
            let mut c = fnn(d.path());
            c.args(["export"])
                .args(args)
                .args(["--table", &format!("d{pcs}/switches.txt"), "-o", "e"])
                .args(extra);
            c.assert()
        };
        if pcs == "32" {
            // Another cluster's export and the user's file: refused,
            // naming both designs, until the user says to replace it.
            export(&[])
                .failure()
                .stderr(predicates::str::contains("another design"))
                .stderr(predicates::str::contains("64 PCs"))
                .stderr(predicates::str::contains("--force"));
            assert!(d.path().join("e/routing/scripts/fnn-setup-n63.sh").exists());
            export(&["--force"]).success();
        } else {
            export(&[]).success();
            // The same cluster again replaces its own export.
            export(&[]).success();
        }
        if pcs == "64" {
            assert!(d.path().join("e/routing/scripts/fnn-setup-n63.sh").exists());
            std::fs::write(d.path().join("e/NOTES.md"), "rack B, row 2").unwrap();
        }
    }
    let scripts = files(&d.path().join("e/routing/scripts"));
    assert_eq!(scripts.len(), 32, "{scripts:?}");
    assert!(
        !scripts.iter().any(|s| s.contains("n32") || s.contains("n63")),
        "{scripts:?}"
    );
    assert_eq!(
        std::fs::read_to_string(d.path().join("e/NOTES.md")).unwrap(),
        "rack B, row 2",
        "the user's own file is kept"
    );
}

/// On a full disk `design` says so, with the OS's reason, and writes
/// neither file (nor removes the previous output). Needs root, to mount a
/// small tmpfs.
#[test]
fn a_full_disk_is_reported_with_its_reason_and_the_old_output_stays() {
    if !common::machine_has(
        "outputs::a_full_disk_is_reported_with_its_reason_and_the_old_output_stays",
        &[Need::Root],
    ) {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let m = d.path().join("m");
    std::fs::create_dir(&m).unwrap();
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
        .arg(&m)
        .status()
        .unwrap();
    assert!(mounted.success(), "mount a 256 KiB tmpfs");
    struct Unmount<'a>(&'a Path);
    impl Drop for Unmount<'_> {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount").arg(self.0).status();
        }
    }
    let _unmount = Unmount(&m);
    let design = [
        "design",
        "--pcs",
        "8",
        "--nics",
        "3",
        "--switches",
        "4x6",
        "-o",
        "m/out",
        "-q",
    ];
    fnn(d.path()).args(design).assert().success();
    let old = std::fs::read_to_string(m.join("out/switches.txt")).unwrap();
    // Fill the disk.
    let mut filler = std::fs::File::create(m.join("filler")).unwrap();
    let block = vec![0u8; 4096];
    while std::io::Write::write_all(&mut filler, &block).is_ok() {}
    drop(filler);
    let out = fnn(d.path()).args(design).args(["--seed", "9"]).assert().failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains("no space left on device") && err.contains("m/out"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(m.join("out/switches.txt")).unwrap(), old);
    assert!(m.join("out/report.json").exists());
    let left: Vec<_> = std::fs::read_dir(&m)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left.len(), 2, "only the output and the filler: {left:?}");
}

/// An ordinary user exporting into a folder root owns read "cannot write
/// .: permission denied": the folder is named as an absolute path, with
/// why fnn-tui must write there.
#[test]
fn an_unwritable_folder_is_named_in_full_with_why() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    if !common::machine_has("outputs::an_unwritable_folder_is_named_in_full_with_why", &[Need::Root]) {
        return;
    }
    // Root's folder, which nobody may enter and list but not write; the
    // binary copied where nobody can run it.
    let d = tempfile::tempdir().unwrap();
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let bin = d.path().join("fnn-tui");
    std::fs::copy(env!("CARGO_BIN_EXE_fnn-tui"), &bin).unwrap();
    const NOBODY: u32 = 65534;
    let out = std::process::Command::new(&bin)
        .args(["export", "--session", "klat2", "--out", "fnn-export"])
        .uid(NOBODY)
        .gid(NOBODY)
        .env("HOME", "/nonexistent")
        .current_dir(d.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let folder = d.path().display().to_string();
    assert!(
        err.contains(&format!("cannot write {folder}: permission denied")),
        "{err}"
    );
    assert!(err.contains("give a folder you can write to"), "{err}");
    assert!(!d.path().join("fnn-export").exists());
}
