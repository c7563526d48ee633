//! Counting the frames every bridge port carries, with one AF_PACKET
//! socket in the host's namespace (where every bridge and its ports live):
//! ARP, broadcast and multicast frames the NICs send, and unicast frames a
//! bridge delivers to a NIC they are not addressed to (flooded because the
//! bridge did not know where the destination was). The ping requests are
//! kept so the caller can check each crossed a switch both PCs share.

use std::collections::HashMap;
use std::net::Ipv4Addr;
use std::os::fd::AsRawFd;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
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

/// One sighting of a ping request: its (source, destination) as one key,
/// the bridge, and whether it was entering it (else being delivered).
/// Sightings are only appended while frames arrive (a million pairs make
/// millions of them) and grouped once, when the capture is read.
type Sighting = (u64, u32, bool);

/// What a capture saw.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    pub frames: Vec<Frames>,
    /// Sorted by key once the capture has finished.
    sightings: Vec<Sighting>,
    /// Frames the kernel dropped because the socket was full: when not
    /// zero, the counts are a lower bound.
    pub dropped: u64,
}

impl Seen {
    /// Where the request from `src` to `dst` was seen, if anywhere.
    pub fn path(&self, src: Ipv4Addr, dst: Ipv4Addr) -> Option<Path> {
        let key = ping_key(src, dst);
        let from = self.sightings.partition_point(|s| s.0 < key);
        let mine = self.sightings[from..].iter().take_while(|s| s.0 == key);
        let mut path = Path::default();
        for &(_, bridge, entering) in mine {
            let list = if entering {
                &mut path.entered
            } else {
                &mut path.delivered
            };
            list.push(bridge as usize);
        }
        (from < self.sightings.len() && self.sightings[from].0 == key).then_some(path)
    }
}

#[cfg(test)]
impl Seen {
    /// What a capture of `bridges` bridges saw: these requests' sightings
    /// as (source, destination, bridge, entering), and `dropped` lost.
    pub fn made(bridges: usize, sightings: &[(Ipv4Addr, Ipv4Addr, usize, bool)], dropped: u64) -> Seen {
        let mut sightings: Vec<Sighting> = sightings
            .iter()
            .map(|&(src, dst, bridge, entering)| (ping_key(src, dst), bridge as u32, entering))
            .collect();
        sightings.sort_unstable();
        Seen {
            frames: vec![Frames::default(); bridges],
            sightings,
            dropped,
        }
    }
}

fn ping_key(src: Ipv4Addr, dst: Ipv4Addr) -> u64 {
    (u64::from(u32::from(src)) << 32) | u64::from(u32::from(dst))
}

/// A running capture; [`Capture::finish`] stops it and returns the counts.
pub(crate) struct Capture {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Seen>,
    ring: Arc<Ring>,
}

const PACKET_OUTGOING: u8 = 4;

/// The kernel writes frames into a ring shared with this process (a
/// `TPACKET_V3` receive ring), in blocks handed over whole: no system call
/// and no socket buffer per frame, so a rehearsal pinging tens of
/// thousands of pairs a second is counted without dropping any. The
/// kernel hands a block over when it is full or its timeout passes, so
/// a quiet run fills a block per timeout: many small blocks let the
/// reader be kept off the CPU for long (by a busy machine) without a
/// loss. A block of 256 KiB holds about 1,800 of the short frames kept;
/// a run gets a block per 1,024 pairs it pings (4 frames each), from 64
/// (16 MiB, over half a second of a quiet run) to 256 blocks.
const BLOCK_SIZE: usize = 256 << 10;
const MIN_BLOCKS: usize = 64;
const MAX_BLOCKS: usize = 256;
const PAIRS_PER_BLOCK: usize = 1024;
/// Set (to anything) only by tests: a ring of one page whose reader
/// reads nothing until the run ends, so the capture surely loses frames.
pub(crate) const STARVE_ENV: &str = "FNN_TUI_TEST_STARVE_CAPTURE";
/// A block the kernel has begun is handed over after this long even when
/// not full, so the last frames of a run are not left waiting.
const BLOCK_TIMEOUT_MS: u32 = 10;
/// Bytes of each frame kept: Ethernet, IPv4 and the ICMP type are all a
/// count needs.
const SNAPLEN: u32 = 96;

const TPACKET_V3: libc::c_int = 2;
const TP_STATUS_USER: u32 = 1;

/// The classic BPF program the capture socket runs on every frame of
/// this machine: keep the first [`SNAPLEN`] bytes of frames on this run's
/// bridge ports, drop the rest in the kernel. Other rehearsals, and the
/// machine's own traffic, then neither fill the ring nor count as this
/// run's losses. The ports become ranges of interface indexes (one batch
/// of links gets consecutive ones), three instructions each; past what a
/// program may hold, every frame is kept and the reader sorts them.
fn port_filter(ports: &[i32]) -> Vec<libc::sock_filter> {
    const LD_W_ABS: u16 = 0x20;
    const JGE_K: u16 = 0x35;
    const JGT_K: u16 = 0x25;
    const RET_K: u16 = 0x06;
    // SKF_AD_OFF + SKF_AD_IFINDEX: the frame's interface index.
    const IFINDEX: u32 = 0xffff_f000 + 8;
    const MOST: usize = 4096;
    let op = |code, jt, jf, k| libc::sock_filter { code, jt, jf, k };
    let ranges = index_ranges(ports);
    if ranges.is_empty() || 2 + 3 * ranges.len() > MOST {
        return vec![op(RET_K, 0, 0, SNAPLEN)];
    }
    let mut prog = vec![op(LD_W_ABS, 0, 0, IFINDEX)];
    for (lo, hi) in ranges {
        // Below `lo`: on to the next range; above `hi`: likewise; else keep.
        prog.push(op(JGE_K, 0, 2, lo));
        prog.push(op(JGT_K, 1, 0, hi));
        prog.push(op(RET_K, 0, 0, SNAPLEN));
    }
    prog.push(op(RET_K, 0, 0, 0));
    prog
}

/// The indexes as sorted runs of consecutive numbers, (first, last).
fn index_ranges(ports: &[i32]) -> Vec<(u32, u32)> {
    let mut sorted: Vec<u32> = ports.iter().filter_map(|&i| u32::try_from(i).ok()).collect();
    sorted.sort_unstable();
    sorted.dedup();
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for i in sorted {
        match ranges.last_mut() {
            Some((_, hi)) if *hi + 1 == i => *hi = i,
            _ => ranges.push((i, i)),
        }
    }
    ranges
}

/// The socket and its mapped ring; both go when the last holder drops.
struct Ring {
    /// Unmapped when dropped, before the socket closes.
    map: memmap2::MmapRaw,
    socket: socket2::Socket,
    blocks: usize,
    block_size: usize,
}

/// `PACKET_RX_RING`'s request for version 3 (linux/if_packet.h: seven
/// `u32`s): block size and count, frame size and count, the block
/// timeout, no private area, no features.
fn ring_request(blocks: usize, block_size: usize) -> Vec<u8> {
    let frame_size = 2048;
    [
        block_size,
        blocks,
        frame_size,
        block_size * blocks / frame_size,
        BLOCK_TIMEOUT_MS as usize,
        0,
        0,
    ]
    .iter()
    .flat_map(|&v| (v as u32).to_ne_bytes())
    .collect()
}

impl Ring {
    fn open(ports: &[i32], blocks: usize, block_size: usize) -> std::io::Result<Ring> {
        use socket2::{Domain, Protocol, SockFilter, Socket, Type};
        let all = Protocol::from(i32::from((libc::ETH_P_ALL as u16).to_be()));
        let socket = Socket::new(Domain::PACKET, Type::RAW, Some(all))?;
        let filter: Vec<SockFilter> = port_filter(ports)
            .into_iter()
            .map(|o| SockFilter::new(o.code, o.jt, o.jf, o.k))
            .collect();
        socket.attach_filter(&filter)?;
        let raw = super::raw_socket::set_option;
        raw(
            &socket,
            libc::SOL_PACKET,
            libc::PACKET_VERSION,
            &TPACKET_V3.to_ne_bytes(),
        )?;
        raw(
            &socket,
            libc::SOL_PACKET,
            libc::PACKET_RX_RING,
            &ring_request(blocks, block_size),
        )?;
        let map = memmap2::MmapOptions::new()
            .len(block_size * blocks)
            .map_raw(socket.as_raw_fd())?;
        Ok(Ring {
            map,
            socket,
            blocks,
            block_size,
        })
    }

    /// The ring as the kernel shares it: it writes the memory while this
    /// process reads it, so it is seen as atomics, never as plain bytes.
    fn shared(&self) -> &[AtomicU32] {
        // SAFETY: the mapping is page-aligned, `len` bytes long and lives
        // as long as `self`; no reference of another type to it exists,
        // and atomics allow the kernel's concurrent writes.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<AtomicU32>(), self.map.len() / 4) }
    }

    /// Waits up to `ms` for the block at `i` to be handed over; a copy of
    /// its frames' bytes when it is.
    fn block(&self, i: usize, ms: i32) -> Option<Vec<u8>> {
        let words = &self.shared()[i * self.block_size / 4..(i + 1) * self.block_size / 4];
        // The block descriptor's status word (offset 8): the kernel's
        // release of the block, which this acquires.
        let handed_over = || words[2].load(Ordering::Acquire) & TP_STATUS_USER != 0;
        if !handed_over() {
            let timeout = rustix::event::Timespec {
                tv_sec: i64::from(ms / 1000),
                tv_nsec: i64::from(ms % 1000) * 1_000_000,
            };
            let flags = rustix::event::PollFlags::IN | rustix::event::PollFlags::ERR;
            let mut p = [rustix::event::PollFd::new(&self.socket, flags)];
            let _ = rustix::event::poll(&mut p, Some(&timeout));
            if !handed_over() {
                return None;
            }
        }
        // The bytes in use (offset 20: the descriptor, then the frames).
        let used = (words[5].load(Ordering::Relaxed) as usize).div_ceil(4).min(words.len());
        Some(
            words[..used]
                .iter()
                .flat_map(|w| w.load(Ordering::Relaxed).to_ne_bytes())
                .collect(),
        )
    }

    /// Gives block `i` back to the kernel.
    fn release(&self, i: usize) {
        self.shared()[i * self.block_size / 4 + 2].store(0, Ordering::Release);
    }
}

/// The frames of one handed-over block (see linux/if_packet.h: a block
/// descriptor, then packets each with a `tpacket3_hdr` and the
/// `sockaddr_ll` saying where it was seen).
fn frames_in(block: &[u8]) -> Vec<(i32, u8, &[u8])> {
    let u32_at = super::raw_socket::u32_at;
    let count = u32_at(block, 12);
    let mut at = u32_at(block, 16) as usize;
    let mut out = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let Some(hdr) = block.get(at..at + 48 + 12) else { break };
        let snaplen = u32_at(hdr, 12) as usize;
        let mac = usize::from(u16::from_ne_bytes([hdr[24], hdr[25]]));
        let ifindex = i32::from_ne_bytes([hdr[52], hdr[53], hdr[54], hdr[55]]);
        let pkttype = hdr[58];
        if let Some(frame) = block.get(at + mac..at + mac + snaplen) {
            out.push((ifindex, pkttype, frame));
        }
        match u32_at(hdr, 0) as usize {
            0 => break,
            next => at += next,
        }
    }
    out
}

impl Capture {
    /// Starts counting on the given ports (by interface index), for a run
    /// pinging about `pairs` pairs.
    pub fn start(ports: HashMap<i32, Port>, bridges: usize, pairs: usize) -> std::io::Result<Capture> {
        let starve = std::env::var_os(STARVE_ENV).is_some();
        let watched: Vec<i32> = ports.keys().copied().collect();
        let ring = Arc::new(if starve {
            Ring::open(&watched, 1, 4096)?
        } else {
            Ring::open(
                &watched,
                pairs.div_ceil(PAIRS_PER_BLOCK).clamp(MIN_BLOCKS, MAX_BLOCKS),
                BLOCK_SIZE,
            )?
        });
        let stop = Arc::new(AtomicBool::new(false));
        let (flag, reader) = (stop.clone(), ring.clone());
        let thread = std::thread::spawn(move || {
            first_in_line();
            if starve {
                while !flag.load(Ordering::Relaxed) {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
            }
            read_frames(&reader, &ports, bridges, &flag)
        });
        Ok(Capture { stop, thread, ring })
    }

    /// Stops the capture and returns what it saw.
    pub fn finish(self) -> Seen {
        // Frames already in the ring are still read: the reader stops at
        // the first quiet wait after the flag is set.
        self.stop.store(true, Ordering::Relaxed);
        let mut seen = self.thread.join().unwrap_or_default();
        seen.dropped = dropped(&self.ring.socket);
        seen
    }
}

/// Puts the calling thread first among this machine's ordinary threads
/// (nice -20): the reader needs little CPU, but must get it at once while
/// other jobs keep every core busy, or the ring fills. Root may; without
/// it the thread stays as it was.
fn first_in_line() {
    let me = rustix::thread::gettid();
    let _ = rustix::process::setpriority_process(Some(me), -20);
}

/// Frames the kernel dropped for want of room in the ring (the second
/// `u32` of `tpacket_stats`); 0 when it cannot say.
fn dropped(socket: &socket2::Socket) -> u64 {
    let mut stats = [0u8; 8];
    match super::raw_socket::get_option(socket, libc::SOL_PACKET, libc::PACKET_STATISTICS, &mut stats) {
        Ok(8) => u64::from(super::raw_socket::u32_at(&stats, 4)),
        _ => 0,
    }
}

fn read_frames(ring: &Ring, ports: &HashMap<i32, Port>, bridges: usize, stop: &AtomicBool) -> Seen {
    let mut seen = Seen {
        frames: vec![Frames::default(); bridges],
        ..Seen::default()
    };
    let mut i = 0;
    loop {
        let stopping = stop.load(Ordering::Relaxed);
        // Once stopping, a wait longer than a block's timeout that brings
        // nothing means every frame sent has been read.
        let wait = if stopping { 4 * BLOCK_TIMEOUT_MS as i32 } else { 50 };
        match ring.block(i, wait) {
            Some(block) => {
                for (ifindex, pkttype, f) in frames_in(&block) {
                    if let Some(port) = ports.get(&ifindex) {
                        count(&mut seen, port, pkttype == PACKET_OUTGOING, f);
                    }
                }
                ring.release(i);
                i = (i + 1) % ring.blocks;
            }
            None if stopping => {
                seen.sightings.sort_unstable();
                return seen;
            }
            None => {}
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
    if let Some((src, to)) = ping_request(f)
        && (!outgoing || dst == nic)
    {
        seen.sightings.push((ping_key(src, to), port.bridge as u32, !outgoing));
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
    fn the_filter_keeps_this_runs_ports_only() {
        assert_eq!(index_ranges(&[7, 5, 6, 9, 12, 10, 5]), vec![(5, 7), (9, 10), (12, 12)]);
        // Runs the program as the kernel would, on a frame's interface index.
        let run = |prog: &[libc::sock_filter], ifindex: u32| -> u32 {
            let (mut pc, mut a) = (0usize, 0u32);
            loop {
                let op = prog[pc];
                match op.code {
                    0x20 => a = ifindex,
                    0x06 => return op.k,
                    0x35 => pc += if a >= op.k { op.jt } else { op.jf } as usize,
                    0x25 => pc += if a > op.k { op.jt } else { op.jf } as usize,
                    other => panic!("unexpected op {other:#x}"),
                }
                pc += 1;
            }
        };
        let prog = port_filter(&[5, 6, 7, 9, 10, 12]);
        for (ifindex, kept) in [
            (4, false),
            (5, true),
            (7, true),
            (8, false),
            (9, true),
            (11, false),
            (12, true),
            (13, false),
        ] {
            assert_eq!(run(&prog, ifindex) == SNAPLEN, kept, "ifindex {ifindex}");
        }
        // Too many ranges for one program: every frame kept.
        let scattered: Vec<i32> = (0..3000).map(|i| i * 2).collect();
        let all = port_filter(&scattered);
        assert_eq!(all.len(), 1);
        assert_eq!(run(&all, 12345), SNAPLEN);
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
        seen.sightings.sort_unstable();
        let p = seen
            .path(Ipv4Addr::new(10, 1, 0, 1), Ipv4Addr::new(10, 1, 0, 2))
            .unwrap();
        assert!(
            seen.path(Ipv4Addr::new(10, 1, 0, 2), Ipv4Addr::new(10, 1, 0, 1))
                .is_none()
        );
        // One request entered, one was delivered to its NIC; the echo reply
        // (type 0) and the flooded copy are not paths.
        assert_eq!((p.entered.len(), p.delivered.len()), (1, 1));
    }
}
