//! `fnn-tui sweep`: the narrowest switches for a range of cluster sizes,
//! written as CSV and SVG. Resumable: sizes already in DIR/sweep.csv are
//! kept and skipped; Ctrl-C writes what is finished.

use super::SweepArgs;
use super::out;
use anyhow::Context;
use fnn_tui::atomic::write_atomic;
use fnn_tui::sweep::{self, Budget, Point, Settings, Shard, shards};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The sweep's settings from the command line (a resumed sweep must
/// have the same).
fn settings(args: &SweepArgs) -> anyhow::Result<Settings> {
    Ok(Settings {
        version: env!("CARGO_PKG_VERSION").to_string(),
        pcs: sweep::parse_range(&args.pcs, "--pcs", 3)?,
        nics: sweep::parse_range(&args.nics, "--nics", 1)?,
        budget: Budget {
            generations: args.generations,
            max_pcs: args.ga_pcs,
            seed: args.seed,
            exact_s: args.exact_budget,
            anneal: args.anneal,
        },
    })
}

pub fn run(args: &SweepArgs) -> anyhow::Result<ExitCode> {
    let settings = settings(args)?;
    let budget = settings.budget;
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    fnn_tui::fs::make_dirs(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    if let Some(n) = args.slurm {
        return super::sweep_slurm::write(args, n as usize);
    }
    let csv_path = args.out.join("sweep.csv");
    if !args.merge.is_empty() {
        return merge(args, &settings, previous(&csv_path)?, &csv_path);
    }
    let file = match shard {
        Some(s) => Output::Shard(s, &settings, args.out.join(s.file_name())),
        None => Output::Sweep(csv_path),
    };
    let done = match &file {
        Output::Shard(_, _, path) => previous_shard(path, &settings)?,
        Output::Sweep(path) => previous(path)?,
    };
    let csv_path = file.path().to_path_buf();
    let have: HashSet<(usize, u32)> = done.iter().map(|p| (p.pcs, p.nics)).collect();
    let cells = match shard {
        Some(s) => s.cells(&settings.cells(), budget),
        None => settings.cells(),
    };
    let todo: Vec<(usize, u32)> = cells.into_iter().filter(|k| !have.contains(k)).collect();
    let quiet = args.quiet || args.json;
    if !quiet && !done.is_empty() {
        out::errln!("resuming: {} sizes already in {}", done.len(), csv_path.display());
    }
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
            let _ = file.save(&mut guard.0);
            guard.1 = Instant::now();
        }
    });
    bar.finish_and_clear();
    let mut points = results.into_inner().expect("workers finished").0;
    file.save(&mut points)?;
    if shard.is_some() {
        return finish_shard(args, &points, &csv_path, &interrupted);
    }
    finish(args, &points, &csv_path, &interrupted, total, start)
}

/// The whole sweep's SVG and the summary (or JSON) of what was found.
fn finish(
    args: &SweepArgs,
    points: &[Point],
    csv_path: &Path,
    interrupted: &std::sync::atomic::AtomicBool,
    total: usize,
    start: Instant,
) -> anyhow::Result<ExitCode> {
    let svg_path = args.out.join("sweep.svg");
    let title = "Narrowest switches for a universal FNN (solid) and the lower bound (dashed)";
    write_atomic(&svg_path, sweep::svg(points, title).as_bytes())
        .with_context(|| format!("cannot write {}", svg_path.display()))?;
    if interrupted.load(std::sync::atomic::Ordering::Relaxed) {
        out::errln!(
            "interrupted: {} of {total} sizes done; run the same command to go on",
            points.len()
        );
    } else if let Some(path) = &args.atlas {
        super::sweep_atlas::write(path, points, &settings(args)?)?;
    }
    atlas_news(points, args.quiet || args.json)?;
    if args.json {
        out::outln!("{}", serde_json::to_string_pretty(points).expect("points serialize"))?;
    } else if !args.quiet {
        out::out!("{}", sweep::summary(points, super::terminal_width()))?;
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
    save_with(path, "", points)
}

fn save_with(path: &Path, head: &str, points: &mut [Point]) -> anyhow::Result<()> {
    points.sort_by_key(|p| (p.nics, p.pcs));
    let text = format!("{head}{}", sweep::to_csv(points));
    write_atomic(path, text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))
}

/// Where a sweep's rows go: the sweep's CSV, or a shard's file headed by
/// the settings line the merge checks.
enum Output<'a> {
    Sweep(PathBuf),
    Shard(Shard, &'a Settings, PathBuf),
}

impl Output<'_> {
    fn path(&self) -> &Path {
        match self {
            Output::Sweep(p) | Output::Shard(_, _, p) => p,
        }
    }

    fn save(&self, points: &mut [Point]) -> anyhow::Result<()> {
        match self {
            Output::Sweep(p) => save(p, points),
            Output::Shard(s, settings, p) => save_with(p, &settings.line(*s), points),
        }
    }
}

/// A shard file already there, to resume; one of other settings is refused.
fn previous_shard(path: &Path, settings: &Settings) -> anyhow::Result<Vec<Point>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = fnn_tui::input::read_text_limited(path, fnn_tui::input::MAX_PAIR_FILE_BYTES)?;
    shards::read(&text, &fnn_tui::input::shown(path), settings).map_err(anyhow::Error::msg)
}

fn finish_shard(
    args: &SweepArgs,
    points: &[Point],
    path: &Path,
    interrupted: &std::sync::atomic::AtomicBool,
) -> anyhow::Result<ExitCode> {
    if interrupted.load(std::sync::atomic::Ordering::Relaxed) {
        out::errln!("interrupted: run the same command to go on");
    }
    if args.json {
        out::outln!("{}", serde_json::to_string_pretty(points).expect("points serialize"))?;
    } else if !args.quiet {
        out::outln!("{} sizes; wrote {}", points.len(), path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Merges shard files into the sweep's CSV (rows already there stay), then
/// writes the SVG and the summary as a sweep does.
fn merge(args: &SweepArgs, settings: &Settings, mut points: Vec<Point>, csv_path: &Path) -> anyhow::Result<ExitCode> {
    for file in &args.merge {
        let text = fnn_tui::input::read_text_limited(file, fnn_tui::input::MAX_PAIR_FILE_BYTES)?;
        let rows = shards::read(&text, &fnn_tui::input::shown(file), settings).map_err(anyhow::Error::msg)?;
        shards::merge(&mut points, rows);
    }
    save(csv_path, &mut points)?;
    let svg_path = args.out.join("sweep.svg");
    let title = "Narrowest switches for a universal FNN (solid) and the lower bound (dashed)";
    write_atomic(&svg_path, sweep::svg(&points, title).as_bytes())
        .with_context(|| format!("cannot write {}", svg_path.display()))?;
    let have: HashSet<(usize, u32)> = points.iter().map(|p| (p.pcs, p.nics)).collect();
    let missing = settings.cells().iter().filter(|c| !have.contains(c)).count();
    if missing > 0 {
        out::errln!("{missing} sizes of the range are in no shard merged yet: merge the missing shards");
    } else if let Some(path) = &args.atlas {
        super::sweep_atlas::write(path, &points, settings)?;
    }
    atlas_news(&points, args.quiet || args.json)?;
    if args.json {
        out::outln!("{}", serde_json::to_string_pretty(&points).expect("points serialize"))?;
    } else if !args.quiet {
        out::out!("{}", sweep::summary(&points, super::terminal_width()))?;
        out::outln!(
            "{} sizes; wrote {} and {}",
            points.len(),
            csv_path.display(),
            svg_path.display()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// How the sweep stands against the shipped atlas: the sizes it found
/// narrower (news worth folding in with `--atlas`) and those the atlas
/// knows narrower (a longer search, or another method, did better).
fn atlas_news(points: &[Point], quiet: bool) -> anyhow::Result<()> {
    if quiet {
        return Ok(());
    }
    let (mut narrower, mut wider) = (Vec::new(), Vec::new());
    for p in points {
        match fnn_tui::atlas::lookup(p.pcs, p.nics) {
            Some(c) if p.width < c.width => narrower.push(format!("{}x{}", p.pcs, p.nics)),
            Some(c) if p.width > c.width => wider.push(format!("{}x{} ({})", p.pcs, p.nics, c.words())),
            _ => {}
        }
    }
    let known = points
        .iter()
        .filter(|p| fnn_tui::atlas::lookup(p.pcs, p.nics).is_some())
        .count();
    out::outln!(
        "atlas: {known} of these sizes in the shipped atlas; {} narrower here, {} narrower in the atlas",
        narrower.len(),
        wider.len()
    )?;
    if !narrower.is_empty() {
        out::outln!("  narrower here (fold them in with --atlas): {}", narrower.join(", "))?;
    }
    for w in wider.iter().take(5) {
        out::outln!("  narrower in the atlas: {w}")?;
    }
    Ok(())
}
