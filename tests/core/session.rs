//! Sessions: resuming continues exactly; bad files are refused and never
//! overwritten.

use fnn_tui::ga::Engine;
use fnn_tui::run::{Edit, Run};
use fnn_tui::session::{Session, SessionError, VERSION, find_session, list_sessions};
use fnn_tui::spec::{PatternSpec, PinKind, PinSpec, QuickFlags, Spec};

fn spec() -> Spec {
    let flags = QuickFlags {
        pcs: Some(32),
        nics: Some(3),
        switches: Some("16x6".into()),
        ..Default::default()
    };
    let mut s = flags.apply(Spec::default()).unwrap();
    s.patterns.push(PatternSpec::Ring { k: 2, weight: 1.5 });
    s.pins.push(PinSpec {
        pc: 0,
        switch: 1,
        kind: PinKind::Must,
    });
    s
}

fn steps(e: &mut Engine, n: usize) {
    for _ in 0..n {
        e.step();
    }
}

#[test]
fn a_resumed_run_matches_the_uninterrupted_one_generation_for_generation() {
    for split in [3, 40] {
        let spec = spec();
        let mut straight = Engine::new(spec.resolve().unwrap());
        steps(&mut straight, split + 30);

        let mut first = Engine::new(spec.resolve().unwrap());
        steps(&mut first, split);
        let text = Session::capture("t", &spec, &first).to_toml();
        let session = Session::from_toml(&text, "t.toml").unwrap();
        let (_, mut resumed) = session.restore().unwrap();
        assert_eq!(resumed.generation(), split as u64);
        steps(&mut resumed, 30);

        assert_eq!(resumed.history(), straight.history(), "split at {split}");
        assert_eq!(resumed.best_design(), straight.best_design());
        assert_eq!(resumed.state(), straight.state());
    }
}

/// Commands that only read the design restore just the best member: the
/// same design as a full restore, at any point of a run (before the first
/// valid design the first member is the best), and a damaged member
/// anywhere is still refused.
#[test]
fn restoring_only_the_best_gives_the_same_design_and_still_checks_every_member() {
    let spec = spec();
    let mut e = Engine::new(spec.resolve().unwrap());
    for n in [0, 1, 5, 40] {
        steps(&mut e, n);
        let text = Session::capture("t", &spec, &e).to_toml();
        let s = Session::from_toml(&text, "t.toml").unwrap();
        let (_, full) = s.restore().unwrap();
        let (_, best) = s.restore_best().unwrap();
        assert_eq!(best.best_design(), full.best_design(), "after {n} more generations");
        assert_eq!(best.is_valid(), full.is_valid());
        assert_eq!(best.generation(), full.generation());
        // The last member's wiring names a PC that does not exist.
        let last = text.rfind("[[engine.population]]").unwrap();
        let at = last + text[last..].find("entries = \"").unwrap() + "entries = \"".len();
        let damaged = format!("{}9999 {}", &text[..at], &text[at..]);
        let s = Session::from_toml(&damaged, "t.toml").unwrap();
        assert!(s.restore_best().is_err(), "a damaged last member was not noticed");
    }
}

#[test]
fn a_session_keeps_live_weights_ga_parameters_and_pins() {
    let spec = spec();
    let mut e = Engine::new(spec.resolve().unwrap());
    let mut w = e.cluster().weights.clone();
    w.redundancy = 3.5;
    e.set_weights(w);
    let mut pins = e.cluster().pins.clone();
    pins.set_forbid(5, 2);
    e.set_pins(pins).unwrap();
    let mut ga = e.cluster().ga.clone();
    ga.population = 120;
    e.set_ga(ga);
    steps(&mut e, 5);
    let s = Session::from_toml(&Session::capture("t", &spec, &e).to_toml(), "t.toml").unwrap();
    let (c, resumed) = s.restore().unwrap();
    assert_eq!(c.weights.redundancy, 3.5);
    assert!(c.pins.is_forbidden(5, 2) && c.pins.is_must(0, 1));
    assert_eq!(resumed.population().len(), 120);
}

#[test]
fn corrupt_truncated_and_future_sessions_are_refused_and_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec();
    let mut e = Engine::new(spec.resolve().unwrap());
    steps(&mut e, 2);
    let good = Session::capture("t", &spec, &e).to_toml();
    let cases = [
        ("truncated", good[..good.len() / 2].to_string()),
        (
            "future",
            good.replacen(&format!("version = {VERSION}"), "version = 99", 1),
        ),
        ("garbage", "this is not toml at all [[[".to_string()),
        ("spec", "[pcs]\ncount = 4\n".to_string()),
        ("bad-genome", good.replacen("entries = \"", "entries = \"9999 ", 1)),
        (
            "wrapped-version",
            good.replacen(&format!("version = {VERSION}"), "version = 4294967297", 1),
        ),
        // A key fnn-tui never writes (megabytes of junk, or damage).
        ("unknown-key", good.replacen("name = ", "junk = [1, 2, 3]\nname = ", 1)),
        (
            "unknown-engine-key",
            good.replacen("[engine]\n", "[engine]\njunk = 1\n", 1),
        ),
    ];
    for (name, text) in cases {
        let path = dir.path().join(format!("{name}.toml"));
        std::fs::write(&path, &text).unwrap();
        let err = Session::load(&path).and_then(|s| s.restore().map(|_| ()));
        let msg = err.expect_err(name).to_string();
        assert!(msg.contains(&format!("{name}.toml")), "{name}: {msg}");
        // The check a save makes, without evaluating the members, agrees.
        let checked = Session::load(&path).and_then(|s| s.check());
        assert!(checked.is_err(), "{name} passed the check that restore fails");
        if name == "future" {
            assert!(msg.contains("newer fnn-tui"), "{msg}");
        }
        if name == "wrapped-version" {
            assert!(msg.contains("session version 4294967297"), "not wrapped to 1: {msg}");
        }
        if name.starts_with("unknown") {
            assert!(msg.contains("unknown field `junk`"), "{msg}");
        }
        // Saving over it is refused and the file is untouched.
        let session = Session::from_toml(&good, "x.toml").unwrap();
        assert!(matches!(session.save(&path), Err(SessionError::Write { .. })), "{name}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "{name} was overwritten");
    }
}

#[test]
fn sessions_are_listed_and_found_by_name_or_path() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec();
    let e = Engine::new(spec.resolve().unwrap());
    let s = Session::capture("alpha", &spec, &e);
    let path = dir.path().join("alpha.toml");
    s.save(&path).unwrap();
    s.save(&path).unwrap(); // replacing our own session is fine
    let dirs = vec![dir.path().to_path_buf()];
    assert_eq!(list_sessions(&dirs).len(), 1);
    assert_eq!(find_session("alpha", &dirs), Some(path.clone()));
    assert_eq!(find_session(path.to_str().unwrap(), &[]), Some(path));
    assert_eq!(find_session("nope", &dirs), None);
}

#[test]
fn the_shipped_sessions_open_and_continue() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("saves");
    let found = list_sessions(&[dir]);
    let names: Vec<&str> = found.iter().map(|e| e.name.as_str()).collect();
    assert!(names.contains(&"klat2") && names.contains(&"kasy0-sparse"), "{names:?}");
    for entry in found {
        let session = Session::load(&entry.path).unwrap();
        let (_, mut engine) = session.restore().unwrap_or_else(|e| panic!("{}: {e}", entry.name));
        assert!(engine.is_valid(), "{} should hold a valid design", entry.name);
        let g = engine.generation();
        engine.step();
        assert_eq!(engine.generation(), g + 1);
    }
}

/// The shipped examples are found from any directory
/// and open read-only (no file to save over); a copy of one elsewhere is
/// still the example, and an edited one is an ordinary session.
#[test]
fn shipped_examples_open_read_only_from_anywhere() {
    let dir = tempfile::tempdir().unwrap();
    let (s, writable) = fnn_tui::session::open_session("klat2", &[dir.path().to_path_buf()]).unwrap();
    assert_eq!(s.name, "klat2");
    assert_eq!(writable, None, "an example has no file to save over");
    let copy = dir.path().join("klat2.toml");
    std::fs::write(&copy, include_str!("../../saves/klat2.toml")).unwrap();
    let (_, writable) = fnn_tui::session::open_session(copy.to_str().unwrap(), &[]).unwrap();
    assert_eq!(writable, None, "the repository's own file is never rewritten");
    let edited = include_str!("../../saves/klat2.toml").replacen("name = \"klat2\"", "name = \"mine\"", 1);
    std::fs::write(&copy, edited).unwrap();
    let (s, writable) = fnn_tui::session::open_session(copy.to_str().unwrap(), &[]).unwrap();
    assert_eq!((s.name.as_str(), writable), ("mine", Some(copy)));
    let e = fnn_tui::session::open_session("nosuch", &[]).unwrap_err().to_string();
    assert!(e.contains("shipped example (klat2, kasy0-sparse)"), "{e}");
}

/// A quick spec: `pcs` PCs of `nics` NICs on `switches`.
fn quick(pcs: usize, nics: u32, switches: &str) -> Spec {
    QuickFlags {
        pcs: Some(pcs),
        nics: Some(nics),
        switches: Some(switches.into()),
        ..Default::default()
    }
    .apply(Spec::default())
    .unwrap()
}

/// Five must-pins on a 4-NIC PC were accepted.
#[test]
fn a_pin_beyond_a_pcs_nics_is_refused_and_changes_nothing() {
    let mut r = Run::new(quick(16, 4, "16x8")).unwrap();
    for s in 0..4 {
        let done = r.apply(Edit::Pin {
            pc: 0,
            switch: s,
            pin: Some(PinKind::Must),
        });
        assert!(done.is_ok(), "{done:?}");
    }
    let e = r
        .apply(Edit::Pin {
            pc: 0,
            switch: 4,
            pin: Some(PinKind::Must),
        })
        .unwrap_err();
    assert!(e.to_string().contains("n00"), "{e}");
    assert!(!r.cluster().pins.is_must(0, 4));
    assert_eq!(r.cluster().pins.list().len(), 4);
    // The session still opens.
    let text = r.session("pins").to_toml();
    let back = Session::from_toml(&text, "pins.toml").unwrap();
    assert!(Run::resume(&back).is_ok());
}
