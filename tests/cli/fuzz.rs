//! A fuzz suite in `cargo test`. Every reader of user input gets
//! mutated versions of real inputs (bytes inserted, deleted, replaced,
//! lines duplicated or cut) and random text: it must return Ok or an
//! error, never panic, and never build something unbounded (the limits in
//! `spec`, `design::table` and `input` bound every allocation).
//!
//! `FNN_FUZZ_CASES` sets the cases per reader (256 here; BENCHMARKS.md
//! records a longer run).

use fnn_tui::design::{format_table, parse_table};
use fnn_tui::hardware::PriceList;
use fnn_tui::routing::{Interfaces, MacTable};
use fnn_tui::session::Session;
use fnn_tui::spec::parse_pairs;
use fnn_tui::spec::{Spec, check_feasible};
use proptest::prelude::*;
use std::sync::OnceLock;

fn cases() -> u32 {
    std::env::var("FNN_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

/// One edit of a text's bytes.
#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, u8),
    Delete(usize),
    Replace(usize, u8),
    DuplicateLine(usize),
    CutAt(usize),
    Splice(usize, &'static str),
}

/// Tokens that matter to the formats: quotes, brackets, separators, huge
/// and odd numbers, control characters.
const TOKENS: &[&str] = &[
    "\"",
    "'",
    "[",
    "]",
    "[[",
    "]]",
    "{",
    "}",
    "=",
    ",",
    ":",
    "#",
    "\n",
    "\r\n",
    "\0",
    "\u{7f}",
    "-1",
    "1e308",
    "18446744073709551616",
    "99999999",
    "nan",
    "inf",
    "0x10",
    "true",
    "é",
    "\\",
    "..",
    "/",
];

fn edit() -> impl Strategy<Value = Edit> {
    let byte = prop_oneof![any::<u8>(), prop::sample::select(b"0123456789 \n\"[]{}=,:#.-".to_vec())];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), byte).prop_map(|(i, b)| Edit::Replace(i, b)),
        any::<usize>().prop_map(Edit::DuplicateLine),
        any::<usize>().prop_map(Edit::CutAt),
        (any::<usize>(), prop::sample::select(TOKENS)).prop_map(|(i, t)| Edit::Splice(i, t)),
    ]
}

fn mutate(base: &str, edits: &[Edit]) -> String {
    let mut b = base.as_bytes().to_vec();
    for e in edits {
        let at = |i: usize, len: usize| if len == 0 { 0 } else { i % (len + 1) };
        match *e {
            Edit::Insert(i, x) => {
                let i = at(i, b.len());
                b.insert(i, x)
            }
            Edit::Delete(i) if !b.is_empty() => {
                let i = i % b.len();
                b.remove(i);
            }
            Edit::Replace(i, x) if !b.is_empty() => {
                let i = i % b.len();
                b[i] = x
            }
            Edit::DuplicateLine(i) => {
                let text = String::from_utf8_lossy(&b).into_owned();
                let lines: Vec<&str> = text.lines().collect();
                if !lines.is_empty() {
                    let k = i % lines.len();
                    let mut out: Vec<&str> = lines.clone();
                    out.insert(k, lines[k]);
                    b = out.join("\n").into_bytes();
                }
            }
            Edit::CutAt(i) => {
                let i = at(i, b.len());
                b.truncate(i)
            }
            Edit::Splice(i, t) => {
                let i = at(i, b.len());
                b.splice(i..i, t.bytes());
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

fn mutated(base: &'static str) -> impl Strategy<Value = String> {
    prop::collection::vec(edit(), 1..12).prop_map(move |e| mutate(base, &e))
}

fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![".{0,200}", "[0-9 :,#\n\\-]{0,200}"]
}

const KLAT2: &str = include_str!("../../assets/specs/klat2.toml");
const TORUS: &str = include_str!("../../assets/specs/torus-sparse.toml");
const PRICES: &str = include_str!("../../assets/prices/fast-ethernet.toml");
const TABLE: &str = "0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n# a comment\n3: 6, 7\n";
const PAIRS: &str = "0 1\n1 2 0.5\n# comment\n2,3\n7 0 2\n";
const MACS: &str = "0 eth0 00:11:22:33:44:55\nk01 eth1 00:11:22:33:44:56\n# x\n2 1 aa:bb:cc:dd:ee:ff\n";
const SWEEP: &str = "nics,pcs,width,bound,switches,source\n2,9,6,6,3,construction\n3,16,8,7,6,ga\n";

/// A small session to mutate: 8 PCs, a few generations.
fn session_text() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let mut spec = fnn_tui::spec::QuickFlags {
            pcs: Some(8),
            nics: Some(3),
            switches: Some("8x4".into()),
            ..Default::default()
        }
        .apply(Spec::default())
        .unwrap();
        spec.ga.population = 12;
        spec.ga.keep = 4;
        spec.ga.cross = 4;
        spec.ga.fudge = 1;
        let mut e = fnn_tui::ga::Engine::new(spec.resolve().unwrap());
        for _ in 0..3 {
            e.step();
        }
        Session::capture("fuzz", &spec, &e).to_toml()
    })
}

/// A spec that parsed is resolved and checked; a small one is also run.
fn exercise_spec(text: &str) {
    let Ok(spec) = Spec::from_toml(text, "fuzz.toml") else {
        return;
    };
    let Ok(c) = spec.resolve() else { return };
    if check_feasible(&c).is_ok() && c.pcs() <= 64 && c.ga.population <= 400 {
        let mut c = c;
        c.ga.threads = 1;
        let mut e = fnn_tui::ga::Engine::new(c);
        e.step();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn specs(text in prop_oneof![mutated(KLAT2), mutated(TORUS), any_text()]) {
        exercise_spec(&text);
    }

    #[test]
    fn tables(text in prop_oneof![mutated(TABLE), any_text()], pcs in 0usize..70, switches in 0usize..20) {
        if let Ok(d) = parse_table(&text, "fuzz.txt", pcs, switches) {
            let back = parse_table(&format_table(&d), "again", d.pcs(), d.switches()).unwrap();
            prop_assert_eq!(back, d);
        }
    }

    #[test]
    fn pair_files(text in prop_oneof![mutated(PAIRS), any_text()], pcs in 1usize..64) {
        if let Ok(pairs) = parse_pairs(&text, pcs, "fuzz.txt") {
            prop_assert!(pairs.iter().all(|&(a, b, w)| a < pcs && b < pcs && w >= 0.0));
        }
    }

    #[test]
    fn mac_files(text in prop_oneof![mutated(MACS), any_text()], order in prop_oneof![Just("1,2,3".to_string()), mutated("1,2,3,4")]) {
        let ifaces = Interfaces::parse(&order).unwrap_or(Interfaces { probe_order: vec![1, 2, 3] });
        let names = |s: &str| s.strip_prefix('k').and_then(|n| n.parse().ok());
        let _ = MacTable::parse(&text, "macs.txt", &names, &ifaces);
    }

    #[test]
    fn price_lists(text in prop_oneof![mutated(PRICES), any_text()]) {
        let _ = PriceList::from_toml(&text, "prices.toml");
    }

    #[test]
    fn sweep_csvs(text in prop_oneof![mutated(SWEEP), any_text()]) {
        let _ = fnn_tui::sweep::parse_csv(&text, "sweep.csv");
    }

    #[test]
    fn sessions(edits in prop::collection::vec(edit(), 1..8)) {
        let text = mutate(session_text(), &edits);
        if let Ok(s) = Session::from_toml(&text, "fuzz-session.toml")
            && let Ok((_, mut e)) = s.restore() {
                e.step();
            }
    }
}
