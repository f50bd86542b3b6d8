"""The contract's vocabulary, in one place: units, directions, modes, the unknown language.

The service validates uploads against these names, converts values to base units with
these factors and defaults a series' direction from its unit; the dashboard's unit table
is generated from this module (`benchboard vocabulary`). Standard library only, because
the ingest CLI installs without the service.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

Direction = Literal["lower", "higher"]
DIRECTIONS: tuple[Direction, ...] = get_args(Direction)

Mode = Literal["sync", "async"]
MODES: tuple[Mode, ...] = get_args(Mode)

# What a unit measures; values convert only within one dimension, through its base unit.
Dimension = Literal[
    "time", "size", "bandwidth", "operation_rate", "request_rate", "count", "percent"
]
# Dimensions whose better value is a faster one: readers say faster/slower of them, and
# better/worse (or more/fewer) of the others.
SPEED_DIMENSIONS: frozenset[Dimension] = frozenset(
    {"time", "bandwidth", "operation_rate", "request_rate"}
)
# Which prefixes a reader expects when the value is scaled: 1024s (KiB) or 1000s (KB, ms).
Prefixes = Literal["binary", "decimal"]

# Every unit name an upload may use (aliases included).
UnitName = Literal[
    "ns",
    "us",
    "µs",
    "μs",
    "ms",
    "s",
    "ops/s",
    "req/s",
    "B/s",
    "KiB/s",
    "MiB/s",
    "GiB/s",
    "KB/s",
    "MB/s",
    "GB/s",
    "B",
    "KiB",
    "MiB",
    "GiB",
    "count",
    "percent",
]

# Micro sign and Greek mu, both spelled as the ASCII `us` once stored.
UNIT_ALIASES: dict[str, str] = {"µs": "us", "μs": "us"}

# Used when neither the tool nor the caller says which language was measured.
UNKNOWN_LANGUAGE = "unknown"


@dataclass(frozen=True)
class Unit:
    """One unit: what it measures, how it converts, and which way is better by default."""

    name: str
    dimension: Dimension
    base_unit: str
    factor: float  # value * factor = value in base_unit
    default_direction: Direction
    prefixes: Prefixes


def _units(
    dimension: Dimension,
    base_unit: str,
    direction: Direction,
    prefixes: Prefixes,
    factors: dict[str, float],
) -> dict[str, Unit]:
    return {
        name: Unit(name, dimension, base_unit, factor, direction, prefixes)
        for name, factor in factors.items()
    }


UNITS: dict[str, Unit] = {
    **_units("time", "s", "lower", "decimal", {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}),
    **_units(
        "bandwidth",
        "B/s",
        "higher",
        "binary",
        {"B/s": 1.0, "KiB/s": 1024.0, "MiB/s": 1024.0**2, "GiB/s": 1024.0**3},
    ),
    **_units("bandwidth", "B/s", "higher", "decimal", {"KB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9}),
    **_units(
        "size",
        "B",
        "lower",
        "binary",
        {"B": 1.0, "KiB": 1024.0, "MiB": 1024.0**2, "GiB": 1024.0**3},
    ),
    **_units("operation_rate", "ops/s", "higher", "decimal", {"ops/s": 1.0}),
    **_units("request_rate", "req/s", "higher", "decimal", {"req/s": 1.0}),
    # Counts and percentages have no natural better side; lower is the safer default
    # (errors, timeouts, CPU use) and a result states `direction` where it differs.
    **_units("count", "count", "lower", "decimal", {"count": 1.0}),
    **_units("percent", "percent", "lower", "decimal", {"percent": 1.0}),
}

if set(get_args(UnitName)) != set(UNITS) | set(UNIT_ALIASES):  # pragma: no cover - import guard
    raise RuntimeError("UnitName and UNITS/UNIT_ALIASES list different units")


def normalize_unit(unit: str) -> str:
    """The stored spelling of a unit name (`µs` -> `us`)."""
    return UNIT_ALIASES.get(unit, unit)


def unit_info(unit: str) -> Unit:
    """The unit a contract unit name stands for; KeyError for names outside the contract."""
    return UNITS[normalize_unit(unit)]


def measures_speed(unit: str) -> bool:
    """Whether a better value of `unit` is a faster one (times, rates, bandwidth)."""
    return unit_info(unit).dimension in SPEED_DIMENSIONS


def units_of(dimension: Dimension) -> frozenset[str]:
    return frozenset(name for name, unit in UNITS.items() if unit.dimension == dimension)
