"""Is a contender run's result a regression against its baseline? One pure function.

`judge_against_baseline` is the one seam every baseline verdict goes through (the
baseline comparison, hence the CI gate). It takes the baseline branch's recent history
of the series (oldest first, ending with the baseline run) and the contender's result.

Method (a two-level noise model, estimated from the baseline branch's history)
-----------------------------------------------------------------------------
A run's level is the mean of its replicates (``samples``, else ``stats`` n/mean/stddev),
else its ``value``. A level varies for two reasons: sampling within the run (its squared
standard error ``s²/n``) and conditions that change from run to run (variance ``τ²``).

- **With replicates on both sides**, the difference of levels has variance
  ``se_b² + se_c² + 2τ²``. ``τ²`` is estimated by the method of moments from the history's
  runs with replicates: the mean squared successive difference of their levels halved
  (von Neumann; a single step in the history inflates it far less than the plain
  variance would) minus their mean ``se²``, floored at zero. Three such runs are needed;
  with fewer, ``τ²`` is taken as zero and the basis says so. Degrees of freedom by
  Welch-Satterthwaite over the three parts.
- **Without replicates** (on either side), the history's run levels carry all the noise:
  the difference of two levels has variance ``2σ²`` with ``σ²`` the halved mean squared
  successive difference of at least three history runs, ``k - 1`` degrees of freedom.
- **With neither**, there is no noise to judge against: ``unchanged``, and the basis
  says why (not judged).

A change is a regression or an improvement when the two-sided Student t p-value is below
``SIGNIFICANCE`` and the level moved by at least ``MIN_RELATIVE_CHANGE``: the same
significance and minimum change as change detection (regressions.detect). The interval is
the ``1 - SIGNIFICANCE`` interval of the relative change, so it excludes zero exactly
when the change is significant.
"""

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean

from scipy import stats as scipy_stats

from benchboard.regressions.detect import Observation
from benchboard.vocabulary import BaselineVerdict, VerdictBasisMethod

SIGNIFICANCE = 0.01
MIN_RELATIVE_CHANGE = 0.02
MIN_HISTORY_RUNS = 3


@dataclass(frozen=True)
class Basis:
    """What a verdict rests on, for readers: the method and the evidence behind it."""

    method: VerdictBasisMethod
    history_runs: int
    baseline_samples: int
    contender_samples: int
    run_to_run_cv: float | None
    p_value: float | None
    text: str


@dataclass(frozen=True)
class Judgement:
    verdict: BaselineVerdict
    relative_change: float | None
    interval: tuple[float, float] | None
    basis: Basis


@dataclass(frozen=True)
class _Level:
    mean: float
    n: int  # replicates behind the mean; 1 without them
    se2: float | None  # squared standard error of the mean; None without replicates


def _level(observation: Observation) -> _Level:
    samples = observation.samples
    if len(samples) >= 2:
        mean = fmean(samples)
        variance = math.fsum((x - mean) ** 2 for x in samples) / (len(samples) - 1)
        return _Level(mean, len(samples), variance / len(samples))
    stats = observation.stats or {}
    n, stddev = stats.get("n", 0), stats.get("stddev")
    centre = stats.get("mean", stats.get("median"))
    if n >= 2 and stddev is not None and centre is not None:
        return _Level(centre, int(n), stddev**2 / n)
    return _Level(observation.value, 1, None)


def _half_mssd(values: Sequence[float]) -> float:
    """Half the mean squared successive difference: the variance, robust to a step."""
    return fmean((b - a) ** 2 for a, b in itertools.pairwise(values)) / 2


def judge_against_baseline(
    history: Sequence[Observation], contender: Observation, *, higher_is_better: bool
) -> Judgement:
    """Judge `contender` against the last run of `history` (the baseline run)."""
    levels = [_level(observation) for observation in history]
    baseline, latest = levels[-1], _level(contender)
    change = (latest.mean - baseline.mean) / abs(baseline.mean) if baseline.mean else None
    noise = _noise(levels, baseline, latest)
    if noise is None or change is None:
        return Judgement("unchanged", change, None, _not_judged(levels, baseline, latest))
    variance, df, method, run_to_run_cv, caveat = noise
    difference = latest.mean - baseline.mean
    if variance > 0:
        p_value = float(2 * scipy_stats.t.sf(abs(difference) / math.sqrt(variance), df))
        half = float(scipy_stats.t.ppf(1 - SIGNIFICANCE / 2, df)) * math.sqrt(variance)
    else:
        p_value, half = (0.0 if difference else 1.0), 0.0
    interval = ((difference - half) / abs(baseline.mean), (difference + half) / abs(baseline.mean))
    verdict: BaselineVerdict = "unchanged"
    if p_value < SIGNIFICANCE and abs(change) >= MIN_RELATIVE_CHANGE:
        worse = change < 0 if higher_is_better else change > 0
        verdict = "regression" if worse else "improvement"
    basis = Basis(
        method=method,
        history_runs=len(levels),
        baseline_samples=baseline.n,
        contender_samples=latest.n,
        run_to_run_cv=run_to_run_cv,
        p_value=p_value,
        text=_basis_text(method, len(levels), baseline, latest, run_to_run_cv, p_value) + caveat,
    )
    return Judgement(verdict, change, interval, basis)


_Noise = tuple[float, float, VerdictBasisMethod, float | None, str]


def _noise(levels: list[_Level], baseline: _Level, latest: _Level) -> _Noise | None:
    """(variance of the difference, degrees of freedom, method, run-to-run CV, caveat)."""
    if baseline.se2 is not None and latest.se2 is not None:
        replicated = [level for level in levels if level.se2 is not None]
        parts = [(baseline.se2, baseline.n - 1), (latest.se2, latest.n - 1)]
        caveat = ""
        if len(replicated) >= MIN_HISTORY_RUNS:
            within = fmean(level.se2 for level in replicated if level.se2 is not None)
            between = max(0.0, _half_mssd([level.mean for level in replicated]) - within)
            parts.append((2 * between, len(replicated) - 1))
        else:
            between = None
            caveat = (
                f"; run-to-run noise not estimated ({len(replicated)} of "
                f"{MIN_HISTORY_RUNS} runs needed), so certainty may be overstated"
            )
        variance = sum(part for part, _ in parts)
        df = _satterthwaite(parts)
        return variance, df, "replicates", _cv(between, baseline.mean), caveat
    if len(levels) >= MIN_HISTORY_RUNS:
        sigma2 = _half_mssd([level.mean for level in levels])
        return 2 * sigma2, len(levels) - 1, "history", _cv(sigma2, baseline.mean), ""
    return None


def _cv(variance: float | None, mean: float) -> float | None:
    return math.sqrt(variance) / abs(mean) if variance is not None and mean else None


def _satterthwaite(parts: list[tuple[float, int]]) -> float:
    total = sum(variance for variance, _ in parts)
    spread = sum(variance**2 / df for variance, df in parts if df > 0 and variance > 0)
    return total**2 / spread if spread > 0 else max(1.0, sum(df for _, df in parts))


def _basis_text(
    method: VerdictBasisMethod,
    runs: int,
    baseline: _Level,
    latest: _Level,
    run_to_run_cv: float | None,
    p_value: float,
) -> str:
    p_text = "p < 0.001" if p_value < 0.001 else f"p = {p_value:.2g}"
    noise = f"{run_to_run_cv:.1%}" if run_to_run_cv is not None else "n/a"
    if method == "replicates":
        return (
            f"{baseline.n} vs {latest.n} samples, run-to-run noise {noise} from "
            f"{runs} baseline-branch runs; t-test {p_text}"
        )
    return f"single values; run-to-run noise {noise} from {runs} baseline-branch runs; {p_text}"


def _not_judged(levels: list[_Level], baseline: _Level, latest: _Level) -> Basis:
    if not baseline.mean:
        text = "not judged: the baseline value is zero, so no relative change"
    else:
        text = (
            f"not judged: no replicates and {len(levels)} baseline-branch run(s); "
            f"{MIN_HISTORY_RUNS} are needed to estimate the noise"
        )
    return Basis("none", len(levels), baseline.n, latest.n, None, None, text)
