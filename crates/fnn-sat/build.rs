//! Compiles CaDiCaL (`vendor/cadical`, MIT), the exact mode's SAT solver,
//! with the C and C++ compilers the `cc` crate finds: a build needs no
//! libclang, no bindgen and no download.
//!
//! Cargo runs this script once for each way the workspace is built
//! (clippy, `cargo check -p fnn-core`, the tests, the release binary: each
//! resolves the build dependencies' features its own way), and CaDiCaL is
//! most of a fresh build's C++. The libraries are the same every time, so
//! the first build keeps them in the target folder under a key of
//! everything that makes them (the sources, the compiler and its flags),
//! and the others take them from there.

use std::path::{Path, PathBuf};

fn main() {
    let dir = Path::new("vendor/cadical");
    let src = dir.join("src");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", dir.display());
    let version = std::fs::read_to_string(dir.join("VERSION")).expect("vendor/cadical/VERSION");
    let version = format!("\"{}\"", version.trim());
    let (cpp, c) = sources(&src);
    let (solver, kitten) = builds(&src, &version, &cpp, &c);
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let key = key(&solver, &kitten, &src);
    let kept = shelf(&out).map(|s| s.join(format!("cadical-{key:016x}")));
    if !kept.as_deref().is_some_and(|k| take(k, &out)) {
        solver.compile("cadical");
        kitten.compile("kitten");
        if let Some(k) = &kept {
            keep(&out, k);
        }
    }
    link(&out);
}

/// The C++ and C sources, sorted: the same objects on every machine,
/// whatever order the folder lists.
fn sources(src: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut cpp: Vec<PathBuf> = Vec::new();
    let mut c: Vec<PathBuf> = Vec::new();
    for entry in std::fs::read_dir(src).expect("vendor/cadical/src") {
        let path = entry.expect("a source file").path();
        match path.extension().and_then(|e| e.to_str()) {
            Some("cpp") => cpp.push(path),
            Some("c") => c.push(path),
            _ => {}
        }
    }
    cpp.sort();
    c.sort();
    (cpp, c)
}

/// The solver (C++) and Kitten, its sub-solver (C), as CaDiCaL's own
/// `configure --quiet --no-contracts --no-tracing` would build them, with
/// the version given here instead of a generated build.hpp, and without
/// the two POSIX extras older C libraries lack. `link` says how to link
/// them, the same whether they were compiled now or kept.
fn builds(src: &Path, version: &str, cpp: &[PathBuf], c: &[PathBuf]) -> (cc::Build, cc::Build) {
    let flags = |b: &mut cc::Build| {
        b.opt_level(3)
            .debug(false)
            .warnings(false)
            .cargo_metadata(false)
            .define("NDEBUG", None)
            .define("NCONTRACTS", None)
            .define("NTRACING", None)
            .define("QUIET", None)
            .define("NUNLOCKED", None)
            .define("NCLOSEFROM", None)
            .include(src);
    };
    let mut solver = cc::Build::new();
    flags(&mut solver);
    solver
        .cpp(true)
        .std("c++11")
        .define("NBUILD", None)
        .define("VERSION", version)
        .files(cpp);
    let mut kitten = cc::Build::new();
    flags(&mut kitten);
    kitten.std("c99").files(c);
    (solver, kitten)
}

/// What makes the libraries: every file of the sources' folder, and each
/// compiler's command line and `--version`. FNV-1a, the same in every Rust.
fn key(solver: &cc::Build, kitten: &cc::Build, src: &Path) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            hash = (hash ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
        hash = (hash ^ 0xff).wrapping_mul(0x0100_0000_01b3);
    };
    for build in [solver, kitten] {
        let tool = build.get_compiler();
        // The program and its flags, not the environment (which names
        // OUT_DIR and the profile's own settings).
        eat(tool.path().as_os_str().as_encoded_bytes());
        for arg in tool.args() {
            eat(arg.as_encoded_bytes());
        }
        let version = std::process::Command::new(tool.path()).arg("--version").output();
        eat(&version.map(|o| o.stdout).unwrap_or_default());
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(src)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    for f in files {
        eat(f.to_string_lossy().as_bytes());
        eat(&std::fs::read(f).unwrap_or_default());
    }
    hash
}

/// The folder the kept libraries go in: the target folder, found from
/// `OUT_DIR` (`TARGET/[TRIPLE/]PROFILE/build/fnn-sat-HASH/out`), so one
/// is shared by every profile. None when the layout is not that one:
/// then nothing is kept and CaDiCaL is compiled every time.
fn shelf(out: &Path) -> Option<PathBuf> {
    let build = out.ancestors().nth(2)?;
    (build.file_name()? == "build").then(|| out.ancestors().nth(4).map(Path::to_path_buf))?
}

const LIBRARIES: [&str; 2] = ["libcadical.a", "libkitten.a"];

/// Copies the kept libraries into `out`; false when they are not kept.
fn take(kept: &Path, out: &Path) -> bool {
    LIBRARIES.iter().all(|l| kept.join(l).is_file())
        && LIBRARIES
            .iter()
            .all(|l| std::fs::copy(kept.join(l), out.join(l)).is_ok())
}

/// Keeps the libraries just compiled: copied into a folder made
/// exclusively under a random name beside the kept ones, renamed into
/// place whole, so another build never takes half. Failing to keep them
/// costs only a compile next time.
fn keep(out: &Path, kept: &Path) {
    let (Some(shelf), Some(name)) = (kept.parent(), kept.file_name()) else {
        return;
    };
    let prefix = format!("{}.part-", name.to_string_lossy());
    let Ok(staging) = tempfile::Builder::new().prefix(&prefix).tempdir_in(shelf) else {
        return;
    };
    let copied = LIBRARIES
        .iter()
        .all(|l| std::fs::copy(out.join(l), staging.path().join(l)).is_ok());
    if copied {
        // On success the folder is the kept one; on failure (another
        // build kept them first) the staging folder is dropped.
        let _ = std::fs::rename(staging.path(), kept);
    }
}

/// The solver first, then Kitten, which it calls, then the C++ library.
fn link(out: &Path) {
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static=cadical");
    println!("cargo:rustc-link-lib=static=kitten");
    if let Some(lib) = cpp_library() {
        println!("cargo:rustc-link-lib={lib}");
    }
}

/// The C++ standard library to link, as the `cc` crate picks it: `CXXSTDLIB`
/// when set (empty: none), else libc++ on Apple and the BSDs, libstdc++
/// elsewhere.
fn cpp_library() -> Option<String> {
    for var in ["CC", "CXX", "CFLAGS", "CXXFLAGS", "CXXSTDLIB"] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    if let Ok(lib) = std::env::var("CXXSTDLIB") {
        return (!lib.is_empty()).then_some(lib);
    }
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let vendor = std::env::var("CARGO_CFG_TARGET_VENDOR").unwrap_or_default();
    let bsd = vendor == "apple" || ["freebsd", "openbsd", "netbsd"].contains(&os.as_str());
    Some(if bsd { "c++" } else { "stdc++" }.into())
}
