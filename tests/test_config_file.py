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
