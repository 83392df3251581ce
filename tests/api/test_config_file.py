"""Config.load: TOML file discovery, profiles, precedence and refusal of bad keys/values."""

from __future__ import annotations

from pathlib import Path

import pytest
from webgrip import Config

BASE = """
timeout = 20
max_retries = 4
download_dirs = ["~/dl", "/srv/files"]
respect_robots_txt = false
user_agent = "file-agent/1"

[search_endpoints]
searxng = "https://searx.example.org"

[resolve]
"example.test" = ["93.184.216.34"]

[profiles.researcher]
timeout = 60
respect_robots_txt = true
max_download_bytes = 524288000

[profiles.fast]
timeout = 5
"""


def write(tmp_path: Path, text: str, name: str = "webgrip.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_file_values_are_read_and_typed(tmp_path):
    cfg = Config.load(write(tmp_path, BASE), env={})
    assert cfg.timeout == 20.0 and isinstance(cfg.timeout, float)
    assert cfg.max_retries == 4
    assert cfg.download_dirs == ("~/dl", "/srv/files")
    assert cfg.search_endpoints == {"searxng": "https://searx.example.org"}
    assert cfg.resolve == {"example.test": ("93.184.216.34",)}
    assert cfg.user_agent == "file-agent/1"
    assert cfg.max_download_bytes == Config().max_download_bytes


def test_profile_overrides_base(tmp_path):
    cfg = Config.load(write(tmp_path, BASE), "researcher", env={})
    assert cfg.timeout == 60.0
    assert cfg.respect_robots_txt is True
    assert cfg.max_download_bytes == 524288000
    assert cfg.max_retries == 4  # from the base table


def test_precedence_overrides_env_profile_file_defaults(tmp_path):
    path = write(tmp_path, BASE)
    env = {"WEBGRIP_TIMEOUT": "7", "WEBGRIP_MAX_RETRIES": "1"}
    cfg = Config.load(path, "researcher", env=env, max_retries=3)
    assert cfg.timeout == 7.0  # env beats profile
    assert cfg.max_retries == 3  # explicit beats env
    assert cfg.respect_robots_txt is True  # profile beats file
    assert cfg.user_agent == "file-agent/1"  # file beats default
    assert cfg.connect_timeout == Config().connect_timeout  # default


def test_env_selects_file_and_profile(tmp_path):
    path = write(tmp_path, BASE, "custom.toml")
    cfg = Config.load(env={"WEBGRIP_CONFIG": str(path), "WEBGRIP_PROFILE": "fast"})
    assert cfg.timeout == 5.0


def test_working_directory_file_found(tmp_path, monkeypatch):
    write(tmp_path, "timeout = 11\n")
    monkeypatch.chdir(tmp_path)
    assert Config.load(env={"XDG_CONFIG_HOME": str(tmp_path / "none")}).timeout == 11.0


def test_user_config_file_found(tmp_path, monkeypatch):
    xdg = tmp_path / "xdg"
    (xdg / "webgrip").mkdir(parents=True)
    (xdg / "webgrip" / "config.toml").write_text("max_retries = 0\n")
    monkeypatch.chdir(tmp_path)
    assert Config.load(env={"XDG_CONFIG_HOME": str(xdg)}).max_retries == 0


def test_no_file_gives_defaults(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert Config.load(env={"XDG_CONFIG_HOME": str(tmp_path)}) == Config()


def test_unknown_key_is_refused_with_its_name(tmp_path):
    with pytest.raises(ValueError, match="'timout'"):
        Config.load(write(tmp_path, "timout = 3\n"), env={})


def test_unknown_key_in_profile_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"'colour'.*profiles\.x"):
        Config.load(write(tmp_path, "[profiles.x]\ncolour = 'red'\n"), "x", env={})


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ('timeout = "soon"', "timeout"),
        ("respect_robots_txt = 1", "respect_robots_txt"),
        ("max_retries = 2.5", "max_retries"),
        ("blocked_ports = [22, 'x']", "blocked_ports"),
        ("download_dirs = [1]", "download_dirs"),
        ("timeout = -1", "timeout"),
        ('search_provider = "altavista"', "search_provider"),
        ('allow_networks = ["not-a-net"]', "allow_networks"),
    ],
)
def test_invalid_value_is_refused_naming_the_key(tmp_path, line, key):
    with pytest.raises(ValueError, match=f"'{key}'"):
        Config.load(write(tmp_path, line + "\n"), env={})


def test_unknown_override_refused():
    with pytest.raises(ValueError, match="'nonsense'"):
        Config.load(env={"XDG_CONFIG_HOME": "/nonexistent"}, nonsense=1)


def test_missing_profile_and_missing_file(tmp_path):
    with pytest.raises(ValueError, match="'ghost'"):
        Config.load(write(tmp_path, BASE), "ghost", env={})
    with pytest.raises(ValueError, match="does not exist"):
        Config.load(tmp_path / "absent.toml", env={})


def test_invalid_toml_reported(tmp_path):
    with pytest.raises(ValueError, match="not valid TOML"):
        Config.load(write(tmp_path, "timeout = = 3\n"), env={})


def test_invalid_env_value_named(tmp_path):
    with pytest.raises(ValueError, match="'max_retries'"):
        Config.load(write(tmp_path, BASE), env={"WEBGRIP_MAX_RETRIES": "many"})


# -- allow_https_downgrade ------------------------------------------------------------------


def test_allow_https_downgrade_defaults_off_and_is_read_everywhere(tmp_path):
    assert Config().allow_https_downgrade is False
    assert Config.from_env({"WEBGRIP_ALLOW_HTTPS_DOWNGRADE": "true"}).allow_https_downgrade
    assert not Config.from_env({"WEBGRIP_ALLOW_HTTPS_DOWNGRADE": "0"}).allow_https_downgrade
    path = write(tmp_path, "allow_https_downgrade = true\n")
    assert Config.load(path, env={}).allow_https_downgrade is True
    with pytest.raises(ValueError, match="'allow_https_downgrade'"):
        Config.load(write(tmp_path, 'allow_https_downgrade = "yes"\n'), env={})
    with pytest.raises(ValueError, match="'allow_https_downgrade'"):
        Config.from_env({"WEBGRIP_ALLOW_HTTPS_DOWNGRADE": "maybe"})


# -- search_endpoints keys and values ---------------------------------------------------------

ENDPOINT_NAMES = ("duckduckgo_html", "duckduckgo_lite", "searxng", "brave", "tavily", "google")


def test_every_documented_search_endpoint_name_is_accepted():
    cfg = Config(search_endpoints={n: f"https://{n}.example/api" for n in ENDPOINT_NAMES})
    assert set(cfg.search_endpoints) == set(ENDPOINT_NAMES)
    assert Config(search_endpoints={"searxng": ""}).search_endpoints == {"searxng": ""}


@pytest.mark.parametrize("bad", ["duckduckgo", "searx", "bing", "Brave", "duckduckgo-html"])
def test_unknown_search_endpoint_key_is_refused_listing_valid_ones(bad):
    with pytest.raises(ValueError) as info:
        Config(search_endpoints={bad: "https://x.example/"})
    text = str(info.value)
    assert "'search_endpoints'" in text and repr(bad) in text
    for name in ENDPOINT_NAMES:
        assert name in text


def test_unknown_search_endpoint_key_refused_from_file_and_env(tmp_path):
    with pytest.raises(ValueError, match="'searx'"):
        Config.load(write(tmp_path, '[search_endpoints]\nsearx = "https://s.example/"\n'), env={})
    with pytest.raises(ValueError, match="'duck'"):
        Config.from_env({"WEBGRIP_SEARCH_ENDPOINTS": "duck=https://d.example/"})


@pytest.mark.parametrize(
    "url",
    [
        "ftp://files.example/search",
        "searx.example.org/search",
        "https://",
        "javascript:x",
        "http://[::1/search",
        "https://exa mple.org/",
        42,
    ],
)
def test_search_endpoint_must_be_an_http_url(url):
    with pytest.raises(ValueError, match=r"'search_endpoints'.*'brave'"):
        Config(search_endpoints={"brave": url})


# -- blocked_ports: "+" adds to the defaults ------------------------------------------------


def test_blocked_ports_plain_value_replaces_the_defaults():
    from webgrip.config import DEFAULT_BLOCKED_PORTS

    assert Config.from_env({"WEBGRIP_BLOCKED_PORTS": "8080"}).blocked_ports == (8080,)
    assert Config(blocked_ports=(8080,)).blocked_ports == (8080,)
    assert Config().blocked_ports == DEFAULT_BLOCKED_PORTS


def test_blocked_ports_plus_adds_to_the_defaults(tmp_path):
    from webgrip.config import DEFAULT_BLOCKED_PORTS

    env = Config.from_env({"WEBGRIP_BLOCKED_PORTS": "+8080, 9000,22"})
    assert env.blocked_ports == (*DEFAULT_BLOCKED_PORTS, 8080, 9000)
    assert {22, 6379, 8080, 9000} <= set(env.blocked_ports)
    file = Config.load(write(tmp_path, 'blocked_ports = "+8080"\n'), env={})
    assert file.blocked_ports == (*DEFAULT_BLOCKED_PORTS, 8080)
    assert Config.from_env({"WEBGRIP_BLOCKED_PORTS": "+"}).blocked_ports == DEFAULT_BLOCKED_PORTS
    with pytest.raises(ValueError, match="'blocked_ports'"):
        Config.load(write(tmp_path, 'blocked_ports = "+ssh"\n'), env={})
    with pytest.raises(ValueError, match="'blocked_ports'"):
        Config.load(write(tmp_path, 'blocked_ports = "8080"\n'), env={})
    with pytest.raises(ValueError, match="'blocked_ports'"):
        Config.from_env({"WEBGRIP_BLOCKED_PORTS": "+70000"})


def test_blocked_ports_field_documents_the_plus_form():
    import inspect

    import webgrip.config

    assert "+8080" in inspect.getsource(webgrip.config.Config)


def test_a_profile_without_a_file_says_where_it_looked_and_what_to_set(tmp_path, monkeypatch):
    """An MCP client starts `webgrip mcp` from a folder of its choosing and hides stderr: the
    message must lead to WEBGRIP_CONFIG, and the server must not start on defaults."""
    import os
    import subprocess
    import sys

    monkeypatch.chdir(tmp_path)
    env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg"), "WEBGRIP_PROFILE": "researcher"}
    with pytest.raises(ValueError) as exc:
        Config.load(env=env)
    message = str(exc.value)
    assert "profile 'researcher' requested but no config file was found" in message
    assert str(tmp_path / "xdg" / "webgrip" / "config.toml") in message
    assert "WEBGRIP_CONFIG" in message
    served = subprocess.run(
        [sys.executable, "-m", "webgrip", "mcp"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **env},
    )
    assert served.returncode == 2 and "WEBGRIP_CONFIG" in served.stderr
    # Named as the docs say, the same profile loads from any folder.
    config = write(tmp_path, "[profiles.researcher]\ntimeout = 7\n", "research.toml")
    loaded = Config.load(env={**env, "WEBGRIP_CONFIG": str(config)})
    assert loaded.timeout == 7
