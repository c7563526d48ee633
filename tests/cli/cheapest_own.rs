//! `fnn-tui cheapest` tries the spec's own hardware first and prices it as
//! every candidate: the answer never costs more than the hardware the
//! spec already names when that hardware has a valid design.

use crate::common;
use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

fn cheapest(args: &[&str], out: &Path) -> Value {
    let run = Command::cargo_bin("fnn-tui")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("cheapest")
        .args(args)
        .arg("--json")
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    let stdout = String::from_utf8(run.stdout).unwrap();
    assert!(run.status.success(), "{stdout}{}", String::from_utf8_lossy(&run.stderr));
    serde_json::from_str(&stdout).unwrap()
}

/// The answer's cost and the spec's own hardware's, as the JSON gives them.
fn costs(v: &Value) -> (f64, f64) {
    (
        v["cost"]["total"].as_f64().unwrap(),
        v["spec_own_hardware_cost"]
            .as_f64()
            .expect("the spec's own hardware is priced"),
    )
}

#[test]
fn the_shipped_kasy0_spec_costs_no_more_than_its_own_hardware() {
    let dir = tempfile::tempdir().unwrap();
    let v = cheapest(&["assets/specs/kasy0-sparse.toml", "--min-nics", "4"], dir.path());
    let (answer, own) = costs(&v);
    assert!(
        answer <= own + 1e-9,
        "cheapest answers {answer:.2}, the spec's own hardware costs {own:.2}"
    );
    // Its own 24-port model is on the built-in list: priced at the list's
    // 290.00 with the list's NICs (8.50) and cables (2.25), as the answer is.
    assert_eq!(own, 22.0 * 290.0 + 512.0 * (8.5 + 2.25));
    let candidates = std::fs::read_to_string(dir.path().join("candidates.csv")).unwrap();
    assert!(
        candidates.contains("4,the spec's own: 24-port Fast Ethernet as needed,22,11884.00,false,\"valid"),
        "{candidates}"
    );
}

#[test]
fn a_spec_mixing_models_off_the_list_is_a_candidate_at_its_own_prices() {
    // 8 PCs with 3 NICs: the list's best is six 4-port "four" switches
    // (6 x 10 + 24 NICs = 84); the spec's own hardware is five 4-port
    // "used" switches at 5 and one "four" (the list's 10): 5 x 5 + 10 + 24.
    let dir = tempfile::tempdir().unwrap();
    let (spec, prices) = common::eight_pcs_priced(
        dir.path(),
        "[[switches]]\nmodel = \"used\"\nports = 4\ncount = 5\nprice = 5.0\n\
         [[switches]]\nmodel = \"four\"\nports = 4\ncount = 1\nprice = 99.0\n",
    );
    let out = dir.path().join("out");
    let v = cheapest(&[spec.to_str().unwrap(), "--prices", prices.to_str().unwrap()], &out);
    let (answer, own) = costs(&v);
    assert_eq!(own, 5.0 * 5.0 + 10.0 + 24.0);
    assert!(
        answer <= own + 1e-9,
        "cheapest answers {answer:.2}, the spec's own hardware costs {own:.2}"
    );
    // Every switch of the answer is the cheapest 4-port model: "used".
    assert_eq!(answer, 6.0 * 5.0 + 24.0, "{v:#}");
    let text = std::fs::read_to_string(out.join("spec.toml")).unwrap();
    assert!(
        text.contains("model = \"used\"") && text.contains("count = 6"),
        "{text}"
    );
}

/// `design` prices KASY0's own switches at the spec's `price = 95`;
/// `cheapest` compares at the list's 290. The text names both figures and
/// which prices each used, so the two commands do not seem to disagree.
#[test]
fn the_summary_says_which_prices_the_spec_own_hardware_was_compared_at() {
    let dir = tempfile::tempdir().unwrap();
    let run = Command::cargo_bin("fnn-tui")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["cheapest", "assets/specs/kasy0-sparse.toml", "--min-nics", "4", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8(run.stdout).unwrap();
    assert!(run.status.success(), "{text}{}", String::from_utf8_lossy(&run.stderr));
    assert!(
        text.contains(
            "spec's own hardware  11884.00 at the built-in price list's prices, as every candidate: \
             24-port Fast Ethernet 290.00, NIC 8.50, cable 2.25"
        ),
        "{text}"
    );
    assert!(
        text.contains("11050.00 at the spec's own prices, as `design` reports it: 24-port Fast Ethernet 95.00"),
        "{text}"
    );
}

/// A one-model spec's own hardware is the first candidate; the same model
/// at the same count is not searched a second time.
#[test]
fn the_spec_own_hardware_is_searched_once() {
    let dir = tempfile::tempdir().unwrap();
    let prices = dir.path().join("prices.toml");
    fnn_tui::fs::write_in_place(
        &prices,
        "cable_price = 0.0\n[nic]\nmodel = \"nic\"\nprice = 1.0\nspeed_mbps = 100\n\
         [[switches]]\nmodel = \"twelve\"\nports = 12\nprice = 1.0\n\
         [[switches]]\nmodel = \"big\"\nports = 32\nprice = 10000.0\n",
    )
    .unwrap();
    let spec = dir.path().join("own.toml");
    fnn_tui::fs::write_in_place(
        &spec,
        "name = \"own\"\n[pcs]\ncount = 24\nnics = 3\n[uplink]\nmode = \"none\"\n\
         [[switches]]\nmodel = \"twelve\"\nports = 12\nprice = 1.0\n[ga]\nseed = 7\n",
    )
    .unwrap();
    // Whether or not the own hardware's search finds a design, the
    // same model at the same count is not searched again.
    let v = cheapest(
        &[
            spec.to_str().unwrap(),
            "--prices",
            prices.to_str().unwrap(),
            "--generations",
            "1",
            "--attempts",
            "1",
        ],
        &dir.path().join("out"),
    );
    let tried = v["candidates"].as_array().unwrap();
    let own = tried
        .iter()
        .find(|t| t["model"].as_str().unwrap().starts_with("the spec's own"))
        .expect("the own hardware is a candidate");
    let again: Vec<&Value> = tried
        .iter()
        .filter(|t| t["model"] == "twelve" && t["nics"] == own["nics"] && t["count"] == own["count"])
        .filter(|t| t["impossible"] == false)
        .collect();
    assert!(again.is_empty(), "searched again: {again:?}\nall: {tried:#?}");
}
