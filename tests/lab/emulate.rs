//! The design rehearsed on real Linux networking. These tests need root
//! (or CAP_NET_ADMIN), iproute2 and ping: under CI=true a missing one fails
//! the test; elsewhere the test says it did not run and why.
//! Every test checks that nothing it created is left behind.

use crate::common;

use crate::common::{Need, Source};
use fnn_tui::design::parse_table;
use fnn_tui::emulate::{Options, RUN_DIR, emulate};
use fnn_tui::routing::Interfaces;
use fnn_tui::spec::{Coverage, PatternSpec, UplinkMode};

/// Root for namespaces, bridges and veths; iproute2 and ping.
const NETWORK: &[Need] = &[
    Need::Root,
    Need::Program("ip", Source::Apt("iproute2")),
    Need::Program("ping", Source::Apt("iputils-ping")),
];

/// Namespaces and links whose names start with `prefix`.
fn leftovers(prefix: &str) -> Vec<String> {
    let out = |args: &[&str]| {
        String::from_utf8_lossy(&std::process::Command::new("ip").args(args).output().unwrap().stdout).into_owned()
    };
    let mut v: Vec<String> = out(&["netns", "list"])
        .lines()
        .filter(|l| l.starts_with(prefix))
        .map(String::from)
        .collect();
    v.extend(
        out(&["-o", "link", "show"])
            .lines()
            .filter_map(|l| l.split(": ").nth(1))
            .map(|n| n.split('@').next().unwrap_or(n).to_string())
            .filter(|n| n.starts_with(prefix)),
    );
    if std::path::Path::new("/etc/netns").exists() {
        v.extend(
            std::fs::read_dir("/etc/netns")
                .unwrap()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(prefix)),
        );
    }
    v
}

/// The run records in the registry (`PREFIX.run`, `PREFIX.kept`).
fn records() -> Vec<String> {
    std::fs::read_dir(RUN_DIR)
        .map(|it| {
            it.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Names emulate made that no run's record accounts for: whatever a run
/// left behind (a live run registers before it builds and unregisters
/// after it removes, so other tests' testbeds are never counted).
fn orphans() -> Vec<String> {
    // Records read before and after the links: a run that registers (and
    // builds) between the two reads has its record in the second, one
    // that finishes between them in the first. (Reading them only before
    // counted a run started meanwhile as an orphan.)
    let mut records = records();
    let names = leftovers("fe");
    records.extend(self::records());
    names
        .into_iter()
        .filter(|n| {
            let prefix = n.get(..6).unwrap_or(n);
            n.len() > 6
                && prefix[2..]
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                && !records.iter().any(|r| r.starts_with(&format!("{prefix}.")))
        })
        .collect()
}

/// The KLAT2 paper's six PCs on three switches, and emulate's options
/// for them (NICs probed in slot order).
fn six_pcs() -> (fnn_tui::spec::Cluster, fnn_tui::design::Design, Options<'static>) {
    let c = common::quick(6, 2, "4x3");
    let d = parse_table("0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n", "the KLAT2 paper", 6, 3).unwrap();
    let o = Options::new(Interfaces {
        probe_order: vec![1, 2],
    });
    (c, d, o)
}

/// The six PCs: every pair answers.
#[test]
fn the_six_pc_example_answers_every_pair_and_leaves_nothing() {
    if !common::machine_has(
        "emulate::the_six_pc_example_answers_every_pair_and_leaves_nothing",
        NETWORK,
    ) {
        return;
    }
    let _turn = crate::testbed_turn();
    let (c, d, o) = six_pcs();
    let result = emulate(&c, &d, &o);
    let (summary, testbed) = result.unwrap_or_else(|e| panic!("emulate could not build the network: {e}"));
    let prefix = testbed.prefix.clone();
    assert!(!leftovers(&prefix).is_empty(), "the testbed exists while held");
    drop(testbed);
    assert_eq!((summary.pairs, summary.answered), (30, 30), "{}", summary.text());
    assert!(summary.wrong_nic.is_empty(), "{}", summary.text());
    assert!(
        summary.wrong_switch.is_empty(),
        "every request crossed the shared switch: {}",
        summary.text()
    );
    // The setup scripts pre-load every neighbour (no ARP, no broadcast)
    // and make every NIC known to its switch at boot (nothing flooded).
    assert_eq!(
        summary.frames,
        fnn_tui::emulate::Frames::default(),
        "{}",
        summary.text()
    );
    assert!(summary.ok());
    assert!(leftovers(&prefix).is_empty(), "left behind: {:?}", leftovers(&prefix));
}

/// A sparse design with a separate uplink switch and the FIC SD11's probe
/// order (slots 1-2-4-3): the scripts name the interfaces by that order.
#[test]
fn a_sparse_design_with_an_uplink_and_a_probe_order_answers_its_pairs() {
    if !common::machine_has(
        "emulate::a_sparse_design_with_an_uplink_and_a_probe_order_answers_its_pairs",
        NETWORK,
    ) {
        return;
    }
    let _turn = crate::testbed_turn();
    let mut c = common::quick_with(16, 4, "9x8", |s| {
        // A separate uplink switch takes one port of every FNN switch.
        s.uplink.mode = UplinkMode::Separate;
        s.uplink.ports = 1;
        s.coverage = Coverage::Sparse;
        s.patterns = vec![PatternSpec::Grid {
            dims: vec![4, 4],
            torus: true,
            weight: 1.0,
        }];
    });
    assert_eq!(c.uplink.mode, UplinkMode::Separate);
    c.ga.threads = 1;
    let e = fnn_tui::ga::Engine::new(c.clone());
    let e = common::run(e, 200);
    assert!(e.is_valid());
    let ifaces = Interfaces::parse("1,2,4,3").unwrap();
    let (summary, testbed) = emulate(&c, &e.best_design(), &Options::new(ifaces))
        .unwrap_or_else(|e| panic!("emulate could not build the network: {e}"));
    let prefix = testbed.prefix.clone();
    drop(testbed);
    assert!(summary.ok(), "{}", summary.text());
    assert!(
        summary.wrong_nic.is_empty(),
        "every pair leaves by the NIC its route names"
    );
    assert_eq!(summary.pairs, 2 * c.pattern.pair_count());
    assert_eq!(
        summary.frames,
        fnn_tui::emulate::Frames::default(),
        "{}",
        summary.text()
    );
    assert!(leftovers(&prefix).is_empty(), "left behind: {:?}", leftovers(&prefix));
}

/// A run that fails half-way never prints its removal commands, so even
/// with `keep` what it built is removed (here: the probe results cannot be
/// written, after the network was built and pinged).
#[test]
fn a_kept_testbed_that_fails_half_way_is_removed_all_the_same() {
    if !common::machine_has(
        "emulate::a_kept_testbed_that_fails_half_way_is_removed_all_the_same",
        NETWORK,
    ) {
        return;
    }
    let _turn = crate::testbed_turn();
    let (c, d, mut o) = six_pcs();
    let dir = tempfile::tempdir().unwrap();
    let not_a_folder = dir.path().join("file");
    std::fs::write(&not_a_folder, "x").unwrap();
    o.keep = true;
    o.probe_results = Some(not_a_folder.join("probes"));
    // Only what this run could have left counts: leftovers already there
    // belong to a run this machine has no record of (one in a chroot with
    // its own /run), which no run may remove, and this one did not make.
    let before = orphans();
    assert!(emulate(&c, &d, &o).is_err(), "the probe results cannot be written");
    let left: Vec<String> = orphans().into_iter().filter(|n| !before.contains(n)).collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// A kept testbed says how to remove itself, and those commands do.
#[test]
fn a_kept_testbed_is_removed_by_the_commands_it_prints() {
    if !common::machine_has("emulate::a_kept_testbed_is_removed_by_the_commands_it_prints", NETWORK) {
        return;
    }
    let _turn = crate::testbed_turn();
    let (c, d, mut o) = six_pcs();
    o.keep = true;
    let (_, testbed) = emulate(&c, &d, &o).unwrap_or_else(|e| panic!("emulate could not build the network: {e}"));
    let prefix = testbed.prefix.clone();
    let commands = testbed.removal_commands();
    drop(testbed);
    assert!(!leftovers(&prefix).is_empty(), "--keep keeps them");
    for cmd in commands {
        let parts: Vec<&str> = cmd.split(' ').collect();
        std::process::Command::new(parts[0]).args(&parts[1..]).status().unwrap();
    }
    assert!(leftovers(&prefix).is_empty(), "left behind: {:?}", leftovers(&prefix));
}

/// The command as a user runs it on the KLAT2 paper §6.1's eight PCs (three NICs,
/// six 4-port switches): a table, JSON out, exit 0, no ARP, broadcast or
/// flooded frame.
#[test]
fn the_emulate_command_runs_seed_000s_eight_pcs_and_reports_json() {
    if !common::machine_has(
        "emulate::the_emulate_command_runs_seed_000s_eight_pcs_and_reports_json",
        NETWORK,
    ) {
        return;
    }
    let _turn = crate::testbed_turn();
    let (code, v) = eight_pcs_with(&[]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(
        (v["pairs"].as_u64(), v["answered"].as_u64()),
        (Some(56), Some(56)),
        "{v}"
    );
    let f = &v["frames"];
    assert_eq!(
        (f["arp"].as_u64(), f["broadcast"].as_u64(), f["flooded"].as_u64()),
        (Some(0), Some(0), Some(0)),
        "{v}"
    );
    assert_eq!(v["wrong_switch"].as_array().map(Vec::len), Some(0), "{v}");
}

/// KLAT2 (64 PCs, 4032 pairs), in a few seconds; BENCHMARKS.md has its
/// figures.
#[test]
fn klat2_answers_every_pair_with_no_arp_broadcast_or_flooding() {
    if !common::machine_has(
        "emulate::klat2_answers_every_pair_with_no_arp_broadcast_or_flooding",
        NETWORK,
    ) {
        return;
    }
    let _turn = crate::testbed_turn();
    let out = assert_cmd::Command::cargo_bin("fnn-tui")
        .unwrap()
        .args(["emulate", "--session", "klat2", "--json"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(
        (v["pairs"].as_u64(), v["answered"].as_u64()),
        (Some(4032), Some(4032)),
        "{v}"
    );
}

/// Sixteen PCs with four NICs on eight 8-port switches and a separate
/// uplink switch: the cluster the miswiring rehearsals break.
fn sixteen() -> (fnn_tui::spec::Cluster, fnn_tui::design::Design) {
    static DESIGN: std::sync::OnceLock<(fnn_tui::spec::Cluster, fnn_tui::design::Design)> = std::sync::OnceLock::new();
    DESIGN
        .get_or_init(|| {
            let mut c = common::quick_with(16, 4, "9x8", |s| {
                s.uplink.mode = UplinkMode::Separate;
                s.uplink.ports = 1;
            });
            c.ga.threads = 1;
            c.ga.seed = 7;
            let e = fnn_tui::ga::Engine::new(c.clone());
            let e = common::run(e, 2000);
            assert!(e.is_valid(), "the 16-PC design is found");
            (c, e.best_design())
        })
        .clone()
}

/// Builds the sixteen-PC cluster with `faults`, runs the probe scripts in
/// every namespace and returns emulate's summary, the probe results and
/// what verify says of them.
fn rehearse(
    faults: &[&str],
) -> (
    fnn_tui::emulate::Summary,
    Vec<fnn_tui::verify::ProbeResults>,
    fnn_tui::verify::Report,
) {
    let (c, d) = sixteen();
    let ifaces = Interfaces::parse("1,2,3,4").unwrap();
    let results = tempfile::tempdir().unwrap();
    let mut o = Options::new(ifaces.clone());
    o.faults = faults
        .iter()
        .map(|f| fnn_tui::emulate::Fault::parse(f, &c, &d).unwrap())
        .collect();
    o.probe_results = Some(results.path().to_path_buf());
    let (summary, testbed) = emulate(&c, &d, &o).unwrap_or_else(|e| panic!("emulate could not build the network: {e}"));
    let prefix = testbed.prefix.clone();
    drop(testbed);
    assert!(leftovers(&prefix).is_empty(), "left behind: {:?}", leftovers(&prefix));
    let read = fnn_tui::verify::read_results(results.path(), &c, &d, &ifaces).unwrap();
    assert_eq!(read.len(), 16, "every PC wrote its probe results");
    let report = fnn_tui::verify::diagnose(&c, &d, &ifaces, &read);
    (summary, read, report)
}

/// Verify's report on a cluster built with one fault (which emulate fails).
fn miswired(fault: &str) -> fnn_tui::verify::Report {
    let (summary, _, report) = rehearse(&[fault]);
    assert!(
        !summary.ok(),
        "a miswired cluster does not pass emulate: {}",
        summary.text()
    );
    report
}

/// The one finding of a report, with its cable moves.
fn only_finding(r: &fnn_tui::verify::Report) -> &fnn_tui::verify::Finding {
    assert_eq!(r.findings.len(), 1, "exactly the injected fault:\n{}", r.text());
    &r.findings[0]
}

#[test]
fn verify_names_two_swapped_cables() {
    if !common::machine_has("emulate::verify_names_two_swapped_cables", NETWORK) {
        return;
    }
    let _turn = crate::testbed_turn();
    let r = miswired("swap:5:1:2");
    match only_finding(&r) {
        fnn_tui::verify::Finding::Swapped { pc, fixes, .. } => {
            assert_eq!(pc, "n05");
            assert_eq!(
                fixes.iter().map(|f| f.nic).collect::<Vec<_>>(),
                vec![1, 2],
                "{}",
                r.text()
            );
        }
        other => panic!("expected a swap, found {}", other.text()),
    }
}

#[test]
fn verify_names_a_cable_on_the_wrong_switch() {
    if !common::machine_has("emulate::verify_names_a_cable_on_the_wrong_switch", NETWORK) {
        return;
    }
    let _turn = crate::testbed_turn();
    let (_, d) = sixteen();
    let elsewhere = (0..d.switches()).find(|s| !d.switches_of(9).contains(s)).unwrap();
    let r = miswired(&format!("move:9:3:{elsewhere}"));
    match only_finding(&r) {
        fnn_tui::verify::Finding::WrongSwitch { fix } => {
            assert_eq!((fix.pc.as_str(), fix.nic), ("n09", 3), "{}", r.text());
            assert_eq!(
                fix.switch,
                d.switches_of(9)[3],
                "it names the switch the cable belongs on"
            );
        }
        other => panic!("expected a wrong switch, found {}", other.text()),
    }
}

#[test]
fn verify_names_a_pulled_cable() {
    if !common::machine_has("emulate::verify_names_a_pulled_cable", NETWORK) {
        return;
    }
    let _turn = crate::testbed_turn();
    let r = miswired("pull:12:0");
    match only_finding(&r) {
        fnn_tui::verify::Finding::NoLink { fix } => assert_eq!((fix.pc.as_str(), fix.nic), ("n12", 0)),
        other => panic!("expected no link, found {}", other.text()),
    }
}

#[test]
fn verify_names_a_reversed_nic_order() {
    if !common::machine_has("emulate::verify_names_a_reversed_nic_order", NETWORK) {
        return;
    }
    let _turn = crate::testbed_turn();
    let r = miswired("order:3:4,3,2,1");
    match only_finding(&r) {
        fnn_tui::verify::Finding::NicOrder { pc, fixes, .. } => {
            assert_eq!(pc, "n03");
            assert_eq!(fixes.len(), 4, "{}", r.text());
        }
        other => panic!("expected a NIC order, found {}", other.text()),
    }
}

/// The pings themselves: with one cable pulled, exactly the pairs whose
/// route leaves or reaches that NIC go unanswered (both ways), and every
/// other pair answers.
#[test]
fn a_pulled_cable_fails_exactly_the_pairs_routed_through_it() {
    if !common::machine_has(
        "emulate::a_pulled_cable_fails_exactly_the_pairs_routed_through_it",
        NETWORK,
    ) {
        return;
    }
    let _turn = crate::testbed_turn();
    let (c, d) = sixteen();
    let mut o = Options::new(Interfaces::parse("1,2,3,4").unwrap());
    o.faults = vec![fnn_tui::emulate::Fault::Pull { pc: 12, nic: 0 }];
    let (summary, testbed) = emulate(&c, &d, &o).unwrap_or_else(|e| panic!("emulate could not build the network: {e}"));
    drop(testbed);
    let r = fnn_tui::routing::BasicRouting::new(&c, &d);
    // PC 12's end of the pair: the NIC of the shared switch, or NIC 0
    // (the uplink alias) when they share none.
    let through = |a: usize, b: usize| {
        let nic = |pc: usize, other: usize| r.via(pc, other).map_or(Some(0), |sw| d.nic_on(pc, sw));
        (a == 12 && nic(a, b) == Some(0)) || (b == 12 && nic(b, a) == Some(0))
    };
    let mut want: Vec<(String, String)> = (0..16)
        .flat_map(|a| (0..16).map(move |b| (a, b)))
        .filter(|&(a, b)| a != b && through(a, b))
        .map(|(a, b)| (c.pc_name(a), c.pc_name(b)))
        .collect();
    let mut failed = summary.failed.clone();
    want.sort();
    failed.sort();
    assert!(!want.is_empty());
    assert_eq!(failed, want, "{}", summary.text());
    assert_eq!(summary.answered, summary.pairs - want.len());
}

/// Probes of a correctly cabled cluster find nothing, and the uplink
/// was unplugged for them (it joins the switches otherwise).
#[test]
fn verify_passes_a_correctly_cabled_cluster() {
    if !common::machine_has("emulate::verify_passes_a_correctly_cabled_cluster", NETWORK) {
        return;
    }
    let _turn = crate::testbed_turn();
    let (summary, read, r) = rehearse(&[]);
    assert!(summary.ok(), "{}", summary.text());
    assert_eq!(
        summary.frames,
        fnn_tui::emulate::Frames::default(),
        "{}",
        summary.text()
    );
    assert!(r.ok(), "{}", r.text());
    assert_eq!(r.probes_failed, 0);
    // Every probed address has a permanent entry: probing never ARPs.
    let probing = summary.probe_frames.clone().expect("probe frames counted");
    assert_eq!((probing.arp, probing.broadcast), (0, 0), "{}", summary.text());
    assert!(
        read.iter().all(|p| p.uplink_joined == Some(false)),
        "the uplink was unplugged for the probes"
    );
}

/// As a user runs them: emulate with a swapped pair of cables writes the
/// probe results, verify reads them and names the swap (exit 1), and says
/// what is wrong with a folder that holds no results.
#[test]
fn the_emulate_and_verify_commands_find_a_swapped_cable() {
    if !common::machine_has("emulate::the_emulate_and_verify_commands_find_a_swapped_cable", NETWORK) {
        return;
    }
    let _turn = crate::testbed_turn();
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("six.txt"), "0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n").unwrap();
    let fnn = || {
        let mut c = assert_cmd::Command::cargo_bin("fnn-tui").unwrap();
        c.current_dir(d.path());
        c
    };
    fnn()
        .args(["emulate", "--table", "six.txt", "--miswire", "swap:n2:0:1"])
        .args(["--probe-results", "probes", "--macs", "macs.txt"])
        .assert()
        .code(1);
    assert_eq!(std::fs::read_dir(d.path().join("probes")).unwrap().count(), 6);
    let macs = std::fs::read_to_string(d.path().join("macs.txt")).unwrap();
    assert_eq!(macs.lines().filter(|l| l.starts_with("n2 eth")).count(), 2, "{macs}");
    let out = fnn()
        .args(["verify", "--table", "six.txt", "--results", "probes", "--json"])
        .assert()
        .code(1);
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["findings"].as_array().map(Vec::len), Some(1), "{v}");
    assert_eq!(
        (v["findings"][0]["kind"].as_str(), v["findings"][0]["pc"].as_str()),
        (Some("swapped"), Some("n2"))
    );
    let text = fnn()
        .args(["verify", "--table", "six.txt", "--results", "probes"])
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&text.get_output().stdout).into_owned();
    assert!(
        text.contains("two cables of n2 swapped") && text.contains("switch 0 port 3"),
        "{text}"
    );
    std::fs::create_dir(d.path().join("empty")).unwrap();
    fnn()
        .args(["verify", "--table", "six.txt", "--results", "empty"])
        .assert()
        .failure()
        .stderr(predicates::str::contains("no probe results (fnn-probe-*.txt) in empty"));
}

/// Sixteen PCs on one switch with n00's only cable pulled: n00's pings to
/// its fifteen peers, and theirs to it, wait out their timeouts, so the
/// run spends seconds pinging and can be killed there.
fn slow_sixteen(dir: &std::path::Path) -> std::process::Command {
    let table: Vec<String> = (0..16).map(|pc| pc.to_string()).collect();
    std::fs::write(dir.join("one.txt"), format!("0: {}\n", table.join(" "))).unwrap();
    let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("fnn-tui"));
    c.current_dir(dir)
        .args(["emulate", "--table", "one.txt", "--miswire", "pull:n00:0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    c
}

/// The socket inodes of process `pid`'s open descriptors.
fn socket_inodes(pid: u32) -> Vec<String> {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return Vec::new();
    };
    fds.filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .filter_map(|l| Some(l.to_str()?.strip_prefix("socket:[")?.strip_suffix(']')?.to_string()))
        .collect()
}

/// The namespace (by name) a thread of process `pid` works in while it
/// holds a raw ICMP socket of its own there: emulate's prober pinging
/// (the boot scripts' pings are other processes).
fn pinging_in(pid: u32) -> Option<String> {
    let own = socket_inodes(pid);
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    tasks.filter_map(Result::ok).find_map(|t| {
        // /proc/PID/task/TID/net is the thread's namespace's; a raw socket
        // line's local address ends in its protocol (1, ICMP), its tenth
        // field is the inode.
        let raw = std::fs::read_to_string(t.path().join("net/raw")).unwrap_or_default();
        let probing = raw.lines().skip(1).any(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            f.get(1).is_some_and(|a| a.ends_with(":0001")) && f.get(9).is_some_and(|i| own.iter().any(|o| o == i))
        });
        let ns = std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(t.path().join("ns/net")).ok()?);
        let named = std::fs::read_dir("/run/netns")
            .ok()?
            .filter_map(Result::ok)
            .find(|n| std::fs::metadata(n.path()).is_ok_and(|m| std::os::unix::fs::MetadataExt::ino(&m) == ns));
        probing
            .then(|| named.map(|n| n.file_name().to_string_lossy().into_owned()))
            .flatten()
    })
}

/// Waits (up to a minute) until the run of process `pid` pings inside its
/// namespaces; returns its prefix.
fn pinging_run(pid: u32) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::time::Instant::now() < deadline {
        if let Some(ns) = pinging_in(pid) {
            return ns[..6].to_string();
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("emulate (process {pid}) did not start pinging within a minute");
}

/// `kill -9` leaves namespaces, links and folders that no signal handler
/// removed: the next run removes them and says so, and so does
/// `emulate --clean`.
#[test]
fn what_a_killed_run_left_is_removed_by_the_next_run_and_by_clean() {
    if !common::machine_has(
        "emulate::what_a_killed_run_left_is_removed_by_the_next_run_and_by_clean",
        NETWORK,
    ) {
        return;
    }
    let _only = crate::TESTBEDS.write().unwrap_or_else(|e| e.into_inner());
    let d = tempfile::tempdir().unwrap();
    for then in ["the next run", "emulate --clean"] {
        let mut child = slow_sixteen(d.path()).spawn().unwrap();
        let prefix = pinging_run(child.id());
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(!leftovers(&prefix).is_empty(), "kill -9 left the testbed");
        let args: &[&str] = if then == "the next run" {
            &["emulate", "--table", "one.txt"]
        } else {
            &["emulate", "--clean"]
        };
        let out = assert_cmd::Command::cargo_bin("fnn-tui")
            .unwrap()
            .current_dir(d.path())
            .args(args)
            .assert()
            .success();
        let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        assert!(
            text.contains("removed what") && text.contains(&prefix),
            "{then}: {text}"
        );
        assert!(
            leftovers(&prefix).is_empty(),
            "{then}: left behind: {:?}",
            leftovers(&prefix)
        );
        assert!(
            !records().iter().any(|r| r.starts_with(&prefix)),
            "{then}: the record is gone"
        );
    }
}

/// SIGTERM while the PCs ping (as a container runtime stops a run): the
/// run stops, removes everything and exits, well before a runtime's
/// SIGKILL (BENCHMARKS.md has how long it takes).
#[test]
fn sigterm_while_pinging_stops_the_run_and_removes_everything() {
    if !common::machine_has(
        "emulate::sigterm_while_pinging_stops_the_run_and_removes_everything",
        NETWORK,
    ) {
        return;
    }
    let _turn = crate::testbed_turn();
    let d = tempfile::tempdir().unwrap();
    let mut child = slow_sixteen(d.path()).spawn().unwrap();
    let prefix = pinging_run(child.id());
    let sent = std::time::Instant::now();
    // SAFETY: kill has no memory preconditions.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    // A hang check, not a speed test: ten seconds is the usual grace
    // before a runtime's SIGKILL (a ping round alone used to take a minute).
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if sent.elapsed() > std::time::Duration::from_secs(10) {
            child.kill().unwrap();
            panic!("still running 10 s after SIGTERM");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    eprintln!("emulate exited {:.2} s after SIGTERM", sent.elapsed().as_secs_f64());
    // 128 + SIGTERM, as every command a signal stops.
    assert!(
        status.code() == Some(143) && err.contains("interrupted"),
        "{status}: {err}"
    );
    assert!(leftovers(&prefix).is_empty(), "left behind: {:?}", leftovers(&prefix));
    assert!(!records().iter().any(|r| r.starts_with(&prefix)), "the record is gone");
}

/// In a PID namespace every run is process 1, so names made from the
/// process id collided; two such runs at once both succeed.
#[test]
fn runs_in_separate_pid_namespaces_never_collide() {
    let needs = [NETWORK, &[Need::Program("unshare", Source::Apt("util-linux"))]].concat();
    if !common::machine_has("emulate::runs_in_separate_pid_namespaces_never_collide", &needs) {
        return;
    }
    let _turn = crate::testbed_turn();
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("six.txt"), "0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n").unwrap();
    let start = || {
        std::process::Command::new("unshare")
            .args(["--pid", "--fork"])
            .arg(assert_cmd::cargo::cargo_bin("fnn-tui"))
            .args(["emulate", "--table", "six.txt"])
            .current_dir(d.path())
            .output()
    };
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(start);
        let b = s.spawn(start);
        (a.join().unwrap().unwrap(), b.join().unwrap().unwrap())
    });
    for o in [a, b] {
        let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        assert!(o.status.success(), "{out}{err}");
        assert!(String::from_utf8_lossy(&o.stdout).contains("30 answered, 0 failed"));
    }
}

/// Seed 000's eight PCs through the binary in a folder of their own, with
/// `env` set: the exit status and the JSON summary.
fn eight_pcs_with(env: &[(&str, &str)]) -> (Option<i32>, serde_json::Value) {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("eight.txt"),
        "0: 0 1 2 3\n1: 0 1 4 5\n2: 0 1 6 7\n3: 2 3 4 5\n4: 2 3 6 7\n5: 4 5 6 7\n",
    )
    .unwrap();
    let out = assert_cmd::Command::cargo_bin("fnn-tui")
        .unwrap()
        .current_dir(d.path())
        .envs(env.iter().copied())
        .args(["emulate", "--pcs", "8", "--nics", "3", "--switches", "4x6"])
        .args(["--table", "eight.txt", "--json"])
        .output()
        .unwrap();
    let v =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code(), v)
}

/// A capture that loses frames (forced here: a ring of one page, read
/// only once the pings are done) never turns into wiring faults: the
/// requests it missed are listed as not checked, and the run ends
/// inconclusive, exit status 3, saying how many frames were lost.
#[test]
fn a_capture_that_loses_frames_is_inconclusive_not_a_wiring_fault() {
    if !common::machine_has(
        "emulate::a_capture_that_loses_frames_is_inconclusive_not_a_wiring_fault",
        NETWORK,
    ) {
        return;
    }
    let _turn = crate::testbed_turn();
    let (code, v) = eight_pcs_with(&[("FNN_TUI_TEST_STARVE_CAPTURE", "1")]);
    assert_eq!(code, Some(3), "{v}");
    assert!(v["frames_dropped"].as_u64().unwrap() > 0, "{v}");
    assert_eq!(v["wrong_switch"].as_array().map(Vec::len), Some(0), "{v}");
    assert!(!v["unchecked"].as_array().unwrap().is_empty(), "{v}");
    assert_eq!(v["answered"].as_u64(), Some(56), "{v}");
}
