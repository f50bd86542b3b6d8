"""Figures as tools print them ("1.85MB", "2.83ms", "6.47k") turned into contract units.

Scaling goes through Decimal so that "1.68s" becomes exactly 1680.0 ms and
"6.47k" exactly 6470.0, not 6470.000000000001.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from .vocabulary import UNIT_ALIASES, UNITS, unit_info, units_of

# Spellings tools print for times that are not contract units (minutes, hours), with the
# contract unit each becomes; contract time units and their aliases keep their own name.
_TOOL_TIME = {
    "sec": ("s", Decimal(1)),
    "m": ("s", Decimal(60)),
    "min": ("s", Decimal(60)),
    "h": ("s", Decimal(3600)),
}
_CONTRACT_TIME_NAMES = units_of("time") | {
    a for a, u in UNIT_ALIASES.items() if u in units_of("time")
}
# Contract unit each time spelling maps onto, and its length in seconds (exact, via repr).
_CONTRACT_TIME = {
    **{name: unit_info(name).name for name in _CONTRACT_TIME_NAMES},
    **{name: unit for name, (unit, _) in _TOOL_TIME.items()},
}
_SECONDS = {
    **{name: Decimal(repr(unit_info(name).factor)) for name in _CONTRACT_TIME_NAMES},
    **{name: seconds for name, (_, seconds) in _TOOL_TIME.items()},
}
_METRIC_PREFIX = {
    "": Decimal(1),
    "k": Decimal(1000),
    "K": Decimal(1000),
    "M": Decimal(10**6),
    "G": Decimal(10**9),
    "T": Decimal(10**12),
}
_BINARY_SIZE = {"B": "B", "KB": "KiB", "MB": "MiB", "GB": "GiB"}
_DECIMAL_SIZE = {"B": "B", "KB": "KB", "MB": "MB", "GB": "GB"}
_QUANTITY = re.compile(r"^\s*([-+]?(?:\d[\d,]*)?\.?\d+(?:[eE][-+]?\d+)?)\s*(\S*)\s*$")


def to_decimal(text: str) -> Decimal:
    """A printed number, thousands separators allowed ("10,985.9323")."""
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        raise ValueError(f"not a number: {text!r}") from None


def parse_number(text: str) -> float:
    return float(to_decimal(text))


def split_quantity(text: str) -> tuple[Decimal, str]:
    """Split "2.83ms" into (2.83, "ms"); the suffix may be empty."""
    match = _QUANTITY.match(text)
    if match is None:
        raise ValueError(f"not a quantity: {text!r}")
    return to_decimal(match.group(1)), match.group(2)


def is_time_unit(symbol: str) -> bool:
    return symbol in _SECONDS


def contract_time_unit(symbol: str) -> str:
    """The contract unit for a printed time unit ("µs" -> "us", "m" -> "s")."""
    if symbol not in _CONTRACT_TIME:
        raise ValueError(f"not a time unit: {symbol!r}")
    return _CONTRACT_TIME[symbol]


def convert_time(value: Decimal | float, from_unit: str, to_unit: str) -> float:
    """Convert between any two time spellings known here."""
    if from_unit not in _SECONDS or to_unit not in _SECONDS:
        raise ValueError(f"cannot convert {from_unit!r} to {to_unit!r}")
    amount = value if isinstance(value, Decimal) else Decimal(repr(value))
    return float(amount * _SECONDS[from_unit] / _SECONDS[to_unit])


def parse_time(text: str) -> tuple[float, str]:
    """ "2.83ms" -> (2.83, "ms"); "2m" -> (120.0, "s")."""
    amount, symbol = split_quantity(text)
    unit = contract_time_unit(symbol)
    return convert_time(amount, symbol, unit), unit


def parse_metric_count(text: str) -> float:
    """ "6.47k" -> 6470.0 (1000-based prefixes, as wrk and hey print counts)."""
    amount, prefix = split_quantity(text)
    if prefix not in _METRIC_PREFIX:
        raise ValueError(f"unknown prefix in {text!r}")
    return float(amount * _METRIC_PREFIX[prefix])


def parse_size(text: str, *, binary: bool) -> tuple[float, str]:
    """ "5.57MB" -> (5.57, "MiB") when the tool counts in 1024s, else (5.57, "MB")."""
    amount, symbol = split_quantity(text)
    table = _BINARY_SIZE if binary else _DECIMAL_SIZE
    if symbol not in table:
        raise ValueError(f"unknown size unit in {text!r}")
    return float(amount), table[symbol]


def rate_unit(size_unit: str) -> str:
    """ "MiB" -> "MiB/s"."""
    return f"{size_unit}/s"


# Unit labels other trackers store as free text (github-action-benchmark's `unit`, asv's
# `benchmarks.json`, Conbench's `stats.unit`): the contract unit each means and the factor
# that converts a figure into it. Symbols match exactly ("MB" is not "mb"); whole words
# ("Seconds", "megabytes") match in any case.
_LABEL_SYMBOLS: dict[str, tuple[str, Decimal]] = {
    **{name: (name, Decimal(1)) for name in UNITS},
    **{alias: (unit, Decimal(1)) for alias, unit in UNIT_ALIASES.items()},
    **{
        f"{time}/{per}": (unit_info(time).name, Decimal(1))
        for time in _CONTRACT_TIME_NAMES
        for per in ("iter", "op")
    },
    "sec": ("s", Decimal(1)),
    "min": ("s", Decimal(60)),
    **{
        label: ("ops/s", Decimal(1))
        for label in ("ops/sec", "op/s", "iter/sec", "iter/s", "it/s", "i/s", "items/s", "Hz")
    },
    **{label: ("req/s", Decimal(1)) for label in ("requests/sec", "requests/s", "req/sec")},
    "kB": ("B", Decimal(10**3)),
    "KB": ("B", Decimal(10**3)),
    "MB": ("B", Decimal(10**6)),
    "GB": ("B", Decimal(10**9)),
    "%": ("percent", Decimal(1)),
}
_LABEL_WORDS: dict[str, tuple[str, Decimal]] = {
    **{word: ("ns", Decimal(1)) for word in ("nanosecond", "nanoseconds", "nsec")},
    **{word: ("us", Decimal(1)) for word in ("microsecond", "microseconds", "usec")},
    **{word: ("ms", Decimal(1)) for word in ("millisecond", "milliseconds", "msec")},
    **{word: ("s", Decimal(1)) for word in ("second", "seconds", "secs")},
    **{word: ("s", Decimal(60)) for word in ("minute", "minutes")},
    **{word: ("B", Decimal(1)) for word in ("byte", "bytes")},
    "kilobytes": ("B", Decimal(10**3)),
    "megabytes": ("B", Decimal(10**6)),
    "gigabytes": ("B", Decimal(10**9)),
    **{word: ("percent", Decimal(1)) for word in ("percent", "percentage")},
}
_PARENTHESIZED = re.compile(r"^[^()]*\(\s*([^()]+?)\s*\)\s*$")  # "Time(ms)"


@dataclass(frozen=True)
class UnitLabel:
    """What a free-text unit label means: a contract unit and the factor into it."""

    unit: str
    factor: Decimal

    def convert(self, value: float) -> float:
        """`value` in the label's unit, in the contract unit (exact for printed decimals)."""
        if self.factor == 1:
            return value
        return float(Decimal(repr(value)) * self.factor)


def read_unit_label(label: str) -> UnitLabel | None:
    """The contract unit a tracker's unit label stands for, or None when it names none."""
    text = label.strip()
    found = _LABEL_SYMBOLS.get(text) or _LABEL_WORDS.get(text.lower())
    if found is None:
        inner = _PARENTHESIZED.match(text)
        return read_unit_label(inner.group(1)) if inner else None
    return UnitLabel(*found)
