//! Compiles CaDiCaL (`vendor/cadical`, MIT), the exact mode's SAT solver,
//! with the C and C++ compilers the `cc` crate finds: a build needs no
//! libclang, no bindgen and no download.

use std::path::{Path, PathBuf};

fn main() {
    let dir = Path::new("vendor/cadical");
    let src = dir.join("src");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", dir.display());
    let version = std::fs::read_to_string(dir.join("VERSION")).expect("vendor/cadical/VERSION");
    let version = format!("\"{}\"", version.trim());
    let mut cpp: Vec<PathBuf> = Vec::new();
    let mut c: Vec<PathBuf> = Vec::new();
    for entry in std::fs::read_dir(&src).expect("vendor/cadical/src") {
        let path = entry.expect("a source file").path();
        match path.extension().and_then(|e| e.to_str()) {
            Some("cpp") => cpp.push(path),
            Some("c") => c.push(path),
            _ => {}
        }
    }
    // The same objects on every machine, whatever order the folder lists.
    cpp.sort();
    c.sort();
    // As CaDiCaL's own `configure --quiet --no-contracts --no-tracing`
    // would build it, with the version given here instead of a generated
    // build.hpp, and without the two POSIX extras older C libraries lack.
    let flags = |b: &mut cc::Build| {
        b.opt_level(3)
            .debug(false)
            .warnings(false)
            .define("NDEBUG", None)
            .define("NCONTRACTS", None)
            .define("NTRACING", None)
            .define("QUIET", None)
            .define("NUNLOCKED", None)
            .define("NCLOSEFROM", None)
            .include(&src);
    };
    let mut solver = cc::Build::new();
    flags(&mut solver);
    solver
        .cpp(true)
        .std("c++11")
        .define("NBUILD", None)
        .define("VERSION", version.as_str())
        .files(&cpp)
        .compile("cadical");
    // Kitten, CaDiCaL's sub-solver, is C; linked after the solver that
    // calls it.
    let mut kitten = cc::Build::new();
    flags(&mut kitten);
    kitten.std("c99").files(&c).compile("kitten");
}
