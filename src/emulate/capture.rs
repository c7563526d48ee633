//! Counting the frames every bridge port carries, with one AF_PACKET
//! socket in the host's namespace (where every bridge and its ports live):
//! ARP, broadcast and multicast frames the NICs send, and unicast frames a
//! bridge delivers to a NIC they are not addressed to (flooded because the
//! bridge did not know where the destination was). The ping requests are
//! kept so the caller can check each crossed a switch both PCs share.

use std::collections::HashMap;
use std::net::Ipv4Addr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

/// What a bridge port is attached to.
#[derive(Clone, Debug)]
pub struct Port {
    /// Index of the bridge (FNN switch s, or the uplink switch last).
    pub bridge: usize,
    /// The MAC of the NIC at the other end, or None for an uplink port.
    pub nic_mac: Option<[u8; 6]>,
}

/// Frames by kind on one bridge.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Frames {
    /// ARP frames sent by the NICs (requests and replies).
    pub arp: u64,
    /// Broadcast frames sent by the NICs.
    pub broadcast: u64,
    /// Multicast frames sent by the NICs.
    pub multicast: u64,
    /// Unicast frames the bridge delivered to a NIC they were not
    /// addressed to: copies of a frame flooded as unknown unicast.
    pub flooded: u64,
}

impl Frames {
    pub fn add(&mut self, o: &Frames) {
        self.arp += o.arp;
        self.broadcast += o.broadcast;
        self.multicast += o.multicast;
        self.flooded += o.flooded;
    }
}

/// Where one ping request (source, destination address) was seen: the
/// bridges it entered from a NIC and the bridges that delivered it to the
/// NIC it was addressed to.
#[derive(Clone, Debug, Default)]
pub struct Path {
    pub entered: Vec<usize>,
    pub delivered: Vec<usize>,
}

/// What a capture saw.
#[derive(Debug, Default)]
pub struct Seen {
    pub frames: Vec<Frames>,
    pub pings: HashMap<(Ipv4Addr, Ipv4Addr), Path>,
    /// Frames the kernel dropped because the socket was full: when not
    /// zero, the counts are a lower bound.
    pub dropped: u64,
}

/// A running capture; [`Capture::finish`] stops it and returns the counts.
pub struct Capture {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Seen>,
    fd: i32,
}

const PACKET_OUTGOING: u8 = 4;

impl Capture {
    /// Starts counting on the given ports (by interface index).
    pub fn start(ports: HashMap<i32, Port>, bridges: usize) -> std::io::Result<Capture> {
        // SAFETY: plain socket calls; the descriptor is owned by this
        // Capture and closed in `finish`.
        let fd = unsafe {
            libc::socket(
                libc::AF_PACKET,
                libc::SOCK_RAW,
                i32::from((libc::ETH_P_ALL as u16).to_be()),
            )
        };
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        let timeout = libc::timeval {
            tv_sec: 0,
            tv_usec: 50_000,
        };
        let buf: libc::c_int = 8 << 20;
        // SAFETY: the option values live across the calls and have the sizes given.
        unsafe {
            libc::setsockopt(
                fd,
                libc::SOL_SOCKET,
                libc::SO_RCVTIMEO,
                (&timeout as *const libc::timeval).cast(),
                size_of::<libc::timeval>() as u32,
            );
            libc::setsockopt(
                fd,
                libc::SOL_SOCKET,
                libc::SO_RCVBUF,
                (&buf as *const libc::c_int).cast(),
                size_of::<libc::c_int>() as u32,
            );
        }
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || read_frames(fd, &ports, bridges, &flag));
        Ok(Capture { stop, thread, fd })
    }

    /// Stops the capture and returns what it saw.
    pub fn finish(self) -> Seen {
        // Frames already queued for the socket are still read: the reader
        // stops at the first timeout after the flag is set.
        self.stop.store(true, Ordering::Relaxed);
        let mut seen = self.thread.join().unwrap_or_default();
        seen.dropped = dropped(self.fd);
        // SAFETY: the reader thread has ended; nobody else uses the descriptor.
        unsafe { libc::close(self.fd) };
        seen
    }
}

fn dropped(fd: i32) -> u64 {
    let mut st = libc::tpacket_stats {
        tp_packets: 0,
        tp_drops: 0,
    };
    let mut len = size_of::<libc::tpacket_stats>() as u32;
    // SAFETY: `st` has the size the kernel is told.
    let r = unsafe {
        libc::getsockopt(
            fd,
            libc::SOL_PACKET,
            libc::PACKET_STATISTICS,
            (&mut st as *mut libc::tpacket_stats).cast(),
            &mut len,
        )
    };
    if r == 0 { u64::from(st.tp_drops) } else { 0 }
}

fn read_frames(fd: i32, ports: &HashMap<i32, Port>, bridges: usize, stop: &AtomicBool) -> Seen {
    let mut seen = Seen {
        frames: vec![Frames::default(); bridges],
        ..Seen::default()
    };
    let mut buf = [0u8; 128];
    loop {
        // SAFETY: an all-zero sockaddr_ll is valid; recvfrom writes at most
        // the lengths given.
        let mut addr: libc::sockaddr_ll = unsafe { std::mem::zeroed() };
        let mut len = size_of::<libc::sockaddr_ll>() as u32;
        let n = unsafe {
            libc::recvfrom(
                fd,
                buf.as_mut_ptr().cast(),
                buf.len(),
                0,
                (&mut addr as *mut libc::sockaddr_ll).cast(),
                &mut len,
            )
        };
        if n < 0 {
            if stop.load(Ordering::Relaxed) {
                return seen;
            }
            continue;
        }
        if let Some(port) = ports.get(&addr.sll_ifindex) {
            count(&mut seen, port, addr.sll_pkttype == PACKET_OUTGOING, &buf[..n as usize]);
        }
    }
}

/// One frame on a host-side port: outgoing means the bridge sent it
/// towards the NIC, otherwise the NIC (or the uplink) sent it in.
fn count(seen: &mut Seen, port: &Port, outgoing: bool, f: &[u8]) {
    if f.len() < 14 {
        return;
    }
    let dst: [u8; 6] = f[0..6].try_into().unwrap_or_default();
    let ethertype = u16::from_be_bytes([f[12], f[13]]);
    let frames = &mut seen.frames[port.bridge];
    let broadcast = dst == [0xff; 6];
    let multicast = dst[0] & 1 == 1 && !broadcast;
    // Frames sent count once, where a NIC puts them on the bridge.
    if !outgoing && port.nic_mac.is_some() {
        frames.arp += u64::from(ethertype == 0x0806);
        frames.broadcast += u64::from(broadcast);
        frames.multicast += u64::from(multicast);
    }
    let Some(nic) = port.nic_mac else {
        return;
    };
    if outgoing && !broadcast && !multicast && dst != nic {
        frames.flooded += 1;
    }
    if let Some(key) = ping_request(f) {
        let path = seen.pings.entry(key).or_default();
        if !outgoing {
            path.entered.push(port.bridge);
        } else if dst == nic {
            path.delivered.push(port.bridge);
        }
    }
}

/// (source, destination) of an IPv4 ICMP echo request.
fn ping_request(f: &[u8]) -> Option<(Ipv4Addr, Ipv4Addr)> {
    if u16::from_be_bytes([f[12], f[13]]) != 0x0800 || f.len() < 34 {
        return None;
    }
    let ip = &f[14..];
    let ihl = usize::from(ip[0] & 0x0f) * 4;
    if ip[9] != 1 || ip.len() <= ihl || ip[ihl] != 8 {
        return None;
    }
    let src = Ipv4Addr::new(ip[12], ip[13], ip[14], ip[15]);
    let dst = Ipv4Addr::new(ip[16], ip[17], ip[18], ip[19]);
    Some((src, dst))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(dst: [u8; 6], ethertype: u16, icmp_type: Option<u8>) -> Vec<u8> {
        let mut f = dst.to_vec();
        f.extend([2, 0, 0, 0, 0, 1]);
        f.extend(ethertype.to_be_bytes());
        if let Some(t) = icmp_type {
            let mut ip = vec![0x45, 0, 0, 28, 0, 0, 0, 0, 64, 1, 0, 0, 10, 1, 0, 1, 10, 1, 0, 2];
            ip.extend([t, 0, 0, 0]);
            f.extend(ip);
        }
        f
    }

    #[test]
    fn frames_are_counted_by_kind_and_pings_by_path() {
        let nic = [2, 0, 0, 0, 0, 2];
        let port = Port {
            bridge: 0,
            nic_mac: Some(nic),
        };
        let mut seen = Seen {
            frames: vec![Frames::default()],
            ..Seen::default()
        };
        count(&mut seen, &port, false, &frame([0xff; 6], 0x0806, None));
        count(&mut seen, &port, false, &frame([0x33, 0x33, 0, 0, 0, 1], 0x86dd, None));
        // A unicast frame for another NIC delivered here was flooded.
        count(&mut seen, &port, true, &frame([2, 0, 0, 0, 0, 9], 0x0800, Some(8)));
        count(&mut seen, &port, true, &frame(nic, 0x0800, Some(8)));
        count(&mut seen, &port, false, &frame([2, 0, 0, 0, 0, 9], 0x0800, Some(8)));
        count(&mut seen, &port, false, &frame([2, 0, 0, 0, 0, 9], 0x0800, Some(0)));
        assert_eq!(
            seen.frames[0],
            Frames {
                arp: 1,
                broadcast: 1,
                multicast: 1,
                flooded: 1
            }
        );
        let p = &seen.pings[&(Ipv4Addr::new(10, 1, 0, 1), Ipv4Addr::new(10, 1, 0, 2))];
        // One request entered, one was delivered to its NIC; the echo reply
        // (type 0) and the flooded copy are not paths.
        assert_eq!((p.entered.len(), p.delivered.len()), (1, 1));
    }
}
