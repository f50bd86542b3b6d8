"""Seeded binary segmentation of run levels on ranks (the method is in detect.py)."""

import itertools
import math
from statistics import median

from benchboard.regressions.ranks import RankSums, rank_p_value

# How far the least-absolute-deviations fit may move a split found by ranks.
_LOCATE_RADIUS = 6


def relative(before: float, after: float) -> float:
    """(after - before) / |before|; infinite from a zero level."""
    if before == 0.0:
        return 0.0 if after == 0.0 else math.copysign(math.inf, after)
    return (after - before) / abs(before)


def _seeded_intervals(size: int, min_runs: int) -> list[tuple[int, int, int]]:
    """(start, stop, windows of that length): the series plus windows of 16, 32 ... runs.

    Windows overlap by half and are anchored at the first run, so they stay put
    as runs arrive; short windows find a step that is reverted soon after.
    """
    intervals = [(0, size, 1)]
    length = 16
    while length < size:
        starts = range(0, size - 2 * min_runs, length // 2)
        intervals.extend((start, min(start + length, size), len(starts)) for start in starts)
        length *= 2
    return intervals


class Segmenter:
    """One detection pass over the run levels; caches per (start, stop) slice."""

    def __init__(
        self, levels: list[float], min_relative_change: float, significance: float, min_runs: int
    ) -> None:
        self.levels = levels
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
        tried = max(1, stop - start - 2 * self.min_runs + 1)
        return min(1.0, rank_p_value(self.ranks(start, stop), split - start) * tried)

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
        """Seeded binary segmentation: keep adding the strongest split that holds."""
        found: list[int] = []
        seeds = _seeded_intervals(len(self.levels), self.min_runs)
        cache: dict[tuple[int, int], tuple[float, int] | None] = {}
        while True:
            bounds = [0, *sorted(found), len(self.levels)]
            segments = [(a, b, 1) for a, b in itertools.pairwise(bounds)]
            usable = [seed for seed in seeds if not any(seed[0] < p < seed[1] for p in found)]
            best: tuple[float, int] | None = None
            for start, stop, windows in segments + usable:
                if (start, stop) not in cache:
                    cache[(start, stop)] = self._interval_split(start, stop, windows)
                candidate = cache[(start, stop)]
                if candidate is not None and candidate[1] not in found:
                    best = candidate if best is None else min(best, candidate)
            if best is None:
                return sorted(found)
            found.append(best[1])

    def _interval_split(self, start: int, stop: int, windows: int) -> tuple[float, int] | None:
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
        z_by_split = dict(zip(range(low, high + 1), sums.abs_z(low, high), strict=True))
        best = max(z_by_split, key=z_by_split.__getitem__)
        # z underrates splits with a short side; let those compete on exact p-values.
        short = [s for s, z in z_by_split.items() if min(s, size - s) <= 8 and z >= 2.5]
        if not short:
            return start + best
        return start + min([best, *short], key=lambda s: (rank_p_value(sums, s), -z_by_split[s]))

    def _locate(self, start: int, stop: int, guess: int) -> int:
        """Move a split to where two medians fit best (least absolute deviations).

        Rank statistics peak at balanced splits rather than at the change, so
        they tell that there is a change better than where it is.
        """
        low = max(start + self.min_runs, guess - _LOCATE_RADIUS)
        high = min(stop - self.min_runs, guess + _LOCATE_RADIUS)
        return min(
            range(low, high + 1), key=lambda s: (self._fit(start, s) + self._fit(s, stop), s)
        )

    def _fit(self, start: int, stop: int) -> float:
        centre = self.median(start, stop)
        return sum(abs(value - centre) for value in self.levels[start:stop])

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
