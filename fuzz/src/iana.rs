//! The IANA IPv4 and IPv6 Special-Purpose Address Registries, typed in again from the
//! registries (column "Globally Reachable"), independently of `webgrip_net::iptable`: the
//! differential oracle for the address policy. Plus what the policy documents on top of
//! the registries: multicast, and everything in IPv6 outside global unicast (2000::/3).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// What the registries say a default policy must do with an address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// Not globally reachable (or multicast, or outside 2000::/3): must be refused.
    Refuse,
    /// Globally reachable: must be allowed.
    Allow,
    /// The registry says N/A (deprecated, tunnelling) or the address embeds an IPv4 one that
    /// the policy may judge instead: either answer is consistent.
    Either,
}

/// (network, prefix, globally reachable: Some(bool), or None for N/A), most specific first
/// where blocks nest.
const V4: &[([u8; 4], u8, Option<bool>)] = &[
    ([192, 0, 0, 9], 32, Some(true)),    // Port Control Protocol Anycast
    ([192, 0, 0, 10], 32, Some(true)),   // Traversal Using Relays around NAT Anycast
    ([0, 0, 0, 0], 8, Some(false)),      // "This network"
    ([10, 0, 0, 0], 8, Some(false)),     // Private-Use
    ([100, 64, 0, 0], 10, Some(false)),  // Shared Address Space
    ([127, 0, 0, 0], 8, Some(false)),    // Loopback
    ([169, 254, 0, 0], 16, Some(false)), // Link Local
    ([172, 16, 0, 0], 12, Some(false)),  // Private-Use
    ([192, 0, 0, 0], 24, Some(false)),   // IETF Protocol Assignments (and its /29, /32s)
    ([192, 0, 2, 0], 24, Some(false)),   // Documentation (TEST-NET-1)
    ([192, 31, 196, 0], 24, Some(true)), // AS112-v4
    ([192, 52, 193, 0], 24, Some(true)), // AMT
    ([192, 88, 99, 0], 24, None),        // Deprecated (6to4 Relay Anycast)
    ([192, 168, 0, 0], 16, Some(false)), // Private-Use
    ([192, 175, 48, 0], 24, Some(true)), // Direct Delegation AS112 Service
    ([198, 18, 0, 0], 15, Some(false)),  // Benchmarking
    ([198, 51, 100, 0], 24, Some(false)), // Documentation (TEST-NET-2)
    ([203, 0, 113, 0], 24, Some(false)), // Documentation (TEST-NET-3)
    ([224, 0, 0, 0], 4, Some(false)),    // Multicast (IPv4 Multicast Address Space registry)
    ([255, 255, 255, 255], 32, Some(false)), // Limited Broadcast
    ([240, 0, 0, 0], 4, Some(false)),    // Reserved
];

const V6: &[([u16; 8], u8, Option<bool>)] = &[
    ([0, 0, 0, 0, 0, 0, 0, 1], 128, Some(false)), // Loopback Address
    ([0, 0, 0, 0, 0, 0, 0, 0], 128, Some(false)), // Unspecified Address
    ([0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48, Some(false)), // IPv4-IPv6 Translat. (local use)
    ([0x100, 0, 0, 0, 0, 0, 0, 0], 64, Some(false)), // Discard-Only Address Block
    ([0x100, 0, 0, 1, 0, 0, 0, 0], 64, Some(false)), // Dummy IPv6 Prefix
    ([0x2001, 1, 0, 0, 0, 0, 0, 1], 128, Some(true)), // Port Control Protocol Anycast
    ([0x2001, 1, 0, 0, 0, 0, 0, 2], 128, Some(true)), // TURN Anycast
    ([0x2001, 1, 0, 0, 0, 0, 0, 3], 128, Some(true)), // DNS-SD Service Registration Protocol Anycast
    ([0x2001, 2, 0, 0, 0, 0, 0, 0], 48, Some(false)), // Benchmarking
    ([0x2001, 3, 0, 0, 0, 0, 0, 0], 32, Some(true)),  // AMT
    ([0x2001, 4, 0x112, 0, 0, 0, 0, 0], 48, Some(true)), // AS112-v6
    ([0x2001, 0x10, 0, 0, 0, 0, 0, 0], 28, None),     // Deprecated (previously ORCHID)
    ([0x2001, 0x20, 0, 0, 0, 0, 0, 0], 28, Some(true)), // ORCHIDv2
    ([0x2001, 0x30, 0, 0, 0, 0, 0, 0], 28, Some(true)), // Drone Remote ID Protocol Entity Tags
    ([0x2001, 0, 0, 0, 0, 0, 0, 0], 32, None),        // TEREDO
    ([0x2001, 0, 0, 0, 0, 0, 0, 0], 23, Some(false)), // IETF Protocol Assignments
    ([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32, Some(false)), // Documentation
    ([0x2002, 0, 0, 0, 0, 0, 0, 0], 16, None),        // 6to4
    ([0x2620, 0x4f, 0x8000, 0, 0, 0, 0, 0], 48, Some(true)), // Direct Delegation AS112 Service
    ([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20, Some(false)), // Documentation
    ([0x5f00, 0, 0, 0, 0, 0, 0, 0], 16, Some(false)), // Segment Routing (SRv6) SIDs
    ([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7, Some(false)),  // Unique-Local
    ([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10, Some(false)), // Link-Local Unicast
    ([0xff00, 0, 0, 0, 0, 0, 0, 0], 8, Some(false)),  // Multicast (IPv6 Multicast registry)
];

fn in_v4(ip: Ipv4Addr, net: [u8; 4], prefix: u8) -> bool {
    let mask = u32::MAX.checked_shl(32 - u32::from(prefix)).unwrap_or(0);
    u32::from(ip) & mask == u32::from(Ipv4Addr::from(net)) & mask
}

fn in_v6(ip: Ipv6Addr, net: [u16; 8], prefix: u8) -> bool {
    let mask = u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0);
    u128::from(ip) & mask == u128::from(Ipv6Addr::from(net)) & mask
}

fn from_reachable(g: Option<bool>) -> Expect {
    match g {
        Some(true) => Expect::Allow,
        Some(false) => Expect::Refuse,
        None => Expect::Either,
    }
}

pub fn expect_v4(ip: Ipv4Addr) -> Expect {
    V4.iter()
        .find(|(net, p, _)| in_v4(ip, *net, *p))
        .map_or(Expect::Allow, |(_, _, g)| from_reachable(*g))
}

/// The IPv4 address in the last 32 bits.
fn low_v4(ip: Ipv6Addr) -> Ipv4Addr {
    Ipv4Addr::from((u128::from(ip) & 0xffff_ffff) as u32)
}

pub fn expect_v6(ip: Ipv6Addr) -> Expect {
    // IPv4-mapped (::ffff:0:0/96) is the IPv4 host itself; the well-known NAT64 prefix
    // (64:ff9b::/96, globally reachable) reaches the IPv4 host it embeds, so a private one
    // behind it must be refused as the IPv4 address would be.
    if in_v6(ip, [0, 0, 0, 0, 0, 0xffff, 0, 0], 96)
        || in_v6(ip, [0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96)
    {
        return expect_v4(low_v4(ip));
    }
    if let Some((_, _, g)) = V6.iter().find(|(net, p, _)| in_v6(ip, *net, *p)) {
        return from_reachable(*g);
    }
    if !in_v6(ip, [0x2000, 0, 0, 0, 0, 0, 0, 0], 3) {
        return Expect::Refuse;
    }
    Expect::Allow
}

pub fn expect(ip: IpAddr) -> Expect {
    match ip {
        IpAddr::V4(v4) => expect_v4(v4),
        IpAddr::V6(v6) => expect_v6(v6),
    }
}
