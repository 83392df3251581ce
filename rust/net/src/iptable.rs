//! Which IP addresses are not on the public internet.
//!
//! Built from the IANA IPv4 and IPv6 special-purpose address registries: every block that is
//! not "globally reachable" is refused, plus multicast, the deprecated site-local range and
//! everything in IPv6 outside global unicast (2000::/3). Addresses that carry an IPv4 address
//! inside an IPv6 one (mapped, compatible, NAT64, SIIT, 6to4) are judged by the IPv4 they embed,
//! so `::ffff:127.0.0.1` is loopback, not "some IPv6 address".
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::cidr::Cidr;

/// A refusal by the built-in table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Denial {
    /// Stable machine-readable tag, e.g. `private-address`.
    pub reason: &'static str,
    /// Plain words, e.g. `a private address`.
    pub what: &'static str,
    /// The registry block that matched.
    pub range: Cidr,
    /// Set when the address was judged by an IPv4 address embedded in an IPv6 one.
    pub embedded: Option<(&'static str, Ipv4Addr)>,
}

impl fmt::Display for Denial {
    /// Reads after "<ip> is ": "a private address (10.0.0.0/8)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.embedded {
            Some((form, v4)) => write!(
                f,
                "an IPv6 address embedding {v4} ({form}), which is {} ({})",
                self.what, self.range
            ),
            None => write!(f, "{} ({})", self.what, self.range),
        }
    }
}

struct Row {
    net: Cidr,
    reason: &'static str,
    what: &'static str,
}

const fn row4(a: [u8; 4], prefix: u8, reason: &'static str, what: &'static str) -> Row {
    Row {
        net: Cidr::v4(a, prefix),
        reason,
        what,
    }
}

const fn row6(s: [u16; 8], prefix: u8, reason: &'static str, what: &'static str) -> Row {
    Row {
        net: Cidr::v6(s, prefix),
        reason,
        what,
    }
}

const PRIVATE: &str = "private-address";
const RESERVED: &str = "reserved-address";
const DOC: &str = "documentation-address";

/// Blocks inside refused ranges that IANA marks globally reachable (anycast services).
const V4_GLOBAL_EXCEPTIONS: [Cidr; 2] =
    [Cidr::v4([192, 0, 0, 9], 32), Cidr::v4([192, 0, 0, 10], 32)];

/// First match wins, so more specific rows come first.
const V4_TABLE: &[Row] = &[
    row4(
        [0, 0, 0, 0],
        8,
        "unspecified-address",
        "the unspecified \"this network\" block",
    ),
    row4([10, 0, 0, 0], 8, PRIVATE, "a private address"),
    row4(
        [100, 64, 0, 0],
        10,
        PRIVATE,
        "a carrier-grade NAT shared address",
    ),
    row4([127, 0, 0, 0], 8, "loopback-address", "a loopback address"),
    row4(
        [169, 254, 0, 0],
        16,
        "link-local-address",
        "a link-local address",
    ),
    row4([172, 16, 0, 0], 12, PRIVATE, "a private address"),
    row4([192, 0, 0, 0], 24, RESERVED, "an IETF protocol assignment"),
    row4([192, 0, 2, 0], 24, DOC, "a documentation address"),
    row4(
        [192, 88, 99, 0],
        24,
        RESERVED,
        "a deprecated 6to4 relay anycast address",
    ),
    row4([192, 168, 0, 0], 16, PRIVATE, "a private address"),
    row4([198, 18, 0, 0], 15, RESERVED, "a benchmarking address"),
    row4([198, 51, 100, 0], 24, DOC, "a documentation address"),
    row4([203, 0, 113, 0], 24, DOC, "a documentation address"),
    row4(
        [224, 0, 0, 0],
        4,
        "multicast-address",
        "a multicast address",
    ),
    row4(
        [255, 255, 255, 255],
        32,
        "broadcast-address",
        "the broadcast address",
    ),
    row4(
        [240, 0, 0, 0],
        4,
        RESERVED,
        "a reserved (former class E) address",
    ),
];

/// Globally reachable blocks inside 2001::/23 (IANA IPv6 special-purpose registry).
const V6_GLOBAL_EXCEPTIONS: [Cidr; 7] = [
    Cidr::v6([0x2001, 1, 0, 0, 0, 0, 0, 1], 128),
    Cidr::v6([0x2001, 1, 0, 0, 0, 0, 0, 2], 128),
    Cidr::v6([0x2001, 1, 0, 0, 0, 0, 0, 3], 128),
    Cidr::v6([0x2001, 3, 0, 0, 0, 0, 0, 0], 32),
    Cidr::v6([0x2001, 4, 0x112, 0, 0, 0, 0, 0], 48),
    Cidr::v6([0x2001, 0x20, 0, 0, 0, 0, 0, 0], 28),
    Cidr::v6([0x2001, 0x30, 0, 0, 0, 0, 0, 0], 28),
];

const V6_TABLE: &[Row] = &[
    row6(
        [0; 8],
        128,
        "unspecified-address",
        "the unspecified address",
    ),
    row6(
        [0, 0, 0, 0, 0, 0, 0, 1],
        128,
        "loopback-address",
        "the loopback address",
    ),
    row6(
        [0x64, 0xff9b, 1, 0, 0, 0, 0, 0],
        48,
        RESERVED,
        "a local-use NAT64 address",
    ),
    row6(
        [0x100, 0, 0, 0, 0, 0, 0, 0],
        64,
        RESERVED,
        "a discard-only address",
    ),
    row6(
        [0x100, 0, 0, 1, 0, 0, 0, 0],
        64,
        RESERVED,
        "a dummy IPv6 prefix",
    ),
    row6(
        [0x2001, 0, 0, 0, 0, 0, 0, 0],
        32,
        RESERVED,
        "a Teredo tunnelling address",
    ),
    row6(
        [0x2001, 2, 0, 0, 0, 0, 0, 0],
        48,
        RESERVED,
        "a benchmarking address",
    ),
    row6(
        [0x2001, 0, 0, 0, 0, 0, 0, 0],
        23,
        RESERVED,
        "an IETF protocol assignment",
    ),
    row6(
        [0x2001, 0xdb8, 0, 0, 0, 0, 0, 0],
        32,
        DOC,
        "a documentation address",
    ),
    row6(
        [0x2002, 0, 0, 0, 0, 0, 0, 0],
        16,
        RESERVED,
        "a 6to4 tunnelling address",
    ),
    row6(
        [0x3fff, 0, 0, 0, 0, 0, 0, 0],
        20,
        DOC,
        "a documentation address",
    ),
    row6(
        [0x5f00, 0, 0, 0, 0, 0, 0, 0],
        16,
        RESERVED,
        "an SRv6 segment identifier",
    ),
    row6(
        [0xfc00, 0, 0, 0, 0, 0, 0, 0],
        7,
        PRIVATE,
        "a unique local (private) address",
    ),
    row6(
        [0xfe80, 0, 0, 0, 0, 0, 0, 0],
        10,
        "link-local-address",
        "a link-local address",
    ),
    row6(
        [0xfec0, 0, 0, 0, 0, 0, 0, 0],
        10,
        PRIVATE,
        "a deprecated site-local address",
    ),
    row6(
        [0xff00, 0, 0, 0, 0, 0, 0, 0],
        8,
        "multicast-address",
        "a multicast address",
    ),
];

/// IPv6 blocks that carry an IPv4 address, and where it sits.
struct Embedding {
    net: Cidr,
    form: &'static str,
    /// Whether a public embedded IPv4 makes the address acceptable. Only forms that really
    /// reach that IPv4 host (mapped, well-known NAT64) qualify; the deprecated ones do not.
    public_ok: bool,
    /// Bit offset of the IPv4 address from the most significant bit.
    offset: u32,
}

const EMBEDDINGS: &[Embedding] = &[
    Embedding {
        net: Cidr::v6([0, 0, 0, 0, 0, 0xffff, 0, 0], 96),
        form: "IPv4-mapped",
        public_ok: true,
        offset: 96,
    },
    Embedding {
        net: Cidr::v6([0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96),
        form: "NAT64",
        public_ok: true,
        offset: 96,
    },
    Embedding {
        net: Cidr::v6([0, 0, 0, 0, 0xffff, 0, 0, 0], 96),
        form: "IPv4-translated (SIIT)",
        public_ok: false,
        offset: 96,
    },
    Embedding {
        net: Cidr::v6([0x2002, 0, 0, 0, 0, 0, 0, 0], 16),
        form: "6to4",
        public_ok: false,
        offset: 16,
    },
    // Checked after ::/128 and ::1/128 (see `classify_v6`).
    Embedding {
        net: Cidr::v6([0; 8], 96),
        form: "IPv4-compatible",
        public_ok: false,
        offset: 96,
    },
];

const GLOBAL_UNICAST: Cidr = Cidr::v6([0x2000, 0, 0, 0, 0, 0, 0, 0], 3);

fn lookup(table: &[Row], ip: IpAddr) -> Option<Denial> {
    table.iter().find(|r| r.net.contains(ip)).map(|r| Denial {
        reason: r.reason,
        what: r.what,
        range: r.net,
        embedded: None,
    })
}

pub fn classify_v4(ip: Ipv4Addr) -> Option<Denial> {
    let ip = IpAddr::V4(ip);
    if V4_GLOBAL_EXCEPTIONS.iter().any(|c| c.contains(ip)) {
        return None;
    }
    lookup(V4_TABLE, ip)
}

fn embedded_v4(ip: Ipv6Addr, offset: u32) -> Ipv4Addr {
    let value = u128::from(ip);
    // Shift the 32 bits starting at `offset` down; truncation keeps exactly those bits.
    Ipv4Addr::from((value >> (96 - offset)) as u32)
}

pub fn classify_v6(ip: Ipv6Addr) -> Option<Denial> {
    let addr = IpAddr::V6(ip);
    if ip.is_unspecified() || ip.is_loopback() {
        return lookup(V6_TABLE, addr);
    }
    if let Some(e) = EMBEDDINGS.iter().find(|e| e.net.contains(addr)) {
        let v4 = embedded_v4(ip, e.offset);
        return match classify_v4(v4) {
            Some(mut d) => {
                d.embedded = Some((e.form, v4));
                Some(d)
            }
            None if e.public_ok => None,
            None => Some(Denial {
                reason: RESERVED,
                what: "refused in this deprecated form",
                range: e.net,
                embedded: Some((e.form, v4)),
            }),
        };
    }
    if V6_GLOBAL_EXCEPTIONS.iter().any(|c| c.contains(addr)) {
        return None;
    }
    if let Some(d) = lookup(V6_TABLE, addr) {
        return Some(d);
    }
    if !GLOBAL_UNICAST.contains(addr) {
        return Some(Denial {
            reason: RESERVED,
            what: "not a global unicast address",
            range: GLOBAL_UNICAST,
            embedded: None,
        });
    }
    None
}

const TEREDO: Cidr = Cidr::v6([0x2001, 0, 0, 0, 0, 0, 0, 0], 32);

/// Every IPv4 address an IPv6 address carries (mapped, NAT64, SIIT, 6to4, compatible, and
/// both Teredo addresses: the server's, and the client's with its bits inverted).
///
/// Used so that `deny_networks` written in IPv4 also refuse the IPv6 forms that reach the
/// same IPv4 host: without it `deny_networks=["203.0.113.0/24"]` is bypassed by
/// `[64:ff9b::cb00:7101]` on a NAT64 network, which the table lets through when the embedded
/// address is public. `::` and `::1` carry none.
pub fn embedded_ipv4s(ip: Ipv6Addr) -> Vec<Ipv4Addr> {
    let addr = IpAddr::V6(ip);
    if ip.is_unspecified() || ip.is_loopback() {
        return Vec::new();
    }
    if TEREDO.contains(addr) {
        let value = u128::from(ip);
        let server = Ipv4Addr::from((value >> 64) as u32);
        let client = Ipv4Addr::from(!(value as u32));
        return vec![server, client];
    }
    EMBEDDINGS
        .iter()
        .find(|e| e.net.contains(addr))
        .map(|e| vec![embedded_v4(ip, e.offset)])
        .unwrap_or_default()
}

/// `None` when the address is on the public internet, else why it is not.
pub fn classify(ip: IpAddr) -> Option<Denial> {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}
