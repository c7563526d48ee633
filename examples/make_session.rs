//! Runs a spec for some generations and saves the session: how the example
//! sessions in `saves/` are made.
//!
//! cargo run --release --example make_session -- SPEC GENERATIONS OUT.toml NAME

use fnn_tui::ga::Limits;
use fnn_tui::run::Run;
use fnn_tui::spec::Spec;
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [spec, generations, out, name] = args.as_slice() else {
        eprintln!("usage: make_session SPEC GENERATIONS OUT.toml NAME");
        std::process::exit(2);
    };
    let spec = Spec::load(Path::new(spec)).expect("spec loads");
    let limits = Limits {
        generations: generations.parse().expect("a generation count"),
        time_limit_s: 0.0,
    };
    let mut run = Run::new(spec).expect("the spec can be searched").with_limits(limits);
    let stop = run.run(&std::sync::atomic::AtomicBool::new(false), |_| {});
    let e = run.engine();
    println!(
        "generation {}, valid {}, {}",
        e.generation(),
        e.is_valid(),
        stop.words()
    );
    run.session(name).save(Path::new(out)).expect("session saves");
}
