"""A ratio of two results in the words readers use, and the range its sides allow.

- Speed metrics (time, rates, bandwidth) say faster/slower, judged by the metric's
  direction: for time a larger value is slower, for a rate it is faster.
- Other metrics (counts, sizes, percentages) say more/fewer of the metric.
- The factor is always ≥ 1, with three significant digits; a factor that rounds to
  1.00 is "about the same".
"""

from collections.abc import Mapping

from benchboard.findings.schemas import RatioInterval, Verdict
from benchboard_ingest.vocabulary import Direction, unit_info

SPEED_DIMENSIONS = frozenset({"time", "bandwidth", "operation_rate", "request_rate"})


def format_factor(factor: float) -> str:
    """2.0873 → "2.09×", 66.666 → "66.7×", 1234.5 → "1,230×"."""
    rounded = float(f"{factor:.3g}")
    text = f"{rounded:,.0f}" if rounded >= 100 else f"{rounded:g}"
    return f"{text}×"


def word_ratio(
    ratio: float,
    *,
    numerator: str,
    denominator: str,
    metric: str,
    base_unit: str,
    direction: Direction,
    context: str | None,
) -> tuple[str, Verdict, float]:
    """(sentence, verdict, factor) for numerator / denominator = ratio > 0."""
    factor = ratio if ratio >= 1 else 1 / ratio
    tail = f" {context}" if context else ""
    if float(f"{factor:.3g}") == 1:
        return f"{numerator} about the same as {denominator}{tail}", "same", 1.0
    verdict: Verdict
    said: str
    if unit_info(base_unit).dimension in SPEED_DIMENSIONS:
        numerator_better = ratio < 1 if direction == "lower" else ratio > 1
        verdict = "faster" if numerator_better else "slower"
        said = verdict
    else:
        verdict = "more" if ratio > 1 else "fewer"
        said = f"{verdict} {metric.replace('_', ' ')}"
    return f"{numerator} {format_factor(factor)} {said} than {denominator}{tail}", verdict, factor


def _bounds(value_base: float, unit: str, stats: Mapping[str, float] | None) -> tuple[float, float]:
    factor = unit_info(unit).factor
    low = (stats or {}).get("min")
    high = (stats or {}).get("max")
    return (
        value_base if low is None else low * factor,
        value_base if high is None else high * factor,
    )


def range_interval(
    numerator: tuple[float, str, Mapping[str, float] | None],
    denominator: tuple[float, str, Mapping[str, float] | None],
) -> RatioInterval | None:
    """The extreme ratios that the sides' reported ranges (stats.min/max) allow, each side
    as (value_base, unit, stats); None when neither side reports a range."""
    if not any(s and ("min" in s or "max" in s) for _, _, s in (numerator, denominator)):
        return None
    n_low, n_high = _bounds(*numerator)
    d_low, d_high = _bounds(*denominator)
    if d_low <= 0 or d_high <= 0:
        return None
    return RatioInterval(low=n_low / d_high, high=n_high / d_low, method="range")
