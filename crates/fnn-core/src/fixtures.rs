//! Worked examples the unit tests share (test builds only).

/// Seed 000's worked example for tests: eight PCs, three NICs each, six
/// 4-port switches, wired as the paper draws it (pairs share three
/// switches or one).
pub fn paper_eight() -> (crate::spec::Cluster, crate::design::Design) {
    let c = crate::spec::quick_cluster(8, 3, "4x6").unwrap();
    let d = crate::design::parse_table(
        "0: 0 1 2 3\n1: 0 1 4 5\n2: 0 1 6 7\n3: 2 3 4 5\n4: 2 3 6 7\n5: 4 5 6 7\n",
        "seed 000",
        8,
        6,
    )
    .unwrap();
    (c, d)
}

/// Says a test could not run here and why, and leaves a note where the
/// test command (`cargo test-all`, variable `FNN_TEST_SKIPS`) looks, so
/// its tally counts the test as skipped rather than passed.
pub fn not_run(test: &str, why: &str) {
    eprintln!("NOT RUN {test}: {why}");
    if let Some(notes) = std::env::var_os("FNN_TEST_SKIPS") {
        let note = std::path::Path::new(&notes).join(test.replace("::", "--"));
        crate::fs::atomic::write_atomic(note, format!("{test}: {why}\n")).expect("the skip note is written");
    }
}
