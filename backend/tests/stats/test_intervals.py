"""stats.intervals against textbook values: t quantiles and Fieller's interval where it
is bounded."""

import math

import pytest
from scipy import stats

from benchboard.stats.intervals import (
    Summary,
    ratio_interval,
    ratio_range,
    summarize,
)


def test_summaries_come_from_samples_else_complete_stats() -> None:
    assert summarize(None, [1.0, 2.0, 3.0]) == Summary(3, 2.0, 1.0)
    assert summarize({"n": 10, "mean": 5.0, "stddev": 0.5}, None) == Summary(10, 5.0, 0.5)
    assert summarize({"n": 10, "median": 4.0, "stddev": 0.5}, None) == Summary(10, 4.0, 0.5)
    assert summarize({"n": 10, "mean": 5.0}, None) is None  # no spread
    assert summarize({"mean": 5.0, "stddev": 0.5}, [7.0]) is None  # one sample, no n


def test_ratio_interval_is_the_delta_method_on_the_log_scale() -> None:
    # cv 10 % on both sides, n = 10: Var(ln r) = 0.01/10 + 0.01/10 = 0.002, df = 18,
    # t(0.975, 18) = 2.100922 (tables).
    interval = ratio_interval(Summary(10, 200.0, 20.0), Summary(10, 100.0, 10.0))
    assert interval is not None
    half = 2.100922 * math.sqrt(0.002)
    assert interval.method == "delta_log"
    assert interval.level == 0.95
    assert interval.df == pytest.approx(18.0)
    assert interval.estimate == pytest.approx(2.0)
    assert interval.low == pytest.approx(2 * math.exp(-half), rel=1e-6)
    assert interval.high == pytest.approx(2 * math.exp(half), rel=1e-6)


def test_a_side_without_spread_counts_as_exact() -> None:
    # Only the numerator varies: Var = 0.04/5 = 0.008, df = 4, t(0.975, 4) = 2.776445.
    interval = ratio_interval(Summary(5, 200.0, 40.0), Summary(1, 100.0, 0.0))
    assert interval is not None
    assert interval.df == pytest.approx(4.0)
    assert interval.high == pytest.approx(2 * math.exp(2.776445 * math.sqrt(0.008)), rel=1e-6)
    assert ratio_interval(Summary(1, 2.0, 0.0), Summary(1, 1.0, 0.0)) is None
    assert ratio_interval(Summary(5, 2.0, 1.0), Summary(5, 0.0, 1.0)) is None


def _fieller(a: Summary, b: Summary, t: float) -> tuple[float, float]:
    """Fieller's interval of a.mean / b.mean for independent means (Fieller 1954)."""
    va, vb = a.stddev**2 / a.n, b.stddev**2 / b.n
    q, g = a.mean / b.mean, t * t * vb / b.mean**2
    half = t / b.mean * math.sqrt(va * (1 - g) + q * q * vb)
    return (q - half) / (1 - g), (q + half) / (1 - g)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (Summary(30, 119.9, 6.0), Summary(30, 57.4, 2.9)),  # 5 % noise, ratio 2.09
        (Summary(10, 1.05, 0.1), Summary(10, 1.0, 0.1)),  # 10 %
        (Summary(20, 50.0, 10.0), Summary(15, 80.0, 16.0)),  # 20 %
    ],
)
def test_ratio_interval_agrees_with_fieller_at_benchmark_noise(a: Summary, b: Summary) -> None:
    interval = ratio_interval(a, b)
    assert interval is not None
    assert interval.df is not None
    low, high = _fieller(a, b, float(stats.t.ppf(0.975, interval.df)))
    assert interval.low == pytest.approx(low, rel=0.01)
    assert interval.high == pytest.approx(high, rel=0.01)


def test_ratio_range_is_the_extreme_ratios_of_two_ranges() -> None:
    interval = ratio_range((84.0, 91.0), (84.0, 87.0), estimate=87.5 / 85.5)
    assert interval is not None
    assert (interval.low, interval.high) == (pytest.approx(84 / 87), pytest.approx(91 / 84))
    assert interval.method == "range"
    assert interval.level is None
    assert ratio_range((1.0, 2.0), (0.0, 1.0), estimate=1.5) is None
