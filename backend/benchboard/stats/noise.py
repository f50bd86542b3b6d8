"""The two-level noise model of a benchmark series: sampling within a run, conditions
between runs. Change detection, the baseline verdict and compare runs all judge a
difference of levels with it.

Model
-----
Run ``i`` measures a level ``y_i = μ + u_i + e_i``: ``u_i ~ N(0, τ²)`` is what the run's
conditions add (machine state, a fresh process, JIT warm-up), shared by all its samples;
``e_i ~ N(0, v_i)`` is the sampling error of its level, ``v_i`` known from its replicates.
This is the random-effects model of meta-analysis with each run a study (DerSimonian &
Laird 1986, "Meta-analysis in clinical trials", Control. Clin. Trials 7:177-188).

- **Level of a run**: the median of its samples, with ``v = (π/2) σ̂² / n`` (the
  asymptotic variance of a median; ``σ̂ = 1.4826 MAD``, else the standard deviation when
  the MAD is zero), so a few slow iterations move neither the level nor its error much;
  else ``stats`` (median or mean, ``stddev``, ``n``); else the ``value`` with ``v``
  unknown.
- **τ² by the method of moments** (DerSimonian–Laird), pooled over the segments being
  compared: ``Q = Σ w_i (y_i - ȳ_seg)²`` with ``w_i = 1 / v_i`` summed over segments,
  ``τ² = max(0, (Q - df) / (Σ_seg (Σw - Σw² / Σw)))``, ``df = Σ_seg (k_seg - 1)``. A common
  τ² across segments is the usual subgroup analysis (Borenstein et al. 2009,
  "Introduction to Meta-Analysis", ch. 19); estimating it within segments keeps a step
  from inflating it.
- **Difference of segment levels**: each segment's level is the weighted mean with
  ``w*_i = 1 / (v_i + τ²)``, variance ``1 / Σw*``; ``t = Δ / √(V_before + V_after)``.
  Degrees of freedom by Welch–Satterthwaite over the two sources of that variance:
  the sampling part carries ``Σ (n_i - 1)``, the between-run part ``df`` of Q. With τ²
  estimated at zero the test has the full power of the samples; where τ² dominates it is
  a t-test on run levels with as many degrees of freedom as the runs allow.
- **Runs without replicates** (``v`` unknown): the model reduces to Student's pooled
  two-sample t-test on the run levels (all variance is between runs).

Scale: logarithms of the levels, where every level is positive
--------------------------------------------------------------
Benchmark timings and rates are positive and their noise is multiplicative: a run 37 times
slower scatters 37 times wider. On the linear scale such a run's own spread swamps its
step (in a merge request, five samples of 168-410 µs against a tight ~7 µs baseline were
judged "unchanged", p = 0.025), and a τ² pooled over segments at different levels is no
common variance. So every level
and its variance go to the log scale first, by the delta method (``ln y``, variance
``v / y²``, the squared CV of the level, as ``stats.intervals`` does for ratios); the
difference tested is ``ln(after / before)``, τ² is a squared run-to-run CV, and the
interval of a relative change is multiplicative. For the small changes and CVs of most
benchmarks the two scales agree to first order. Where a level is zero or negative (counts,
deltas) logarithms do not exist and the levels are compared as they are (``log_scale``
False).

Why the method of moments and not REML: it is closed form, O(k) and never fails to
converge, which keeps a check within the worker's budget (≥ 2,000 series/s); with the few
runs of a short history REML is no better determined (both estimate τ² from the same
k - 2 degrees of freedom), and the Satterthwaite degrees of freedom above make the test
pay for τ²'s uncertainty. Why not pool samples across runs: samples of one run share its
conditions, so pooling ignores τ² and raises false alarms (a naive Welch test between
consecutive runs' samples reaches a precision of about 0.4 on such data).
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from statistics import median

from scipy import special

from benchboard.vocabulary import LevelSource

# Asymptotic variance of a median relative to a mean's (normal data): π/2.
_MEDIAN_EFFICIENCY = math.pi / 2
_MAD_TO_SD = 1.4826


@dataclass(frozen=True)
class RunLevel:
    """One run's level, its sampling variance (None without replicates), replicates, and
    which figure of the run the level is."""

    level: float
    variance: float | None = None
    n: int = 1
    source: LevelSource = "value"


def run_level(
    value: float, samples: Sequence[float] = (), stats: Mapping[str, float] | None = None
) -> RunLevel:
    """The level of one run and its sampling variance (module docstring)."""
    if len(samples) >= 3:
        ordered = sorted(samples)
        centre = float(median(ordered))
        mad = float(median([abs(x - centre) for x in ordered]))
        scale2 = (_MAD_TO_SD * mad) ** 2 if mad > 0 else sample_variance(ordered)
        variance = _MEDIAN_EFFICIENCY * scale2 / len(ordered)
        return RunLevel(centre, variance, len(ordered), "samples_median")
    if stats is not None:
        n, stddev = int(stats.get("n", 0)), stats.get("stddev")
        source: LevelSource = "value"
        factor, centre = 1.0, value
        if "median" in stats:
            source, factor, centre = "stats_median", _MEDIAN_EFFICIENCY, stats["median"]
        elif "mean" in stats:
            source, centre = "stats_mean", stats["mean"]
        if n >= 2 and stddev is not None:
            return RunLevel(float(centre), factor * stddev**2 / n, n, source)
        return RunLevel(float(centre), source=source)
    return RunLevel(float(value))


def sample_variance(values: Sequence[float]) -> float:
    mean = math.fsum(values) / len(values)
    return math.fsum((x - mean) ** 2 for x in values) / (len(values) - 1)


@dataclass(frozen=True)
class LevelDifference:
    """Two segments' levels and their difference, judged against the two-level noise.

    ``before`` and ``after`` are the levels in the measurement's unit. The test's figures,
    ``difference`` (``after - before``), its standard error and the two variances, are on
    the scale the test judged on: natural logarithms where ``log_scale`` (the difference
    is then ``ln(after / before)``), else the unit's (module docstring, Scale).
    """

    before: float
    after: float
    difference: float
    standard_error: float
    df: float
    between_variance: float  # τ², or the pooled run variance without replicates
    within_variance: float | None  # mean sampling variance of a level; None without
    replicates_used: bool
    log_scale: bool

    @property
    def t(self) -> float:
        if self.standard_error > 0:
            return self.difference / self.standard_error
        return 0.0 if self.difference == 0 else math.copysign(math.inf, self.difference)

    def p_value(self) -> float:
        """Two-sided Student t p-value (SciPy)."""
        return float(2 * special.stdtr(self.df, -abs(self.t))) if self.df > 0 else 1.0

    def relative_interval(
        self, level: float, *, change: float, before: float
    ) -> tuple[float, float]:
        """The ``level`` confidence interval of the relative change ``change`` from
        ``before``, with this difference's uncertainty: ``(1 + change) · exp(∓half) - 1``
        on the log scale, ``change ∓ half / |before|`` on the linear one."""
        half = t_quantile(0.5 + level / 2, self.df) * self.standard_error
        if self.log_scale:
            ratio = 1 + change
            return ratio * math.exp(-half) - 1, ratio * math.exp(half) - 1
        return change - half / abs(before), change + half / abs(before)

    def relative_sd(self, variance: float, *, before: float) -> float:
        """A variance on this difference's scale as a standard deviation relative to
        ``before`` (a coefficient of variation; on the log scale, to first order)."""
        return math.sqrt(variance) if self.log_scale else math.sqrt(variance) / abs(before)


# SciPy's Student t functions themselves (stdtr, stdtrit), which scipy.stats.t's sf and
# ppf call with the same results to the bit: ~1 us a call instead of ~45 us of the
# distribution object's argument handling, paid per series checked and per mode pair.
@lru_cache(maxsize=4096)
def t_quantile(probability: float, df: float) -> float:
    """Student's t quantile, cached: detection asks for few distinct ones."""
    return float(special.stdtrit(df, probability)) if df > 0 else math.inf


def critical_t(alpha: float, df: float) -> float:
    """|t| beyond which a two-sided test at ``alpha`` rejects."""
    return t_quantile(1 - alpha / 2, round(df, 1))


def compare_levels(before: Sequence[RunLevel], after: Sequence[RunLevel]) -> LevelDifference | None:
    """Two segments' levels and their difference under the two-level model, on the log
    scale where every level is positive (module docstring, Scale).

    The sampling part is used only when every run of both segments has replicates;
    otherwise the runs' levels alone (Student's pooled t). None when the data cannot
    estimate any noise (no replicates and fewer than three runs).
    """
    runs = [*before, *after]
    split = len(before)
    if before and after and all(r.variance is not None for r in runs):
        logs = on_log_scale(runs)
        if logs is None:
            return _random_effects(before, after, log_scale=False)
        return in_unit(_random_effects(logs[:split], logs[split:], log_scale=True))
    levels = [r.level for r in runs]
    if not levels or min(levels) <= 0:
        return _pooled_levels(levels[:split], levels[split:], log_scale=False)
    logs_only = [math.log(level) for level in levels]  # a run lacks replicates: levels alone
    difference = _pooled_levels(logs_only[:split], logs_only[split:], log_scale=True)
    return None if difference is None else in_unit(difference)


def on_log_scale(levels: Sequence[RunLevel]) -> list[RunLevel] | None:
    """The levels as logarithms, each variance ``v`` as ``v / y²`` (delta method); None
    when a level is zero or negative: such levels are compared as they are."""
    if not all(r.level > 0 for r in levels):
        return None
    return [
        RunLevel(
            math.log(r.level),
            None if r.variance is None else r.variance / r.level**2,
            r.n,
            r.source,
        )
        for r in levels
    ]


def in_unit(difference: LevelDifference) -> LevelDifference:
    """A difference judged on logarithms, its two levels back in the measurement's unit."""
    return replace(difference, before=math.exp(difference.before), after=math.exp(difference.after))


def _pooled_levels(
    before: Sequence[float], after: Sequence[float], *, log_scale: bool
) -> LevelDifference | None:
    df = len(before) + len(after) - 2
    if df < 1 or not before or not after:
        return None
    mean_b, mean_a = math.fsum(before) / len(before), math.fsum(after) / len(after)
    squares = math.fsum((x - mean_b) ** 2 for x in before) + math.fsum(
        (x - mean_a) ** 2 for x in after
    )
    variance = squares / df
    se = math.sqrt(variance * (1 / len(before) + 1 / len(after)))
    return LevelDifference(
        mean_b, mean_a, mean_a - mean_b, se, df, variance, None, False, log_scale
    )


def _random_effects(
    before: Sequence[RunLevel], after: Sequence[RunLevel], *, log_scale: bool
) -> LevelDifference:
    tau2, q_df = between_variance([before, after])
    parts = [_weighted(segment, tau2) for segment in (before, after)]
    (mean_b, var_b), (mean_a, var_a) = parts
    variance = var_b + var_a
    runs = [*before, *after]
    within = math.fsum(r.variance or 0.0 for r in runs) / len(runs)
    # Split the variance of the difference into its sampling and between-run shares.
    share = within / (within + tau2) if within + tau2 > 0 else 1.0
    sampling_df = sum(r.n - 1 for r in runs)
    df = satterthwaite([(variance * share, sampling_df), (variance * (1 - share), q_df)])
    return LevelDifference(
        mean_b, mean_a, mean_a - mean_b, math.sqrt(variance), df, tau2, within, True, log_scale
    )


def between_variance(segments: Sequence[Sequence[RunLevel]]) -> tuple[float, int]:
    """(τ², degrees of freedom of Q): DerSimonian–Laird, pooled within segments."""
    q, df, scale = 0.0, 0, 0.0
    for segment in segments:
        weights = [1 / r.variance if r.variance else math.inf for r in segment]
        if len(segment) < 2 or any(math.isinf(w) for w in weights):
            df += max(0, len(segment) - 1)
            continue
        total = math.fsum(weights)
        mean = math.fsum(w * r.level for w, r in zip(weights, segment, strict=True)) / total
        q += math.fsum(w * (r.level - mean) ** 2 for w, r in zip(weights, segment, strict=True))
        df += len(segment) - 1
        scale += total - math.fsum(w * w for w in weights) / total
    if df == 0 or scale <= 0:
        return 0.0, df
    return max(0.0, (q - df) / scale), df


def _weighted(segment: Sequence[RunLevel], tau2: float) -> tuple[float, float]:
    """Inverse-variance weighted mean of a segment's levels and its variance."""
    variances = [(r.variance or 0.0) + tau2 for r in segment]
    if any(v <= 0 for v in variances):  # exact levels: their plain mean, no error
        return math.fsum(r.level for r in segment) / len(segment), 0.0
    weights = [1 / v for v in variances]
    total = math.fsum(weights)
    mean = math.fsum(w * r.level for w, r in zip(weights, segment, strict=True)) / total
    return mean, 1 / total


def satterthwaite(parts: Sequence[tuple[float, float]]) -> float:
    """Welch–Satterthwaite degrees of freedom of a sum of variances, each `(variance, df)`."""
    total = math.fsum(variance for variance, _ in parts)
    spread = math.fsum(variance**2 / df for variance, df in parts if df > 0 and variance > 0)
    return total**2 / spread if spread > 0 else max(1.0, max(df for _, df in parts))
