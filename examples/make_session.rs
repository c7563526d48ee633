//! Runs a spec for some generations and saves the session: how the example
//! sessions in `saves/` are made.
//!
//! cargo run --release --example make_session -- SPEC GENERATIONS OUT.toml NAME

use fnn_tui::ga::Engine;
use fnn_tui::session::Session;
use fnn_tui::spec::Spec;
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [spec, generations, out, name] = args.as_slice() else {
        eprintln!("usage: make_session SPEC GENERATIONS OUT.toml NAME");
        std::process::exit(2);
    };
    let spec = Spec::load(Path::new(spec)).expect("spec loads");
    let mut engine = Engine::new(spec.resolve().expect("spec resolves"));
    for _ in 0..generations.parse::<u64>().expect("a generation count") {
        engine.step();
    }
    println!("generation {}, valid {}", engine.generation(), engine.is_valid());
    Session::capture(name, &spec, &engine)
        .save(Path::new(out))
        .expect("session saves");
}
