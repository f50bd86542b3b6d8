"""Seeded binary segmentation of run levels on ranks (the method is in detect.py)."""

import itertools
import math
from functools import lru_cache
from statistics import median

import numpy as np
from numpy.typing import NDArray

from benchboard.detection.ranks import RankSums, adjusted, rank_p_value, splits_tried
from benchboard.detection.screen import window_bounds

# How far the least-absolute-deviations fit may move a split found by ranks.
_LOCATE_RADIUS = 6


def relative(before: float, after: float) -> float:
    """(after - before) / |before|; infinite from a zero level."""
    if before == 0.0:
        return 0.0 if after == 0.0 else math.copysign(math.inf, after)
    return (after - before) / abs(before)


@lru_cache(maxsize=1024)
def _seeded_intervals(size: int, min_runs: int) -> tuple[tuple[int, int], ...]:
    """(start, stop) of the series and of its windows of 16, 32 ... runs.

    Windows overlap by half and are anchored at the first run, so they stay put
    as runs arrive; short windows find a step that is reverted soon after.
    """
    intervals = [(0, size)]
    length = 16
    while length < size:
        starts = range(0, size - 2 * min_runs, length // 2)
        intervals.extend((start, min(start + length, size)) for start in starts)
        length *= 2
    return tuple(intervals)


class Segmenter:
    """One detection pass over the run levels; caches per (start, stop) slice."""

    def __init__(
        self, levels: list[float], min_relative_change: float, significance: float, min_runs: int
    ) -> None:
        self.levels = levels
        self.array = np.asarray(levels, dtype=np.float64)
        self.min_relative_change = min_relative_change
        self.significance = significance
        self.min_runs = min_runs
        self._ranks: dict[tuple[int, int], RankSums] = {}
        self._medians: dict[tuple[int, int], float] = {}

    def median(self, start: int, stop: int) -> float:
        if (start, stop) not in self._medians:
            self._medians[(start, stop)] = float(median(self.levels[start:stop]))
        return self._medians[(start, stop)]

    def ranks(self, start: int, stop: int) -> RankSums:
        if (start, stop) not in self._ranks:
            self._ranks[(start, stop)] = RankSums.of(self.levels[start:stop])
        return self._ranks[(start, stop)]

    def p_value(self, start: int, split: int, stop: int) -> float:
        """Two-sided rank-test p-value, Bonferroni-adjusted for the splits tried."""
        tried = splits_tried(stop - start, self.min_runs)
        return adjusted(rank_p_value(self.ranks(start, stop), split - start), tried)

    def large_enough(self, start: int, split: int, stop: int) -> bool:
        change = relative(self.median(start, split), self.median(split, stop))
        return abs(change) >= self.min_relative_change

    def holds(self, start: int, split: int, stop: int) -> bool:
        """Whether the split is both significant and large enough to matter."""
        if min(split - start, stop - split) < self.min_runs:
            return False
        if not self.large_enough(start, split, stop):
            return False
        return self.p_value(start, split, stop) <= self.significance

    def search(self) -> list[int]:
        """Seeded binary segmentation: keep adding the strongest split that holds.

        Windows where no split can hold (``screen.py``) are known to have none, and the
        others are tried in the order of the lowest p-value they could give, until none
        left could beat the best split found so far."""
        found: list[int] = []
        seeds = _seeded_intervals(len(self.levels), self.min_runs)
        bounds = window_bounds(
            self.levels, seeds, min_runs=self.min_runs, significance=self.significance
        )
        lowest = dict(zip(seeds, bounds, strict=True))
        if min(bounds) == math.inf:
            return found
        cache: dict[tuple[int, int], tuple[float, int] | None] = {
            seed: None for seed, bound in lowest.items() if bound == math.inf
        }
        while True:
            cuts = [0, *sorted(found), len(self.levels)]
            segments = list(itertools.pairwise(cuts))
            usable = [seed for seed in seeds if not any(seed[0] < p < seed[1] for p in found)]
            best: tuple[float, int] | None = None
            for start, stop in sorted(segments + usable, key=lambda i: lowest.get(i, 0.0)):
                if best is not None and lowest.get((start, stop), 0.0) > best[0]:
                    break  # neither this interval nor any after it can do better
                if (start, stop) not in cache:
                    cache[(start, stop)] = self._interval_split(start, stop)
                candidate = cache[(start, stop)]
                if candidate is not None and candidate[1] not in found:
                    best = candidate if best is None else min(best, candidate)
            if best is None:
                return sorted(found)
            found.append(best[1])

    def _interval_split(self, start: int, stop: int) -> tuple[float, int] | None:
        """(adjusted p-value, split) of the interval's best split, if it holds."""
        guess = self._best_split(start, stop)
        if guess is None or self.p_value(start, guess, stop) > self.significance:
            return None
        split = self._locate(start, stop, guess)
        p_value = self.p_value(start, split, stop)
        if p_value > self.significance or not self.large_enough(start, split, stop):
            return None
        return p_value, split

    def _best_split(self, start: int, stop: int) -> int | None:
        """The split with the smallest rank-test p-value, or None if too short."""
        size = stop - start
        if size < 2 * self.min_runs:
            return None
        sums = self.ranks(start, stop)
        low, high = self.min_runs, size - self.min_runs
        z = sums.abs_z(low, high)
        best = low + int(np.argmax(z))  # the first of equals, as max() would
        # z underrates splits with a short side; let those compete on exact p-values.
        splits = np.arange(low, high + 1)
        short: list[int] = splits[(np.minimum(splits, size - splits) <= 8) & (z >= 2.5)].tolist()
        if not short:
            return start + best
        return start + min(
            [best, *short], key=lambda s: (rank_p_value(sums, s), -float(z[s - low]))
        )

    def _locate(self, start: int, stop: int, guess: int) -> int:
        """Move a split to where two medians fit best (least absolute deviations).

        Rank statistics peak at balanced splits rather than at the change, so
        they tell that there is a change better than where it is.
        """
        low = max(start + self.min_runs, guess - _LOCATE_RADIUS)
        high = min(stop - self.min_runs, guess + _LOCATE_RADIUS)
        fits = self._fits(start, stop, np.arange(low, high + 1))
        return low + int(np.argmin(fits))  # the first of equals: the smallest split

    def _fits(self, start: int, stop: int, splits: NDArray[np.int64]) -> NDArray[np.float64]:
        """For each split, the absolute deviations of ``start:stop`` from the median of
        its side, summed one after the other as ``sum()`` does (zeros elsewhere change
        no partial sum), so fits that tie in Python tie here too."""
        segment = self.array[start:stop]
        before = np.arange(start, stop)[None, :] < splits[:, None]
        fits = np.zeros(len(splits))
        for side in (before, ~before):
            members = np.where(side, segment, np.inf)
            ordered = np.sort(members, axis=1)
            counts = side.sum(axis=1)
            rows = np.arange(len(splits))
            centre = (ordered[rows, (counts - 1) // 2] + ordered[rows, counts // 2]) / 2
            deviations = np.where(side, np.abs(segment - centre[:, None]), 0.0)
            fits = fits + np.cumsum(deviations, axis=1)[:, -1]
        return fits

    def refine(self, points: list[int]) -> list[int]:
        """Re-place each change between its neighbours; drop the weakest that fails there."""
        points = sorted(points)
        while points:
            bounds = [0, *points, len(self.levels)]
            for i in range(1, len(bounds) - 1):
                bounds[i] = self._locate(bounds[i - 1], bounds[i + 1], bounds[i])
            points = sorted(set(bounds[1:-1]))
            bounds = [0, *points, len(self.levels)]
            failing = [
                (self.p_value(a, b, c), i)
                for i, (a, b, c) in enumerate(zip(bounds, bounds[1:], bounds[2:], strict=False))
                if not self.holds(a, b, c)
            ]
            if not failing:
                return points
            del points[max(failing)[1]]
        return points
