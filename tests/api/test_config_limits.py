"""Every number of a Config is checked at load (finite, of its kind, within a sane range), and
every ``allow_networks`` entry opens exactly what it says (issue 45, F11 and the CIDR
hardening): whichever way a value comes (keyword, TOML file, ``WEBGRIP_*`` variable, CLI flag),
a bad one is one clear ``ValueError`` naming the setting, never a crash on the first call."""

from __future__ import annotations

import os

import pytest
from helpers.loopback import loopback_config
from helpers.siteserver import SiteServer, article, page
from webgrip import BlockedURLError, Config, Tools, check_url
from webgrip.cli import EXIT_OK, EXIT_USAGE, main
from webgrip.client import WebClient

_HUGE_INT = 10**5000  # past Python's int-to-str limit: the message must not try to print it


@pytest.mark.parametrize(
    ("key", "value", "said"),
    [
        # 1e19 seconds was accepted, then adding it to the clock aborted every call.
        ("timeout", 1e19, "must be at most 86400 seconds (a day), not 1e+19"),
        ("connect_timeout", 1e19, "must be at most 86400 seconds (a day)"),
        ("timeout", float("inf"), "must be a finite number of seconds, not inf"),
        ("timeout", float("nan"), "must be a finite number of seconds, not nan"),
        ("timeout", 0, "must be > 0 seconds"),
        ("timeout", True, "expected a number of seconds, got bool"),
        ("connect_timeout", "5", "expected a number of seconds, got str"),
        ("rate_limit_seconds", -1.0, "must be >= 0 seconds"),
        ("rate_limit_seconds", 1e300, "must be at most 86400 seconds"),
        ("cache_ttl_seconds", float("inf"), "must be a finite number"),
        ("cache_ttl_seconds", 1e12, "must be at most 31536000 seconds (a year)"),
        ("max_response_bytes", 2**64, "must be at most 1099511627776 (1 TiB), not more"),
        pytest.param(
            "max_download_bytes",
            _HUGE_INT,
            "must be at most 1099511627776 (1 TiB), not more",
            id="max_download_bytes-10**5000",
        ),
        ("max_download_bytes", 1e6, "expected a whole number, got float"),
        ("page_cache_bytes", -1, "must be >= 0"),
        ("max_retries", 10**9, "must be at most 100, not 1000000000"),
        ("page_cache_size", 10**9, "must be at most 100000"),
        ("max_frames", "3", "expected a whole number, got str"),
        ("max_redirects", 2.0, "expected a whole number, got float"),
    ],
)
def test_a_number_out_of_range_is_refused_at_load(key, value, said):
    with pytest.raises(ValueError) as info:
        Config(**{key: value})
    assert str(info.value) == f"invalid value for {key!r}: {said}" or said in str(info.value)
    assert str(info.value).startswith(f"invalid value for {key!r}: ")


def test_the_highest_values_are_accepted():
    c = Config(
        timeout=86400,
        connect_timeout=86400.0,
        rate_limit_seconds=86400,
        cache_ttl_seconds=365 * 86400,
        max_response_bytes=1 << 40,
        max_download_bytes=1 << 40,
        max_retries=100,
        page_cache_size=100_000,
    )
    assert c.timeout == 86400


@pytest.mark.parametrize(
    ("var", "raw", "said"),
    [
        ("WEBGRIP_TIMEOUT", "1e19", "must be at most 86400 seconds (a day), not 1e+19"),
        ("WEBGRIP_CONNECT_TIMEOUT", "inf", "must be a finite number of seconds, not inf"),
        ("WEBGRIP_RATE_LIMIT_SECONDS", "nan", "must be a finite number of seconds, not nan"),
        ("WEBGRIP_MAX_DOWNLOAD_BYTES", "9" * 30, "must be at most 1099511627776 (1 TiB)"),
    ],
)
def test_a_variable_out_of_range_is_refused_naming_it(var, raw, said):
    with pytest.raises(ValueError) as info:
        Config.from_env({var: raw})
    assert said in str(info.value) and f"(set by {var})" in str(info.value)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("timeout = 1e19", "must be at most 86400 seconds"),
        ("connect_timeout = inf", "must be a finite number of seconds, not inf"),
        ("cache_ttl_seconds = nan", "must be a finite number of seconds, not nan"),
        ("max_response_bytes = 9223372036854775807", "must be at most 1099511627776"),
        ('allow_networks = ["127.0.0.1/0"]', "has host bits set"),
    ],
)
def test_a_file_value_out_of_range_is_refused(tmp_path, line, said):
    path = tmp_path / "webgrip.toml"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="invalid value for") as info:
        Config.load(path, env={})
    assert said in str(info.value)


def test_a_per_call_timeout_past_the_clock_is_an_error_not_a_crash(tmp_path):
    # The core cuts or refuses what would overflow the clock: a ValueError for the caller,
    # and the next call works.
    with SiteServer() as site:
        url = site.route("/p", page(article("Clock")))
        with WebClient(loopback_config(tmp_path)) as client:
            with pytest.raises(ValueError, match="at most 604800 seconds"):
                client.request("GET", url, timeout=1e19)
            assert client.request("GET", url, timeout=5).status == 200


# -- allow_networks: exactly what it says ----------------------------------------------------
@pytest.mark.parametrize(
    ("entry", "said"),
    [
        (
            "127.0.0.1/0",
            "'127.0.0.1/0' has host bits set: did you mean 127.0.0.1/32 (that one address) "
            "or 0.0.0.0/0 (the whole network)?",
        ),
        ("10.1.2.3/8", "did you mean 10.1.2.3/32 (that one address) or 10.0.0.0/8"),
        ("fd00::1/8", "did you mean fd00::1/128 (that one address) or fd00::/8"),
        (
            "::ffff:0:0/96",
            "'::ffff:0:0/96' is written as IPv4-mapped IPv6; an IPv6 network never opens IPv4 "
            "addresses. Write it as IPv4: 0.0.0.0/0",
        ),
        ("::ffff:127.0.0.0/104", "Write it as IPv4: 127.0.0.0/8"),
        ("::ffff:127.0.0.1", "Write it as IPv4: 127.0.0.1/32"),
    ],
)
def test_an_allow_entry_that_opens_more_than_written_is_refused(entry, said):
    with pytest.raises(ValueError) as info:
        Config(allow_networks=(entry,))
    assert str(info.value) == f"invalid value for 'allow_networks': {said}" or said in str(
        info.value
    )
    with pytest.raises(ValueError, match="set by WEBGRIP_ALLOW_NETWORKS"):
        Config.from_env({"WEBGRIP_ALLOW_NETWORKS": f"10.0.0.0/8,{entry}"})


def test_an_ipv6_allow_entry_opens_no_ipv4_address():
    # ::/0 covers the mapped range, and opens none of IPv4: like every IPv6 entry.
    cfg = Config(allow_networks=("::/0",))
    for url in ["http://127.0.0.1/", "http://[::ffff:127.0.0.1]/", "http://10.0.0.1/"]:
        with pytest.raises(BlockedURLError) as info:
            check_url(url, cfg)
        assert info.value.reason in ("loopback-address", "private-address"), url
    assert check_url("http://[::1]/", cfg) == "http://[::1]/"
    # Written as IPv4, the same host opens under both spellings.
    cfg = Config(allow_networks=("127.0.0.0/8",))
    assert check_url("http://[::ffff:127.0.0.1]/", cfg) == "http://[::ffff:7f00:1]/"
    # A deny entry with host bits set is widened (refusing more is the safe side).
    with pytest.raises(BlockedURLError, match=r"deny_networks \(127\.0\.0\.0/24\)"):
        check_url(
            "http://127.0.0.1/",
            Config(allow_networks=("127.0.0.0/8",), deny_networks=("127.0.0.9/24",)),
        )


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    for key in list(os.environ):
        if key.startswith("WEBGRIP_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--allow", "127.0.0.1/0"], "did you mean 127.0.0.1/32 (that one address) or 0.0.0.0/0"),
        (["--allow", "::ffff:0:0/96"], "Write it as IPv4: 0.0.0.0/0"),
        (["--timeout", "1e19"], "must be at most 86400 seconds (a day)"),
    ],
)
def test_the_cli_refuses_them_in_one_line(clean_env, capsys, args, said):
    with SiteServer() as site:
        url = site.route("/p", page(article("Flags")))
        code = main(["fetch", url, "--allow", "127.0.0.0/8", *args])
        err = capsys.readouterr().err
        assert code == EXIT_USAGE, err
        assert err.startswith("webgrip: invalid value for --") and len(err.splitlines()) == 1
        assert said in err
        assert site.hits("/p") == []
        assert main(["fetch", url, "--allow", "127.0.0.0/8", "--timeout", "86400"]) == EXIT_OK


def test_tools_never_start_with_a_timeout_past_the_clock(tmp_path):
    with pytest.raises(ValueError, match="'timeout'"):
        Tools(loopback_config(tmp_path, timeout=1e19))
