//! Criterion benches of the address policy: the check every URL and every resolved address
//! goes through before a connection. `cargo bench -p webgrip-net -- --quick`.
use std::hint::black_box;
use std::net::IpAddr;

use criterion::{criterion_group, criterion_main, Criterion};
use webgrip_net::{url_host, Policy, PolicyConfig};

fn policy(c: &mut Criterion) {
    let default = Policy::default();
    let configured = Policy::new(&PolicyConfig {
        allowed_domains: vec!["example.com".into(), "docs.rs".into()],
        blocked_domains: vec!["ads.example.com".into()],
        ..PolicyConfig::default()
    })
    .expect("a valid policy");
    let mut group = c.benchmark_group("policy");
    for (name, url) in [
        ("public", "https://www.example.com/a/b?q=1"),
        ("ip-literal", "http://10.0.0.1:8080/admin"),
        ("obfuscated-ip", "http://0x7f.1/"),
        ("idn", "https://bücher.example/x"),
    ] {
        group.bench_function(format!("check_url/{name}"), |b| {
            b.iter(|| default.check_url(black_box(url)).is_ok())
        });
    }
    group.bench_function("check_url/domain-lists", |b| {
        b.iter(|| {
            configured
                .check_url(black_box("https://sub.example.com/p"))
                .is_ok()
        })
    });
    let ips: Vec<IpAddr> = [
        "93.184.216.34",
        "127.0.0.1",
        "::ffff:10.0.0.1",
        "2606:4700::1",
    ]
    .iter()
    .filter_map(|s| s.parse().ok())
    .collect();
    group.bench_function("check_ip/4-addresses", |b| {
        b.iter(|| {
            ips.iter()
                .filter(|ip| default.check_ip(**ip).is_ok())
                .count()
        })
    });
    group.bench_function("url_host", |b| {
        b.iter(|| url_host(black_box("https://User@WWW.Example.COM:8443/p")))
    });
    group.finish();
}

criterion_group!(benches, policy);
criterion_main!(benches);
