//! The socket calls no crate wraps: options whose value is a structure of
//! their own (the capture ring's, its statistics, `ICMP_FILTER`,
//! `MPTCP_INFO`) and sending a frame to a link-layer address
//! (`sockaddr_ll`). Every value crosses as bytes, encoded and decoded by
//! safe code here, so the one unsafe block below only hands the kernel
//! slices it may read or write whole.

use std::io;
use std::os::fd::{AsFd, AsRawFd};

/// One call: what the kernel reads or writes, as byte slices.
enum Call<'a> {
    SetOption { level: i32, name: i32, value: &'a [u8] },
    GetOption { level: i32, name: i32, value: &'a mut [u8] },
    SendTo { frame: &'a [u8], to: &'a [u8] },
}

/// Makes `call` on `fd`; how many bytes it wrote or read.
fn make(fd: impl AsFd, call: Call<'_>) -> io::Result<usize> {
    let fd = fd.as_fd().as_raw_fd();
    let len = |b: &[u8]| libc::socklen_t::try_from(b.len()).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput));
    // SAFETY: every pointer with its length is one live slice's own, and
    // the kernel reads (set, send) or writes (get) only within it; the
    // descriptor is borrowed for the call.
    let done = unsafe {
        match call {
            Call::SetOption { level, name, value } => {
                libc::setsockopt(fd, level, name, value.as_ptr().cast(), len(value)?) as isize
            }
            Call::GetOption { level, name, value } => {
                let mut n = len(value)?;
                match libc::getsockopt(fd, level, name, value.as_mut_ptr().cast(), &mut n) {
                    0 => n as isize,
                    r => r as isize,
                }
            }
            Call::SendTo { frame, to } => {
                libc::sendto(fd, frame.as_ptr().cast(), frame.len(), 0, to.as_ptr().cast(), len(to)?)
            }
        }
    };
    usize::try_from(done).map_err(|_| io::Error::last_os_error())
}

/// Sets option `name` at `level` to `value`, as the kernel lays it out.
pub fn set_option(fd: impl AsFd, level: i32, name: i32, value: &[u8]) -> io::Result<()> {
    make(fd, Call::SetOption { level, name, value }).map(drop)
}

/// Reads option `name` at `level` into `value`; how many bytes it holds.
pub(crate) fn get_option(fd: impl AsFd, level: i32, name: i32, value: &mut [u8]) -> io::Result<usize> {
    make(fd, Call::GetOption { level, name, value })
}

/// Sends a whole Ethernet `frame` out of interface `ifindex`, addressed
/// to `mac`, on an `AF_PACKET` socket.
pub(crate) fn send_frame(fd: impl AsFd, ifindex: i32, mac: [u8; 6], frame: &[u8]) -> io::Result<()> {
    make(
        fd,
        Call::SendTo {
            frame,
            to: &link_address(ifindex, mac),
        },
    )
    .map(drop)
}

/// A `sockaddr_ll` (linux/if_packet.h) for sending: family, protocol
/// (none: the frame carries its own), interface, hardware type and packet
/// type (unused on send), address length and address.
fn link_address(ifindex: i32, mac: [u8; 6]) -> [u8; 20] {
    let mut a = [0u8; 20];
    a[0..2].copy_from_slice(&(libc::AF_PACKET as u16).to_ne_bytes());
    a[4..8].copy_from_slice(&ifindex.to_ne_bytes());
    a[11] = 6;
    a[12..18].copy_from_slice(&mac);
    a
}

/// A native-endian `u32` at `at`, 0 past the end.
pub(crate) fn u32_at(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4)
        .map_or(0, |w| u32::from_ne_bytes([w[0], w[1], w[2], w[3]]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_link_address_is_laid_out_as_the_kernels_sockaddr_ll() {
        assert_eq!(size_of::<libc::sockaddr_ll>(), 20);
        let a = link_address(7, [1, 2, 3, 4, 5, 6]);
        let ll = libc::sockaddr_ll {
            sll_family: libc::AF_PACKET as u16,
            sll_protocol: 0,
            sll_ifindex: 7,
            sll_hatype: 0,
            sll_pkttype: 0,
            sll_halen: 6,
            sll_addr: [1, 2, 3, 4, 5, 6, 0, 0],
        };
        let mut want = Vec::new();
        want.extend(ll.sll_family.to_ne_bytes());
        want.extend(ll.sll_protocol.to_ne_bytes());
        want.extend(ll.sll_ifindex.to_ne_bytes());
        want.extend(ll.sll_hatype.to_ne_bytes());
        want.extend([ll.sll_pkttype, ll.sll_halen]);
        want.extend(ll.sll_addr);
        assert_eq!(a.to_vec(), want);
    }

    #[test]
    fn an_option_is_set_and_read_back_through_bytes() {
        let s = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        set_option(&s, libc::SOL_SOCKET, libc::SO_PRIORITY, &3i32.to_ne_bytes()).unwrap();
        let mut v = [0u8; 4];
        assert_eq!(get_option(&s, libc::SOL_SOCKET, libc::SO_PRIORITY, &mut v).unwrap(), 4);
        assert_eq!(i32::from_ne_bytes(v), 3);
        let e = set_option(&s, libc::SOL_SOCKET, -1, &[0; 4]).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(libc::ENOPROTOOPT));
    }
}
