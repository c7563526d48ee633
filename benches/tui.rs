//! The designer's speed: frame time at 64 and 1024 PCs,
//! key-to-screen latency through the real event loop while the GA worker
//! runs flat out, and the worker's own pace: generations a second with the
//! watch pace off (as fast as the search goes, which the watch pace must
//! not slow).
//!
//!     cargo bench --bench tui

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use fnn_tui::ga::Engine;
use fnn_tui::run::Run;
use fnn_tui::spec::{QuickFlags, Spec};
use fnn_tui::tui::app::App;
use fnn_tui::tui::keymap::Keymap;
use fnn_tui::tui::theme::Theme;
use fnn_tui::tui::worker::{Event, Worker, snapshot};
use fnn_tui::tui::{event_loop, ui};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event as CtEvent, KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use std::time::{Duration, Instant};

/// Workloads that keep the worker busy: KLAT2 with its row/column
/// pattern, and 1024 PCs on 128 switches with 3D-torus traffic (sparse).
fn spec(label: &str) -> Spec {
    let mut s = match label {
        "64" => Spec::klat2(),
        _ => {
            let flags = QuickFlags {
                pcs: Some(1024),
                nics: Some(5),
                switches: Some("40x128".into()),
                sparse: true,
                ..Default::default()
            };
            let mut s = flags.apply(Spec::default()).unwrap();
            s.patterns.push(fnn_tui::spec::PatternSpec::Grid {
                dims: vec![16, 8, 8],
                torus: true,
                weight: 1.0,
            });
            s
        }
    };
    s.ga.scale_down = false;
    s.ga.generations = u64::MAX / 2;
    s
}

const SIZES: &[&str] = &["64", "1024x128sw"];

fn frame_time(c: &mut Criterion) {
    let mut group = c.benchmark_group("frame");
    for &label in SIZES {
        let s = spec(label);
        let pcs = s.pcs.count;
        let mut engine = Engine::new(s.resolve().unwrap());
        engine.step();
        let mut app = App::new(s, label.into(), None, Keymap::default(), Theme::colored());
        app.size = Rect::new(0, 0, 200, 60);
        let run = Run::of_engine(Spec::default(), engine);
        let _ = app.on_event(Event::Snapshot(Box::new(snapshot(&run, 0, true, 0.0, Duration::ZERO))));
        // Put the cursor mid-grid so the detail line does its full work.
        app.cursor = (pcs / 2, 3);
        app.scroll_grid();
        let mut terminal = Terminal::new(TestBackend::new(200, 60)).unwrap();
        group.bench_function(BenchmarkId::from_parameter(label), |b| {
            b.iter(|| terminal.draw(|f| ui::render(&app, f)).unwrap().area)
        });
    }
    group.finish();
}

/// Time from a key arriving on the input channel to the end of the frame
/// that shows its effect, while the worker steps the GA without pause.
fn key_latency(c: &mut Criterion) {
    let mut group = c.benchmark_group("key_to_screen");
    group.sample_size(20);
    for &label in SIZES {
        let s = spec(label);
        let engine = Engine::new(s.resolve().unwrap());
        let worker = Worker::spawn(
            fnn_tui::run::Run::of_engine(s.clone(), engine),
            label.into(),
            true,
            None,
        );
        let (key_tx, key_rx) = crossbeam_channel::unbounded();
        let (frame_tx, frame_rx) = crossbeam_channel::unbounded::<(Instant, u64)>();
        let mut app = App::new(s, label.into(), None, Keymap::default(), Theme::colored());
        let handle = std::thread::spawn(move || {
            let mut terminal = Terminal::new(TestBackend::new(200, 60)).unwrap();
            let _ = event_loop(
                &mut terminal,
                &mut app,
                &worker.tx,
                &worker.rx,
                &key_rx,
                Some(&frame_tx),
            );
        });
        // Let the worker get going.
        std::thread::sleep(Duration::from_millis(300));
        let mut sent_keys = 0u64;
        group.bench_function(BenchmarkId::from_parameter(label), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    sent_keys += 1;
                    let code = if sent_keys.is_multiple_of(2) {
                        KeyCode::Down
                    } else {
                        KeyCode::Up
                    };
                    let sent = Instant::now();
                    key_tx
                        .send(CtEvent::Key(KeyEvent::new(code, KeyModifiers::NONE)))
                        .unwrap();
                    // The first frame that reflects this key.
                    loop {
                        let (done, handled) = frame_rx.recv().unwrap();
                        if handled >= sent_keys {
                            total += done - sent;
                            break;
                        }
                    }
                }
                total
            })
        });
        key_tx
            .send(CtEvent::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)))
            .unwrap();
        handle.join().unwrap();
    }
    group.finish();
}

/// Generations the worker runs in one measurement, per workload.
fn worker_generations(label: &str) -> u64 {
    if label == "64" { 400 } else { 100 }
}

/// The designer's worker running flat out (the watch pace off): wall time
/// from spawn to the first snapshot at `worker_generations`, scaled to
/// exactly that many generations (snapshots come every 40 ms, so the one
/// seen may be a few generations past). The designer's run has no
/// generation limit, so the count is read off the snapshots.
fn worker_pace(c: &mut Criterion) {
    let mut group = c.benchmark_group("worker_generations");
    group.sample_size(10);
    for &label in SIZES {
        let mut s = spec(label);
        s.ga.stall_generations = 0;
        s.ga.polish_generations = u64::MAX / 2;
        let n = worker_generations(label);
        group.bench_function(BenchmarkId::from_parameter(label), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let run = fnn_tui::run::Run::new(s.clone()).unwrap();
                    let start = Instant::now();
                    let worker = Worker::spawn(run, label.into(), true, None);
                    let reached = loop {
                        if let Event::Snapshot(snap) = worker.rx.recv().unwrap()
                            && (snap.generation >= n || !snap.running)
                        {
                            break snap.generation.max(1);
                        }
                    };
                    total += start.elapsed().mul_f64(n as f64 / reached as f64);
                    drop(worker);
                }
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, frame_time, key_latency, worker_pace);
criterion_main!(benches);
