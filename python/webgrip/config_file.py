"""Reading ``webgrip.toml``: find the file, check every key and value, apply a profile.

Used by :meth:`webgrip.Config.load`. A file looks like::

    timeout = 20
    download_dirs = ["~/Downloads", "~/papers"]

    blocked_ports = "+8080"    # "+": added to the default blocked ports

    [search_endpoints]
    searxng = "https://searx.example.org/search"

    [profiles.researcher]
    max_download_bytes = 524288000
    respect_robots_txt = true
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

from .config import with_default_ports

__all__ = ["default_paths", "find_config_file", "load_values"]


def default_paths(env: Mapping[str, str]) -> list[Path]:
    """Where a config file is looked for when none is named, in order."""
    xdg = env.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return [Path("webgrip.toml"), Path(xdg) / "webgrip" / "config.toml"]


def find_config_file(path: str | os.PathLike[str] | None, env: Mapping[str, str]) -> Path | None:
    """The file to read: ``path``, else ``$WEBGRIP_CONFIG``, else the first default that exists.

    A file named explicitly (argument or variable) must exist.
    """
    named = path if path is not None else env.get("WEBGRIP_CONFIG") or None
    if named is not None:
        p = Path(os.path.expanduser(os.fspath(named)))
        if not p.is_file():
            raise ValueError(f"config file {os.fspath(p)!r} does not exist")
        return p
    for candidate in default_paths(env):
        if candidate.is_file():
            return candidate
    return None


def load_values(
    path: str | os.PathLike[str] | None,
    profile: str | None,
    env: Mapping[str, str],
    kinds: Mapping[str, str],
) -> dict[str, Any]:
    """The settings from the config file with ``profile`` applied, checked against ``kinds``.

    ``kinds`` maps each field name to its kind (``bool``, ``int``, ``float``, ``str``,
    ``opt_str``, ``str_tuple``, ``int_tuple``, ``mapping``, ``site_mapping``).
    """
    profile = profile if profile is not None else env.get("WEBGRIP_PROFILE") or None
    file = find_config_file(path, env)
    if file is None:
        if profile is not None:
            looked = ", ".join(os.fspath(c) for c in default_paths(env))
            raise ValueError(
                f"profile {profile!r} requested but no config file was found (looked for "
                f"{looked}). Set WEBGRIP_CONFIG to the file's absolute path (a program that "
                "starts webgrip, such as an MCP client, may run it from any folder), or "
                "leave out the profile"
            )
        return {}
    try:
        with open(file, "rb") as fh:
            data = tomllib.load(fh)
    except ValueError as exc:  # TOMLDecodeError, but also not UTF-8 or a too-long integer
        raise ValueError(f"config file {os.fspath(file)!r} is not valid TOML: {exc}") from None
    except RecursionError:  # tomllib recurses per nested array or inline table
        raise ValueError(f"config file {os.fspath(file)!r} nests too deeply") from None
    where = os.fspath(file)
    profiles = data.pop("profiles", {})
    if not isinstance(profiles, dict):
        raise ValueError(f"invalid value for 'profiles' in {where!r}: expected tables")
    values = _checked(data, kinds, where)
    if profile is not None:
        table = profiles.get(profile)
        if not isinstance(table, dict):
            known = ", ".join(sorted(profiles)) or "none"
            raise ValueError(f"profile {profile!r} not found in {where!r} (profiles: {known})")
        values.update(_checked(table, kinds, f"{where} [profiles.{profile}]"))
    return values


def _checked(table: Mapping[str, Any], kinds: Mapping[str, str], where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in table.items():
        kind = kinds.get(key)
        if kind is None:
            raise ValueError(f"unknown setting {key!r} in {where!r}{_did_you_mean(key, kinds)}")
        try:
            out[key] = _coerce(key, kind, value)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"invalid value for {key!r} in {where!r}: {exc}") from None
    return out


def _did_you_mean(key: str, kinds: Mapping[str, str]) -> str:
    """What to write instead of an unknown setting: "; did you mean 'timeout'?" for a
    misspelt name, else where the settings are listed."""
    import difflib

    close = difflib.get_close_matches(key.lower(), list(kinds), n=1, cutoff=0.75)
    if close:
        return f"; did you mean {close[0]!r}?"
    return " (docs/configuration.md lists the settings)"


#: Keys whose values may hold secrets (proxy passwords, tokens): an error names the type of
#: a wrong value, never the value itself.
_SECRET_KEYS = frozenset({"proxy", "proxy_for", "headers", "site_headers"})


def _shown(key: str, value: Any) -> str:
    return f"a {type(value).__name__}" if key in _SECRET_KEYS else repr(value)


def _coerce(key: str, kind: str, value: Any) -> Any:
    if kind == "bool":
        if not isinstance(value, bool):
            raise TypeError(f"expected true or false, got {_shown(key, value)}")
        return value
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"expected an integer, got {_shown(key, value)}")
        return value
    if kind == "float":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"expected a number, got {_shown(key, value)}")
        return float(value)
    if kind in ("str", "opt_str"):
        if not isinstance(value, str):
            raise TypeError(f"expected a string, got {_shown(key, value)}")
        return (value or None) if kind == "opt_str" else value
    if kind == "str_tuple":
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
            raise TypeError(f"expected a list of strings, got {_shown(key, value)}")
        return tuple(items)
    if kind == "int_tuple":
        if key == "blocked_ports" and isinstance(value, str) and value.strip().startswith("+"):
            # "+8080,9000": added to the default blocked ports instead of replacing them.
            try:
                ports = tuple(int(p) for p in value.strip()[1:].split(",") if p.strip())
            except ValueError:
                raise TypeError(
                    f'expected "+port,port..." or a list of integers, got {_shown(key, value)}'
                ) from None
            return with_default_ports(ports)
        if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            raise TypeError(f"expected a list of integers, got {_shown(key, value)}")
        return tuple(value)
    if kind == "mapping":
        if not isinstance(value, dict):
            raise TypeError(f"expected a table, got {_shown(key, value)}")
        out: dict[str, Any] = {}
        for k, v in value.items():
            if key == "resolve":
                addrs = [v] if isinstance(v, str) else v
                if not isinstance(addrs, list) or not all(isinstance(a, str) for a in addrs):
                    raise TypeError(f"{k!r}: expected an address or a list of addresses")
                out[k] = tuple(addrs)
            else:
                if not isinstance(v, str):
                    raise TypeError(f"{k!r}: expected a string, got {v!r}")
                out[k] = v
        return out
    if kind == "site_mapping":  # [site_headers."example.com"] tables
        if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
            raise TypeError(f"expected a table of domain -> header table, got {_shown(key, value)}")
        for d, h in value.items():
            for k, v in h.items():
                if not isinstance(v, str):
                    raise TypeError(f"{d!r}: {k!r}: expected a string")
        return {d: dict(h) for d, h in value.items()}
    raise ValueError(f"unsupported setting kind {kind!r}")  # pragma: no cover
