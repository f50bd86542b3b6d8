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

A possible step: while the level is short, its newest runs may differ from the earlier
ones where one side has fewer runs than detection needs (3 before a change and 2 after;
2 and 1 with replicates). It is a split of those whose difference holds by the same
noise model (``stats.noise.compare_levels``: Student's t on run levels, the two-level
model with replicates) at the detector's ``SIGNIFICANCE``, Bonferroni-adjusted for the
splits tried, and moves the level by at least the minimum change. Of flat series of
3-15 runs, 0.5 % show one at 1 % noise, 1 % at 5 % noise, 1.6 % with 20 replicates and
1 % run-to-run noise (seeded trials, 2,000 and 500 series). Detection cannot judge it,
so the state says so (not enough history) and estimates the noise on the runs before it,
not on a level the step inflates. Too few runs after it: the next runs decide. Too few
before it: later runs only add after it, so detection will not report that step.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean, median

from scipy import stats as scipy_stats

from benchboard.detection.detect import Observation, Runs, detect_changes
from benchboard.detection.segmentation import relative
from benchboard.detection.thresholds import (
    MIN_RELATIVE_CHANGE,
    NOISE_GUARD,
    RANK_RUNS_AFTER,
    REPLICATE_SIDES,
    SHORT_SEGMENT,
    SHORT_SIGNIFICANCE,
    SIGNIFICANCE,
    VALUE_ONLY_SIDES,
)
from benchboard.stats.noise import (
    RunLevel,
    between_variance,
    compare_levels,
    critical_t,
    sample_variance,
)
from benchboard.vocabulary import DetectionReadiness


@dataclass(frozen=True)
class PossibleStep:
    """Newest runs apart from the earlier ones, with too few runs on one side to judge."""

    index: int  # of its first run, in the runs analysed
    key: str
    relative_change: float
    runs_before: int
    runs_after: int
    more_runs_before: int  # that detection would need before it: they cannot come
    more_runs_after: int


@dataclass(frozen=True)
class DetectionState:
    readiness: DetectionReadiness
    runs_analysed: int
    runs_at_level: int  # since the last change found, or the start
    replicates: bool
    within_run_cv: float | None
    run_to_run_cv: float | None
    smallest_detectable_change: float | None
    runs_needed: int  # more runs: for a baseline at the current level, or around possible_step
    runs_after_change: int  # runs after a step before it is reported
    possible_step: PossibleStep | None
    text: str

    @property
    def too_short_for_a_change(self) -> bool:
        """No change can show yet: detection cannot judge now, or the runs analysed are
        fewer than a change needs before and after it (an empty list of changes says so)."""
        return self.readiness == "not_enough_history" or self.runs_analysed < runs_for_a_change(
            replicates=self.replicates
        )


def has_replicates(levels: Sequence[RunLevel]) -> bool:
    """Every run has its sampling error: detection's shorter sides apply."""
    return bool(levels) and all(level.variance is not None for level in levels)


def runs_for_a_change(*, replicates: bool) -> int:
    """Runs before and after a change together: with fewer, detection reports none."""
    return sum(REPLICATE_SIDES if replicates else VALUE_ONLY_SIDES)


def too_short_for_a_change(history: Runs, *, higher_is_better: bool, changed: bool) -> bool:
    """``detection_state(history).too_short_for_a_change``, cheaply for a list of series:
    without running detection when ``changed`` is False (the caller knows detection finds
    no change in ``history``: none is stored), or when there are too few runs for any."""
    replicates = has_replicates(history.levels())
    if len(history) < runs_for_a_change(replicates=replicates):
        return True
    if changed:
        return detection_state(history, higher_is_better=higher_is_better).too_short_for_a_change
    # No change: the level is the whole history, long enough for a baseline.
    sides = REPLICATE_SIDES if replicates else VALUE_ONLY_SIDES
    return _possible_step(history, 0, sides) is not None


def detection_state(
    observations: Sequence[Observation] | Runs, *, higher_is_better: bool
) -> DetectionState:
    history = Runs.of(observations)
    changes = detect_changes(history, higher_is_better=higher_is_better)
    start = changes[-1].index if changes else 0
    levels = history.levels(start)
    replicated = has_replicates(levels)
    sides = REPLICATE_SIDES if replicated else VALUE_ONLY_SIDES
    step = _possible_step(history, start, sides)
    baseline = levels[: step.index - start] if step else levels  # the step would inflate noise
    centre = abs(median(level.level for level in baseline)) if baseline else 0.0
    within, between = _noise(baseline, replicated)
    runs_needed = max(0, sides[0] - len(levels))
    if step:
        runs_needed = step.more_runs_before + step.more_runs_after
    smallest = None
    if runs_needed == 0 and centre > 0 and between is not None:
        smallest = _smallest_change(levels, within, between, sides[1]) / centre
    state = DetectionState(
        readiness="not_enough_history" if runs_needed else "ready",
        runs_analysed=len(history),
        runs_at_level=len(levels),
        replicates=replicated,
        within_run_cv=math.sqrt(within) / centre if within is not None and centre else None,
        run_to_run_cv=math.sqrt(between) / centre if between is not None and centre else None,
        smallest_detectable_change=smallest,
        runs_needed=runs_needed,
        runs_after_change=sides[1] if len(levels) < SHORT_SEGMENT else RANK_RUNS_AFTER,
        possible_step=step,
        text="",
    )
    return DetectionState(**{**vars(state), "text": describe(state, since_change=bool(changes))})


def _possible_step(history: Runs, start: int, sides: tuple[int, int]) -> PossibleStep | None:
    """The largest possible step (module docstring) in the level from ``start`` on."""
    levels = history.levels(start)
    runs = len(levels)
    if runs >= SHORT_SEGMENT:  # ranks judge a long level, three runs after a change
        return None
    before_needed, after_needed = sides
    splits = [
        split
        for split in range(1, runs)
        if split < before_needed or runs - split < after_needed  # detection judged the rest
    ]
    best: PossibleStep | None = None
    for split in splits:
        difference = compare_levels(levels[:split], levels[split:])
        if difference is None:
            continue
        change = relative(difference.before, difference.after)
        if (
            MIN_RELATIVE_CHANGE <= abs(change) < math.inf
            and abs(difference.t) >= critical_t(SIGNIFICANCE / len(splits), difference.df)
            and (best is None or abs(change) > abs(best.relative_change))
        ):
            best = PossibleStep(
                index=start + split,
                key=history.keys[start + split],
                relative_change=change,
                runs_before=split,
                runs_after=runs - split,
                more_runs_before=max(0, before_needed - split),
                more_runs_after=max(0, after_needed - (runs - split)),
            )
    return best


def _noise(levels: list[RunLevel], replicated: bool) -> tuple[float | None, float | None]:
    """(mean sampling variance of a level, run-to-run variance) on the current level."""
    if replicated:
        within = fmean(level.variance or 0.0 for level in levels)
        between = between_variance([levels])[0] if len(levels) >= 2 else None
        return within, between
    if len(levels) >= 2:
        return None, sample_variance([level.level for level in levels])
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


def _runs(count: int) -> str:
    return f"{count} run{'s' if count != 1 else ''}"


def _more_runs(count: int) -> str:
    return f"{count} more run{'s' if count != 1 else ''}"


def describe(state: DetectionState, *, since_change: bool) -> str:
    """The state in words, for the History and Regressions pages."""
    since = "since the last change" if since_change else "so far"
    sides = (
        "2 runs before a change and 1 after (provisional until a second confirms it)"
        if state.replicates
        else "3 runs before a change and 2 after"
    )
    if state.possible_step is not None:
        return _describe_step(state.possible_step, state.runs_analysed, sides)
    if state.readiness == "not_enough_history":
        return (
            f"Not enough history: {_more_runs(state.runs_needed)} needed for a baseline "
            f"({state.runs_at_level} {since}); detection needs {sides}."
        )
    noise = []
    if state.run_to_run_cv is not None:
        noise.append(f"run-to-run noise {_percent(state.run_to_run_cv)}")
    if state.within_run_cv is not None:
        noise.append(f"within a run ±{_percent(state.within_run_cv)} (replicates)")
    smallest = (
        f" A change of about {_percent(state.smallest_detectable_change)} or more would be "
        f"reported {_runs(state.runs_after_change)} after it."
        if state.smallest_detectable_change is not None
        else ""
    )
    return (
        f"Change detection analyses {state.runs_analysed} runs ({state.runs_at_level} at the "
        f"current level {since}); {', '.join(noise) or 'noise not estimated yet'}.{smallest}"
    )


def _describe_step(step: PossibleStep, runs_analysed: int, sides: str) -> str:
    change = f"{step.relative_change:+.1%}"
    where = f"possible step at run {step.index + 1} of {runs_analysed} ({change})"
    if step.more_runs_before:
        return (
            f"Not enough history to judge a {where}: it has {_runs(step.runs_before)} before "
            f"it and needs {_more_runs(step.more_runs_before)} before it to judge (detection needs "
            f"{sides}). Later runs only add after it, so this step will not be reported."
        )
    return (
        f"Not enough history to judge a {where} yet: it needs "
        f"{_more_runs(step.more_runs_after)} after it to judge (detection needs {sides})."
    )
