"""Ratio-of-means intervals the service reports (sync/async pairs, study findings).

Every p-value and interval the API returns comes from here or from ``stats.noise`` (the
two-level model that judges a difference of run levels: detection, baseline comparisons,
compare runs), with SciPy's Student t; the front end only formats them.

Ratio interval: the delta method on the log scale
--------------------------------------------------
``ratio_interval(a, b)`` brackets ``mean_a / mean_b``. On the log scale the ratio is a
difference, ``ln r = ln m_a - ln m_b``, and the delta method gives
``Var(ln m) ≈ s² / (n m²)`` (the squared coefficient of variation of the mean), so

    ln r ± t(df) · √(cv_a² / n_a + cv_b² / n_b),    bounds r · exp(∓ …),

with Student's t at Welch–Satterthwaite degrees of freedom over the two parts. A side
with fewer than two replicates or no spread counts as exact (it adds no variance).

Why this and not Fieller's theorem (Fieller 1954), which is exact for normal means:

- Benchmark timings and rates are positive, right-skewed, and their spread grows with
  their level; the log scale is where they are closest to normal and where "2.09× slower"
  and "2.09× faster" are the same distance. The interval is multiplicative, ``r / k`` to
  ``r · k``, always positive and finite, and drawn symmetric on the log axis of the ratio
  chart.
- Fieller's set is bounded only while the denominator's mean is clearly non-zero
  (``g = t² cv_b² / n_b < 1``); otherwise it is unbounded or the union of two rays, which
  no reader can use. Where it is bounded and the CVs are those of benchmarks (≤ 20 %),
  the two agree closely (Franz 2007, "Ratios: a short guide to confidence limits and
  proper use", arXiv:0710.2024; ``tests/stats/test_intervals.py`` checks it).

``ratio_range`` is the fallback where a side reports only a minimum and maximum: the
extreme ratios those ranges allow. That is a range, not a confidence interval (``level``
is None).
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from benchboard.stats.noise import t_quantile
from benchboard.vocabulary import RatioIntervalMethod


@dataclass(frozen=True)
class Summary:
    """Replicates of one measurement: count, mean and sample standard deviation."""

    n: int
    mean: float
    stddev: float


def summarize(stats: Mapping[str, float] | None, samples: Sequence[float] | None) -> Summary | None:
    """n/mean/stddev from raw samples, else from stats that carry n, stddev and a centre."""
    if samples and len(samples) >= 2:
        mean = math.fsum(samples) / len(samples)
        variance = math.fsum((x - mean) ** 2 for x in samples) / (len(samples) - 1)
        return Summary(len(samples), mean, math.sqrt(variance))
    if stats and stats.get("n", 0) >= 2 and "stddev" in stats:
        centre = stats.get("mean", stats.get("median"))
        if centre is not None:
            return Summary(int(stats["n"]), centre, stats["stddev"])
    return None


@dataclass(frozen=True)
class RatioInterval:
    """An interval of a ratio: ``low <= estimate <= high``.

    ``level`` is the confidence level (0.95), or None for a ``range`` (not a confidence
    interval); ``df`` the degrees of freedom of the t quantile used, if any.
    """

    estimate: float
    low: float
    high: float
    level: float | None
    method: RatioIntervalMethod
    df: float | None = None


def ratio_interval(
    numerator: Summary, denominator: Summary, *, level: float = 0.95
) -> RatioInterval | None:
    """The ``level`` confidence interval of ``numerator.mean / denominator.mean``.

    Delta method on the log scale (module docstring). None when a mean is not positive
    or neither side carries a spread.
    """
    if numerator.mean <= 0 or denominator.mean <= 0:
        return None
    parts = [
        (side.stddev**2 / (side.n * side.mean**2), side.n - 1)
        for side in (numerator, denominator)
        if side.n >= 2 and side.stddev > 0
    ]
    if not parts:
        return None
    variance = sum(part for part, _ in parts)
    df = variance**2 / sum(part**2 / dof for part, dof in parts)
    half = t_quantile(0.5 + level / 2, df) * math.sqrt(variance)
    estimate = numerator.mean / denominator.mean
    return RatioInterval(
        estimate=estimate,
        low=estimate * math.exp(-half),
        high=estimate * math.exp(half),
        level=level,
        method="delta_log",
        df=df,
    )


def ratio_range(
    numerator: tuple[float, float], denominator: tuple[float, float], *, estimate: float
) -> RatioInterval | None:
    """The extreme ratios two (low, high) ranges allow around the measured ``estimate``.
    None unless the denominator's range is positive and the ranges hold the estimate."""
    (num_low, num_high), (den_low, den_high) = numerator, denominator
    if den_low <= 0 or num_low > num_high or den_low > den_high:
        return None
    low, high = num_low / den_high, num_high / den_low
    if not low <= estimate <= high:
        return None
    return RatioInterval(estimate=estimate, low=low, high=high, level=None, method="range")
