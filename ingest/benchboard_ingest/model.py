"""Contract v1 result objects, the context a parser receives, and how results are built."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal, Required, TypedDict, cast

from .vocabulary import UNKNOWN_LANGUAGE, Direction

ParamValue = str | int | float | bool

STAT_KEYS = (
    "n",
    "min",
    "max",
    "mean",
    "median",
    "stddev",
    "p50",
    "p75",
    "p90",
    "p95",
    "p99",
    "p999",
)


class Stats(TypedDict, total=False):
    """Summary statistics in the result's unit (`n` is a count)."""

    n: float
    min: float
    max: float
    mean: float
    median: float
    stddev: float
    p50: float
    p75: float
    p90: float
    p95: float
    p99: float
    p999: float


class Result(TypedDict, total=False):
    """One contract v1 result, exactly the JSON object the service accepts."""

    benchmark: Required[str]
    params: dict[str, ParamValue]
    language: Required[str]
    implementation: str
    mode: str
    variant: str
    metric: Required[str]
    unit: Required[str]
    direction: Direction
    value: Required[float]
    stats: Stats
    samples: list[float]


@dataclass(frozen=True)
class ParseContext:
    """Defaults from the caller for what a tool's output does not say.

    `source` names the input in error messages; parsers never open it. `unit` and
    `direction` are for figures whose input leaves them open (a Bencher custom measure,
    a github-action-benchmark custom file).
    """

    language: str | None = None
    implementation: str | None = None
    mode: str | None = None
    variant: str | None = None
    benchmark: str | None = None
    unit: str | None = None
    direction: Direction | None = None
    source: str = "<input>"


@dataclass(frozen=True)
class Skipped:
    """Something an input holds that became no result, and why (reported, never silent)."""

    item: str
    reason: str


@dataclass
class ParsedFile:
    """The results of one file, and what in it was left out.

    `record` is the run as another tracker's record of one run describes it (asv,
    Conbench, LNT): its date, commit, machine and environment are the defaults of a
    single-run upload, under what the caller says."""

    results: list[Result]
    skipped: list[Skipped] = field(default_factory=list)
    record: SourceRun | None = None


@dataclass
class SourceRun:
    """One run as another tracker recorded it: its own keys, date, commit, machine, results.

    `key` is the source's identity of the run (gab: suite, commit and date; asv: machine,
    commit and environment), from which the import derives a deterministic run id.
    `run_id` is the id the record gives its run itself (a whole contract run document).
    `group` is the source's own suite name where it has several (gab's `entries` keys).
    """

    key: tuple[str, ...]
    started_at: str
    results: list[Result]
    skipped: list[Skipped] = field(default_factory=list)
    group: str | None = None
    name: str | None = None
    source_url: str | None = None
    git: dict[str, str] = field(default_factory=dict)
    hardware: dict[str, str | int | float] | None = None
    environment: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)
    run_id: str | None = None


@dataclass(frozen=True)
class Measure:
    """What one figure is: metric name, contract unit and which way is better."""

    metric: str
    unit: str
    direction: Direction


def make_result(
    context: ParseContext,
    *,
    benchmark: str,
    measure: Measure,
    value: float,
    language: str | None = None,
    params: dict[str, ParamValue] | None = None,
    stats: Stats | None = None,
    samples: list[float] | None = None,
    mode: str | None = None,
    implementation: str | None = None,
) -> Result:
    """Build a result; context fills what the tool did not say."""
    result: Result = {
        "benchmark": benchmark,
        "language": language or context.language or UNKNOWN_LANGUAGE,
        "metric": measure.metric,
        "unit": measure.unit,
        "direction": measure.direction,
        "value": value,
    }
    if params:
        result["params"] = params
    _set_optional(result, "implementation", implementation or context.implementation)
    _set_optional(result, "mode", mode or context.mode)
    _set_optional(result, "variant", context.variant)
    clean = clean_stats(stats or {})
    if clean:
        result["stats"] = clean
    if samples:
        result["samples"] = [s for s in samples if math.isfinite(s)]
    return result


def _set_optional(
    result: Result, key: Literal["implementation", "mode", "variant"], value: str | None
) -> None:
    if value:
        result[key] = value


def clean_stats(stats: Stats) -> Stats:
    """Drop non-finite figures: the contract accepts only finite numbers."""
    values = cast(dict[str, float], stats)
    clean = {k: v for k, v in values.items() if math.isfinite(v)}
    if "n" in clean and float(clean["n"]).is_integer():
        clean["n"] = int(clean["n"])  # a count reads best as an integer
    return cast(Stats, clean)


def set_stat(stats: Stats, key: str, value: float) -> None:
    """Set a statistic named at run time (percentile keys come from the input)."""
    if key not in STAT_KEYS:
        raise KeyError(key)
    cast(dict[str, float], stats)[key] = value


def stat_value(stats: Stats, key: str) -> float | None:
    """A statistic named at run time, or None when absent."""
    return cast(dict[str, float], stats).get(key)


@dataclass(frozen=True)
class ResultFactory:
    """Builds the results of one benchmark: everything but the figure is fixed."""

    context: ParseContext
    benchmark: str
    params: dict[str, ParamValue] | None = None
    language: str | None = None
    implementation: str | None = None
    mode: str | None = None

    def __call__(
        self,
        measure: Measure,
        value: float,
        stats: Stats | None = None,
        samples: list[float] | None = None,
    ) -> Result:
        return make_result(
            self.context,
            benchmark=self.benchmark,
            measure=measure,
            value=value,
            language=self.language,
            params=self.params,
            stats=stats,
            samples=samples,
            mode=self.mode,
            implementation=self.implementation,
        )
