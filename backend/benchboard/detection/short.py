"""A change at the end of a history too short for ranks: the two-level noise model's t-test.

The rank test cannot reach significance with few runs (3 before and 2 after: its smallest
two-sided p-value is 0.2). Where that is so, the newest segment's splits are judged by
``stats.noise.compare_levels`` instead:

- runs with replicates: the two-level model (sampling within runs plus run-to-run τ²);
  2 runs before and 1 after are enough when the samples leave no doubt. Such a change is
  *provisional* until a second run after it confirms it, and must also be 5x the spread
  of the levels before it (one run after says nothing about run-to-run noise);
- value-only runs: Student's t on run levels, 3 runs before and 2 after.

Guards: a tenth of ``significance`` (``SHORT_SIGNIFICANCE``; Bonferroni-adjusted for the
splits tried), because a t-test on a handful of runs leans on the noise being Gaussian and
is asked again at every new run; ``min_relative_change``; and a step of at least 4 times
the standard deviation of one run's level (``NOISE_GUARD``), so a tight run of a few
values cannot make noise look significant.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

from benchboard.detection.segmentation import relative
from benchboard.detection.thresholds import (
    NOISE_GUARD,
    PROVISIONAL_SPREAD_GUARD,
    REPLICATE_SIDES,
    SHORT_SIGNIFICANCE,
    VALUE_ONLY_SIDES,
)
from benchboard.stats.noise import LevelDifference, RunLevel, compare_levels, critical_t


@dataclass(frozen=True)
class ShortChange:
    split: int
    difference: LevelDifference
    p_value: float  # Bonferroni-adjusted
    provisional: bool


def find_short_change(
    segment: Sequence[RunLevel],
    offset: int,
    *,
    min_relative_change: float,
    significance: float,
) -> ShortChange | None:
    """The strongest split the t-test holds in the newest ``segment`` of a history (runs
    ``offset`` on, fewer than ``SHORT_SEGMENT``: ranks judge longer ones)."""
    replicated = all(level.variance is not None for level in segment)
    min_before, min_after = REPLICATE_SIDES if replicated else VALUE_ONLY_SIDES
    size = len(segment)
    candidates = range(min_before, size - min_after + 1)
    alpha = SHORT_SIGNIFICANCE * significance / max(1, len(candidates))
    best: tuple[float, int, LevelDifference] | None = None
    for split in candidates:
        difference = compare_levels(segment[:split], segment[split:])
        if difference is None or not _large_enough(difference, min_relative_change):
            continue
        if size - split == 1 and not _clear_of_spread(segment[:split], difference):
            continue
        strength = abs(difference.t) / critical_t(alpha, difference.df)
        if strength >= 1.0 and (best is None or strength > best[0]):
            best = (strength, split, difference)
    if best is None:
        return None
    _, split, difference = best
    p_value = min(1.0, difference.p_value() * len(candidates))
    return ShortChange(offset + split, difference, p_value, provisional=size - split < 2)


def _large_enough(difference: LevelDifference, min_relative_change: float) -> bool:
    if abs(relative(difference.before, difference.after)) < min_relative_change:
        return False
    run_variance = difference.between_variance + (difference.within_variance or 0.0)
    return abs(difference.difference) >= NOISE_GUARD * math.sqrt(run_variance)


def _clear_of_spread(before: Sequence[RunLevel], difference: LevelDifference) -> bool:
    spread = max(r.level for r in before) - min(r.level for r in before)
    return abs(difference.after - difference.before) >= PROVISIONAL_SPREAD_GUARD * spread
