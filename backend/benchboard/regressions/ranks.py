"""The Mann-Whitney rank-sum test between the runs before and after a split.

Two-sided, tie corrected, exact (Gaussian binomial coefficients) when one side has at
most 12 runs, else the normal approximation. Mid-ranks are kept as
prefix sums, so every split of one segment is tested in O(1).
"""

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

# One side of a split at most this long gets an exact p-value; beyond it the
# normal approximation is accurate enough and much cheaper.
_EXACT_SIDE_LIMIT = 12
# Cap on the tail degree of the exact count, which bounds its cost.
_EXACT_DEGREE_LIMIT = 600


@dataclass(frozen=True)
class RankSums:
    """Mid-ranks of one segment, as prefix sums, plus the tie correction."""

    prefix: list[float]
    tie_term: float

    @classmethod
    def of(cls, values: Sequence[float]) -> "RankSums":
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

    def abs_z(self, low: int, high: int) -> list[float]:
        """|z| of every split from ``low`` to ``high`` inclusive, in one pass (``z``'s
        formula inlined: a method call per split was most of the detector's time)."""
        prefix, size = self.prefix, len(self.prefix) - 1
        total, tie = prefix[size], (size + 1) - self.tie_term / (size * (size - 1))
        out = []
        for split in range(low, high + 1):
            n_after = size - split
            variance = split * n_after / 12 * tie
            if variance <= 0.0:
                out.append(0.0)
                continue
            u_after = total - prefix[split] - n_after * (n_after + 1) / 2
            out.append(abs(u_after - split * n_after / 2) / math.sqrt(variance))
        return out

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
    if small <= _EXACT_SIDE_LIMIT and tail_u <= _EXACT_DEGREE_LIMIT:
        return min(1.0, 2.0 * exact_lower_tail(small, large, math.ceil(tail_u)))
    z = abs(sums.z(split))
    return min(1.0, math.erfc(z / math.sqrt(2.0)))


@lru_cache(maxsize=65536)
def exact_lower_tail(small: int, large: int, u: int) -> float:
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
