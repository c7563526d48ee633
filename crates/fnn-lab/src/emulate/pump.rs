//! The traffic generator's engine: every flow's bytes moved at once by a
//! few threads, each waiting on its share of the connections with epoll,
//! writing wherever a sender's socket has room and reading (and counting)
//! wherever a receiver's has data. A thread per core rather than a thread
//! per socket: an all-to-all of thousands of flows costs a descriptor per
//! socket, not a stack.

use rustix::event::epoll;
use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A flow's connection: the sender's end and the receiver's.
pub(crate) type Connection = (TcpStream, TcpStream);

/// Each flow's bytes counted and its sender's subflows at the end.
type Moved = Vec<(u64, Option<u32>)>;

/// How much one write or read moves.
const CHUNK: usize = 64 * 1024;

/// Most writes or reads on one socket per wake-up, so that one fast socket
/// cannot starve the others of the thread.
const BURST: usize = 4;

/// Moves bytes on every connection from now until `stop`; returns, for
/// each, the bytes received from `counting` on and (from `open_subflows`)
/// its sender's MPTCP subflows at the end. Every connection is reset.
pub(crate) fn pump(
    connections: Vec<Connection>,
    counting: Instant,
    stop: Instant,
    cancel: Option<&AtomicBool>,
    open_subflows: &(dyn Fn(&TcpStream) -> Option<u32> + Sync),
) -> io::Result<Moved> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per = connections.len().div_ceil(workers).max(1);
    let mut shares: Vec<Vec<Connection>> = Vec::new();
    let mut rest = connections.into_iter().peekable();
    while rest.peek().is_some() {
        shares.push(rest.by_ref().take(per).collect());
    }
    let outcomes: Vec<io::Result<Moved>> = std::thread::scope(|s| {
        let handles: Vec<_> = shares
            .into_iter()
            .map(|share| s.spawn(move || worker(share, counting, stop, cancel, open_subflows)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    let mut all = Vec::new();
    for o in outcomes {
        all.extend(o?);
    }
    Ok(all)
}

/// An epoll instance, closed when dropped.
struct Epoll(OwnedFd);

impl Epoll {
    fn new() -> io::Result<Epoll> {
        Ok(Epoll(epoll::create(epoll::CreateFlags::CLOEXEC)?))
    }

    /// Watches `fd` for `events`, reporting `token`.
    fn add(&self, fd: impl AsFd, events: epoll::EventFlags, token: u64) -> io::Result<()> {
        Ok(epoll::add(&self.0, fd, epoll::EventData::new_u64(token), events)?)
    }

    /// Stops watching `fd` (already closed or finished with).
    fn remove(&self, fd: impl AsFd) {
        let _ = epoll::delete(&self.0, fd);
    }

    /// Waits up to `timeout` for ready sockets; fills `events`, returns how many.
    fn wait(&self, events: &mut [epoll::Event], timeout: Duration) -> io::Result<usize> {
        let timeout = rustix::event::Timespec::try_from(timeout).unwrap_or(rustix::event::Timespec {
            tv_sec: i64::MAX,
            tv_nsec: 0,
        });
        match epoll::wait(&self.0, events, Some(&timeout)) {
            Ok(n) => Ok(n),
            Err(rustix::io::Errno::INTR) => Ok(0),
            Err(e) => Err(e.into()),
        }
    }
}

fn busy(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted)
}

/// One thread's share: sender `i` is token `2i`, receiver `i` is `2i + 1`.
fn worker(
    mut share: Vec<Connection>,
    counting: Instant,
    stop: Instant,
    cancel: Option<&AtomicBool>,
    open_subflows: &(dyn Fn(&TcpStream) -> Option<u32> + Sync),
) -> io::Result<Moved> {
    let epoll = Epoll::new()?;
    for (i, (client, server)) in share.iter().enumerate() {
        client.set_nonblocking(true)?;
        server.set_nonblocking(true)?;
        epoll.add(client, epoll::EventFlags::OUT, 2 * i as u64)?;
        epoll.add(server, epoll::EventFlags::IN, 2 * i as u64 + 1)?;
    }
    let mut counted = vec![0u64; share.len()];
    let data = vec![0u8; CHUNK];
    let mut buf = vec![0u8; CHUNK];
    let mut events = vec![
        epoll::Event {
            flags: epoll::EventFlags::empty(),
            data: epoll::EventData::new_u64(0),
        };
        1024
    ];
    loop {
        let now = Instant::now();
        if now >= stop || cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            break;
        }
        let ready = epoll.wait(&mut events, (stop - now).min(Duration::from_millis(50)))?;
        for e in &events[..ready] {
            let token = e.data.u64();
            let (i, receiver) = ((token / 2) as usize, token % 2 == 1);
            let (client, server) = &mut share[i];
            if receiver {
                for _ in 0..BURST {
                    match server.read(&mut buf) {
                        Ok(0) => {
                            epoll.remove(&*server);
                            break;
                        }
                        Ok(n) => {
                            if Instant::now() >= counting {
                                counted[i] += n as u64;
                            }
                        }
                        Err(e) if busy(&e) => break,
                        Err(e) => return Err(e),
                    }
                }
            } else {
                for _ in 0..BURST {
                    match client.write(&data) {
                        Ok(_) => {}
                        Err(e) if busy(&e) => break,
                        // A sender whose connection failed stops; its
                        // receiver's count shows it.
                        Err(_) => {
                            epoll.remove(&*client);
                            break;
                        }
                    }
                }
            }
        }
    }
    let out = share
        .iter()
        .zip(counted)
        .map(|((client, _), n)| (n, open_subflows(client)))
        .collect();
    for (client, server) in &share {
        abort_on_close(client);
        abort_on_close(server);
    }
    Ok(out)
}

/// Makes closing `s` reset the connection and drop what it has not sent:
/// a plain close would go on sending the send buffer's megabytes, onto
/// the links the next run measures.
fn abort_on_close(s: &TcpStream) {
    let _ = rustix::net::sockopt::set_socket_linger(s, Some(Duration::ZERO));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    fn connection() -> Connection {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let client = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (server, _) = l.accept().unwrap();
        (client, server)
    }

    /// Every connection of many carries bytes, and only those received
    /// after `counting` are counted; a connection whose receiver is gone
    /// stops its sender without failing the rest or holding the pump past
    /// `stop`.
    #[test]
    fn every_flow_moves_and_a_dead_one_stops_alone() {
        let mut conns: Vec<Connection> = (0..40).map(|_| connection()).collect();
        let (client, server) = connection();
        drop(server);
        conns.push((client, connection().1));
        let start = Instant::now();
        let never = start + Duration::from_secs(3600);
        let none = |_: &TcpStream| None;
        let uncounted = pump(
            (0..3).map(|_| connection()).collect(),
            never,
            start + Duration::from_millis(100),
            None,
            &none,
        )
        .unwrap();
        assert!(uncounted.iter().all(|&(n, _)| n == 0), "{uncounted:?}");
        let start = Instant::now();
        let out = pump(conns, start, start + Duration::from_millis(300), None, &none).unwrap();
        assert!(start.elapsed() < Duration::from_secs(2), "{:?}", start.elapsed());
        assert_eq!(out.len(), 41);
        assert!(out[..40].iter().all(|&(n, _)| n > 0), "{out:?}");
        assert_eq!(out[40].0, 0);
    }

    /// A cancel ends the pump at once.
    #[test]
    fn a_cancel_stops_the_pump() {
        let cancel = AtomicBool::new(true);
        let start = Instant::now();
        let none = |_: &TcpStream| None;
        pump(
            vec![connection()],
            start,
            start + Duration::from_secs(60),
            Some(&cancel),
            &none,
        )
        .unwrap();
        assert!(start.elapsed() < Duration::from_secs(5));
    }
}
