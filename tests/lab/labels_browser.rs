//! The wiring labels page in a real headless browser (Chromium): it
//! renders every label, and it prints on A4 and on Letter. The test
//! installs Chromium when it is missing (as root); under CI=true a missing browser
//! fails the test, elsewhere the test says it did not run.

use crate::common;

use crate::common::{Need, Source};
use fnn_tui::design::parse_table;
use fnn_tui::export::{Options, write_all};
use fnn_tui::metrics::Metrics;
use fnn_tui::report::{Report, RunInfo};
use fnn_tui::session::Session;
use std::path::{Path, PathBuf};
use std::process::Command;

fn browser() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|b| common::program(b))
}

fn run(browser: &Path, profile: &Path, args: &[String]) -> std::process::Output {
    Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .output()
        .expect("the browser runs")
}

#[test]
fn the_labels_page_renders_and_prints_on_a4_and_letter() {
    let need = [Need::Program("chromium", Source::Apt("chromium"))];
    let Some(browser) = browser() else {
        common::machine_has(
            "labels_browser::the_labels_page_renders_and_prints_on_a4_and_letter",
            &need,
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let session = Session::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("saves/klat2.toml")).unwrap();
    let (cluster, engine) = session.restore().unwrap();
    let design = engine.best_design();
    let report = Report::new(&cluster, Metrics::compute(&design, &cluster), RunInfo::default());
    let only = Options {
        only: vec!["labels".into(), "table".into()],
        ..Options::default()
    };
    write_all(d, &cluster, &design, &report, &only).unwrap();
    let table = std::fs::read_to_string(d.join("switches.txt")).unwrap();
    assert_eq!(parse_table(&table, "t", 64, 9).unwrap(), design);
    let page = d.join("labels.html");
    let url = format!("file://{}", page.display());
    let profile = d.join("profile");

    // The DOM after rendering holds every label with its NIC patches.
    let dom = run(&browser, &profile, &["--dump-dom".into(), url.clone()]);
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert_eq!(dom.matches("class=\"label\"").count(), 64, "labels rendered");
    assert_eq!(
        dom.matches("class=\"nic\"").count(),
        256 + cluster.hot_spares,
        "one patch per NIC, spares too"
    );

    // A screenshot is a real picture.
    let png = d.join("labels.png");
    run(
        &browser,
        &profile,
        &[
            "--window-size=900,1300".into(),
            format!("--screenshot={}", png.display()),
            url.clone(),
        ],
    );
    let bytes = std::fs::read(&png).expect("a screenshot");
    assert!(
        bytes.starts_with(b"\x89PNG") && bytes.len() > 20_000,
        "{} bytes",
        bytes.len()
    );

    // Printed on A4 and on Letter: the paper size applies and the labels
    // and switch sheets take a few pages.
    let html = std::fs::read_to_string(&page).unwrap();
    for (paper, width_pt) in [("A4", 595.3), ("Letter", 612.0)] {
        let variant = d.join(format!("labels-{paper}.html"));
        std::fs::write(
            &variant,
            html.replacen("<style>", &format!("<style>@page {{ size: {paper}; }}\n"), 1),
        )
        .unwrap();
        let pdf = d.join(format!("labels-{paper}.pdf"));
        run(
            &browser,
            &profile,
            &[
                "--no-pdf-header-footer".into(),
                format!("--print-to-pdf={}", pdf.display()),
                format!("file://{}", variant.display()),
            ],
        );
        let bytes = std::fs::read(&pdf).unwrap_or_else(|e| panic!("{paper}: no PDF: {e}"));
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.starts_with("%PDF"), "{paper}");
        let pages = text.matches("/Type /Page").count() - text.matches("/Type /Pages").count();
        assert!((3..=20).contains(&pages), "{paper}: {pages} pages");
        let width: f64 = text
            .split("/MediaBox [0 0 ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|w| w.parse().ok())
            .expect("a page size");
        assert!((width - width_pt).abs() < 1.0, "{paper}: page width {width} pt");
    }
}
