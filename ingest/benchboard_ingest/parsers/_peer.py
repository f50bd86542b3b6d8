"""What the other trackers' records share: free-text units, ranges, dates, repeated results.

github-action-benchmark, asv, Conbench, Bencher and LNT each store figures with a unit
label of their own; these helpers map them onto contract units and metric names in one
way, so the same label means the same series whichever tracker it came from.
"""

from __future__ import annotations

import ast
import re
import statistics
from datetime import UTC, datetime
from decimal import Decimal

from ..jsonutil import JsonNode
from ..model import Measure, ParamValue, Result, Skipped
from ..units import UnitLabel, read_unit_label
from ..vocabulary import Direction, result_identity, unit_info
from ._stats import summarize

# A metric named after what its unit measures, for records that name no metric.
_DIMENSION_METRIC = {
    "time": "time",
    "operation_rate": "throughput",
    "request_rate": "throughput",
    "bandwidth": "throughput",
    "size": "size",
    "percent": "percent",
}
_COUNT = UnitLabel("count", Decimal(1))
_RANGE = re.compile(r"^\s*(?:±|\+/-|stddev:)?\s*([-+]?[\d,]*\.?\d+(?:[eE][-+]?\d+)?)\s*$")
_NUMBER = re.compile(r"^\s*[-+]?[\d,]*\.?\d+(?:[eE][-+]?\d+)?\s*$")


def slug(text: str) -> str:
    """A metric name from free text: "Total Bytes" -> "total_bytes", "B/op" -> "b_per_op"."""
    name = re.sub(r"[^a-z0-9]+", "_", text.lower().replace("/", "_per_")).strip("_")
    return name or "value"


def measure_for_label(
    label: str | None, *, direction: Direction | None = None, time_metric: str = "time"
) -> tuple[Measure, UnitLabel]:
    """The measure a figure with this unit label is, and how to convert it.

    Known labels keep their dimension ("seconds" -> `s`, metric `time`); anything else is
    a `count` named after the label ("cycles/iter" -> `cycles_per_iter`).
    """
    unit = read_unit_label(label) if label else None
    if unit is None:
        return Measure(slug(label or ""), "count", direction or "lower"), _COUNT
    info = unit_info(unit.unit)
    metric = time_metric if info.dimension == "time" else _DIMENSION_METRIC[info.dimension]
    return Measure(metric, unit.unit, direction or info.default_direction), unit


def numeric_range(value: object) -> float | None:
    """A spread written as "± 3", "+/- 2,802", "3", 0.52 or "stddev: 0.0005"; None for
    relative ones ("5%") or text."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return abs(float(value))
    if isinstance(value, str):
        match = _RANGE.match(value)
        if match:
            return abs(float(match.group(1).replace(",", "")))
    return None


def number_or_numeric_text(node: JsonNode) -> float | None:
    """A figure stored as a number, or as a string holding one ("31"); else None."""
    value = node.value
    if isinstance(value, str) and _NUMBER.match(value):
        return float(value.replace(",", ""))
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return node.as_optional_number()


def epoch_ms_to_rfc3339(milliseconds: float) -> str:
    """1573198480535 -> "2019-11-08T07:34:40.535+00:00"."""
    moment = datetime.fromtimestamp(milliseconds / 1000, tz=UTC)
    return moment.isoformat(timespec="milliseconds")


def timestamp_to_rfc3339(text: str) -> str:
    """An ISO timestamp as written; one without an offset is UTC (as every peer writes it)."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat()


def literal_param(text: str) -> ParamValue:
    """A parameter written as a Python literal ("10", "'linear'", "True") as its value;
    anything else (`<function f>`, "None") stays the text it is."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text
    if isinstance(value, bool | int | float | str) and value == value:  # NaN stays text
        return value
    return text


def fold_repeats(results: list[Result]) -> tuple[list[Result], list[Skipped]]:
    """One result per series in a run: repeats (`go test -count 3` as three benches)
    become samples with their mean as the value; a repeat in another unit is skipped."""
    groups: dict[str, list[Result]] = {}
    for result in results:
        groups.setdefault(result_identity(result), []).append(result)
    folded: list[Result] = []
    skipped: list[Skipped] = []
    for group in groups.values():
        first = group[0]
        same = [r for r in group if r["unit"] == first["unit"]]
        skipped.extend(
            Skipped(
                f"{r['benchmark']} {r['metric']}",
                f"repeated in {r['unit']} after {first['unit']} in the same run",
            )
            for r in group
            if r["unit"] != first["unit"]
        )
        if len(same) == 1:
            folded.append(first)
            continue
        values = [r["value"] for r in same]
        merged: Result = {**first, "value": statistics.fmean(values), "samples": values}
        merged["stats"] = summarize(values)
        merged["stats"]["n"] = len(values)
        folded.append(merged)
    return folded, skipped
