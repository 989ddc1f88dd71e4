"""Sizes as ints or strings ("4KiB", "2GiB", "64k", "1.5 GB") and durations
(seconds, or "500ms", "5s", "2min")."""
import re

from .errors import ConfigError

_UNITS = {
    "": 1, "b": 1,
    "k": 1 << 10, "kb": 1000, "kib": 1 << 10,
    "m": 1 << 20, "mb": 1000**2, "mib": 1 << 20,
    "g": 1 << 30, "gb": 1000**3, "gib": 1 << 30,
    "t": 1 << 40, "tb": 1000**4, "tib": 1 << 40,
}
_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$")


def parse_size(value, what="size") -> int:
    """Bytes from an int or a string with a unit (binary K/M/G/T and KiB...,
    decimal KB/MB/GB/TB). Raises ConfigError naming `what` otherwise."""
    if isinstance(value, bool):
        raise ConfigError(f"{what}: expected a size, got {value!r}")
    if isinstance(value, int):
        n = value
    elif isinstance(value, str):
        m = _RE.match(value)
        unit = m and _UNITS.get(m.group(2).lower())
        if not m or unit is None:
            raise ConfigError(
                f"{what}: cannot read {value!r} as a size (examples: 4096, '4KiB', '2GiB')")
        n = float(m.group(1)) * unit
        if n != int(n):
            raise ConfigError(f"{what}: {value!r} is not a whole number of bytes")
        n = int(n)
    else:
        raise ConfigError(f"{what}: expected an int or a string like '4KiB', got {type(value).__name__}")
    if n <= 0:
        raise ConfigError(f"{what}: must be positive, got {value!r}")
    return n


def format_size(n: int) -> str:
    for unit, k in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= k and n % k == 0:
            return f"{n // k}{unit}"
    for unit, k in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= k:
            return f"{n / k:.2f}{unit}"
    return f"{n}B"


_TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "": 1.0, "min": 60.0}


def parse_duration(value, what="timeout") -> float:
    """Seconds from a number or a string like "500ms"."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        s = float(value)
    elif isinstance(value, str) and (m := _RE.match(value)) and m.group(2).lower() in _TIME_UNITS:
        s = float(m.group(1)) * _TIME_UNITS[m.group(2).lower()]
    else:
        raise ConfigError(f"{what}: cannot read {value!r} as a duration (examples: 5, '500ms', '2s')")
    if s <= 0:
        raise ConfigError(f"{what}: must be positive, got {value!r}")
    return s
