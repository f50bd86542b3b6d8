"""Is a change between two results more than noise? Welch's t-test on their summaries.

Pure functions, no dependencies: the Student t tail comes from the regularized
incomplete beta function (continued fraction, as in Numerical Recipes §6.4).
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Summary:
    n: int
    mean: float
    stddev: float


def summarize(stats: Mapping[str, float] | None, samples: Sequence[float] | None) -> Summary | None:
    """n/mean/stddev from raw samples, else from stats that carry all three."""
    if samples and len(samples) >= 2:
        mean = math.fsum(samples) / len(samples)
        variance = math.fsum((x - mean) ** 2 for x in samples) / (len(samples) - 1)
        return Summary(len(samples), mean, math.sqrt(variance))
    if stats and stats.get("n", 0) >= 2 and "stddev" in stats:
        centre = stats.get("mean") if "mean" in stats else stats.get("median")
        if centre is not None:
            return Summary(int(stats["n"]), centre, stats["stddev"])
    return None


def welch_p_value(a: Summary, b: Summary) -> float | None:
    """Two-sided p-value that the means differ; None when the test is undefined."""
    var_a, var_b = a.stddev**2 / a.n, b.stddev**2 / b.n
    spread = var_a + var_b
    if spread <= 0:
        return None if a.mean == b.mean else 0.0
    t = (b.mean - a.mean) / math.sqrt(spread)
    df = spread**2 / (var_a**2 / (a.n - 1) + var_b**2 / (b.n - 1))
    return student_t_two_sided(t, df)


def student_t_two_sided(t: float, df: float) -> float:
    return regularized_incomplete_beta(df / 2, 0.5, df / (df + t * t))


def regularized_incomplete_beta(a: float, b: float, x: float) -> float:
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1 - math.exp(log_front) * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny, c, d = 1e-300, 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    fraction = d
    for m in range(1, 300):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            fraction *= d * c
        if abs(d * c - 1) < 1e-12:
            break
    return fraction
