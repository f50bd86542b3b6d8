"""The interval of a ratio of two reported values (a result's value, stats and samples):
the one place mode pairs and study findings get theirs from."""

from collections.abc import Mapping, Sequence
from typing import Protocol

from benchboard.stats.intervals import (
    RatioInterval,
    Summary,
    ratio_interval,
    ratio_range,
    summarize,
)
from benchboard_ingest.vocabulary import unit_info


class ReportedValue(Protocol):
    """What a ratio's interval reads of a result (a SeriesValue, or a row with these)."""

    @property
    def value(self) -> float: ...
    @property
    def unit(self) -> str: ...
    @property
    def value_base(self) -> float: ...
    @property
    def stats(self) -> Mapping[str, float] | None: ...


def value_ratio_interval(
    denominator: ReportedValue,
    numerator: ReportedValue,
    samples: tuple[Sequence[float] | None, Sequence[float] | None],
) -> RatioInterval | None:
    """95% interval of numerator/denominator (async/sync for a mode pair; a study's
    finding) around the ratio of the reported values; else the extreme ratios of their
    min/max ranges; else none. `samples` are the denominator's, then the numerator's.

    A side's replicates (samples, else stats n/stddev) give the coefficient of variation
    of its mean, carried to its reported value (which may be a median); a side without
    them counts as exact.
    """
    sides = [
        _relative_spread(denominator, samples[0]),
        _relative_spread(numerator, samples[1]),
    ]
    interval = ratio_interval(sides[1], sides[0])
    if interval is not None:
        return interval
    denominator_range, numerator_range = _range(denominator), _range(numerator)
    if denominator_range is None and numerator_range is None:
        return None
    return ratio_range(
        numerator_range or (numerator.value_base,) * 2,
        denominator_range or (denominator.value_base,) * 2,
        estimate=numerator.value_base / denominator.value_base,
    )


def _relative_spread(value: ReportedValue, samples: Sequence[float] | None) -> Summary:
    summary = summarize(value.stats, samples)
    if summary is None or summary.mean <= 0:
        return Summary(1, value.value_base, 0.0)
    return Summary(summary.n, value.value_base, value.value_base * summary.stddev / summary.mean)


def _range(value: ReportedValue) -> tuple[float, float] | None:
    stats = value.stats or {}
    if "min" not in stats and "max" not in stats:
        return None
    factor = unit_info(value.unit).factor
    return stats.get("min", value.value) * factor, stats.get("max", value.value) * factor
