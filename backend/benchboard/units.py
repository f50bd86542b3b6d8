"""The contract's units and their conversion to one base unit per dimension.

Results keep the value as sent; `value_base` (seconds, bytes, bytes/s, per-second…)
lets `ns` and `us` figures of one series compare.
"""

from dataclasses import dataclass
from typing import Literal

Direction = Literal["lower", "higher"]


@dataclass(frozen=True)
class UnitInfo:
    base_unit: str
    factor: float  # value * factor = value in base_unit
    default_direction: Direction


_TIME = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
_RATE = {
    "B/s": 1.0,
    "KiB/s": 1024.0,
    "MiB/s": 1024.0**2,
    "GiB/s": 1024.0**3,
    "KB/s": 1e3,
    "MB/s": 1e6,
    "GB/s": 1e9,
}
_SIZE = {"B": 1.0, "KiB": 1024.0, "MiB": 1024.0**2, "GiB": 1024.0**3}

UNITS: dict[str, UnitInfo] = {
    **{unit: UnitInfo("s", factor, "lower") for unit, factor in _TIME.items()},
    **{unit: UnitInfo("B/s", factor, "higher") for unit, factor in _RATE.items()},
    **{unit: UnitInfo("B", factor, "lower") for unit, factor in _SIZE.items()},
    "ops/s": UnitInfo("ops/s", 1.0, "higher"),
    "req/s": UnitInfo("req/s", 1.0, "higher"),
    # Counts and percentages have no natural better side; lower is the safer default
    # (errors, timeouts, CPU use) and a result states `direction` where it differs.
    "count": UnitInfo("count", 1.0, "lower"),
    "percent": UnitInfo("percent", 1.0, "lower"),
}

ALIASES = {"µs": "us", "μs": "us"}  # micro sign and Greek mu


def normalize_unit(unit: str) -> str:
    return ALIASES.get(unit, unit)


def unit_info(unit: str) -> UnitInfo:
    return UNITS[normalize_unit(unit)]
