//! The declared `rust-version` is honest: no dependency in Cargo.lock asks
//! for a newer Rust (clippy's `incompatible_msrv` lint, run by
//! `tests/lints.rs`, holds the crate's own use of the standard library to it).

/// `1.88` and `1.88.0` alike: (major, minor, patch).
fn version(v: &str) -> [u32; 3] {
    let mut parts = v.split('.').map(|p| p.parse().unwrap_or(0));
    [0; 3].map(|_| parts.next().unwrap_or(0))
}

#[test]
fn no_dependency_needs_a_newer_rust_than_the_declared_one() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--manifest-path"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ours = env!("CARGO_PKG_RUST_VERSION");
    assert!(!ours.is_empty(), "Cargo.toml declares a rust-version");
    let used: std::collections::HashSet<&str> = meta["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["id"].as_str())
        .collect();
    let newer: Vec<String> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["id"].as_str().is_some_and(|id| used.contains(id)))
        .filter_map(|p| {
            let needs = p["rust_version"].as_str()?;
            (version(needs) > version(ours)).then(|| format!("{} {} needs {needs}", p["name"], p["version"]))
        })
        .collect();
    assert!(newer.is_empty(), "rust-version = {ours}, but: {newer:?}");
}
