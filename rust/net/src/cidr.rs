//! A minimal CIDR block type: parse `10.0.0.0/8` or `::1/128`, test membership.
use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;

/// An IP network. The address is stored masked, so `10.1.2.3/8` equals `10.0.0.0/8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cidr {
    addr: IpAddr,
    prefix: u8,
}

fn bits(ip: IpAddr) -> (u128, u8) {
    match ip {
        IpAddr::V4(v4) => (u128::from(u32::from(v4)), 32),
        IpAddr::V6(v6) => (u128::from(v6), 128),
    }
}

/// The mask of the `prefix` leading bits in a `width`-bit word (stored in the low bits).
fn mask(prefix: u8, width: u8) -> u128 {
    if prefix == 0 {
        return 0;
    }
    // The top `prefix` bits of a 128-bit word, shifted down to the width of the family.
    (u128::MAX << (128 - u32::from(prefix))) >> (128 - u32::from(width))
}

impl Cidr {
    /// A network from an address and prefix length; `None` if the prefix is too long.
    pub fn new(addr: IpAddr, prefix: u8) -> Option<Cidr> {
        let (value, width) = bits(addr);
        if prefix > width {
            return None;
        }
        let masked = value & mask(prefix, width);
        let addr = match addr {
            // The masked value fits in 32 bits because `value` did.
            IpAddr::V4(_) => IpAddr::V4(u32::try_from(masked).unwrap_or(0).into()),
            IpAddr::V6(_) => IpAddr::V6(masked.into()),
        };
        Some(Cidr { addr, prefix })
    }

    /// Parse a network known to be valid at compile time (the built-in tables).
    pub(crate) const fn v4(a: [u8; 4], prefix: u8) -> Cidr {
        Cidr {
            addr: IpAddr::V4(std::net::Ipv4Addr::new(a[0], a[1], a[2], a[3])),
            prefix,
        }
    }

    pub(crate) const fn v6(s: [u16; 8], prefix: u8) -> Cidr {
        Cidr {
            addr: IpAddr::V6(std::net::Ipv6Addr::new(
                s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7],
            )),
            prefix,
        }
    }

    pub fn addr(&self) -> IpAddr {
        self.addr
    }

    pub fn prefix(&self) -> u8 {
        self.prefix
    }

    /// Whether `ip` lies in this network. Families never match each other: callers unwrap
    /// IPv4-mapped IPv6 addresses first.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let (net, width) = bits(self.addr);
        let (value, ip_width) = bits(ip);
        width == ip_width && value & mask(self.prefix, width) == net
    }
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.prefix)
    }
}

/// Why a CIDR string was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CidrParseError(pub String);

impl fmt::Display for CidrParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a CIDR network (like 10.0.0.0/8 or fd00::/8)",
            self.0
        )
    }
}

impl std::error::Error for CidrParseError {}

impl FromStr for Cidr {
    type Err = CidrParseError;

    /// `a.b.c.d/n`, `v6/n`, or a bare address (a single-host network). Bits of the address
    /// past the prefix are dropped (`10.1.2.3/8` is `10.0.0.0/8`); [`Cidr::parse_exact`]
    /// refuses them instead.
    fn from_str(s: &str) -> Result<Cidr, CidrParseError> {
        let (addr, prefix) = parts(s)?;
        Cidr::new(addr, prefix).ok_or_else(|| CidrParseError(s.to_string()))
    }
}

/// The address and prefix length written in `s` (a bare address: the whole width).
fn parts(s: &str) -> Result<(IpAddr, u8), CidrParseError> {
    let err = || CidrParseError(s.to_string());
    let s_trim = s.trim();
    let (addr, prefix) = match s_trim.split_once('/') {
        Some((a, p)) => {
            let prefix: u8 = p.parse().map_err(|_| err())?;
            (a, Some(prefix))
        }
        None => (s_trim, None),
    };
    let addr: IpAddr = addr
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse()
        .map_err(|_| err())?;
    Ok((addr, prefix.unwrap_or(bits(addr).1)))
}

impl Cidr {
    /// Parse like [`FromStr`], but refuse a network whose address has bits set past its
    /// prefix: `127.0.0.1/0` is `0.0.0.0/0`, every IPv4 address, which is rarely what was
    /// meant when opening a range. The message names both readings.
    pub fn parse_exact(s: &str) -> Result<Cidr, String> {
        let (addr, prefix) = parts(s).map_err(|e| e.to_string())?;
        let net =
            Cidr::new(addr, prefix).ok_or_else(|| CidrParseError(s.to_string()).to_string())?;
        if net.addr != addr {
            return Err(format!(
                "{:?} has host bits set: did you mean {addr}/{} (that one address) or {net} \
                 (the whole network)?",
                s.trim(),
                bits(addr).1
            ));
        }
        Ok(net)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().expect("test address")
    }

    #[test]
    fn parses_and_masks() {
        let c: Cidr = "10.1.2.3/8".parse().expect("valid");
        assert_eq!(c.to_string(), "10.0.0.0/8");
        let c: Cidr = "fd00::1/8".parse().expect("valid");
        assert_eq!(c.to_string(), "fd00::/8");
        let c: Cidr = "127.0.0.1".parse().expect("valid");
        assert_eq!(c.to_string(), "127.0.0.1/32");
        let c: Cidr = "0.0.0.0/0".parse().expect("valid");
        assert!(c.contains(ip("255.255.255.255")));
        assert!(!c.contains(ip("::1")));
    }

    #[test]
    fn rejects_bad_input() {
        for bad in [
            "10.0.0.0/33",
            "::/129",
            "nonsense",
            "10.0.0/8",
            "10.0.0.0/x",
            "",
        ] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad}");
        }
    }

    #[test]
    fn parse_exact_refuses_host_bits() {
        let err = Cidr::parse_exact("127.0.0.1/0").expect_err("host bits");
        assert_eq!(
            err,
            "\"127.0.0.1/0\" has host bits set: did you mean 127.0.0.1/32 (that one address) \
             or 0.0.0.0/0 (the whole network)?"
        );
        assert!(Cidr::parse_exact("fd00::1/8")
            .expect_err("host bits")
            .contains("fd00::1/128"));
        for good in [
            "127.0.0.0/8",
            "127.0.0.1",
            "0.0.0.0/0",
            "::/0",
            "fd00::/8",
            "::1",
        ] {
            let c = Cidr::parse_exact(good).expect(good);
            assert_eq!(c, good.parse::<Cidr>().expect(good));
        }
        assert!(Cidr::parse_exact("nonsense")
            .expect_err("not a network")
            .contains("is not a CIDR network"));
    }

    #[test]
    fn boundaries() {
        let c: Cidr = "100.64.0.0/10".parse().expect("valid");
        assert!(!c.contains(ip("100.63.255.255")));
        assert!(c.contains(ip("100.64.0.0")));
        assert!(c.contains(ip("100.127.255.255")));
        assert!(!c.contains(ip("100.128.0.0")));
        let c: Cidr = "fe80::/10".parse().expect("valid");
        assert!(c.contains(ip("febf:ffff::1")));
        assert!(!c.contains(ip("fec0::")));
    }
}
