//! `fnn-tui sweep`: the narrowest switches for a range of cluster sizes,
//! written as CSV and SVG. Resumable: sizes already in DIR/sweep.csv are
//! kept and skipped; Ctrl-C writes what is finished.

use super::SweepArgs;
use super::out;
use anyhow::Context;
use fnn_tui::atomic::write_atomic;
use fnn_tui::sweep::{self, Budget, Point};
use std::collections::HashSet;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub fn run(args: &SweepArgs) -> anyhow::Result<ExitCode> {
    let pcs = sweep::parse_range(&args.pcs, "--pcs", 3)?;
    let nics = sweep::parse_range(&args.nics, "--nics", 1)?;
    fnn_tui::fs::make_dirs(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let csv_path = args.out.join("sweep.csv");
    let done = previous(&csv_path)?;
    let have: HashSet<(usize, u32)> = done.iter().map(|p| (p.pcs, p.nics)).collect();
    let todo: Vec<(usize, u32)> = nics
        .iter()
        .flat_map(|&n| pcs.iter().map(move |&p| (p, n as u32)))
        .filter(|k| !have.contains(k))
        .collect();
    let quiet = args.quiet || args.json;
    if !quiet && !done.is_empty() {
        out::errln!("resuming: {} sizes already in {}", done.len(), csv_path.display());
    }
    let budget = Budget {
        generations: args.generations,
        max_pcs: args.ga_pcs,
        seed: args.seed,
        exact_s: args.exact_budget,
    };
    let interrupted = super::exit::interrupt_flag();
    let total = done.len() + todo.len();
    let bar = super::design::progress_bar(
        !quiet,
        todo.len() as u64,
        "{elapsed_precise} [{bar:30}] {pos}/{len} sizes, eta {eta} {wide_msg}",
    );
    let results = Mutex::new((done, Instant::now()));
    let start = Instant::now();
    sweep::run(&todo, budget, args.threads, &interrupted, |p| {
        bar.inc(1);
        bar.set_message(format!(
            "{} PCs x {} NICs: {} ports (bound {})",
            p.pcs, p.nics, p.width, p.bound
        ));
        let mut guard = results.lock().expect("no panics while holding the lock");
        guard.0.push(p);
        // Saved every few seconds so an interrupted sweep loses little.
        if guard.1.elapsed() > Duration::from_secs(3) {
            let _ = save(&csv_path, &mut guard.0);
            guard.1 = Instant::now();
        }
    });
    bar.finish_and_clear();
    let mut points = results.into_inner().expect("workers finished").0;
    save(&csv_path, &mut points)?;
    let svg_path = args.out.join("sweep.svg");
    let title = "Narrowest switches for a universal FNN (solid) and the lower bound (dashed)";
    write_atomic(&svg_path, sweep::svg(&points, title).as_bytes())
        .with_context(|| format!("cannot write {}", svg_path.display()))?;
    if interrupted.load(std::sync::atomic::Ordering::Relaxed) {
        out::errln!(
            "interrupted: {} of {total} sizes done; run the same command to go on",
            points.len()
        );
    }
    if args.json {
        out::outln!("{}", serde_json::to_string_pretty(&points).expect("points serialize"))?;
    } else if !args.quiet {
        out::out!("{}", sweep::summary(&points, super::terminal_width()))?;
        out::outln!(
            "{} sizes in {:.1} s; wrote {} and {}",
            points.len(),
            start.elapsed().as_secs_f64(),
            csv_path.display(),
            svg_path.display()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn previous(path: &Path) -> anyhow::Result<Vec<Point>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = fnn_tui::input::read_text_limited(path, fnn_tui::input::MAX_PAIR_FILE_BYTES)?;
    sweep::parse_csv(&text, &fnn_tui::input::shown(path)).map_err(anyhow::Error::msg)
}

fn save(path: &Path, points: &mut [Point]) -> anyhow::Result<()> {
    points.sort_by_key(|p| (p.nics, p.pcs));
    write_atomic(path, sweep::to_csv(points).as_bytes()).with_context(|| format!("cannot write {}", path.display()))
}
