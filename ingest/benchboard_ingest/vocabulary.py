"""The contract's vocabulary, in one place: units, directions, modes, the unknown language.

The service validates uploads against these names, converts values to base units with
these factors and defaults a series' direction from its unit; the dashboard's unit table
is generated from this module (`benchboard vocabulary`). Standard library only, because
the ingest CLI installs without the service.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

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


# The fields that name a series (the contract's series identity), in the order its
# fingerprint hashes them: the run's suite and machine, the others from each result.
SERIES_IDENTITY_FIELDS = (
    "suite",
    "benchmark",
    "params",
    "language",
    "implementation",
    "mode",
    "variant",
    "hardware",
    "metric",
)
RESULT_IDENTITY_FIELDS = tuple(f for f in SERIES_IDENTITY_FIELDS if f not in ("suite", "hardware"))


def canonical_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Integral floats become ints so that `10000` and `10000.0` name the same series
    (those that fit 64 bits: series stored before integers past 64 bits were kept
    exactly hold them as floats, and keep their fingerprints)."""
    return {key: _canonical_number(value) for key, value in params.items()}


def _canonical_number(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    return value


def result_identity(result: Mapping[str, Any], *run_fields: object) -> str:
    """A key equal for two results of one series: `run_fields` (the suite and machine,
    where results of several runs meet), then the result's identity fields, params
    canonical as the service hashes them."""
    fields = [
        canonical_params(result.get(key) or {}) if key == "params" else result.get(key)
        for key in RESULT_IDENTITY_FIELDS
    ]
    return json.dumps([*run_fields, *fields], sort_keys=True)


def measures_speed(unit: str) -> bool:
    """Whether a better value of `unit` is a faster one (times, rates, bandwidth)."""
    return unit_info(unit).dimension in SPEED_DIMENSIONS


def units_of(dimension: Dimension) -> frozenset[str]:
    return frozenset(name for name, unit in UNITS.items() if unit.dimension == dimension)
