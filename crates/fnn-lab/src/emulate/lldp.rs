//! LLDP in the rehearsal: every switch port announces who it is, as a
//! managed switch does (system name = the switch's name from the port
//! plan, port id = its port number as the labels print it), and the real
//! `lldpd` runs in every PC's namespace, so `lldpcli -f json show
//! neighbors` on each PC says where each of its cables really landed —
//! wrong ones included, when the wiring was built with faults.
//!
//! A Linux bridge never forwards LLDP (its group address is link-local),
//! so each announcement reaches only the NIC on that port, as on a switch.

use super::commands::{run, run_until};
use super::wiring::Wiring;
use super::{EmulateError, Options, failed, io};
use fnn_core::escape::sh_word;
use fnn_core::spec::Cluster;
use fnn_export::export::cut_list::switch_name;
use fnn_export::routing::tools::Tool;
use std::path::Path;
use std::time::{Duration, Instant};

/// LLDP's destination: the nearest-bridge group address.
const NEAREST_BRIDGE: [u8; 6] = [0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e];
const ETHERTYPE: u16 = 0x88cc;
/// How long every lldpd may take to hear each of its NICs' switch port.
const HEAR_WAIT: Duration = Duration::from_secs(20);

/// The programs this needs, and their Debian package.
pub(crate) const NEEDS: &[Tool] = &[
    Tool {
        program: "lldpd",
        package: "lldpd",
    },
    Tool {
        program: "lldpcli",
        package: "lldpd",
    },
];

/// One LLDPDU as switch `switch`'s port `port` sends it: chassis id and
/// system name the switch's name, port id the port number (both "locally
/// assigned"), the port's description, a TTL of 120 s.
pub(crate) fn lldpdu(switch: usize, port: usize, src: [u8; 6]) -> Vec<u8> {
    let name = switch_name(switch);
    let port_id = port.to_string();
    let mut f = Vec::with_capacity(64);
    f.extend_from_slice(&NEAREST_BRIDGE);
    f.extend_from_slice(&src);
    f.extend_from_slice(&ETHERTYPE.to_be_bytes());
    let mut tlv = |kind: u16, value: &[u8]| {
        f.extend_from_slice(&((kind << 9) | value.len() as u16).to_be_bytes());
        f.extend_from_slice(value);
    };
    tlv(1, &[&[7u8][..], name.as_bytes()].concat());
    tlv(2, &[&[7u8][..], port_id.as_bytes()].concat());
    tlv(3, &120u16.to_be_bytes());
    tlv(4, format!("port {port}").as_bytes());
    tlv(5, name.as_bytes());
    tlv(0, &[]);
    f.resize(f.len().max(60), 0);
    f
}

/// A raw socket that sends whole frames out of a given link.
struct Sender(socket2::Socket);

impl Sender {
    fn open() -> std::io::Result<Sender> {
        // Protocol 0: the socket sends only, it receives nothing.
        let socket = socket2::Socket::new(socket2::Domain::PACKET, socket2::Type::RAW, None)?;
        Ok(Sender(socket))
    }

    fn send(&self, ifindex: i32, frame: &[u8]) -> std::io::Result<()> {
        super::raw_socket::send_frame(&self.0, ifindex, NEAREST_BRIDGE, frame)
    }
}

/// The lldpd daemons of a run, stopped when dropped (on every path).
struct Daemons(Vec<std::process::Child>);

impl Drop for Daemons {
    /// Asked to stop first, so each reaps its own privilege-separated
    /// child; killed when it has not within a second.
    fn drop(&mut self) {
        for c in &self.0 {
            let _ = rustix::process::kill_process(rustix::process::Pid::from_child(c), rustix::process::Signal::TERM);
        }
        let deadline = Instant::now() + Duration::from_secs(1);
        for c in &mut self.0 {
            while Instant::now() < deadline && matches!(c.try_wait(), Ok(None)) {
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// lldpd in each namespace, listening on its socket; stopped when the
/// returned daemons are dropped.
fn start_daemons(namespaces: &[String], sockets: &[String]) -> Result<Daemons, EmulateError> {
    let mut daemons = Daemons(Vec::new());
    for (ns, socket) in namespaces.iter().zip(sockets) {
        // lldpd chroots into /run/lldpd: a private one per namespace, in a
        // /run of its own, so nothing is made in the machine's /run.
        let script = format!(
            "mount --make-rprivate /\n\
             mount -t tmpfs tmpfs /run && mkdir /run/lldpd\n\
             exec lldpd -d -u {} -L /bin/true\n",
            sh_word(socket)
        );
        let child = super::commands::command("ip")
            .args(["netns", "exec", ns, "unshare", "-m", "sh", "-c", &script])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map_err(failed(format!("lldpd in {ns}")))?;
        daemons.0.push(child);
    }
    Ok(daemons)
}

/// Each plugged switch port's host-side interface and the LLDP frame it
/// announces.
fn switch_ports(w: &Wiring, host_end: &dyn Fn(usize, usize) -> String) -> Result<Vec<(i32, Vec<u8>)>, EmulateError> {
    let mut ports = Vec::new();
    for (pc, cables) in w.cables.iter().enumerate() {
        for (nic, cable) in cables.iter().enumerate() {
            if let (Some(s), Some(port)) = (*cable, w.ports[pc][nic]) {
                let index = super::testbed::ifindex(&host_end(pc, nic))?;
                let src = [0x02, 0xfe, (s >> 8) as u8, s as u8, (port >> 8) as u8, port as u8];
                ports.push((index, lldpdu(s, port, src)));
            }
        }
    }
    Ok(ports)
}

/// The PCs that did not hear every switch port in time.
fn deaf(c: &Cluster, heard: &[Option<String>]) -> EmulateError {
    let deaf: Vec<String> = (0..heard.len())
        .filter(|&p| heard[p].is_none())
        .map(|p| c.pc_name(p))
        .collect();
    EmulateError::Setup {
        command: "lldpd in every PC".into(),
        reason: format!(
            "{} did not hear every switch port within {} s: {}",
            fnn_core::words::count(deaf.len(), "PC"),
            HEAR_WAIT.as_secs(),
            deaf.join(", ")
        ),
    }
}

/// Starts lldpd in every PC's namespace, announces every plugged switch
/// port, waits until each PC has heard each of its plugged NICs' ports,
/// and writes each PC's `lldpcli -f json show neighbors` to
/// `dir/fnn-lldp-PC.json`, as `verify --lldp` reads them.
pub fn collect(
    c: &Cluster,
    w: &Wiring,
    namespaces: &[String],
    host_end: &dyn Fn(usize, usize) -> String,
    work: &Path,
    dir: &Path,
    o: &Options,
) -> Result<(), EmulateError> {
    let sockets: Vec<String> = (0..namespaces.len())
        .map(|pc| work.join(format!("lldpd-{pc}.socket")).display().to_string())
        .collect();
    let _daemons = start_daemons(namespaces, &sockets)?;
    let sender = Sender::open().map_err(failed("an AF_PACKET socket to send LLDP".into()))?;
    let ports = switch_ports(w, host_end)?;
    let plugged: Vec<usize> = w.cables.iter().map(|c| c.iter().flatten().count()).collect();
    let mut heard = vec![None; namespaces.len()];
    let mut resumed = vec![false; namespaces.len()];
    let deadline = Instant::now() + HEAR_WAIT;
    loop {
        o.check()?;
        for (pc, socket) in sockets.iter().enumerate() {
            // lldpd starts paused until lldpcli has configured it.
            if !resumed[pc] && Path::new(socket).exists() {
                resumed[pc] = run(&["lldpcli", "-u", socket, "resume"]).is_ok();
            }
        }
        for (index, frame) in &ports {
            sender
                .send(*index, frame)
                .map_err(failed("sending LLDP on a switch port".into()))?;
        }
        std::thread::sleep(Duration::from_millis(300));
        for pc in 0..namespaces.len() {
            if heard[pc].is_some() || !resumed[pc] {
                continue;
            }
            let json = run_until(
                &["lldpcli", "-u", &sockets[pc], "-f", "json", "show", "neighbors"],
                o.cancel,
            )?;
            if crate::verify::lldp::parse(&json, "").map_or(0, |n| n.len()) >= plugged[pc] {
                heard[pc] = Some(json);
            }
        }
        if heard.iter().all(Option::is_some) {
            break;
        }
        if Instant::now() > deadline {
            return Err(deaf(c, &heard));
        }
    }
    // The user's folder, maybe shared: opened once, never through a link
    // another user could change, and written into by its handle.
    let results = fnn_core::fs::make_dirs(dir).map_err(|e| io(dir, e))?;
    for (pc, json) in heard.into_iter().enumerate() {
        let file = format!("fnn-lldp-{}.json", c.pc_name(pc));
        fnn_core::atomic::write_atomic_in(&results, &file, json.unwrap_or_default().as_bytes())
            .map_err(|e| io(&dir.join(&file), e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The frame is what lldpd reads back: the switch's name as chassis
    /// and system name, the port number as port id.
    #[test]
    fn an_lldpdu_carries_the_switch_name_and_port_number() {
        let f = lldpdu(3, 7, [2, 0, 0, 0, 0, 1]);
        assert_eq!(&f[..6], &NEAREST_BRIDGE);
        assert_eq!(u16::from_be_bytes([f[12], f[13]]), ETHERTYPE);
        // Chassis id TLV: type 1, length 4, subtype 7, "sw3".
        assert_eq!(&f[14..20], &[0x02, 0x04, 7, b's', b'w', b'3']);
        // Port id TLV: type 2, length 2, subtype 7, "7".
        assert_eq!(&f[20..24], &[0x04, 0x02, 7, b'7']);
        assert!(f.len() >= 60);
    }
}
