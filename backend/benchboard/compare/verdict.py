"""Is a contender run's result a regression against its baseline? One pure function.

`judge_against_baseline` is the one seam every baseline verdict goes through (the
baseline comparison, hence the CI gate). It takes the baseline branch's recent history
of the series (oldest first, ending with the baseline run) and the contender's result.

Method: the two-level noise model of change detection (stats.noise)
------------------------------------------------------------------
A run's level and its sampling variance come from ``stats.noise.run_level`` (the median
of its replicates with a robust standard error, else ``stats``, else its ``value``). The
history is cut where change detection finds a change (``detection.detect``), so a
step in it does not pass for noise; the noise is estimated within those segments. Where
every level (history and contender) is positive, the levels and their variances are
taken to the log scale first, as ``stats.noise`` does for detection (its docstring,
Scale): below, levels are then logarithms, variances squared CVs, and the interval of the
relative change is multiplicative. Otherwise (a zero or negative level) the same test
runs on the unit's scale.

- **With replicates on both sides**, the difference of levels has variance
  ``v_b + v_c + 2τ²``; ``τ²``, the run-to-run variance, is the DerSimonian–Laird
  estimate pooled over the segments of the history's runs with replicates (as detection
  estimates it). Three such runs are needed; with fewer, ``τ²`` is taken as zero and the
  basis says so. Degrees of freedom by Welch–Satterthwaite over the three parts.
- **Without replicates** (on either side), the history's run levels carry all the noise:
  the difference of two levels has variance ``2σ²``, ``σ²`` the variance of levels
  pooled within segments (at least three runs, one degree of freedom left).
- **With neither**, there is no noise to judge against: ``unchanged``, and the basis
  says why (not judged).

Compare runs (compare.service) judges a pair of runs with this same function, over the
baseline run's series history, so the two views cannot disagree about one pair.

A change is a regression or an improvement when the two-sided Student t p-value (the
test of ``stats.noise.LevelDifference``, which change detection uses too) is below
``SIGNIFICANCE`` and the level moved by at least ``MIN_RELATIVE_CHANGE``: the same
significance and minimum change as change detection (detection.detect). The interval is
the ``1 - SIGNIFICANCE`` interval of the relative change, so it excludes zero exactly
when the change is significant.
"""

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from benchboard.detection.detect import Observation, detect_changes
from benchboard.detection.thresholds import MIN_HISTORY_RUNS, MIN_RELATIVE_CHANGE, SIGNIFICANCE
from benchboard.stats.noise import (
    LevelDifference,
    RunLevel,
    between_variance,
    in_unit,
    on_log_scale,
    run_level,
    satterthwaite,
)
from benchboard.vocabulary import BaselineVerdict, VerdictBasisMethod


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
    """The verdict, and the relative change of the two levels it compared."""

    verdict: BaselineVerdict
    relative_change: float | None
    interval: tuple[float, float] | None
    basis: Basis
    baseline: RunLevel
    contender: RunLevel


def _level(observation: Observation) -> RunLevel:
    return run_level(observation.value, observation.samples, observation.stats)


def judge_against_baseline(
    history: Sequence[Observation], contender: Observation, *, higher_is_better: bool
) -> Judgement:
    """Judge `contender` against the last run of `history` (the baseline run)."""
    levels = [_level(observation) for observation in history]
    baseline, latest = levels[-1], _level(contender)
    change = (latest.level - baseline.level) / abs(baseline.level) if baseline.level else None
    noise = _noise(_segments(history, levels, higher_is_better), latest)
    if noise is None or change is None:
        basis = _not_judged(levels, baseline, latest)
        return Judgement("unchanged", change, None, basis, baseline, latest)
    difference, method, run_to_run_cv, caveat = noise
    p_value = difference.p_value()
    interval = difference.relative_interval(1 - SIGNIFICANCE, change=change, before=baseline.level)
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
    return Judgement(verdict, change, interval, basis, baseline, latest)


_Noise = tuple[LevelDifference, VerdictBasisMethod, float | None, str]


def _segments(
    history: Sequence[Observation], levels: list[RunLevel], higher_is_better: bool
) -> list[list[RunLevel]]:
    """The history's levels cut where change detection finds a change."""
    cuts = [c.index for c in detect_changes(history, higher_is_better=higher_is_better)]
    bounds = [0, *cuts, len(levels)]
    return [levels[a:b] for a, b in itertools.pairwise(bounds)]


def _noise(segments: list[list[RunLevel]], latest: RunLevel) -> _Noise | None:
    """(the difference of the baseline's level, the last of `segments`, and `latest`'s,
    with its noise; method; run-to-run CV; caveat), judged on the log scale where every
    level is positive (stats.noise, Scale), else on the unit's."""
    scaled = on_log_scale([*itertools.chain.from_iterable(segments), latest])
    if scaled is None:
        return _noise_on(segments, latest, log_scale=False)
    runs = iter(scaled)
    found = _noise_on([[next(runs) for _ in s] for s in segments], next(runs), log_scale=True)
    if found is None:
        return None
    difference, method, run_to_run_cv, caveat = found
    return in_unit(difference), method, run_to_run_cv, caveat


def _noise_on(
    segments: list[list[RunLevel]], latest: RunLevel, *, log_scale: bool
) -> _Noise | None:
    baseline = segments[-1][-1]
    if baseline.variance is not None and latest.variance is not None:
        replicated = [[r for r in segment if r.variance is not None] for segment in segments]
        runs = sum(len(segment) for segment in replicated)
        parts = [(baseline.variance, baseline.n - 1), (latest.variance, latest.n - 1)]
        caveat = ""
        between: float | None = None
        if runs >= MIN_HISTORY_RUNS:
            between, df = between_variance(replicated)
            parts.append((2 * between, df))
        else:
            caveat = (
                f"; run-to-run noise not estimated ({runs} of "
                f"{MIN_HISTORY_RUNS} runs needed), so certainty may be overstated"
            )
        variance = sum(part for part, _ in parts)
        within = (baseline.variance + latest.variance) / 2
        difference = _difference(
            baseline, latest, variance, satterthwaite(parts), between or 0.0, within, log_scale
        )
        cv = None if between is None else _cv(difference, between)
        return difference, "replicates", cv, caveat
    runs = sum(len(segment) for segment in segments)
    df = runs - len(segments)
    if runs >= MIN_HISTORY_RUNS and df >= 1:
        squares = 0.0
        for segment in segments:
            centre = math.fsum(r.level for r in segment) / len(segment)
            squares += math.fsum((r.level - centre) ** 2 for r in segment)
        sigma2 = squares / df
        difference = _difference(baseline, latest, 2 * sigma2, df, sigma2, None, log_scale)
        return difference, "history", _cv(difference, sigma2), ""
    return None


def _difference(
    baseline: RunLevel,
    latest: RunLevel,
    variance: float,
    df: float,
    between: float,
    within: float | None,
    log_scale: bool,
) -> LevelDifference:
    """``latest - baseline``, its variance being `variance`: stats.noise's t-test judges it."""
    return LevelDifference(
        before=baseline.level,
        after=latest.level,
        difference=latest.level - baseline.level,
        standard_error=math.sqrt(variance),
        df=df,
        between_variance=between,
        within_variance=within,
        replicates_used=within is not None,
        log_scale=log_scale,
    )


def _cv(difference: LevelDifference, variance: float) -> float | None:
    """A run-to-run variance of the test's scale as a CV of the baseline's level (None at
    a zero level)."""
    if difference.log_scale or difference.before:
        return difference.relative_sd(variance, before=difference.before)
    return None


def _basis_text(
    method: VerdictBasisMethod,
    runs: int,
    baseline: RunLevel,
    latest: RunLevel,
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


def _not_judged(levels: list[RunLevel], baseline: RunLevel, latest: RunLevel) -> Basis:
    if not baseline.level:
        text = "not judged: the baseline value is zero, so no relative change"
    else:
        text = (
            f"not judged: no replicates and {len(levels)} baseline-branch run(s); "
            f"{MIN_HISTORY_RUNS} are needed to estimate the noise"
        )
    return Basis("none", len(levels), baseline.n, latest.n, None, None, text)
