"""What change detection can see in a series now (GET /api/v1/series/{id}/detection).

Pure: takes the observations detection analyses (since the last baseline reset) and
says, for readers, how many runs it has, how noisy they are at two levels (within a run,
between runs), how large a step it would report now, and how many more runs it needs.

The noise is estimated on the current level: the runs since the last change detection
finds (a step would inflate it). The smallest detectable change is the step that, shown
by the minimum number of runs after it, would pass the detector's tests and guards:
the two-level t-test of ``short.py`` while the level has fewer than ``SHORT_SEGMENT``
runs, else (about) the rank test's reach with three runs after, by its normal
approximation.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean, median, stdev

from scipy import stats as scipy_stats

from benchboard.regressions.detect import Observation, Runs, detect_changes
from benchboard.regressions.short import (
    NOISE_GUARD,
    REPLICATE_SIDES,
    SHORT_SEGMENT,
    SHORT_SIGNIFICANCE,
    VALUE_ONLY_SIDES,
)
from benchboard.stats.noise import RunLevel, between_variance, critical_t
from benchboard.vocabulary import DetectionReadiness

MIN_RELATIVE_CHANGE = 0.02
SIGNIFICANCE = 0.01
RANK_RUNS_AFTER = 3


@dataclass(frozen=True)
class DetectionState:
    readiness: DetectionReadiness
    runs_analysed: int
    runs_at_level: int  # since the last change found, or the start
    replicates: bool
    within_run_cv: float | None
    run_to_run_cv: float | None
    smallest_detectable_change: float | None
    runs_needed: int  # more runs at the current level for a baseline to judge a change against
    runs_after_change: int  # runs after a step before it is reported
    text: str


def detection_state(
    observations: Sequence[Observation] | Runs, *, higher_is_better: bool
) -> DetectionState:
    history = Runs.of(observations)
    changes = detect_changes(history, higher_is_better=higher_is_better)
    start = changes[-1].index if changes else 0
    levels = history.levels(start)
    replicated = bool(levels) and all(level.variance is not None for level in levels)
    before_needed, after_needed = REPLICATE_SIDES if replicated else VALUE_ONLY_SIDES
    runs = len(levels)
    centre = abs(median(level.level for level in levels)) if levels else 0.0
    within, between = _noise(levels, replicated)
    runs_needed = max(0, before_needed - runs)
    smallest = None
    if runs_needed == 0 and centre > 0 and between is not None:
        smallest = _smallest_change(levels, within, between, after_needed) / centre
    state = DetectionState(
        readiness="not_enough_history" if runs_needed else "ready",
        runs_analysed=len(history),
        runs_at_level=runs,
        replicates=replicated,
        within_run_cv=math.sqrt(within) / centre if within is not None and centre else None,
        run_to_run_cv=math.sqrt(between) / centre if between is not None and centre else None,
        smallest_detectable_change=smallest,
        runs_needed=runs_needed,
        runs_after_change=after_needed if runs < SHORT_SEGMENT else RANK_RUNS_AFTER,
        text="",
    )
    return DetectionState(**{**vars(state), "text": describe(state, since_change=bool(changes))})


def _noise(levels: list[RunLevel], replicated: bool) -> tuple[float | None, float | None]:
    """(mean sampling variance of a level, run-to-run variance) on the current level."""
    if replicated:
        within = fmean(level.variance or 0.0 for level in levels)
        between = between_variance([levels])[0] if len(levels) >= 2 else None
        return within, between
    if len(levels) >= 2:
        return None, stdev(level.level for level in levels) ** 2
    return None, None


def _smallest_change(
    levels: list[RunLevel], within: float | None, between: float, after: int
) -> float:
    runs = len(levels)
    run_variance = between + (within or 0.0)
    floor = MIN_RELATIVE_CHANGE * abs(median(r.level for r in levels))
    if runs >= SHORT_SEGMENT:  # ranks, three runs after: their normal approximation
        tries = runs + RANK_RUNS_AFTER - 2 * RANK_RUNS_AFTER + 1
        z = float(scipy_stats.norm.isf(SIGNIFICANCE / tries / 2))
        return max(floor, z * math.sqrt(run_variance * (1 / runs + 1 / RANK_RUNS_AFTER)))
    minimum_before = REPLICATE_SIDES[0] if within is not None else VALUE_ONLY_SIDES[0]
    tries = max(1, runs - minimum_before + 1)  # the splits short.py tries
    if within is None:
        df = float(runs + after - 2)
    else:
        share = within / run_variance if run_variance > 0 else 1.0
        sampling_df = sum(level.n - 1 for level in levels) * (runs + after) / runs
        between_df = max(1, runs + after - 2)
        df = 1 / (share**2 / max(sampling_df, 1) + (1 - share) ** 2 / between_df)
    standard_error = math.sqrt(run_variance * (1 / runs + 1 / after))
    t = critical_t(SHORT_SIGNIFICANCE * SIGNIFICANCE / tries, df)
    return max(floor, NOISE_GUARD * math.sqrt(run_variance), t * standard_error)


def _percent(value: float) -> str:
    return f"{value:.1%}" if value >= 0.001 else f"{value:.2%}"


def describe(state: DetectionState, *, since_change: bool) -> str:
    """The state in words, for the History and Regressions pages."""
    since = "since the last change" if since_change else "so far"
    sides = (
        "2 runs before a change and 1 after (provisional until a second confirms it)"
        if state.replicates
        else "3 runs before a change and 2 after"
    )
    if state.readiness == "not_enough_history":
        more = f"{state.runs_needed} more run{'s' if state.runs_needed > 1 else ''}"
        return (
            f"Not enough history: {more} needed for a baseline "
            f"({state.runs_at_level} {since}); detection needs {sides}."
        )
    noise = []
    if state.run_to_run_cv is not None:
        noise.append(f"run-to-run noise {_percent(state.run_to_run_cv)}")
    if state.within_run_cv is not None:
        noise.append(f"within a run ±{_percent(state.within_run_cv)} (replicates)")
    smallest = (
        f" A change of about {_percent(state.smallest_detectable_change)} or more would be "
        f"reported {state.runs_after_change} run{'s' if state.runs_after_change > 1 else ''} "
        "after it."
        if state.smallest_detectable_change is not None
        else ""
    )
    return (
        f"Change detection analyses {state.runs_analysed} runs ({state.runs_at_level} at the "
        f"current level {since}); {', '.join(noise) or 'noise not estimated yet'}.{smallest}"
    )
