//! Races against another local user: user `nobody` owns a shared folder
//! and, while root's fnn-tui writes into it, swaps names for links to a
//! folder of root's (the canary). Whatever the attacker wins or loses,
//! the canary must keep every file byte for byte, and gain none.
//!
//! Each attack runs a bounded number of rounds and stops by itself.

use crate::common;

use crate::common::Need;
use std::collections::BTreeMap;
use std::os::unix::fs::{PermissionsExt, chown};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};

const NOBODY: u32 = 65534;

/// A folder root owns, a shared folder `nobody` owns inside it, and the
/// canary beside the shared folder (outside it).
struct Arena {
    base: tempfile::TempDir,
    shared: PathBuf,
    canary: PathBuf,
}

impl Arena {
    fn new() -> Arena {
        let base = tempfile::tempdir().unwrap();
        // Searchable by nobody, writable by root alone.
        std::fs::set_permissions(base.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let shared = base.path().join("shared");
        std::fs::create_dir(&shared).unwrap();
        chown(&shared, Some(NOBODY), Some(NOBODY)).unwrap();
        let canary = base.path().join("canary");
        std::fs::create_dir_all(canary.join("sub")).unwrap();
        std::fs::write(canary.join("secret"), "root's secret\n").unwrap();
        std::fs::write(canary.join("sub/file"), "kept\n").unwrap();
        Arena { base, shared, canary }
    }

    /// Runs `script` (sh) as nobody in the shared folder until the test
    /// creates `.stop` there. `$CANARY` is the canary's path.
    fn attacker(&self, script: &str) -> Attacker {
        let child = Command::new("sh")
            .arg("-c")
            .arg(format!("while [ ! -e .stop ]; do {script}\ndone"))
            .current_dir(&self.shared)
            .env("CANARY", &self.canary)
            .uid(NOBODY)
            .gid(NOBODY)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("sh runs as nobody");
        Attacker {
            child,
            stop: self.shared.join(".stop"),
        }
    }

    fn canary(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        snapshot(&self.canary)
    }

    /// Fails naming what changed in the canary since `before`.
    fn assert_canary(&self, before: &BTreeMap<PathBuf, Vec<u8>>, round: usize) {
        let now = self.canary();
        let changed: Vec<String> = before
            .keys()
            .chain(now.keys())
            .filter(|k| before.get(*k) != now.get(*k))
            .map(|k| k.display().to_string())
            .collect();
        assert!(changed.is_empty(), "round {round}: the canary changed: {changed:?}");
    }
}

struct Attacker {
    child: Child,
    stop: PathBuf,
}

impl Drop for Attacker {
    fn drop(&mut self) {
        let _ = std::fs::write(&self.stop, "");
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.stop);
    }
}

/// Every entry under `dir` with its bytes (a link's target for a link),
/// links not followed.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let t = e.file_type().unwrap();
            let bytes = if t.is_symlink() {
                std::fs::read_link(&p).unwrap().into_os_string().into_encoded_bytes()
            } else if t.is_dir() {
                todo.push(p.clone());
                b"<dir>".to_vec()
            } else {
                std::fs::read(&p).unwrap()
            };
            out.insert(p, bytes);
        }
    }
    out
}

fn fnn() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fnn-tui"))
}

/// A switch table for `pcs` PCs with 3 NICs on `switches`, designed into `dir`.
fn table_in(dir: &Path, pcs: &str, switches: &str) -> PathBuf {
    let design = fnn()
        .args(["design", "--pcs", pcs, "--nics", "3", "--switches", switches, "--out"])
        .arg(dir.join("design"))
        .output()
        .unwrap();
    assert!(design.status.success(), "{}", String::from_utf8_lossy(&design.stderr));
    dir.join("design/switches.txt")
}

fn may_run(test: &str) -> bool {
    common::machine_has(test, &[Need::Root])
}

/// Row 1: while root exports into the shared folder with `--force`, the
/// attacker renames root's staging folder away and puts a link in its
/// place, to a folder of theirs whose subfolders link to the canary. The
/// files still go into root's own staging folder (written through its
/// handle), and a staging name that no longer holds it is not swapped in.
#[test]
fn an_export_never_writes_through_a_swapped_staging_folder() {
    if !may_run("an_export_never_writes_through_a_swapped_staging_folder") {
        return;
    }
    let a = Arena::new();
    let table = table_in(a.base.path(), "32", "16x8");
    let before = a.canary();
    let _attacker = a.attacker(
        r#"mkdir -p evil
for d in routing advanced racks; do [ -L evil/$d ] || ln -s "$CANARY" evil/$d; done
for s in .build.staging-*; do
  [ -d "$s" ] && [ ! -L "$s" ] || continue
  mv "$s" "taken$s" 2>/dev/null && ln -s "$PWD/evil" "$s"
done"#,
    );
    let taken = || {
        std::fs::read_dir(&a.shared)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("taken"))
            .count()
    };
    let mut rounds = 0;
    // Until the attacker has taken a few staging folders, at most 200 exports.
    while rounds < 200 && taken() < 3 {
        rounds += 1;
        fnn()
            .args("export --pcs 32 --nics 3 --switches 16x8 --force --table".split(' '))
            .arg(&table)
            .arg("--out")
            .arg(a.shared.join("build"))
            .output()
            .unwrap();
        a.assert_canary(&before, rounds);
    }
    assert!(
        taken() > 0,
        "the attacker never caught a staging folder in {rounds} exports"
    );
}

/// Row 8: an export to a link, without `--force`, is refused naming the
/// link itself: nothing about the folder it points to (root's, maybe
/// unreadable to the user) shows.
#[test]
fn an_export_to_a_link_is_refused_naming_the_link() {
    let d = tempfile::tempdir().unwrap();
    let private = d.path().join("private");
    std::fs::create_dir(&private).unwrap();
    std::fs::write(private.join("secret-plan.txt"), "x").unwrap();
    let link = d.path().join("out");
    std::os::unix::fs::symlink(&private, &link).unwrap();
    let table = table_in(d.path(), "8", "4x6");
    let out = fnn()
        .args("export --pcs 8 --nics 3 --switches 4x6 --table".split(' '))
        .arg(&table)
        .arg("--out")
        .arg(&link)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&link.display().to_string()) && err.contains("is a link"),
        "{err}"
    );
    assert!(!err.contains("secret-plan"), "{err}");
    assert_eq!(snapshot(&private).len(), 1);
}

/// Row 2: `--macs FILE` in the shared folder, which the attacker keeps
/// turning into a link to root's file. The writer (emulate's, tested
/// directly: a rehearsal per round would take minutes) replaces the link
/// by renaming a finished file over it, never writing through it.
#[test]
fn the_macs_file_never_writes_through_a_planted_link() {
    if !may_run("the_macs_file_never_writes_through_a_planted_link") {
        return;
    }
    let a = Arena::new();
    let before = a.canary();
    let _attacker = a.attacker(r#"ln -sfn "$CANARY/secret" macs.txt; ln -sfn "$CANARY/made" macs.txt"#);
    let path = a.shared.join("macs.txt");
    for round in 0..300 {
        // Refused or written: either way, only the shared folder changes.
        let _ = fnn_tui::emulate::write_macs(&path, "k00 eth0 02:00:00:00:00:01\n");
        a.assert_canary(&before, round);
    }
}

/// Row 3: `--log FILE` in the shared folder, a link the attacker keeps
/// pointing at root's file (or at a new file in root's folder).
#[test]
fn a_log_never_appends_through_a_planted_link() {
    if !may_run("a_log_never_appends_through_a_planted_link") {
        return;
    }
    let a = Arena::new();
    let before = a.canary();
    let _attacker =
        a.attacker(r#"ln -sfn "$CANARY/secret" log.txt; ln -sfn "$CANARY/made" log.txt; rm -f log.txt; : > log.txt"#);
    for round in 0..40 {
        fnn()
            .arg("--log")
            .arg(a.shared.join("log.txt"))
            .args("check --pcs 8 --nics 3 --switches 4x6 --table none.txt".split(' '))
            .output()
            .unwrap();
        a.assert_canary(&before, round);
    }
}

/// A log the attacker planted as a plain file of theirs is not appended
/// to either (they choose what it is, and could read root's lines).
#[test]
fn a_log_owned_by_another_user_is_refused() {
    if !may_run("a_log_owned_by_another_user_is_refused") {
        return;
    }
    let a = Arena::new();
    let log = a.shared.join("log.txt");
    std::fs::write(&log, "").unwrap();
    chown(&log, Some(NOBODY), Some(NOBODY)).unwrap();
    let out = fnn()
        .arg("--log")
        .arg(&log)
        .args("check --pcs 8 --nics 3 --switches 4x6 --table none.txt".split(' '))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("belongs to user 65534"), "{err}");
    assert_eq!(std::fs::read(&log).unwrap(), b"");
}

/// The session writer saving into a folder of the shared folder that the
/// attacker keeps replacing with a link to root's folder.
#[test]
fn a_session_is_never_saved_through_a_swapped_folder() {
    if !may_run("a_session_is_never_saved_through_a_swapped_folder") {
        return;
    }
    let a = Arena::new();
    let before = a.canary();
    let spec = fnn_tui::spec::QuickFlags {
        pcs: Some(8),
        nics: Some(3),
        switches: Some("4x6".into()),
        ..Default::default()
    }
    .apply(fnn_tui::spec::Spec::default())
    .unwrap();
    let engine = fnn_tui::ga::Engine::new(spec.resolve().unwrap());
    let session = fnn_tui::session::Session::capture("t", &spec, &engine);
    // The writer works in the shared folder when no one interferes.
    session.save(&a.shared.join("t.toml")).unwrap();
    // A folder, then a link (a folder root made there is moved aside:
    // the shared folder is the attacker's).
    let attacker = a.attacker(
        r#"i=$((i+1)); mv -T sess "old$i" 2>/dev/null; mkdir sess; mv -T sess "old$i.d"; ln -s "$CANARY" sess"#,
    );
    for round in 0..200 {
        let _ = session.save(&a.shared.join("sess/t.toml"));
        a.assert_canary(&before, round);
    }
    drop(attacker);
}

/// A link another user owns is refused even in a folder only root
/// writes: they could not have put it there, but may change where it
/// points (the writing module's rule; a link root owns there is followed).
#[test]
fn a_link_another_user_owns_is_never_followed() {
    if !may_run("a_link_another_user_owns_is_never_followed") {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir(d.path().join("real")).unwrap();
    let alias = d.path().join("alias");
    std::os::unix::fs::symlink("real", &alias).unwrap();
    assert!(fnn_tui::fs::Dir::open(&alias).is_ok(), "root's own link is followed");
    std::os::unix::fs::lchown(&alias, Some(NOBODY), Some(NOBODY)).unwrap();
    let e = fnn_tui::fs::Dir::open(&alias).unwrap_err().to_string();
    assert!(
        e.contains(&format!(
            "{} is a link (to real) that another user made",
            alias.display()
        )),
        "{e}"
    );
}

/// Row 2's other half: a `--macs` file on a full disk. The old file stays
/// whole (the new one is complete before it is renamed over it) and the
/// error says why. Runs itself again inside a private mount namespace
/// with a 32 KiB tmpfs (`unshare`, as root).
#[test]
fn a_full_disk_keeps_the_old_macs_file() {
    const INNER: &str = "FNN_TEST_FULL_DISK";
    if let Some(dir) = std::env::var_os(INNER) {
        let path = Path::new(&dir).join("macs.txt");
        let big = "k00 eth0 02:00:00:00:00:01\n".repeat(4096);
        let e = fnn_tui::emulate::write_macs(&path, &big).unwrap_err().to_string();
        assert!(e.to_lowercase().contains("no space left on device"), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary left");
        return;
    }
    if !common::machine_has(
        "a_full_disk_keeps_the_old_macs_file",
        &[Need::Root, Need::Program("unshare", common::Source::Apt("util-linux"))],
    ) {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let out = Command::new("unshare")
        .args(["--mount", "--propagation", "private", "sh", "-c"])
        .arg(r#"mount -t tmpfs -o size=32k none "$FNN_TEST_FULL_DISK" && printf 'old\n' > "$FNN_TEST_FULL_DISK/macs.txt" && exec "$0" --exact "$1" --nocapture"#)
        .arg(std::env::current_exe().unwrap())
        .arg(common::test_name(module_path!(), "a_full_disk_keeps_the_old_macs_file"))
        .env(INNER, d.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && text.contains("1 passed"), "{text}");
}
