"""A ratio of two results in the words readers use.

- Speed metrics (time, rates, bandwidth) say faster/slower, judged by the metric's
  direction: for time a larger value is slower, for a rate it is faster.
- Other metrics (counts, sizes, percentages) say more/fewer of the metric.
- The factor is always ≥ 1, with three significant digits; a factor that rounds to
  1.00 is "about the same".
- A ratio whose interval holds 1 is "about the same" too, with the ratio and why: the
  data cannot tell which side is ahead, so the sentence does not pick one.
"""

from benchboard.findings.schemas import Verdict
from benchboard.vocabulary import RatioIntervalMethod
from benchboard_ingest.vocabulary import Direction, measures_speed

_WITHIN: dict[RatioIntervalMethod, str] = {
    "range": "within the reported ranges",
    "delta_log": "within the 95% interval",
}


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
    interval_holds_one: RatioIntervalMethod | None = None,
) -> tuple[str, Verdict, float]:
    """(sentence, verdict, factor) for numerator / denominator = ratio > 0;
    `interval_holds_one` names the kind of interval that holds 1, if one does."""
    factor = ratio if ratio >= 1 else 1 / ratio
    tail = f" {context}" if context else ""
    if float(f"{factor:.3g}") == 1:
        return f"{numerator} about the same as {denominator}{tail}", "same", 1.0
    if interval_holds_one is not None:
        why = _WITHIN[interval_holds_one]
        text = f"{numerator} about the same as {denominator}{tail}: {format_factor(ratio)}, {why}"
        return text, "same", factor
    verdict: Verdict
    said: str
    if measures_speed(base_unit):
        numerator_better = ratio < 1 if direction == "lower" else ratio > 1
        verdict = "faster" if numerator_better else "slower"
        said = verdict
    else:
        verdict = "more" if ratio > 1 else "fewer"
        said = f"{verdict} {metric.replace('_', ' ')}"
    return f"{numerator} {format_factor(factor)} {said} than {denominator}{tail}", verdict, factor
