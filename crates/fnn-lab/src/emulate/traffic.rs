//! The bandwidth rehearsal: every cable given a real rate (a tbf qdisc on
//! both ends of its veth), then a traffic pattern run between the PCs'
//! namespaces by a generator inside fnn-tui — a TCP or MPTCP connection
//! per flow, opened from sockets made in the two PCs' namespaces, all
//! sending at once — and each flow's throughput set beside what the model
//! ([`fnn_export::bandwidth`]) predicts.

use super::EmulateError;
use fnn_core::design::Design;
use fnn_core::spec::{Cluster, Coverage};
use fnn_export::bandwidth::Transport;
use fnn_export::routing::BasicRouting;
use fnn_export::routing::scripts::address_for;
use std::net::{Ipv4Addr, SocketAddrV4};
use std::os::fd::OwnedFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Which flows run at once.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pattern {
    /// One flow, from one PC to another.
    Pair { from: usize, to: usize },
    /// Every PC sends to one other, each receiving from one (a random
    /// permutation without fixed points, from a seed).
    Permutation { seed: u64 },
    /// Every pair of the spec's communication pattern, both ways (every
    /// pair for a universal spec).
    Spec,
    /// Every PC to every other.
    All,
}

impl std::fmt::Display for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Pattern::Pair { from, to } => write!(f, "one flow, PC {from} to PC {to}"),
            Pattern::Permutation { seed } => write!(f, "a random permutation (seed {seed})"),
            Pattern::Spec => f.write_str("the spec's pattern, both ways"),
            Pattern::All => f.write_str("all to all"),
        }
    }
}

/// Why a traffic option is refused, before anything is built.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum TrafficError {
    #[error("`{0}` is not a PC of the design")]
    NotAPc(String),
    #[error("`{0}` is not a seed (a whole number)")]
    NotASeed(String),
    #[error("`{0}`: use pair:PC:PC (two PCs), permutation:SEED, spec or all")]
    NotAPattern(String),
    #[error("`{0}` is not a link rate from 1kbit to 100gbit: a whole number and kbit, mbit or gbit (e.g. 20mbit)")]
    NotARate(String),
    #[error("`{0}` is not a congestion control's name: 1-15 of a-z, 0-9 and _ (e.g. cubic)")]
    NotACongestion(String),
    #[error(
        "this kernel has no congestion control `{name}` ({reason}; it has: {have}): load its module with `modprobe tcp_{name}`, or pick one it has"
    )]
    NoCongestion { name: String, reason: String, have: String },
    #[error(
        "--traffic: {pattern} sends from {from} to {to}, which share no switch, and the cluster has no uplink (on a sparse design, `spec` runs the pairs it was designed for)"
    )]
    Unreachable { pattern: String, from: String, to: String },
    #[error("--traffic: {pattern} has no flow on {pcs} PC(s)")]
    NoFlow { pattern: String, pcs: usize },
    #[error("--traffic: {pattern}: {why}")]
    TooMany { pattern: String, why: String },
    #[error("--congestion: {0}")]
    Congestion(Box<TrafficError>),
    #[error("{sockets} sockets need more open files than the hard limit {hard} allows (raise it: ulimit -Hn)")]
    HardLimit { sockets: usize, hard: u64 },
    #[error("{0}")]
    Rlimit(String),
}

/// The most flows one run holds: two sockets each, and the ports of one
/// PC's listeners (one a flow, from 20000) must fit below 65536.
pub(crate) const MAX_FLOWS: usize = 16_384;

impl Pattern {
    /// Reads `pair:A:B`, `permutation:SEED`, `spec` or `all`; PCs by number
    /// or name.
    pub fn parse(text: &str, c: &Cluster, pcs: usize) -> Result<Pattern, TrafficError> {
        let f: Vec<&str> = text.split(':').collect();
        let pc = |t: &str| {
            t.parse::<usize>()
                .ok()
                .or_else(|| c.pc_named(t))
                .filter(|&p| p < pcs)
                .ok_or_else(|| TrafficError::NotAPc(fnn_core::escape::one_line(t)))
        };
        match f.as_slice() {
            ["pair", a, b] if a != b => Ok(Pattern::Pair {
                from: pc(a)?,
                to: pc(b)?,
            }),
            ["permutation", seed] => seed
                .parse()
                .map(|seed| Pattern::Permutation { seed })
                .map_err(|_| TrafficError::NotASeed(fnn_core::escape::one_line(seed))),
            ["spec"] => Ok(Pattern::Spec),
            ["all"] => Ok(Pattern::All),
            _ => Err(TrafficError::NotAPattern(fnn_core::escape::one_line(text))),
        }
    }

    /// The flows, as (from, to).
    pub fn flows(&self, c: &Cluster, d: &Design) -> Vec<(usize, usize)> {
        let p = d.pcs();
        match *self {
            Pattern::Pair { from, to } => vec![(from, to)],
            Pattern::Permutation { seed } => derangement(p, seed).into_iter().enumerate().collect(),
            Pattern::Spec if c.coverage == Coverage::Sparse => {
                c.pattern.pairs().flat_map(|(a, b, _)| [(a, b), (b, a)]).collect()
            }
            Pattern::Spec | Pattern::All => (0..p)
                .flat_map(|a| (0..p).filter(move |&b| b != a).map(move |b| (a, b)))
                .collect(),
        }
    }
}

/// The first flow between PCs that share no switch on a cluster without
/// an uplink: there is no way between them.
pub fn unreachable(c: &Cluster, d: &Design, flows: &[(usize, usize)]) -> Option<(usize, usize)> {
    if c.uplink.mode != fnn_core::spec::UplinkMode::None {
        return None;
    }
    flows.iter().copied().find(|&(a, b)| d.links(a, b) == 0)
}

/// A permutation of `0..n` with no fixed point (for n >= 2), from `seed`.
fn derangement(n: usize, seed: u64) -> Vec<usize> {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut to: Vec<usize> = (0..n).collect();
    to.shuffle(&mut rng);
    // A fixed point swaps with its neighbour: still a permutation, and
    // neither is fixed afterwards.
    for i in 0..n {
        if to[i] == i && n > 1 {
            let j = (i + 1) % n;
            to.swap(i, j);
        }
    }
    to
}

/// The slowest link rate: tc reads a rate in bytes/s (below 8bit it is
/// none at all), and below about a kbit it rounds the rate and shrinks
/// tbf's bucket under one full frame, so a link would carry nothing.
pub(crate) const MIN_RATE: u64 = 1_000;

/// The fastest: tbf takes more, but its queue limit is then cut short;
/// 100gbit is already far beyond what a veth carries.
pub(crate) const MAX_RATE: u64 = 100_000_000_000;

/// A link rate such as `10mbit`, `500kbit` or `1gbit` (tc's units), in
/// bits/s, from [`MIN_RATE`] to [`MAX_RATE`].
pub fn parse_rate(text: &str) -> Result<u64, TrafficError> {
    let t = text.trim().to_ascii_lowercase();
    let digits = t.bytes().take_while(|b| b.is_ascii_digit()).count();
    let (number, unit) = t.split_at(digits);
    let scale = match unit {
        "kbit" => 1_000,
        "mbit" => 1_000_000,
        "gbit" => 1_000_000_000,
        "bit" => 1,
        _ => 0,
    };
    match number.parse::<u64>() {
        Ok(n) if scale > 0 && (MIN_RATE..=MAX_RATE).contains(&n.saturating_mul(scale)) => Ok(n * scale),
        _ => Err(TrafficError::NotARate(fnn_core::escape::one_line(text))),
    }
}

/// How a bandwidth rehearsal runs.
#[derive(Clone, Debug)]
pub struct TrafficOptions {
    pub pattern: Pattern,
    /// Every cable's rate, bits/s each way.
    pub rate: u64,
    /// Which transports to measure, in order.
    pub transports: Vec<Transport>,
    /// How long every flow is measured, after a second to settle.
    pub seconds: f64,
    /// The TCP congestion control every socket of the rehearsal uses.
    pub congestion: String,
    /// Also run it on the tree a builder would buy instead.
    pub against_tree: bool,
    /// Also run it on the fat-tree `compare` designs.
    pub against_fat_tree: Option<super::fattree::Shape>,
}

/// Why `flows` flows over `transports` cannot run at once, if they cannot.
pub(crate) fn too_many(flows: usize, transports: &[Transport]) -> Option<String> {
    let most = transports.iter().map(|t| t.connections()).max().unwrap_or(1);
    (flows.saturating_mul(most) > MAX_FLOWS).then(|| {
        format!("{flows} flows of {most} connection(s); at most {MAX_FLOWS} connections run at once (choose a smaller pattern, e.g. permutation:1, or fewer PCs)")
    })
}

impl TrafficOptions {
    /// Everything about these options that can be known before anything
    /// is built: every flow has a way, they fit at once, the kernel has
    /// the congestion control. The error names the option.
    pub fn check(&self, c: &Cluster, d: &Design) -> Result<(), TrafficError> {
        let flows = self.pattern.flows(c, d);
        let pattern = self.pattern.to_string();
        if let Some((a, b)) = unreachable(c, d, &flows) {
            let (from, to) = (c.pc_name(a), c.pc_name(b));
            return Err(TrafficError::Unreachable { pattern, from, to });
        }
        if flows.is_empty() {
            return Err(TrafficError::NoFlow { pattern, pcs: d.pcs() });
        }
        if let Some(why) = too_many(flows.len(), &self.transports) {
            return Err(TrafficError::TooMany { pattern, why });
        }
        check_congestion(&self.congestion).map_err(|e| TrafficError::Congestion(Box::new(e)))
    }
}

/// A congestion control's name as the kernel knows it: 1-15 lowercase
/// letters, digits or `_` ([`check_congestion`] says whether this kernel
/// has it).
pub fn parse_congestion(text: &str) -> Result<String, TrafficError> {
    let ok = (1..=15).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    if ok {
        Ok(text.to_string())
    } else {
        Err(TrafficError::NotACongestion(fnn_core::escape::one_line(text)))
    }
}

const AVAILABLE: &str = "/proc/sys/net/ipv4/tcp_available_congestion_control";

/// Whether this kernel has the congestion control `name`: listed as
/// available, or loaded on demand when a socket asks for it (as the
/// rehearsal's sockets will). Its absence is an error naming those it has
/// and how to load it, given before anything is built.
pub(crate) fn check_congestion(name: &str) -> Result<(), TrafficError> {
    let have = std::fs::read_to_string(AVAILABLE).unwrap_or_default();
    if have.split_whitespace().any(|a| a == name) {
        return Ok(());
    }
    let probe = rustix::net::socket(rustix::net::AddressFamily::INET, rustix::net::SocketType::STREAM, None)
        .and_then(|fd| rustix::net::sockopt::set_tcp_congestion(&fd, name));
    match probe {
        Ok(()) => Ok(()),
        Err(e) => Err(TrafficError::NoCongestion {
            name: name.to_string(),
            reason: std::io::Error::from(e).to_string(),
            have: have.trim().to_string(),
        }),
    }
}

/// The congestion control the kernel reports for every socket of
/// `streams`: one name when all agree, else each name once, in order.
fn congestion_of<'a>(streams: impl Iterator<Item = &'a std::net::TcpStream>) -> String {
    let mut names: Vec<String> = Vec::new();
    for s in streams {
        let name = rustix::net::sockopt::tcp_congestion(s).unwrap_or_else(|e| format!("unknown ({e})"));
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names.join(", ")
}

/// One flow's outcome.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Flow {
    pub from: String,
    pub to: String,
    /// Switches the two PCs share.
    pub shared: u32,
    /// MPTCP subflows open at the end of the run (None over TCP).
    pub subflows: Option<u32>,
    pub measured_bps: f64,
    pub predicted_bps: f64,
}

/// One transport's run of the pattern.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Run {
    pub transport: &'static str,
    /// The congestion control the kernel reports for the senders' sockets
    /// (names separated by commas, were they ever to differ).
    pub congestion: String,
    pub flows: Vec<Flow>,
    pub measured_bps: f64,
    pub predicted_bps: f64,
}

/// What the bandwidth rehearsal measured.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TrafficReport {
    /// `fnn`; `tree` for the same PCs on the KLAT2 paper's tree;
    /// `fat-tree` on the fat-tree `compare` designs.
    pub network: &'static str,
    pub pattern: Pattern,
    pub link_rate_bps: u64,
    pub seconds: f64,
    /// The TCP congestion control asked for (each run says what the
    /// sockets used).
    pub congestion: String,
    pub runs: Vec<Run>,
}

impl TrafficReport {
    /// The network's name as the reports write it.
    pub fn label(&self) -> &'static str {
        label(self.network)
    }

    pub fn text(&self) -> String {
        let mbit = |b: f64| format!("{:.2} Mbit/s", b / 1e6);
        let mut s = format!(
            "traffic on the {}: {}, {} a link each way, {:.1} s a run, {} congestion control:\n",
            self.label(),
            self.pattern,
            mbit(self.link_rate_bps as f64),
            self.seconds,
            self.congestion
        );
        for r in &self.runs {
            let ratio = if r.predicted_bps > 0.0 {
                r.measured_bps / r.predicted_bps
            } else {
                0.0
            };
            s.push_str(&format!(
                "  {:<5} aggregate {} measured, {} predicted ({:.0}%)\n",
                r.transport,
                mbit(r.measured_bps),
                mbit(r.predicted_bps),
                100.0 * ratio
            ));
            for f in r.flows.iter().take(16) {
                let paths = f.subflows.map_or(String::new(), |n| format!(", {n} subflows"));
                s.push_str(&format!(
                    "    {} -> {} ({} shared{paths}): {} measured, {} predicted\n",
                    f.from,
                    f.to,
                    f.shared,
                    mbit(f.measured_bps),
                    mbit(f.predicted_bps)
                ));
            }
            if r.flows.len() > 16 {
                s.push_str(&format!(
                    "    … {} more flows (--json has them all)\n",
                    r.flows.len() - 16
                ));
            }
        }
        s
    }
}

/// A network's name as the reports write it (`fnn` is the FNN).
fn label(network: &'static str) -> &'static str {
    match network {
        "fnn" => "FNN",
        other => other,
    }
}

/// A TCP or MPTCP socket made in the current thread's namespace, using
/// the congestion control `congestion`. Set on the socket, not as the
/// namespace's default: a namespace may only default to an algorithm the
/// kernel's `tcp_allowed_congestion_control` lists, while a socket whose
/// owner has CAP_NET_ADMIN may use any the kernel has. An MPTCP socket
/// passes it to every subflow, and a listener to what it accepts.
fn socket(mptcp: bool, congestion: &str) -> std::io::Result<OwnedFd> {
    use rustix::net::{AddressFamily, SocketFlags, SocketType, ipproto};
    let proto = mptcp.then_some(ipproto::MPTCP);
    let fd = rustix::net::socket_with(AddressFamily::INET, SocketType::STREAM, SocketFlags::CLOEXEC, proto)?;
    rustix::net::sockopt::set_tcp_congestion(&fd, congestion)?;
    Ok(fd)
}

/// A listener on `ip:port` in the current thread's namespace.
fn listen(ip: Ipv4Addr, port: u16, mptcp: bool, congestion: &str) -> std::io::Result<std::net::TcpListener> {
    let fd = socket(mptcp, congestion)?;
    rustix::net::sockopt::set_socket_reuseaddr(&fd, true)?;
    rustix::net::bind(&fd, &SocketAddrV4::new(ip, port))?;
    rustix::net::listen(&fd, 16)?;
    Ok(fd.into())
}

/// A connection to `ip:port` from the current thread's namespace.
fn connect(ip: Ipv4Addr, port: u16, mptcp: bool, congestion: &str) -> std::io::Result<std::net::TcpStream> {
    let fd = socket(mptcp, congestion)?;
    rustix::net::connect(&fd, &SocketAddrV4::new(ip, port))?;
    Ok(fd.into())
}

const SOL_MPTCP: i32 = 284;
const MPTCP_INFO: i32 = 1;

/// How many subflows an MPTCP connection has open (the first included),
/// from the kernel's `mptcp_info`, whose first byte counts the extra ones.
fn subflows(stream: &std::net::TcpStream) -> Option<u32> {
    let mut info = [0u8; 128];
    let len = super::raw_socket::get_option(stream, SOL_MPTCP, MPTCP_INFO, &mut info).ok()?;
    (len > 0).then(|| 1 + u32::from(info[0]))
}

/// Raises this process's open-file limit to hold `sockets` more, up to
/// its hard limit: a shell's usual 1024 is short of an all-to-all.
fn descriptors_for(sockets: usize) -> Result<(), TrafficError> {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let want = (sockets + 256) as u64;
    let mut l = getrlimit(Resource::Nofile);
    // None is unlimited.
    if l.current.is_none_or(|c| c >= want) {
        return Ok(());
    }
    if let Some(hard) = l.maximum
        && hard < want
    {
        return Err(TrafficError::HardLimit { sockets, hard });
    }
    l.current = Some(want);
    setrlimit(Resource::Nofile, l).map_err(|e| TrafficError::Rlimit(std::io::Error::from(e).to_string()))
}

/// How long MPTCP may take to open a connection's extra subflows (the
/// peer announces its addresses once the connection is up).
const JOIN_WAIT: Duration = Duration::from_secs(3);

/// How many times a connection short of subflows is opened again.
const JOIN_RETRIES: usize = 2;

/// Time for MPTCP to open its extra subflows and TCP to leave slow start
/// before bytes are counted.
const SETTLE: Duration = Duration::from_secs(1);

/// How a network is reached: the address PC `a` uses for PC `b` over a
/// transport, and how many MPTCP subflows a connection between them
/// should open.
pub(crate) struct Reach<'a> {
    /// The network's name: `fnn`, `tree` or `fat-tree`.
    pub network: &'static str,
    pub address: &'a dyn Fn(usize, usize, Transport) -> Ipv4Addr,
    pub subflows: &'a dyn Fn(usize, usize) -> u32,
}

type Connection = (std::net::TcpStream, std::net::TcpStream);

/// One transport's run of the pattern: each flow's bits/s (over all its
/// connections) and, over MPTCP, how many subflows it had open at the
/// end; and the congestion control the senders' sockets used.
struct Measured {
    per_flow: Vec<(f64, Option<u32>)>,
    congestion: String,
}

/// Over MPTCP, measured once every connection has a subflow per shared
/// switch (`want`, per flow). A join can be lost (the kernel does not try
/// it again for minutes): such a connection is opened afresh, twice at
/// most; one still short is measured as it is, and its subflows are
/// reported.
fn await_joins(
    groups: &mut [Vec<Connection>],
    want: &[u32],
    open: &dyn Fn(usize) -> Result<Vec<Connection>, EmulateError>,
) -> Result<(), EmulateError> {
    let short = |groups: &[Vec<Connection>]| -> Vec<usize> {
        (0..groups.len())
            .filter(|&i| {
                groups[i]
                    .iter()
                    .any(|(client, _)| subflows(client).unwrap_or(want[i]) < want[i])
            })
            .collect()
    };
    for attempt in 0..=JOIN_RETRIES {
        let deadline = Instant::now() + JOIN_WAIT;
        while Instant::now() < deadline && !short(groups).is_empty() {
            std::thread::sleep(Duration::from_millis(20));
        }
        let again = short(groups);
        if again.is_empty() || attempt == JOIN_RETRIES {
            break;
        }
        for i in again {
            groups[i] = open(i)?;
        }
    }
    Ok(())
}

/// Runs the pattern once over one transport, as `o` says.
#[allow(clippy::too_many_arguments)]
fn measure(
    c: &Cluster,
    reach: &Reach,
    flows: &[(usize, usize)],
    namespaces: &[String],
    t: Transport,
    o: &TrafficOptions,
    cancel: Option<&AtomicBool>,
) -> Result<Measured, EmulateError> {
    let (seconds, congestion) = (o.seconds, o.congestion.as_str());
    let failed = super::failed;
    let (mptcp, transport) = (t.mptcp(), t.name());
    // A listener a flow, taking each of its connections.
    let open = |i: usize| -> Result<Vec<Connection>, EmulateError> {
        let (a, b) = flows[i];
        let to = (reach.address)(a, b, t);
        let port = 20_000 + i as u16;
        let what = format!(
            "a {transport} connection {} -> {} on the {}",
            c.pc_name(a),
            c.pc_name(b),
            label(reach.network)
        );
        // Bound to every address: MPTCP's extra subflows arrive at the
        // PC's addresses on the other shared switches.
        let listener = super::netns::within(&namespaces[b], || {
            listen(Ipv4Addr::UNSPECIFIED, port, mptcp, congestion)
        })
        .map_err(failed(what.clone()))?;
        (0..t.connections())
            .map(|_| {
                let client = super::netns::within(&namespaces[a], || connect(to, port, mptcp, congestion))
                    .map_err(failed(what.clone()))?;
                let (server, _) = listener.accept().map_err(failed(what.clone()))?;
                Ok((client, server))
            })
            .collect()
    };
    descriptors_for(2 * flows.len() * t.connections()).map_err(|reason| EmulateError::Setup {
        command: format!("{} {transport} connections", flows.len() * t.connections()),
        reason: reason.to_string(),
    })?;
    let mut groups = (0..flows.len()).map(open).collect::<Result<Vec<_>, _>>()?;
    if mptcp {
        let want: Vec<u32> = flows.iter().map(|&(a, b)| (reach.subflows)(a, b)).collect();
        await_joins(&mut groups, &want, &open)?;
    }
    let owner: Vec<usize> = groups
        .iter()
        .enumerate()
        .flat_map(|(i, g)| std::iter::repeat_n(i, g.len()))
        .collect();
    let used = congestion_of(groups.iter().flatten().map(|(client, _)| client));
    let counting = Instant::now() + SETTLE;
    let stop = counting + Duration::from_secs_f64(seconds);
    let results = super::pump::pump(
        groups.into_iter().flatten().collect(),
        counting,
        stop,
        cancel,
        &subflows,
    )
    .map_err(failed(format!("{transport} traffic")))?;
    if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
        return Err(EmulateError::Interrupted);
    }
    let mut per_flow = vec![(0.0, None); flows.len()];
    for (&i, (bytes, open)) in owner.iter().zip(results) {
        per_flow[i].0 += bytes as f64 * 8.0 / seconds;
        per_flow[i].1 = per_flow[i].1.or(open);
    }
    Ok(Measured {
        per_flow,
        congestion: used,
    })
}

/// The bandwidth rehearsal on a built, booted testbed.
pub fn rehearse(
    c: &Cluster,
    d: &Design,
    r: &BasicRouting,
    namespaces: &[String],
    t: &TrafficOptions,
    cancel: Option<&AtomicBool>,
) -> Result<TrafficReport, EmulateError> {
    let flows = t.pattern.flows(c, d);
    let address = |a: usize, b: usize, t: Transport| match t {
        Transport::TcpMultipath => fnn_export::routing::multipath_ip(b),
        _ => address_for(r, a, b),
    };
    let subflows = |a: usize, b: usize| fnn_export::bandwidth::paths(d, r, a, b, true).len() as u32;
    let reach = Reach {
        network: "fnn",
        address: &address,
        subflows: &subflows,
    };
    let predict = |transport: Transport| fnn_export::bandwidth::predict(d, r, &flows, t.rate as f64, transport);
    run_all(c, d, &reach, &flows, &predict, namespaces, t, cancel)
}

/// The same pattern on the tree of the same PCs ([`super::tree`]).
pub(crate) fn rehearse_tree(
    c: &Cluster,
    d: &Design,
    namespaces: &[String],
    t: &TrafficOptions,
    cancel: Option<&AtomicBool>,
) -> Result<TrafficReport, EmulateError> {
    let address = |b: usize| super::tree::address(b);
    let predict = |flows: &[(usize, usize)], mptcp: bool| super::tree::predict(flows, d.pcs(), t.rate as f64, mptcp);
    rehearse_one_path(c, d, "tree", &address, &predict, namespaces, t, cancel)
}

/// The same pattern on the fat-tree of `compare` ([`super::fattree`]).
pub(crate) fn rehearse_fat_tree(
    c: &Cluster,
    d: &Design,
    shape: &super::fattree::Shape,
    namespaces: &[String],
    t: &TrafficOptions,
    cancel: Option<&AtomicBool>,
) -> Result<TrafficReport, EmulateError> {
    let address = |b: usize| super::fattree::address(b, shape);
    let predict = |flows: &[(usize, usize)], mptcp: bool| super::fattree::predict(flows, shape, t.rate as f64, mptcp);
    rehearse_one_path(c, d, "fat-tree", &address, &predict, namespaces, t, cancel)
}

/// A one-path network's model: each flow's bits/s, given the flows and
/// whether they run over MPTCP.
type OnePathModel<'a> = dyn Fn(&[(usize, usize)], bool) -> Vec<f64> + 'a;

/// The pattern on a network where each PC has one address and a pair one
/// path (one MPTCP subflow): `predict` is its model for the flows.
#[allow(clippy::too_many_arguments)]
fn rehearse_one_path(
    c: &Cluster,
    d: &Design,
    network: &'static str,
    address: &dyn Fn(usize) -> Ipv4Addr,
    predict: &OnePathModel,
    namespaces: &[String],
    t: &TrafficOptions,
    cancel: Option<&AtomicBool>,
) -> Result<TrafficReport, EmulateError> {
    let flows = t.pattern.flows(c, d);
    let to = |_: usize, b: usize, _: Transport| address(b);
    let one = |_: usize, _: usize| 1;
    let reach = Reach {
        network,
        address: &to,
        subflows: &one,
    };
    let predict = |transport: Transport| predict(&flows, transport.mptcp());
    run_all(c, d, &reach, &flows, &predict, namespaces, t, cancel)
}

/// Each transport's run of `flows` on one network, set beside `predict`.
#[allow(clippy::too_many_arguments)]
fn run_all(
    c: &Cluster,
    d: &Design,
    reach: &Reach,
    flows: &[(usize, usize)],
    predict: &dyn Fn(Transport) -> Vec<f64>,
    namespaces: &[String],
    t: &TrafficOptions,
    cancel: Option<&AtomicBool>,
) -> Result<TrafficReport, EmulateError> {
    if let Some(reason) = too_many(flows.len(), &t.transports) {
        return Err(EmulateError::Setup {
            command: format!("traffic: {}", t.pattern),
            reason,
        });
    }
    let mut runs = Vec::new();
    for &transport in &t.transports {
        let Measured {
            per_flow: measured,
            congestion,
        } = measure(c, reach, flows, namespaces, transport, t, cancel)?;
        let predicted = predict(transport);
        let out: Vec<Flow> = flows
            .iter()
            .zip(measured.iter().zip(&predicted))
            .map(|(&(a, b), (&(m, open), &p))| Flow {
                from: c.pc_name(a),
                to: c.pc_name(b),
                // On the trees every pair has one path.
                shared: if reach.network == "fnn" { d.links(a, b) } else { 1 },
                subflows: open,
                measured_bps: m,
                predicted_bps: p,
            })
            .collect();
        runs.push(Run {
            transport: transport.name(),
            congestion,
            measured_bps: measured.iter().map(|m| m.0).sum(),
            predicted_bps: predicted.iter().sum(),
            flows: out,
        });
    }
    Ok(TrafficReport {
        network: reach.network,
        pattern: t.pattern.clone(),
        link_rate_bps: t.rate,
        seconds: t.seconds,
        congestion: t.congestion.clone(),
        runs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_and_patterns_are_read_strictly() {
        assert_eq!(parse_rate("20mbit"), Ok(20_000_000));
        assert_eq!(parse_rate("500kbit"), Ok(500_000));
        assert_eq!(parse_rate("1kbit"), Ok(MIN_RATE));
        assert_eq!(parse_rate("100gbit"), Ok(MAX_RATE));
        for bad in [
            "20", "mbit", "-5mbit", "20 mbps", "0mbit", "999gbit", "1bit", "999bit", "101gbit",
        ] {
            assert!(parse_rate(bad).is_err(), "{bad}");
        }
        let c = fnn_core::spec::quick_cluster(8, 3, "4x6").unwrap();
        assert_eq!(
            Pattern::parse("pair:n0:n1", &c, 8),
            Ok(Pattern::Pair { from: 0, to: 1 })
        );
        assert!(Pattern::parse("pair:n0:n0", &c, 8).is_err());
        assert!(
            Pattern::parse("pair:n0:n9", &c, 8)
                .unwrap_err()
                .to_string()
                .contains("n9")
        );
        assert!(Pattern::parse("permutation:x", &c, 8).is_err());
        assert_eq!(parse_congestion("cubic"), Ok("cubic".to_string()));
        for bad in ["", "Cubic", "cu bic", "../bbr", "a_name_too_long_x"] {
            assert!(parse_congestion(bad).is_err(), "{bad}");
        }
    }

    /// The connection cap counts the transport's connections a flow, and
    /// a congestion control the kernel lacks is refused with how to load
    /// it (reno is always built in).
    #[test]
    fn what_cannot_run_is_known_before_building() {
        assert!(too_many(MAX_FLOWS, &[Transport::Tcp, Transport::Mptcp]).is_none());
        assert!(too_many(MAX_FLOWS + 1, &[Transport::Tcp]).is_some());
        let multipath = too_many(1536, &[Transport::Tcp, Transport::TcpMultipath]).unwrap();
        assert!(multipath.contains("1536 flows of 16 connection(s)"), "{multipath}");
        assert_eq!(check_congestion("reno"), Ok(()));
        let lacking = check_congestion("nosuchcc").unwrap_err().to_string();
        assert!(
            lacking.contains("modprobe tcp_nosuchcc") && lacking.contains("reno"),
            "{lacking}"
        );
    }

    #[test]
    fn a_permutation_moves_every_pc() {
        for seed in 0..50 {
            for n in [2, 3, 8, 64] {
                let p = derangement(n, seed);
                let mut sorted = p.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..n).collect::<Vec<_>>());
                assert!(p.iter().enumerate().all(|(i, &j)| i != j), "{p:?}");
            }
        }
    }
}
