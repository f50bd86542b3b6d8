"""The Mann-Whitney rank-sum test between the runs before and after a split.

Two-sided, tie corrected, exact (Gaussian binomial coefficients) when one side has at
most 12 runs, else the normal approximation. Mid-ranks are kept as prefix sums, so every
split of one segment is tested in O(1), and |z| of all of them in one NumPy pass.
"""

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

# One side of a split at most this long gets an exact p-value; beyond it the
# normal approximation is accurate enough and much cheaper.
EXACT_SIDE_LIMIT = 12
# Cap on the tail degree of the exact count, which bounds its cost.
EXACT_DEGREE_LIMIT = 600


@dataclass(frozen=True)
class RankSums:
    """Mid-ranks of one segment, as prefix sums, plus the tie correction."""

    prefix: list[float]
    tie_term: float

    @classmethod
    def of(cls, values: Sequence[float]) -> "RankSums":
        """Ranks from one sort; every sum is of half-integers, so exact in floats."""
        array = np.asarray(values, dtype=np.float64)
        order = np.argsort(array, kind="stable")
        ordered = array[order]
        first = np.ones(len(array), dtype=bool)  # of each run of equal values
        first[1:] = ordered[1:] != ordered[:-1]
        starts = np.flatnonzero(first)
        sizes = np.diff(starts, append=len(array))
        ranks = np.empty(len(array))
        ranks[order] = np.repeat(starts + (sizes + 1) / 2, sizes)
        prefix = np.concatenate(([0.0], np.cumsum(ranks)))
        return cls(prefix.tolist(), float(np.sum(sizes**3 - sizes)))

    def u_after(self, split: int) -> float:
        """Pairs (before, after) with after ranked higher; ties count one half."""
        size = len(self.prefix) - 1
        n_after = size - split
        return self.prefix[size] - self.prefix[split] - n_after * (n_after + 1) / 2

    def abs_z(self, low: int, high: int) -> NDArray[np.float64]:
        """|z| of every split from ``low`` to ``high`` inclusive, in one pass (``z``'s
        arithmetic in the same order, so the same floats)."""
        size = len(self.prefix) - 1
        total, tie = self.prefix[size], (size + 1) - self.tie_term / (size * (size - 1))
        split = np.arange(low, high + 1)
        n_after = size - split
        variance = split * n_after / 12 * tie
        u_after = total - np.asarray(self.prefix[low : high + 1]) - n_after * (n_after + 1) / 2
        deviation = np.abs(u_after - split * n_after / 2)
        spread = np.sqrt(np.maximum(variance, 0.0))
        return np.divide(deviation, spread, out=np.zeros(len(split)), where=variance > 0.0)

    def z(self, split: int) -> float:
        size = len(self.prefix) - 1
        n_before, n_after = split, size - split
        variance = n_before * n_after / 12 * ((size + 1) - self.tie_term / (size * (size - 1)))
        if variance <= 0.0:
            return 0.0
        return (self.u_after(split) - n_before * n_after / 2) / math.sqrt(variance)


def rank_p_value(sums: RankSums, split: int) -> float:
    size = len(sums.prefix) - 1
    n_before, n_after = split, size - split
    u_after = sums.u_after(split)
    tail_u = min(u_after, n_before * n_after - u_after)
    small, large = min(n_before, n_after), max(n_before, n_after)
    if small <= EXACT_SIDE_LIMIT and tail_u <= EXACT_DEGREE_LIMIT:
        return min(1.0, 2.0 * exact_lower_tail(small, large, math.ceil(tail_u)))
    z = abs(sums.z(split))
    return min(1.0, math.erfc(z / math.sqrt(2.0)))


def splits_tried(size: int, min_runs: int) -> int:
    """The splits of a segment of ``size`` runs with ``min_runs`` on each side."""
    return max(1, size - 2 * min_runs + 1)


def adjusted(p_value: float, tried: int) -> float:
    """Bonferroni: the p-value of the best of ``tried`` splits."""
    return min(1.0, p_value * tried)


@lru_cache(maxsize=65536)
def exact_lower_tail(small: int, large: int, u: int) -> float:
    """P(U <= u) for the Mann-Whitney U of samples of these sizes, no ties."""
    return sum(_tail_counts(small, large, u)) / math.comb(small + large, small)


@lru_cache(maxsize=4096)
def exact_lower_tails(small: int, large: int, top: int) -> NDArray[np.float64]:
    """``exact_lower_tail(small, large, u)`` for every u up to ``top``, in one count
    (read-only: it is cached)."""
    total = math.comb(small + large, small)
    counts = itertools.accumulate(_tail_counts(small, large, top))
    tails = np.array([count / total for count in counts])
    tails.flags.writeable = False
    return tails


def _tail_counts(small: int, large: int, u: int) -> list[int]:
    """How many orderings give each U from 0 to u: the coefficients of the Gaussian
    binomial coefficient [small + large choose small]_q, truncated at degree u (each
    coefficient depends only on lower degrees, so truncation changes none of them)."""
    counts = [1] + [0] * u
    for i in range(1, small + 1):
        step_up = large + i
        for degree in range(u, step_up - 1, -1):
            counts[degree] -= counts[degree - step_up]
        for degree in range(i, u + 1):
            counts[degree] += counts[degree - i]
    return counts
