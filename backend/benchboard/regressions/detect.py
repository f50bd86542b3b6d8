"""Change detection for one benchmark series: pure, standard library only.

Method: seeded binary segmentation on ranks
-------------------------------------------
Each run becomes one level: the median of its ``samples`` (three or more), else
``stats["median"]``, else ``value`` (so a series should not switch between
runs with and without replicates when mean and median differ much). A split is
judged by the Mann-Whitney rank-sum test between the runs before and after it
(two-sided, tie corrected, exact when one side has at most 12 runs),
Bonferroni-adjusted for the splits tried, and must move the median level by at
least ``min_relative_change``. The search (seeded binary segmentation, Kovacs et
al. 2020) takes the best split of the whole history and of fixed,
half-overlapping windows of 16, 32, 64 ... runs, adds the strongest one that
holds, and repeats between the change points found; the short windows are what
find a step reverted a few runs later. Ranks peak at balanced splits rather
than at the change, so each split is then placed where two medians fit best
(least absolute deviations). A last pass re-tests every change against only the
segments between its neighbours and drops those that no longer hold.

Why: ranks ignore how far an outlier lies, do not care whether noise is skewed,
and see bimodal timings (each run in one of two modes) as one distribution on
both sides, so none of these raises a change alone. Under no change the test is
distribution-free: one ``significance`` is one false-alarm rate for every noise
shape. Exact small-sample p-values let a large step show after 3-4 runs.

``confidence`` is ``1 - p``, ``p`` the adjusted p-value of the rank test between
the two segments adjoining the change: always ``>= 1 - significance``; 0.9999
is one chance in ten thousand that noise alone would split them this cleanly.

A slow linear trend has no single change point; it is reported as a staircase,
a change each time the level has moved significantly by ``min_relative_change``
or more. A drift smaller than that over the analysed history is not reported.

How the service uses it
-----------------------
After every upload, call ``detect_changes`` on the recent history of each
touched series (oldest first; a 100-run history takes about a millisecond),
then ``reconcile_changes`` with the changes already stored for that series. A
fresh change within ``tolerance`` runs of a stored one, same direction, refines
it: the stored change keeps its run (it is stored once, on the first run after
the change) and takes the fresh sizes and confidence. An untriaged stored
change no longer found is retracted; any other fresh change is new. A baseline
reset (a maintainer marks a change ``expected``) is the caller's: pass only the
observations from that change onwards.
"""

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from statistics import median

from benchboard.vocabulary import ChangeDirection

# One side of a split at most this long gets an exact p-value; beyond it the
# normal approximation is accurate enough and much cheaper.
_EXACT_SIDE_LIMIT = 12
# Cap on the tail degree of the exact count, which bounds its cost.
_EXACT_DEGREE_LIMIT = 600
# How far the least-absolute-deviations fit may move a split found by ranks.
_LOCATE_RADIUS = 6


@dataclass(frozen=True)
class Observation:
    """One run's result for the series, in the order the runs happened."""

    key: str
    value: float
    samples: tuple[float, ...] = ()
    stats: Mapping[str, float] | None = None


@dataclass(frozen=True)
class DetectedChange:
    """A change in level between ``index - 1`` and ``index``."""

    index: int
    key: str
    before: float
    after: float
    relative_change: float
    direction: ChangeDirection
    confidence: float


@dataclass(frozen=True)
class StoredChange:
    """A change the service stored earlier; triaged ones are never retracted."""

    key: str
    direction: ChangeDirection
    triaged: bool = False


@dataclass(frozen=True)
class Reconciliation:
    """What to do with the stored changes after one detection pass."""

    new: list[DetectedChange] = field(default_factory=list)
    refined: dict[str, DetectedChange] = field(default_factory=dict)
    retracted: list[str] = field(default_factory=list)


def run_level(observation: Observation) -> float:
    """The robust level of one run: replicate median, else stats median, else value."""
    if len(observation.samples) >= 3:
        return float(median(observation.samples))
    if observation.stats is not None and "median" in observation.stats:
        return float(observation.stats["median"])
    return float(observation.value)


def detect_changes(
    observations: Sequence[Observation],
    *,
    higher_is_better: bool,
    min_relative_change: float = 0.02,
    significance: float = 0.01,
    min_runs: int = 3,
) -> list[DetectedChange]:
    """Find the level changes in a series, oldest observation first.

    ``min_runs`` runs are needed on each side of a change, so a new change can
    first be reported ``min_runs`` runs after it happened.
    """
    levels = [run_level(observation) for observation in observations]
    segmenter = _Segmenter(levels, min_relative_change, significance, min_runs)
    bounds = [0, *segmenter.refine(segmenter.search()), len(levels)]
    changes = []
    for start, split, stop in zip(bounds, bounds[1:], bounds[2:], strict=False):
        before, after = segmenter.median(start, split), segmenter.median(split, stop)
        relative = _relative(before, after)
        worse = relative < 0 if higher_is_better else relative > 0
        confidence = 1.0 - segmenter.p_value(start, split, stop)
        changes.append(
            DetectedChange(
                index=split,
                key=observations[split].key,
                before=before,
                after=after,
                relative_change=relative,
                direction="regression" if worse else "improvement",
                confidence=max(0.0, confidence),
            )
        )
    return changes


def _relative(before: float, after: float) -> float:
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


class _Segmenter:
    """One detection pass over the run levels; caches per (start, stop) slice."""

    def __init__(
        self, levels: list[float], min_relative_change: float, significance: float, min_runs: int
    ) -> None:
        self.levels = levels
        self.min_relative_change = min_relative_change
        self.significance = significance
        self.min_runs = min_runs
        self._ranks: dict[tuple[int, int], _RankSums] = {}
        self._medians: dict[tuple[int, int], float] = {}

    def median(self, start: int, stop: int) -> float:
        if (start, stop) not in self._medians:
            self._medians[(start, stop)] = float(median(self.levels[start:stop]))
        return self._medians[(start, stop)]

    def ranks(self, start: int, stop: int) -> "_RankSums":
        if (start, stop) not in self._ranks:
            self._ranks[(start, stop)] = _RankSums.of(self.levels[start:stop])
        return self._ranks[(start, stop)]

    def p_value(self, start: int, split: int, stop: int) -> float:
        """Two-sided rank-test p-value, Bonferroni-adjusted for the splits tried."""
        tried = max(1, stop - start - 2 * self.min_runs + 1)
        return min(1.0, _p_value(self.ranks(start, stop), split - start) * tried)

    def large_enough(self, start: int, split: int, stop: int) -> bool:
        relative = _relative(self.median(start, split), self.median(split, stop))
        return abs(relative) >= self.min_relative_change

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
        z_by_split = {s: abs(sums.z(s)) for s in range(self.min_runs, size - self.min_runs + 1)}
        best = max(z_by_split, key=z_by_split.__getitem__)
        # z underrates splits with a short side; let those compete on exact p-values.
        short = [s for s, z in z_by_split.items() if min(s, size - s) <= 8 and z >= 2.5]
        if not short:
            return start + best
        return start + min([best, *short], key=lambda s: (_p_value(sums, s), -z_by_split[s]))

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


# --- The Mann-Whitney statistic ---------------------------------------------


@dataclass(frozen=True)
class _RankSums:
    """Mid-ranks of one segment, as prefix sums, plus the tie correction."""

    prefix: list[float]
    tie_term: float

    @classmethod
    def of(cls, values: Sequence[float]) -> "_RankSums":
        ranks = [0.0] * len(values)
        tie_term, seen = 0.0, 0
        order = sorted(range(len(values)), key=values.__getitem__)
        for _, group in itertools.groupby(order, key=values.__getitem__):
            members = list(group)
            for index in members:
                ranks[index] = seen + (len(members) + 1) / 2
            seen += len(members)
            tie_term += len(members) ** 3 - len(members)
        return cls(list(itertools.accumulate(ranks, initial=0.0)), tie_term)

    def u_after(self, split: int) -> float:
        """Pairs (before, after) with after ranked higher; ties count one half."""
        size = len(self.prefix) - 1
        n_after = size - split
        return self.prefix[size] - self.prefix[split] - n_after * (n_after + 1) / 2

    def z(self, split: int) -> float:
        size = len(self.prefix) - 1
        n_before, n_after = split, size - split
        variance = n_before * n_after / 12 * ((size + 1) - self.tie_term / (size * (size - 1)))
        if variance <= 0.0:
            return 0.0
        return (self.u_after(split) - n_before * n_after / 2) / math.sqrt(variance)


def _p_value(sums: _RankSums, split: int) -> float:
    size = len(sums.prefix) - 1
    n_before, n_after = split, size - split
    u_after = sums.u_after(split)
    tail_u = min(u_after, n_before * n_after - u_after)
    small, large = min(n_before, n_after), max(n_before, n_after)
    if small <= _EXACT_SIDE_LIMIT and tail_u <= _EXACT_DEGREE_LIMIT:
        return min(1.0, 2.0 * _exact_lower_tail(small, large, math.ceil(tail_u)))
    z = abs(sums.z(split))
    return min(1.0, math.erfc(z / math.sqrt(2.0)))


def _exact_lower_tail(small: int, large: int, u: int) -> float:
    """P(U <= u) for the Mann-Whitney U of samples of these sizes, no ties.

    The counts are the coefficients of the Gaussian binomial coefficient
    [small + large choose small]_q, truncated at degree u.
    """
    counts = [1] + [0] * u
    for i in range(1, small + 1):
        step_up = large + i
        for degree in range(u, step_up - 1, -1):
            counts[degree] -= counts[degree - step_up]
        for degree in range(i, u + 1):
            counts[degree] += counts[degree - i]
    return sum(counts) / math.comb(small + large, small)


# --- Reconciling with what is stored ---------------------------------------


def reconcile_changes(
    keys: Sequence[str],
    stored: Sequence[StoredChange],
    detected: Sequence[DetectedChange],
    *,
    tolerance: int = 2,
) -> Reconciliation:
    """Match a fresh detection pass over ``keys`` against the stored changes.

    ``refined`` maps a stored key to the fresh detection that confirms it; keep
    the stored key. A stored change older than ``keys`` is left alone. A
    triaged change is never refined nor retracted, but it absorbs a fresh
    detection so the same change is not raised twice.
    """
    position = {key: index for index, key in enumerate(keys)}
    visible = [change for change in stored if change.key in position]
    result = Reconciliation()
    pairs = sorted(
        (abs(position[s.key] - d.index), i, j)
        for i, s in enumerate(visible)
        for j, d in enumerate(detected)
        if s.direction == d.direction and abs(position[s.key] - d.index) <= tolerance
    )
    used_stored: set[int] = set()
    used_detected: set[int] = set()
    for _, i, j in pairs:
        if i in used_stored or j in used_detected:
            continue
        used_stored.add(i)
        used_detected.add(j)
        if not visible[i].triaged:
            result.refined[visible[i].key] = detected[j]
    result.new.extend(d for j, d in enumerate(detected) if j not in used_detected)
    result.retracted.extend(
        s.key for i, s in enumerate(visible) if i not in used_stored and not s.triaged
    )
    return result
