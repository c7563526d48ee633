//! The translators check meaning, not only presence: routes go through a
//! switch both PCs are on, NIC load is balanced, every advanced-routing word
//! decodes to its tuple, labels list each PC's switches in NIC order, a
//! rewire plan turns the old design into the new one.

use crate::common;

use fnn_tui::design::{Design, bits, parse_table};
use fnn_tui::export::{Options, labels, rewire, write_all};
use fnn_tui::ga::Engine;
use fnn_tui::metrics::Metrics;
use fnn_tui::report::{Report, RunInfo};
use fnn_tui::routing::{BasicRouting, advanced};
use fnn_tui::spec::{Cluster, Spec};
use proptest::prelude::*;

fn klat2() -> (Cluster, Design) {
    let cluster = Spec::klat2().resolve().unwrap();
    let e = Engine::new(cluster.clone());
    let e = common::run(e, 300);
    let d = e.best_design();
    (cluster, d)
}

#[test]
fn basic_routes_use_a_shared_switch_and_balance_nic_load() {
    let (c, d) = klat2();
    let r = BasicRouting::new(&c, &d);
    let p = d.pcs();
    for a in 0..p {
        for b in 0..p {
            if a != b {
                let s = r.via(a, b).expect("a universal FNN routes every pair");
                assert!(d.has(a, s) && d.has(b, s), "{a}->{b} via {s}");
                assert_eq!(r.via(b, a), Some(s), "routes are symmetric");
            }
        }
    }
    // Against always taking the lowest shared switch, the paper's order
    // (fewest alternatives first, least used NICs) spreads the load.
    let mut naive: Vec<Vec<u32>> = (0..p).map(|pc| vec![0; d.nics_used(pc) as usize]).collect();
    for a in 0..p {
        for b in a + 1..p {
            let s = bits::ones(d.mask(a)).find(|&s| d.has(b, s)).unwrap();
            naive[a][d.nic_on(a, s).unwrap()] += 1;
            naive[b][d.nic_on(b, s).unwrap()] += 1;
        }
    }
    let spread = |l: &Vec<Vec<u32>>| {
        l.iter()
            .map(|n| n.iter().max().unwrap() - n.iter().min().unwrap())
            .sum::<u32>()
    };
    let peak = |l: &Vec<Vec<u32>>| l.iter().flatten().copied().max().unwrap();
    assert!(
        spread(&r.nic_load) < spread(&naive),
        "{} vs {}",
        spread(&r.nic_load),
        spread(&naive)
    );
    assert!(peak(&r.nic_load) <= peak(&naive));
    let total: u32 = r.nic_load.iter().flatten().sum();
    assert_eq!(
        total as usize,
        p * (p - 1),
        "every pair's path uses one NIC at each end"
    );
}

#[test]
fn every_advanced_word_decodes_to_its_tuple_and_the_tuple_is_right() {
    let (_, d) = klat2();
    let bits = advanced::field_bits(4);
    for a in 0..d.pcs() {
        let mine = d.switches_of(a);
        for b in (0..d.pcs()).filter(|&b| b != a) {
            let t = advanced::tuple(&d, a, b);
            assert_eq!(advanced::decode(advanced::encode(&t, bits), t.len(), bits), t);
            for (i, &v) in t.iter().enumerate() {
                let s = mine[i];
                match v {
                    0 => assert!(!d.has(b, s)),
                    n => assert_eq!(d.switches_of(b)[n as usize - 1], s),
                }
            }
            assert_eq!(t.iter().filter(|&&v| v > 0).count() as u32, d.links(a, b));
        }
    }
    assert_eq!(
        advanced::sizes(&d),
        (128, 1536),
        "KLAT2: 128 bytes a node, 1.5 KB with MACs"
    );
}

#[test]
fn labels_list_each_pcs_switches_in_nic_order() {
    let (c, d) = klat2();
    let html = labels::html(&c, &d);
    for pc in 0..d.pcs() {
        let start = html.find(&format!("id=\"pc-{pc}\"")).unwrap();
        let end = html[start..].find("</div></div>").unwrap() + start;
        let listed: Vec<usize> = html[start..end]
            .split("data-switch=\"")
            .skip(1)
            .map(|s| s[..s.find('"').unwrap()].parse().unwrap())
            .collect();
        assert_eq!(listed, d.switches_of(pc), "label of PC {pc}");
    }
    assert!(
        html.contains("▲▼"),
        "KLAT2's transparent cables carry the double triangle"
    );
    assert_eq!(html.matches("class=\"label\"").count(), 64);
    assert_eq!(html.matches("class=\"label spare\"").count(), 2, "the two hot spares");
    let text = labels::text(&c, &d);
    let line = text.lines().find(|l| l.starts_with("k05 ")).unwrap();
    for (nic, s) in d.switches_of(5).iter().enumerate() {
        assert!(
            line.contains(&format!("NIC {nic}: ")) && line.contains(&format!("(switch {s})")),
            "{line}"
        );
    }
}

#[test]
fn exports_write_every_artifact_and_the_scripts_parse() {
    let (c, d) = klat2();
    let dir = tempfile::tempdir().unwrap();
    let report = Report::new(&c, Metrics::compute(&d, &c), RunInfo::default());
    let files = write_all(dir.path(), &c, &d, &report, &Options::default()).unwrap();
    // Per PC: a setup, a probe and a hosts file, and the networkd form
    // (a .link and a .network per NIC, the announcement script); the two
    // units; the switches' port plan beside the cut list.
    assert_eq!(files.len(), 2 + 2 + 3 + 3 * 64 + 64 * (2 * 4 + 1) + 2 + 4 + 2 + 3 + 1);
    let mac_header = std::fs::read_to_string(dir.path().join("advanced/fnn_mac_routes.h")).unwrap();
    let reaching: u32 = (0..64)
        .map(|a| (0..64).filter(|&b| b != a).map(|b| d.links(a, b)).sum::<u32>())
        .sum();
    assert_eq!(
        mac_header.matches("{0x").count() as u32,
        reaching,
        "one MAC per NIC that reaches the destination"
    );
    let table = std::fs::read_to_string(dir.path().join("switches.txt")).unwrap();
    assert_eq!(parse_table(&table, "t", 64, 9).unwrap(), d);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("design.json")).unwrap()).unwrap();
    assert_eq!(json["nics"][5].as_array().unwrap().len(), 4);
    let csv = std::fs::read_to_string(dir.path().join("cables.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 256);
    let dot = std::fs::read_to_string(dir.path().join("design.dot")).unwrap();
    assert_eq!(dot.matches(" -- ").count(), 256);
    let script = dir.path().join("routing/scripts/fnn-setup-k05.sh");
    let ok = std::process::Command::new("sh")
        .arg("-n")
        .arg(&script)
        .status()
        .unwrap();
    assert!(ok.success(), "the setup script is valid shell");
    let text = std::fs::read_to_string(&script).unwrap();
    let shared: usize = (0..64)
        .filter(|&b| b != 5)
        .map(|b| d.switches_of(5).iter().filter(|&&s| d.nic_on(b, s).is_some()).count())
        .sum();
    // Neighbour lines: address, MAC, our NIC, then whose address it is.
    let neighbour_lines = text
        .lines()
        .filter(|l| l.starts_with("10.") && l.split_whitespace().nth(3) == Some("#"))
        .count();
    assert_eq!(
        neighbour_lines, shared,
        "every other PC pre-loaded, on every switch it shares"
    );
    assert_eq!(text.matches("(route)").count(), 63, "one route a neighbour");
    assert_eq!(
        text.matches("/address\")\" dev").count(),
        4,
        "each NIC announces itself to its switch"
    );
    let probe = dir.path().join("routing/probe/fnn-probe-k05.sh");
    let ok = std::process::Command::new("sh").arg("-n").arg(&probe).status().unwrap();
    assert!(ok.success(), "the probe script is valid shell");
    let text = std::fs::read_to_string(&probe).unwrap();
    let neighbours: usize = d.switches_of(5).iter().map(|&s| d.pcs_on_switches()[s].len() - 1).sum();
    assert_eq!(
        text.matches("  probe \"$n").count(),
        neighbours,
        "one probe per neighbour per NIC"
    );
    let header = std::fs::read_to_string(dir.path().join("advanced/fnn_routes.h")).unwrap();
    assert!(header.contains("#define FNN_NIC(word, i)") && header.contains("uint16_t"));
}

fn arb_design() -> impl Strategy<Value = (Design, Design)> {
    (2usize..20, 1usize..8)
        .prop_flat_map(|(pcs, switches)| {
            let cells = prop::collection::vec(any::<bool>(), pcs * switches);
            (Just(pcs), Just(switches), cells.clone(), cells)
        })
        .prop_map(|(pcs, switches, a, b)| {
            let make = |cells: Vec<bool>| {
                let mut d = Design::new(pcs, switches);
                for (i, on) in cells.into_iter().enumerate() {
                    if on {
                        d.connect(i / switches, i % switches);
                    }
                }
                d
            };
            (make(a), make(b))
        })
}

proptest! {
    #[test]
    fn a_rewire_plan_turns_the_old_design_into_the_new(designs in arb_design()) {
        let (old, new) = designs;
        let p = rewire::plan(&old, &new).unwrap();
        prop_assert_eq!(rewire::apply(&old, &p), rewire::relabelled(&new, &p));
        // Relabelling never needs more moves than keeping the numbering.
        let identity: usize = (0..old.pcs()).map(|pc| {
            let (a, b) = (old.switches_of(pc), new.switches_of(pc));
            a.iter().filter(|s| !b.contains(s)).count().max(b.iter().filter(|s| !a.contains(s)).count())
        }).sum();
        prop_assert!(p.moves.len() <= identity);
    }
}

fn assert_packed(p: &fnn_tui::export::racks::Placement) {
    let mut used = vec![0u32; p.racks];
    let mut cells = std::collections::HashSet::new();
    for it in &p.items {
        used[it.rack] += it.units;
        for u in it.unit..it.unit + it.units {
            assert!(u < p.units, "{it:?} above the rack top");
            assert!(cells.insert((it.rack, u)), "two items in rack {} unit {u}", it.rack);
        }
    }
    assert!(used.iter().all(|&u| u <= p.units), "{used:?}");
}

#[test]
fn tall_switches_keep_their_room_when_pcs_fill_the_racks() {
    // 1024 1U PCs and twenty-one 8U switch fabrics in 30 racks of 42U: an
    // even spread of PCs would leave every rack 7U, too short for any switch.
    let spec = fnn_tui::spec::Spec::load(std::path::Path::new("assets/specs/cluster-1024.toml")).unwrap();
    let c = spec.resolve().unwrap();
    let d = fnn_tui::design::constructions::best(1024, 5).unwrap().design;
    let p = fnn_tui::export::racks::place(&c, &d).unwrap();
    assert_packed(&p);
    assert_eq!(p.items.len(), 1024 + 21 + 1);
}

/// Two `cables.csv` with different schemas (numeric PCs and ports, no
/// length; names and lengths, no port): one cut list with everything a
/// cable needs, its port as the switch's port sheet says and its length as
/// the rack placement estimates.
#[test]
fn one_cut_list_names_both_ends_of_every_cable_with_its_length() {
    use fnn_tui::export::racks;
    let (c, d) = klat2();
    let dir = tempfile::tempdir().unwrap();
    let report = Report::new(&c, Metrics::compute(&d, &c), RunInfo::default());
    write_all(dir.path(), &c, &d, &report, &Options::default()).unwrap();
    assert!(!dir.path().join("racks/cables.csv").exists(), "one cut list only");
    let p = racks::place(&c, &d).unwrap();
    let text = std::fs::read_to_string(dir.path().join("cables.csv")).unwrap();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let head: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        head,
        [
            "pc",
            "nic",
            "switch",
            "port",
            "color",
            "label",
            "length_m",
            "crosses_racks"
        ]
    );
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 256);
    let mut ports_seen = std::collections::HashSet::new();
    for (row, run) in rows.iter().zip(&p.cables) {
        let (pc, nic, sw) = (run.pc, run.nic, run.switch);
        assert_eq!(&row[0], c.pc_name(pc));
        assert_eq!(row[1].parse::<usize>().unwrap(), nic);
        assert_eq!(row[2].parse::<usize>().unwrap(), sw);
        let port: usize = row[3].parse().unwrap();
        assert_eq!(Some(port), labels::port_of(&d, sw, pc), "the port sheet's port");
        assert!(port >= 1, "ports count from 1");
        assert!(ports_seen.insert((sw, port)), "one cable per switch port");
        assert_eq!(
            &row[5],
            format!("{} NIC {nic} - switch {sw} port {port}", c.pc_name(pc))
        );
        assert_eq!(row[6].parse::<f64>().unwrap(), run.length_m);
        assert_eq!(row[7].parse::<bool>().unwrap(), run.crosses);
    }
    let labels = std::fs::read_to_string(dir.path().join("labels.txt")).unwrap();
    let (pc, sw) = (0, d.switches_of(0)[0]);
    let port = labels::port_of(&d, sw, pc).unwrap();
    assert!(
        labels.contains(&format!("port {port:>3}  {} NIC 0", c.pc_name(pc))),
        "the cut list and the port sheets agree"
    );
}

#[test]
fn rack_placement_never_overfills_a_rack_and_lists_every_cable() {
    use fnn_tui::export::racks;
    let (c, d) = klat2();
    let p = racks::place(&c, &d).unwrap();
    assert_packed(&p);
    assert_eq!(p.items.len(), 64 + 9 + 1, "PCs, FNN switches and the uplink switch");
    assert_eq!(p.cables.len(), 256);
    for r in &p.cables {
        assert!(d.has(r.pc, r.switch));
        assert_eq!(d.switches_of(r.pc)[r.nic], r.switch);
        assert!(r.length_m >= 1.0);
    }
    let crossing = p.cables.iter().filter(|r| r.crosses).count();
    assert_eq!(crossing, p.crossings);
    // The search does better than the PCs in plain order with every switch
    // in one rack.
    assert!(p.crossings < 200, "{} crossings", p.crossings);
    let svg = racks::svg(&p, &c);
    assert_eq!(svg.matches("<rect").count(), 5 + 74);
    // Too little space is an error, not an overfull rack.
    let mut small = c.clone();
    small.racks.count = 2;
    assert!(racks::place(&small, &d).unwrap_err().to_string().contains("rack units"));
}
