//! Today's Linux, rehearsed through the real binary: NICs with the names
//! predictable naming gives them, found by MAC in a shuffled probe order;
//! the systemd-networkd files booted by udev's `.link` matching and the
//! real systemd-networkd; the units checked by `systemd-analyze verify`;
//! and the LLDP audit, with the real lldpd in every PC, naming where each
//! miswired cable landed. Root and the tools are needed (CI installs
//! them); nothing a test builds is left behind.

use crate::common;

use crate::common::{Need, Source};

/// Namespaces, bridges and veths.
const NETWORK: &[Need] = &[
    Need::Root,
    Need::Program("ip", Source::Apt("iproute2")),
    Need::Program("ping", Source::Apt("iputils-ping")),
];

/// Seed 000's eight PCs, three NICs each, on six 4-port switches.
const EIGHT: &str = "0: 0 1 2 3\n1: 0 1 4 5\n2: 0 1 6 7\n3: 2 3 4 5\n4: 2 3 6 7\n5: 4 5 6 7\n";
const QUICK: [&str; 6] = ["--pcs", "8", "--nics", "3", "--switches", "4x6"];
const NAMES: &str = "enp1s0f0,enp1s0f1,enp2s0f0";

/// The LLDP tests start lldpd daemons and check none outlives its run:
/// one at a time.
static ONE_LLDP_RUN: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn with(extra: &[Need]) -> Vec<Need> {
    [NETWORK, extra].concat()
}

/// A folder holding seed 000's table, and the binary run in it.
struct Bench {
    dir: tempfile::TempDir,
}

impl Bench {
    fn new() -> Bench {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("eight.txt"), EIGHT).unwrap();
        Bench { dir }
    }

    fn fnn(&self, args: &[&str]) -> assert_cmd::Command {
        let mut c = assert_cmd::Command::cargo_bin("fnn-tui").unwrap();
        c.current_dir(self.dir.path()).args(args);
        c
    }

    /// `emulate` on the eight PCs with `args`, its JSON summary.
    fn emulate(&self, args: &[&str], code: i32) -> serde_json::Value {
        let out = self
            .fnn(&["emulate"])
            .args(QUICK)
            .args(["--table", "eight.txt", "--json"])
            .args(args)
            .assert()
            .code(code);
        serde_json::from_slice(&out.get_output().stdout).unwrap()
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }
}

/// Every one of the 56 ordered pairs answered, by its NIC, across its
/// switch, with no ARP, broadcast or flooding.
fn all_answered(v: &serde_json::Value) {
    assert_eq!(
        (v["pairs"].as_u64(), v["answered"].as_u64()),
        (Some(56), Some(56)),
        "{v}"
    );
    assert_eq!(v["wrong_nic"].as_array().map(Vec::len), Some(0), "{v}");
    assert_eq!(v["wrong_switch"].as_array().map(Vec::len), Some(0), "{v}");
    let f = &v["frames"];
    assert_eq!(
        (f["arp"].as_u64(), f["broadcast"].as_u64(), f["flooded"].as_u64()),
        (Some(0), Some(0), Some(0)),
        "{v}"
    );
}

/// NICs named `enp1s0f0`, ... and made in the probe order 3,1,2 (so the
/// kernel lists them out of slot order): the discovery file emulate writes
/// carries those names, `export` turns it into scripts that find each NIC
/// by its MAC, and those scripts (run by emulate) answer every pair.
#[test]
fn predictable_names_in_a_shuffled_probe_order_answer_every_pair() {
    if !common::machine_has(
        "cabling::predictable_names_in_a_shuffled_probe_order_answer_every_pair",
        NETWORK,
    ) {
        return;
    }
    let _turn = crate::testbed_turn();
    let b = Bench::new();
    let v = b.emulate(
        &["--nic-names", NAMES, "--probe-order", "3,1,2", "--macs", "macs.txt"],
        0,
    );
    all_answered(&v);
    let macs = b.read("macs.txt");
    assert_eq!(macs.lines().filter(|l| l.starts_with("n3 enp")).count(), 3, "{macs}");
    assert!(!macs.contains(" eth"), "{macs}");
    b.fnn(&["export"])
        .args(QUICK)
        .args(["--table", "eight.txt", "--macs", "macs.txt", "--out", "out"])
        .assert()
        .success();
    let script = b.read("out/routing/scripts/fnn-setup-n3.sh");
    let mac = |name: &str| {
        macs.lines()
            .find(|l| l.starts_with(&format!("n3 {name} ")))
            .and_then(|l| l.split_whitespace().nth(2))
            .unwrap()
            .to_string()
    };
    for (nic, name) in NAMES.split(',').enumerate() {
        let line = format!("n{nic}=$(nic {} {name}) || exit 1", mac(name));
        assert!(script.contains(&line), "NIC {nic} is found by its MAC: {script}");
    }
    assert!(!script.contains("eth0"), "{script}");
    assert_eq!(
        b.read("out/routing/macs-check.txt"),
        "the MAC file matches the design\n"
    );
    let ports = b.read("out/switch-ports.csv");
    assert!(
        ports.contains(&format!(",n3,0,enp1s0f0,{},n3 NIC 0 enp1s0f0", mac("enp1s0f0"))),
        "{ports}"
    );
}

/// The networkd form boots every PC: each `.link` matched by udev's own
/// code names the NIC (`fnnK` where it was `ethN`; the machine's own name
/// otherwise), the real systemd-networkd installs addresses and permanent
/// neighbours, and every pair answers. A file networkd or udev finds fault
/// with fails the run (see `emulate::networkd`).
#[test]
fn networkd_files_boot_every_pc_and_answer_every_pair() {
    let needs = with(&[
        Need::Program("udevadm", Source::Apt("udev")),
        Need::Program("networkctl", Source::Apt("systemd")),
    ]);
    if !common::machine_has("cabling::networkd_files_boot_every_pc_and_answer_every_pair", &needs) {
        return;
    }
    let _turn = crate::testbed_turn();
    let b = Bench::new();
    all_answered(&b.emulate(&["--boot", "networkd"], 0));
    all_answered(&b.emulate(
        &["--boot", "networkd", "--nic-names", NAMES, "--probe-order", "2,3,1"],
        0,
    ));
}

/// The units, installed as their comments say into a root that holds the
/// system's own units, pass `systemd-analyze verify` with nothing said.
#[test]
fn the_units_pass_systemd_analyze_verify() {
    let needs = [Need::Program("systemd-analyze", Source::Apt("systemd"))];
    if !common::machine_has("cabling::the_units_pass_systemd_analyze_verify", &needs) {
        return;
    }
    let _turn = crate::testbed_turn();
    let b = Bench::new();
    std::fs::write(b.dir.path().join("macs.txt"), "n0 enp1s0 02:00:00:00:00:01\n").unwrap();
    b.fnn(&["export"])
        .args(QUICK)
        .args(["--table", "eight.txt", "--macs", "macs.txt", "--out", "out"])
        .assert()
        .success();
    let root = b.dir.path().join("root");
    let copy = |from: &std::path::Path, to: &str, mode: u32| {
        let to = root.join(to);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from, &to).unwrap();
        std::fs::set_permissions(&to, std::os::unix::fs::PermissionsExt::from_mode(mode)).unwrap();
    };
    let system = std::path::Path::new("/lib/systemd/system");
    for unit in std::fs::read_dir(system).unwrap().flatten() {
        if unit.path().is_file() {
            copy(
                &unit.path(),
                &format!("usr/lib/systemd/system/{}", unit.file_name().to_string_lossy()),
                0o644,
            );
        }
    }
    let out = b.dir.path().join("out/routing");
    copy(&out.join("scripts/fnn-setup-n0.sh"), "usr/local/sbin/fnn-setup", 0o755);
    copy(
        &out.join("networkd/n0/fnn-announce.sh"),
        "usr/local/sbin/fnn-announce",
        0o755,
    );
    copy(
        &out.join("fnn-setup.service"),
        "etc/systemd/system/fnn-setup.service",
        0o644,
    );
    copy(
        &out.join("fnn-announce.service"),
        "etc/systemd/system/fnn-announce.service",
        0o644,
    );
    let ran = std::process::Command::new("systemd-analyze")
        .arg("verify")
        .arg(format!("--root={}", root.display()))
        .args(["fnn-setup.service", "fnn-announce.service"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&ran.stderr);
    assert!(
        ran.status.success() && said.trim().is_empty(),
        "systemd-analyze verify: {said}"
    );
}

/// lldpd processes still running (not zombies waiting to be reaped).
fn live_lldpd() -> Vec<String> {
    let mut out = Vec::new();
    for p in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(p.path().join("stat")) else {
            continue;
        };
        let zombie = stat.rsplit(')').next().is_some_and(|r| r.trim_start().starts_with('Z'));
        let cmd = std::fs::read(p.path().join("cmdline")).unwrap_or_default();
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        if !zombie && cmd.starts_with("lldpd ") && cmd.contains("-scripts-") {
            out.push(cmd);
        }
    }
    out
}

/// One rehearsal with `fault` and lldpd in every PC, then `verify --lldp`
/// on what lldpd heard: its text.
fn lldp_audit(b: &Bench, fault: &str) -> String {
    let dir = format!("lldp-{}", fault.replace(':', "-"));
    let mut args = vec!["--lldp", dir.as_str(), "--nic-names", NAMES, "--macs", "macs.txt"];
    if !fault.is_empty() {
        args.extend(["--miswire", fault]);
    }
    b.emulate(&args, if fault.is_empty() { 0 } else { 1 });
    assert_eq!(live_lldpd(), Vec::<String>::new(), "no lldpd outlives the run");
    assert_eq!(std::fs::read_dir(b.dir.path().join(&dir)).unwrap().count(), 8);
    let out = b
        .fnn(&["verify"])
        .args(QUICK)
        .args(["--table", "eight.txt", "--lldp", &dir, "--macs", "macs.txt"])
        .assert()
        .code(if fault.is_empty() { 0 } else { 1 });
    String::from_utf8_lossy(&out.get_output().stdout).into_owned()
}

/// A swap, a moved cable and a pulled one: lldpd's JSON from inside the
/// namespaces makes `verify --lldp` name the switch and port each
/// affected NIC really reached (seed 000's n5 is on switches 3 and 5 by
/// NICs 1 and 2, port 4 and 2; n2's NIC 0 is port 3 of switch 0).
#[test]
fn lldp_names_where_each_miswired_cable_landed() {
    let needs = with(&[Need::Program("lldpd", Source::Apt("lldpd"))]);
    if !common::machine_has("cabling::lldp_names_where_each_miswired_cable_landed", &needs) {
        return;
    }
    let _turn = crate::testbed_turn();
    let _one = ONE_LLDP_RUN.lock().unwrap_or_else(|e| e.into_inner());
    let b = Bench::new();
    let ok = lldp_audit(&b, "");
    // Without the discovery, the machine's names say nothing.
    let blind = b
        .fnn(&["verify"])
        .args(QUICK)
        .args(["--table", "eight.txt", "--lldp", "lldp-"])
        .assert()
        .code(1);
    let blind = String::from_utf8_lossy(&blind.get_output().stdout).into_owned();
    assert!(
        blind.contains("note: these interfaces heard a switch") && blind.contains("n0 enp1s0f0"),
        "{blind}"
    );
    assert!(
        ok.contains("24 of 24 cabled NICs where the plan puts them") && ok.contains("OK:"),
        "{ok}"
    );
    let swap = lldp_audit(&b, "swap:n5:1:2");
    let lines: Vec<&str> = swap.lines().filter(|l| l.starts_with("- ")).collect();
    assert_eq!(lines.len(), 2, "{swap}");
    assert!(
        lines[0].starts_with("- n5 NIC 1 (enp1s0f1): on sw5 port 2, plan says sw3 port 4 — "),
        "{swap}"
    );
    assert!(
        lines[1].starts_with("- n5 NIC 2 (enp2s0f0): on sw3 port 4, plan says sw5 port 2 — "),
        "{swap}"
    );
    let moved = lldp_audit(&b, "move:n2:0:3");
    let lines: Vec<&str> = moved.lines().filter(|l| l.starts_with("- ")).collect();
    // Switch 3 has four PCs: the moved cable is on its spare port 5.
    assert_eq!(lines.len(), 1, "{moved}");
    assert!(
        lines[0].starts_with("- n2 NIC 0 (enp1s0f0): on sw3 port 5, plan says sw0 port 3 — "),
        "{moved}"
    );
    let pulled = lldp_audit(&b, "pull:n6:2");
    let lines: Vec<&str> = pulled.lines().filter(|l| l.starts_with("- ")).collect();
    assert_eq!(lines.len(), 1, "{pulled}");
    assert!(
        lines[0].starts_with("- n6 NIC 2 (enp2s0f0): no LLDP neighbour"),
        "{pulled}"
    );
}

/// With the probe results too, verify gives both reports, and its JSON
/// holds both.
#[test]
fn verify_combines_probes_and_lldp() {
    let needs = with(&[Need::Program("lldpd", Source::Apt("lldpd"))]);
    if !common::machine_has("cabling::verify_combines_probes_and_lldp", &needs) {
        return;
    }
    let _turn = crate::testbed_turn();
    let _one = ONE_LLDP_RUN.lock().unwrap_or_else(|e| e.into_inner());
    let b = Bench::new();
    b.emulate(
        &[
            "--miswire",
            "swap:n5:1:2",
            "--lldp",
            "lldp",
            "--probe-results",
            "probes",
            "--macs",
            "macs.txt",
        ],
        1,
    );
    let out = b
        .fnn(&["verify"])
        .args(QUICK)
        .args([
            "--table",
            "eight.txt",
            "--results",
            "probes",
            "--lldp",
            "lldp",
            "--macs",
            "macs.txt",
            "--json",
        ])
        .assert()
        .code(1);
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["probes"]["findings"][0]["kind"].as_str(), Some("swapped"), "{v}");
    let lldp = v["lldp"]["findings"].as_array().unwrap();
    assert_eq!(lldp.len(), 2, "{v}");
    assert_eq!(lldp[0]["cable"]["seen_switch"].as_str(), Some("sw5"), "{v}");
    assert_eq!(lldp[0]["cable"]["seen_port"].as_str(), Some("2"), "{v}");
}

/// A namespace of this test's own (named as emulate's are, so CI's
/// leftover check sees it), removed on every path.
struct Netns(String);

impl Netns {
    fn new() -> Netns {
        let tag: String = tempfile::Builder::new()
            .prefix("")
            .tempfile()
            .unwrap()
            .path()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .take(4)
            .collect();
        let name = format!("fe{tag:0<4}-by-mac");
        ip(&["netns", "add", &name]);
        Netns(name)
    }
}

impl Drop for Netns {
    fn drop(&mut self) {
        let _ = std::process::Command::new("ip")
            .args(["netns", "del", &self.0])
            .status();
    }
}

fn ip(args: &[&str]) -> String {
    let out = std::process::Command::new("ip").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "ip {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The discovery named n0's NICs enp1s0f0, enp1s0f1 and enp2s0f0; at
/// boot the machine calls them ens9, ens8 and ens7 (a new kernel, a moved
/// card): the setup script finds each by its MAC and gives each its
/// address all the same.
#[test]
fn a_setup_script_finds_its_nics_by_mac_whatever_they_are_called() {
    if !common::machine_has(
        "cabling::a_setup_script_finds_its_nics_by_mac_whatever_they_are_called",
        NETWORK,
    ) {
        return;
    }
    let _turn = crate::testbed_turn();
    let b = Bench::new();
    let mac = |pc: usize, nic: usize| format!("02:aa:00:00:{pc:02x}:{nic:02x}");
    let mut discovery = String::new();
    for pc in 0..8 {
        for (nic, name) in NAMES.split(',').enumerate() {
            discovery.push_str(&format!("n{pc} {name} {}\n", mac(pc, nic)));
        }
    }
    std::fs::write(b.dir.path().join("macs.txt"), discovery).unwrap();
    b.fnn(&["export"])
        .args(QUICK)
        .args([
            "--table",
            "eight.txt",
            "--macs",
            "macs.txt",
            "--only",
            "routing",
            "--out",
            "out",
        ])
        .assert()
        .success();
    let ns = Netns::new();
    let booted = ["ens9", "ens8", "ens7"];
    for (nic, name) in booted.iter().enumerate() {
        let peer = format!("peer{nic}");
        ip(&[
            "-n",
            &ns.0,
            "link",
            "add",
            name,
            "address",
            &mac(0, nic),
            "type",
            "veth",
            "peer",
            "name",
            &peer,
        ]);
    }
    let script = b.dir.path().join("out/routing/scripts/fnn-setup-n0.sh");
    let ran = std::process::Command::new("ip")
        .args(["netns", "exec", &ns.0, "sh"])
        .arg(&script)
        .output()
        .unwrap();
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    // n0 is on switches 0, 1 and 2: 10.1.0.1, 10.2.0.1, 10.3.0.1.
    for (nic, name) in booted.iter().enumerate() {
        let addrs = ip(&["-n", &ns.0, "-o", "-4", "addr", "show", "dev", name]);
        assert!(
            addrs.contains(&format!("inet 10.{}.0.1/16", nic + 1)),
            "{name}: {addrs}"
        );
    }
    let neighbours = ip(&["-n", &ns.0, "neigh", "show", "dev", "ens9", "nud", "permanent"]);
    assert!(
        neighbours.contains(&mac(1, 0)),
        "n1's NIC 0, on switch 0 with n0's: {neighbours}"
    );
}
