//! What the checks require of the workspace's dependency metadata.

/// What the core may not depend on: a terminal library, the builder's
/// outputs, the lab or the front ends. `tree` is `cargo tree --prefix none`
/// of fnn-core; the first offence, if any.
pub fn forbidden_in_core(tree: &str) -> Option<String> {
    if !tree.contains("rayon ") {
        return Some(format!("not a dependency tree:\n{tree}"));
    }
    let banned = [
        "ratatui ",
        "crossterm ",
        "tui-input ",
        "fnn-lab ",
        "fnn-export ",
        "fnn-tui ",
    ];
    banned
        .iter()
        .find(|b| tree.lines().any(|l| l.starts_with(*b)))
        .map(|b| format!("the core depends on {}:\n{tree}", b.trim()))
}

/// `1.88` and `1.88.0` alike: (major, minor, patch).
fn version(v: &str) -> [u32; 3] {
    let mut parts = v.split('.').map(|p| p.parse().unwrap_or(0));
    [0; 3].map(|_| parts.next().unwrap_or(0))
}

/// The packages in the resolved graph that need a newer Rust than the
/// workspace declares, from `cargo metadata`'s JSON.
pub fn newer_than_declared(meta: &serde_json::Value) -> Option<String> {
    let ours = env!("CARGO_PKG_RUST_VERSION");
    if ours.is_empty() {
        return Some("Cargo.toml declares no rust-version".into());
    }
    let nodes = meta["resolve"]["nodes"].as_array()?;
    let used: std::collections::HashSet<&str> = nodes.iter().filter_map(|n| n["id"].as_str()).collect();
    let newer: Vec<String> = meta["packages"]
        .as_array()?
        .iter()
        .filter(|p| p["id"].as_str().is_some_and(|id| used.contains(id)))
        .filter_map(|p| {
            let needs = p["rust_version"].as_str()?;
            (version(needs) > version(ours)).then(|| format!("{} {} needs {needs}", p["name"], p["version"]))
        })
        .collect();
    (!newer.is_empty()).then(|| format!("rust-version = {ours}, but: {newer:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_terminal_library_under_the_core_is_named() {
        let tree = "fnn-core v0.1.0\nrayon v1.12.0\nratatui v0.30.0\n";
        assert!(forbidden_in_core(tree).is_some_and(|w| w.contains("ratatui")));
        assert_eq!(forbidden_in_core("fnn-core v0.1.0\nrayon v1.12.0\n"), None);
    }

    #[test]
    fn a_dependency_needing_a_newer_rust_is_named() {
        let meta = serde_json::json!({
            "resolve": {"nodes": [{"id": "a"}, {"id": "b"}]},
            "packages": [
                {"id": "a", "name": "old", "version": "1.0.0", "rust_version": "1.60"},
                {"id": "b", "name": "new", "version": "2.0.0", "rust_version": "9.0"},
            ]
        });
        let said = newer_than_declared(&meta).unwrap();
        assert!(said.contains("new") && !said.contains("old"), "{said}");
    }
}
