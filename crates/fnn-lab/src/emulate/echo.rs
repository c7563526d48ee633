//! A native ping for many addresses at once: one raw ICMP socket in a
//! PC's namespace sends an echo request to each target, a few dozen in
//! flight, and matches the replies by identifier, sequence and source. It
//! sends the same frames `ping -c 1` does (the kernel builds the IP
//! header and picks the route), so the frame counts and the switch each
//! request crossed are checked as before; it only stops paying a process
//! and a round trip per pair.

use rustix::event::{PollFd, PollFlags};
use rustix::io::Errno;
use rustix::net::{RecvFlags, SendFlags};
use std::collections::VecDeque;
use std::io;
use std::net::{Ipv4Addr, SocketAddrV4};
use std::os::fd::OwnedFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Requests in flight at once: enough to hide the round trip, few enough
/// that the replies never overrun a socket or a veth's queue.
const WINDOW: usize = 32;
/// How long a request waits for its reply, as `ping -W 1`.
const TIMEOUT: Duration = Duration::from_secs(1);
/// Requests per target before it counts as not answering: a second try
/// keeps one lost frame on a busy machine from failing a good cable.
const TRIES: u8 = 2;

const ICMP_ECHO: u8 = 8;
const ICMP_ECHOREPLY: u8 = 0;
/// `ICMP_FILTER` on `SOL_RAW` (linux/icmp.h): a mask of the ICMP types the
/// socket does not want.
const SOL_RAW: i32 = 255;
const ICMP_FILTER: i32 = 1;

/// Pings every target from the current thread's namespace; whether each
/// answered. `id` tells this prober's replies from any other's.
pub(crate) fn echo_all(targets: &[Ipv4Addr], id: u16, cancel: Option<&AtomicBool>) -> io::Result<Vec<bool>> {
    let socket = open()?;
    let mut answered = vec![false; targets.len()];
    let mut tries = vec![0u8; targets.len()];
    let mut queue: VecDeque<usize> = (0..targets.len()).collect();
    let mut out: VecDeque<(usize, Instant)> = VecDeque::new();
    let mut buf = [0u8; 1500];
    loop {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "cancelled"));
        }
        while out.len() < WINDOW
            && let Some(i) = queue.pop_front()
        {
            send(&socket, targets[i], id, i as u16)?;
            tries[i] += 1;
            out.push_back((i, Instant::now() + TIMEOUT));
        }
        let now = Instant::now();
        while let Some(&(i, deadline)) = out.front()
            && deadline <= now
        {
            out.pop_front();
            if tries[i] < TRIES {
                queue.push_back(i);
            }
        }
        if out.is_empty() && queue.is_empty() {
            return Ok(answered);
        }
        let wait = out
            .front()
            .map_or(Duration::ZERO, |&(_, d)| d.saturating_duration_since(now));
        if !readable(&socket, wait.min(Duration::from_millis(50)))? {
            continue;
        }
        while let Some((from, seq)) = receive(&socket, id, &mut buf)? {
            // Sequence numbers wrap past 65,535 targets: the source says which.
            if let Some(pos) = out.iter().position(|&(i, _)| i as u16 == seq && targets[i] == from) {
                answered[out[pos].0] = true;
                out.remove(pos);
            }
        }
    }
}

fn open() -> io::Result<OwnedFd> {
    use rustix::net::{AddressFamily, SocketFlags, SocketType, ipproto, sockopt};
    let socket = rustix::net::socket_with(
        AddressFamily::INET,
        SocketType::RAW,
        SocketFlags::CLOEXEC,
        Some(ipproto::ICMP),
    )?;
    let filter: u32 = !(1 << ICMP_ECHOREPLY);
    super::raw_socket::set_option(&socket, SOL_RAW, ICMP_FILTER, &filter.to_ne_bytes())?;
    // A larger buffer is a help, not a need: the kernel's cap is kept.
    let _ = sockopt::set_socket_recv_buffer_size(&socket, 1 << 20);
    Ok(socket)
}

/// An echo request: type, code, checksum, identifier, sequence and eight
/// bytes of payload, as ping's smallest.
fn request(id: u16, seq: u16) -> [u8; 16] {
    let mut p = [0u8; 16];
    p[0] = ICMP_ECHO;
    p[4..6].copy_from_slice(&id.to_be_bytes());
    p[6..8].copy_from_slice(&seq.to_be_bytes());
    p[8..16].copy_from_slice(b"fnn-tui!");
    let sum = checksum(&p);
    p[2..4].copy_from_slice(&sum.to_be_bytes());
    p
}

/// The Internet checksum (RFC 1071) of an even-length packet.
fn checksum(p: &[u8]) -> u16 {
    let mut sum: u32 = p.chunks(2).map(|w| u32::from(u16::from_be_bytes([w[0], w[1]]))).sum();
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

fn send(socket: &OwnedFd, to: Ipv4Addr, id: u16, seq: u16) -> io::Result<()> {
    let p = request(id, seq);
    let sent = rustix::net::sendto(socket, &p, SendFlags::empty(), &SocketAddrV4::new(to, 0));
    match sent {
        Ok(_) => Ok(()),
        // No route, or a neighbour that cannot be reached: that target does
        // not answer, which the caller reports; it is not the prober failing.
        Err(Errno::NETUNREACH | Errno::HOSTUNREACH | Errno::NOBUFS) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

fn readable(socket: &OwnedFd, wait: Duration) -> io::Result<bool> {
    let mut p = [PollFd::new(socket, PollFlags::IN)];
    let timeout = rustix::event::Timespec {
        tv_sec: wait.as_secs() as i64,
        tv_nsec: i64::from(wait.subsec_nanos()),
    };
    match rustix::event::poll(&mut p, Some(&timeout)) {
        Ok(n) => Ok(n > 0),
        Err(Errno::INTR) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// The next queued echo reply for `id` as (source, sequence), skipping
/// anything else; None when nothing more is queued.
fn receive(socket: &OwnedFd, id: u16, buf: &mut [u8]) -> io::Result<Option<(Ipv4Addr, u16)>> {
    loop {
        let n = match rustix::net::recv(socket, &mut *buf, RecvFlags::DONTWAIT) {
            Ok((n, _)) => n,
            Err(Errno::AGAIN | Errno::INTR) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        if let Some(reply) = parse_reply(&buf[..n], id) {
            return Ok(Some(reply));
        }
    }
}

/// (source, sequence) of an IPv4 packet carrying an echo reply for `id`.
fn parse_reply(p: &[u8], id: u16) -> Option<(Ipv4Addr, u16)> {
    let ihl = usize::from(*p.first()? & 0x0f) * 4;
    let icmp = p.get(ihl..ihl + 8)?;
    if ihl < 20 || icmp[0] != ICMP_ECHOREPLY || u16::from_be_bytes([icmp[4], icmp[5]]) != id {
        return None;
    }
    let from = Ipv4Addr::new(p[12], p[13], p[14], p[15]);
    Some((from, u16::from_be_bytes([icmp[6], icmp[7]])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_checksums_to_zero_as_a_receiver_checks_it() {
        let p = request(0x1234, 7);
        assert_eq!(checksum(&p), 0, "{p:?}");
        assert_eq!((p[0], &p[4..8]), (ICMP_ECHO, &[0x12, 0x34, 0, 7][..]));
    }

    #[test]
    fn only_an_echo_reply_for_this_prober_is_taken() {
        let mut p = vec![0x45u8, 0, 0, 36, 0, 0, 0, 0, 64, 1, 0, 0, 10, 1, 0, 9, 10, 1, 0, 1];
        p.extend_from_slice(&request(0xbeef, 300));
        p[20] = ICMP_ECHOREPLY;
        assert_eq!(parse_reply(&p, 0xbeef), Some((Ipv4Addr::new(10, 1, 0, 9), 300)));
        assert_eq!(parse_reply(&p, 0xbeee), None, "another prober's reply");
        p[20] = ICMP_ECHO;
        assert_eq!(parse_reply(&p, 0xbeef), None, "a request is not a reply");
        assert_eq!(parse_reply(&p[..24], 0xbeef), None, "a cut packet");
    }
}
