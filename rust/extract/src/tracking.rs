//! Tracking query parameters: which ones they are, and removing them from a URL.
//!
//! Links found on the web carry parameters whose only job is to tell someone where a click
//! came from (`utm_source`, `fbclid`, `gclid` and friends). They change nothing in the page,
//! make two identical links look different, and leak context to third parties.
//! [`TrackingRules::strip`] removes them and leaves everything else byte for byte: the order
//! of the remaining parameters, their encoding, the path and the fragment.
//!
//! These lists are the one source of truth (Python's `webgrip.hygiene` reads them from here).
//! A rule is a parameter name, compared without regard to case, or a prefix ending in `*`
//! (`utm_*`). Some parameters are tracking on one site and meaningful on another (`ref` is a
//! branch on GitHub, a referral tag on Amazon), so those are only removed on the sites listed
//! in [`DOMAIN_TRACKING_PARAMS`].

use std::borrow::Cow;
use std::collections::HashSet;

use memchr::memchr;
use std::sync::LazyLock;

/// Parameters removed on every site.
#[rustfmt::skip]
pub const TRACKING_PARAMS: &[&str] = &[
    // campaign tags (Google Analytics / Urchin, Matomo, Piwik, Webtrekk, AT Internet)
    "utm_*", "mtm_*", "pk_campaign", "pk_kwd", "pk_keyword", "pk_source", "pk_medium",
    "pk_content", "wt_mc", "wt_zmc", "at_medium", "at_campaign",
    // ad-click identifiers
    "gclid", "gclsrc", "gbraid", "wbraid", "dclid", "gad_source", "gad_campaignid", "msclkid",
    "fbclid", "yclid", "ysclid", "twclid", "ttclid", "li_fat_id", "epik", "rb_clickid",
    "irclickid", "s_kwcid", "srsltid",
    // analytics cookies passed across domains
    "_ga", "_gl", "_openstat",
    // e-mail marketing (Mailchimp, HubSpot, Marketo, Vero, Olytics, Wicked Reports)
    "mc_cid", "mc_eid", "_hsenc", "_hsmi", "__hssc", "__hstc", "__hsfp", "hsctatracking",
    "mkt_tok", "vero_id", "vero_conv", "oly_anon_id", "oly_enc_id", "wickedid",
    // social sharing
    "igshid", "igsh", "ref_src", "ref_url", "fb_action_ids", "fb_action_types", "fb_ref",
    "fb_source", "action_object_map", "action_type_map", "action_ref_map",
    "__twitter_impression",
];

/// Parameters removed only on the listed sites (the host itself or any subdomain of it).
/// `amazon.*` stands for every Amazon storefront (amazon.com, amazon.co.uk, ...).
#[rustfmt::skip]
pub const DOMAIN_TRACKING_PARAMS: &[(&str, &[&str])] = &[
    ("amazon.*", &[
        "ref", "ref_", "pd_rd_*", "pf_rd_*", "qid", "sr", "crid", "sprefix", "dib", "dib_tag",
        "content-id", "tag", "linkcode", "linkid", "ascsubtag", "creative", "creativeasin",
        "camp", "_encoding",
    ]),
    ("youtube.com", &["si", "feature", "pp"]),
    ("youtu.be", &["si", "feature"]),
    ("twitter.com", &["s", "t"]),
    ("x.com", &["s", "t"]),
    ("facebook.com", &["__cft__*", "__tn__", "mibextid", "sfnsn"]),
    ("linkedin.com", &[
        "trk", "trkinfo", "trackingid", "refid", "lipi", "midtoken", "midsig", "trkemail", "lici",
    ]),
    ("reddit.com", &["share_id", "rdt"]),
    ("tiktok.com", &["_r", "_t", "is_from_webapp", "sender_device", "is_copy_url"]),
    ("spotify.com", &["si"]),
    ("medium.com", &["source"]),
    ("google.com", &[
        "ved", "ei", "usg", "sxsrf", "sca_esv", "sca_upv", "gs_lcp", "gs_lp", "sclient", "oq",
        "aqs", "sourceid", "rlz", "uact", "bih", "biw",
    ]),
    ("bing.com", &["form", "cvid", "pq", "qs", "sk", "sp", "sc", "ghc", "lq"]),
    ("msn.com", &["ocid", "cvid", "pc"]),
    ("aliexpress.com", &[
        "spm", "scm", "pvid", "algo_pvid", "algo_exp_id", "pdp_npi", "pdp_ext_f", "utparam",
        "curpageloguid",
    ]),
    ("taobao.com", &["spm", "scm", "pvid", "utparam"]),
    ("tmall.com", &["spm", "scm", "pvid", "utparam"]),
    ("ebay.com", &[
        "_trkparms", "_trksid", "mkevt", "mkcid", "mkrid", "campid", "toolid", "customid",
        "amdata",
    ]),
];

/// A compiled rule list: exact names and prefixes, lower-cased.
#[derive(Debug, Clone, Default)]
struct RuleSet {
    exact: HashSet<Box<str>>,
    prefixes: Vec<Box<str>>,
}

impl RuleSet {
    fn new<'a>(rules: impl IntoIterator<Item = &'a str>) -> Self {
        let mut set = RuleSet::default();
        for rule in rules {
            let rule = rule.trim_matches(is_python_space).to_lowercase();
            if let Some(prefix) = rule.strip_suffix('*') {
                // An empty prefix (a bare `*`) matches nothing rather than everything.
                if !prefix.is_empty() {
                    set.prefixes.push(prefix.into());
                }
            } else if !rule.is_empty() {
                set.exact.insert(rule.into());
            }
        }
        set
    }

    fn matches(&self, name: &str) -> bool {
        self.exact.contains(name) || self.prefixes.iter().any(|p| name.starts_with(&**p))
    }

    fn is_empty(&self) -> bool {
        self.exact.is_empty() && self.prefixes.is_empty()
    }
}

/// What Python's `str.strip()` removes: Unicode white space plus the ASCII separators.
pub(crate) fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

struct BuiltIn {
    global: RuleSet,
    domains: Vec<(&'static str, RuleSet)>,
    /// Every site list's rules in one: a name none of them matches needs no look at the host.
    any_site: RuleSet,
}

// At most 64 site lists: `domain_mask` gives each a bit (checked by a test).
static BUILT_IN: LazyLock<BuiltIn> = LazyLock::new(|| BuiltIn {
    global: RuleSet::new(TRACKING_PARAMS.iter().copied()),
    domains: DOMAIN_TRACKING_PARAMS
        .iter()
        .map(|(domain, rules)| (*domain, RuleSet::new(rules.iter().copied())))
        .collect(),
    any_site: RuleSet::new(
        DOMAIN_TRACKING_PARAMS
            .iter()
            .flat_map(|(_, rules)| rules.iter().copied()),
    ),
});

/// `amazon.<tld>` or `amazon.<sld>.<tld>` (and subdomains): every Amazon storefront.
fn is_amazon(host: &str) -> bool {
    let mut labels = host.split('.');
    if !labels.any(|l| l == "amazon") {
        return false;
    }
    let rest: Vec<&str> = labels.collect();
    (1..=2).contains(&rest.len()) && rest.iter().all(|x| (1..=3).contains(&x.chars().count()))
}

/// Which site rule lists apply on `host` (lower-case, no trailing dot), as a bit per entry of
/// [`DOMAIN_TRACKING_PARAMS`]: decided once per URL, not once per parameter.
fn domain_mask(host: &str) -> u64 {
    if host.is_empty() {
        return 0;
    }
    let mut mask = 0;
    for (i, (domain, _)) in BUILT_IN.domains.iter().enumerate() {
        let applies = if *domain == "amazon.*" {
            is_amazon(host)
        } else {
            host.strip_suffix(domain)
                .is_some_and(|head| head.is_empty() || head.ends_with('.'))
        };
        if applies {
            mask |= 1 << i;
        }
    }
    mask
}

/// The built-in lists plus a caller's extra rules (`Config.tracking_params`), compiled once
/// and shared by every page a client reads.
#[derive(Debug, Clone, Default)]
pub struct TrackingRules {
    extra: RuleSet,
}

impl TrackingRules {
    /// The built-in lists plus `extra` (names, or prefixes ending in `*`).
    pub fn new<S: AsRef<str>>(extra: &[S]) -> Self {
        TrackingRules {
            extra: RuleSet::new(extra.iter().map(AsRef::as_ref)),
        }
    }

    /// Whether the query parameter `name` (decoded) is tracking on `host`.
    pub fn is_tracking_param(&self, name: &str, host: &str) -> bool {
        let host = host.trim_end_matches('.').to_lowercase();
        self.is_tracking_lower(&name.to_lowercase(), domain_mask(&host))
    }

    /// `name` lower-cased; `sites` from [`domain_mask`].
    fn is_tracking_lower(&self, name: &str, sites: u64) -> bool {
        self.is_tracking_with(name, || sites)
    }

    /// [`TrackingRules::is_tracking_lower`] with the sites asked for only when some site's
    /// list could hold `name` (finding the host costs more than the lists' lookups).
    fn is_tracking_with(&self, name: &str, sites: impl FnOnce() -> u64) -> bool {
        if BUILT_IN.global.matches(name) || (!self.extra.is_empty() && self.extra.matches(name)) {
            return true;
        }
        if !BUILT_IN.any_site.matches(name) {
            return false;
        }
        let sites = sites();
        BUILT_IN
            .domains
            .iter()
            .enumerate()
            .any(|(i, (_, rules))| sites & (1 << i) != 0 && rules.matches(name))
    }

    /// `url` without its tracking query parameters; every other byte kept. A URL without
    /// tracking parameters comes back borrowed, unchanged.
    pub fn strip<'u>(&self, url: &'u str) -> Cow<'u, str> {
        let (rest, fragment) = match memchr(b'#', url.as_bytes()) {
            Some(i) => (&url[..i], Some(&url[i + 1..])),
            None => (url, None),
        };
        let Some(q) = memchr(b'?', rest.as_bytes()) else {
            return Cow::Borrowed(url);
        };
        let (base, query) = (&rest[..q], &rest[q + 1..]);
        if query.is_empty() {
            return Cow::Borrowed(url);
        }
        let mut sites: Option<u64> = None;
        let mut removed = false;
        let mut kept: Vec<&str> = Vec::new();
        let mut name_buf = String::new();
        // The pairs between `&`s, each found with one byte search (a `char` pattern's
        // searcher cost more than these short pieces' scans).
        let mut start = 0;
        loop {
            let end = memchr(b'&', &query.as_bytes()[start..]).map_or(query.len(), |i| start + i);
            let piece = &query[start..end];
            let raw = &piece[..memchr(b'=', piece.as_bytes()).unwrap_or(piece.len())];
            let tracking = !raw.is_empty() && {
                let name = lower_name(raw, &mut name_buf);
                !name.is_empty()
                    && self.is_tracking_with(name, || {
                        *sites.get_or_insert_with(|| domain_mask(&host_of(url)))
                    })
            };
            if tracking {
                removed = true;
            } else {
                kept.push(piece);
            }
            if end == query.len() {
                break;
            }
            start = end + 1;
        }
        if !removed {
            return Cow::Borrowed(url);
        }
        let mut out = String::with_capacity(url.len());
        out.push_str(base);
        let mut first = true;
        for piece in kept.into_iter().filter(|p| !p.is_empty()) {
            out.push(if first { '?' } else { '&' });
            out.push_str(piece);
            first = false;
        }
        if let Some(fragment) = fragment {
            out.push('#');
            out.push_str(fragment);
        }
        Cow::Owned(out)
    }
}

/// A parameter name decoded the way a form is (`+` is a space, `%XX` a byte, bytes read as
/// UTF-8 with replacement) and lower-cased; `buf` holds it when it is not `raw` itself.
fn lower_name<'a>(raw: &'a str, buf: &'a mut String) -> &'a str {
    let plain = !raw
        .bytes()
        .any(|b| b == b'%' || b == b'+' || b.is_ascii_uppercase() || !b.is_ascii());
    if plain {
        return raw;
    }
    let bytes = raw.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => decoded.push(b' '),
            b'%' if i + 2 < bytes.len() && hex_pair(bytes[i + 1], bytes[i + 2]).is_some() => {
                decoded.extend(hex_pair(bytes[i + 1], bytes[i + 2]));
                i += 2;
            }
            b => decoded.push(b),
        }
        i += 1;
    }
    *buf = String::from_utf8_lossy(&decoded).to_lowercase();
    buf
}

fn hex_pair(hi: u8, lo: u8) -> Option<u8> {
    let digit = |c: u8| (c as char).to_digit(16);
    Some((digit(hi)? * 16 + digit(lo)?) as u8)
}

/// The host of `url` as Python's `urlsplit(url).hostname` reads it (lower-case, no port, user
/// info or brackets), without a trailing dot; empty when there is none.
pub fn host_of(url: &str) -> String {
    // urlsplit drops tabs and newlines anywhere and leading C0 controls and spaces.
    let cleaned: String;
    let url = if url.contains(['\t', '\n', '\r']) {
        cleaned = url
            .chars()
            .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
            .collect();
        &cleaned
    } else {
        url
    };
    let url = url.trim_start_matches(|c: char| c <= ' ');
    let after_scheme = match url.find(':') {
        Some(i)
            if url[..i].starts_with(|c: char| c.is_ascii_alphabetic())
                && url[..i]
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')) =>
        {
            &url[i + 1..]
        }
        _ => url,
    };
    let Some(rest) = after_scheme.strip_prefix("//") else {
        return String::new();
    };
    let netloc = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    if netloc.contains('[') != netloc.contains(']') {
        return String::new(); // urlsplit refuses it ("Invalid IPv6 URL")
    }
    let hostinfo = netloc.rsplit('@').next().unwrap_or("");
    let host = match hostinfo.split_once('[') {
        Some((_, bracketed)) => bracketed.split(']').next().unwrap_or(""),
        None => hostinfo.split(':').next().unwrap_or(""),
    };
    // Only the part before an IPv6 zone (`%eth0`) is lower-cased.
    let (name, zone) = host.split_at(host.find('%').unwrap_or(host.len()));
    let mut out = name.to_lowercase();
    out.push_str(zone);
    out.trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(url: &str) -> String {
        TrackingRules::default().strip(url).into_owned()
    }

    #[test]
    fn strips_only_tracking_pairs() {
        for (url, want) in [
            (
                "https://example.com/a?id=7&utm_source=news&b=%20x#top",
                "https://example.com/a?id=7&b=%20x#top",
            ),
            (
                "https://example.com/?fbclid=IwAR0abc",
                "https://example.com/",
            ),
            (
                "https://example.com/p?UTM_SOURCE=x&Keep=1",
                "https://example.com/p?Keep=1",
            ),
            (
                "https://example.com/s?utm%5Fsource=x&k=v",
                "https://example.com/s?k=v",
            ),
            (
                "https://example.com/s?q=a&&b=&c",
                "https://example.com/s?q=a&&b=&c",
            ),
            (
                "https://example.com/s?q=a&&utm_x=1",
                "https://example.com/s?q=a",
            ),
            ("https://example.com/s?", "https://example.com/s?"),
            (
                "https://example.com/s#?utm_source=x",
                "https://example.com/s#?utm_source=x",
            ),
            ("mailto:someone@example.com", "mailto:someone@example.com"),
            (
                "https://www.amazon.co.uk/dp/B0?tag=aff-21&keywords=guide",
                "https://www.amazon.co.uk/dp/B0?keywords=guide",
            ),
            (
                "https://github.com/o/r?ref=main",
                "https://github.com/o/r?ref=main",
            ),
            (
                "https://u:p@M.YouTube.com.:443/w?v=1&si=x",
                "https://u:p@M.YouTube.com.:443/w?v=1",
            ),
        ] {
            assert_eq!(strip(url), want, "{url}");
        }
    }

    #[test]
    fn unchanged_urls_are_borrowed() {
        let rules = TrackingRules::default();
        assert!(matches!(
            rules.strip("https://e.com/?q=1"),
            Cow::Borrowed(_)
        ));
        assert!(matches!(rules.strip("https://e.com/"), Cow::Borrowed(_)));
    }

    #[test]
    fn extra_rules_add_to_the_built_in_ones() {
        let rules = TrackingRules::new(&[" Session_Ref ", "x_*", "*", ""]);
        assert_eq!(
            rules.strip("https://e.com/?session_ref=1&x_a=2&keep=3&utm_medium=4"),
            "https://e.com/?keep=3"
        );
        assert!(rules.is_tracking_param("X_ANY", ""));
        assert!(!TrackingRules::default().is_tracking_param("x_any", ""));
    }

    #[test]
    fn site_rules_apply_on_the_site_and_its_subdomains() {
        let rules = TrackingRules::default();
        assert!(rules.is_tracking_param("si", "music.youtube.com."));
        assert!(!rules.is_tracking_param("si", "notyoutube.com"));
        assert!(rules.is_tracking_param("ref", "smile.amazon.de"));
        assert!(!rules.is_tracking_param("ref", "amazon.example.info"));
        assert!(!rules.is_tracking_param("ref", "amazon"));
    }

    #[test]
    fn every_site_list_has_a_bit() {
        assert!(DOMAIN_TRACKING_PARAMS.len() <= 64);
    }

    #[test]
    fn host_like_urlsplit() {
        for (url, want) in [
            ("https://User@Ex.COM.:8080/p", "ex.com"),
            ("//ex.com/p", "ex.com"),
            ("http://[::1]:80/", "::1"),
            ("http://[::1/", ""),
            ("http://a]b/", ""),
            ("mailto:a@b.c", ""),
            ("ex.com/p", ""),
            ("  https://e\tx.com/", "ex.com"),
        ] {
            assert_eq!(host_of(url), want, "{url}");
        }
    }
}
