//! The few route-netlink requests a rehearsal makes inside a PC's
//! namespace, on a socket opened there: the links with their names and
//! MACs, a link brought up, what the bridges have learned, and the interface the kernel sends an address
//! by (what `ip route get` asks). One socket answers thousands of these in
//! the time one `ip` process takes to start.

use netlink_packet_core::{NLM_F_ACK, NLM_F_DUMP, NLM_F_REQUEST, NetlinkHeader, NetlinkMessage, NetlinkPayload};
use netlink_packet_route::link::{LinkAttribute, LinkFlags, LinkMessage};
use netlink_packet_route::neighbour::{NeighbourAttribute, NeighbourMessage};
use netlink_packet_route::route::{RouteAddress, RouteAttribute, RouteMessage};
use netlink_packet_route::{AddressFamily, RouteNetlinkMessage};
use netlink_sys::{Socket, SocketAddr, protocols::NETLINK_ROUTE};
use std::io;
use std::net::Ipv4Addr;

/// A link as the namespace's kernel lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub index: u32,
    pub name: String,
    pub mac: Vec<u8>,
}

/// A route-netlink socket in the namespace of the thread that opened it.
pub(crate) struct Rtnl {
    socket: Socket,
    seq: u32,
    buf: Vec<u8>,
}

impl Rtnl {
    pub fn open() -> io::Result<Rtnl> {
        let mut socket = Socket::new(NETLINK_ROUTE)?;
        socket.bind_auto()?;
        socket.connect(&SocketAddr::new(0, 0))?;
        Ok(Rtnl {
            socket,
            seq: 0,
            buf: vec![0; 1 << 16],
        })
    }

    /// Every link in the namespace.
    pub fn links(&mut self) -> io::Result<Vec<Link>> {
        let replies = self.request(RouteNetlinkMessage::GetLink(LinkMessage::default()), NLM_F_DUMP)?;
        Ok(replies
            .into_iter()
            .filter_map(|m| match m {
                RouteNetlinkMessage::NewLink(l) => Some(link(l)),
                _ => None,
            })
            .collect())
    }

    /// The MACs the bridges have learned, as (port's interface index, MAC).
    pub(crate) fn bridge_fdb(&mut self) -> io::Result<Vec<(u32, Vec<u8>)>> {
        let mut m = NeighbourMessage::default();
        m.header.family = AddressFamily::Bridge;
        let replies = self.request(RouteNetlinkMessage::GetNeighbour(m), NLM_F_DUMP)?;
        Ok(replies
            .into_iter()
            .filter_map(|m| match m {
                RouteNetlinkMessage::NewNeighbour(n) => {
                    let mac = n.attributes.into_iter().find_map(|a| match a {
                        NeighbourAttribute::LinkLayerAddress(mac) => Some(mac),
                        _ => None,
                    })?;
                    Some((n.header.ifindex, mac))
                }
                _ => None,
            })
            .collect())
    }

    /// Sets a link administratively up.
    pub(crate) fn set_up(&mut self, index: u32) -> io::Result<()> {
        let mut m = LinkMessage::default();
        m.header.index = index;
        m.header.flags = LinkFlags::Up;
        m.header.change_mask = LinkFlags::Up;
        self.request(RouteNetlinkMessage::SetLink(m), NLM_F_ACK).map(drop)
    }

    /// The interface index the kernel sends traffic for `to` by, or None
    /// when it has no route there.
    pub(crate) fn route_oif(&mut self, to: Ipv4Addr) -> io::Result<Option<u32>> {
        let mut m = RouteMessage::default();
        m.header.address_family = AddressFamily::Inet;
        m.header.destination_prefix_length = 32;
        m.attributes.push(RouteAttribute::Destination(RouteAddress::Inet(to)));
        let replies = match self.request(RouteNetlinkMessage::GetRoute(m), 0) {
            Ok(r) => r,
            // No route (unreachable, no such network): what `ip route get`
            // reports as an error, the caller as no interface.
            Err(e) if e.raw_os_error().is_some() => return Ok(None),
            Err(e) => return Err(e),
        };
        Ok(replies.into_iter().find_map(|m| match m {
            RouteNetlinkMessage::NewRoute(r) => r.attributes.iter().find_map(|a| match a {
                RouteAttribute::Oif(i) => Some(*i),
                _ => None,
            }),
            _ => None,
        }))
    }

    /// Sends one request and reads its replies: to the end of a dump, to
    /// the acknowledgement, or the one answer of a plain request.
    fn request(&mut self, m: RouteNetlinkMessage, flags: u16) -> io::Result<Vec<RouteNetlinkMessage>> {
        self.seq = self.seq.wrapping_add(1);
        let mut header = NetlinkHeader::default();
        header.flags = NLM_F_REQUEST | flags;
        header.sequence_number = self.seq;
        let mut packet = NetlinkMessage::new(header, NetlinkPayload::from(m));
        packet.finalize();
        let mut out = vec![0; packet.buffer_len()];
        packet.serialize(&mut out);
        self.socket.send(&out, 0)?;
        let mut replies = Vec::new();
        loop {
            let n = self.socket.recv(&mut &mut self.buf[..], 0)?;
            let mut at = 0;
            while at < n {
                let msg = NetlinkMessage::<RouteNetlinkMessage>::deserialize(&self.buf[at..n])
                    .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
                let len = msg.header.length as usize;
                if msg.header.sequence_number == self.seq {
                    match msg.payload {
                        NetlinkPayload::Done(_) => return Ok(replies),
                        NetlinkPayload::Error(e) => {
                            return match e.code {
                                None => Ok(replies),
                                Some(code) => Err(io::Error::from_raw_os_error(-code.get())),
                            };
                        }
                        NetlinkPayload::InnerMessage(inner) => replies.push(inner),
                        _ => {}
                    }
                }
                if len == 0 {
                    break;
                }
                at += len;
            }
            if flags & (NLM_F_DUMP | NLM_F_ACK) == 0 && !replies.is_empty() {
                return Ok(replies);
            }
        }
    }
}

fn link(l: LinkMessage) -> Link {
    let mut out = Link {
        index: l.header.index,
        name: String::new(),
        mac: Vec::new(),
    };
    for a in l.attributes {
        match a {
            LinkAttribute::IfName(n) => out.name = n,
            LinkAttribute::Address(m) => out.mac = m,
            _ => {}
        }
    }
    out
}
