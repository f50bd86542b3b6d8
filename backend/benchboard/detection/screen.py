"""Which seeded windows could hold a change, and the lowest p-value each could give: the
rank test of every split of every window of a history in one NumPy pass.

Most histories have no change. The seeded search (``segmentation.py``) would still rank
each of its windows (about 50 for 200 runs) and test every split in Python, about 2 ms
per history. A window none of whose splits reaches the Bonferroni-adjusted significance
can never yield a change (``Segmenter._interval_split`` rejects a split whose adjusted
p-value exceeds ``significance`` before it looks at anything else), so the search skips
it; the others it tries in the order of their lowest possible p-value and stops once none
left could beat the best split found (a window's change is one of its splits, so its
p-value is at least the window's lowest). Only the windows around a real step are
searched in Python.

Equivalence rests on deciding every split exactly as ``ranks.rank_p_value`` does:

- where the exact test applies (one side of at most ``EXACT_SIDE_LIMIT`` runs, a tail U
  of at most ``EXACT_DEGREE_LIMIT``), by comparing the tail U with the largest one that
  holds, from the same exact tails (monotone in U); its p-value is the exact one;
- elsewhere by comparing |z| with the normal approximation's critical value lowered by a
  margin far above rounding, and lowering its p-value by another, so a split at the
  boundary is searched, never dropped.

The ranks of every window come from one sort: each element's key is its window's number
times the number of runs plus its level's rank among the distinct levels, so one stable
argsort puts every window's elements in order, and runs of equal keys are its ties
(mid-ranks, tie counts).
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray
from scipy import special

from benchboard.detection.ranks import (
    EXACT_DEGREE_LIMIT,
    EXACT_SIDE_LIMIT,
    adjusted,
    exact_lower_tails,
    splits_tried,
)

# |z| below the normal approximation's critical value by at most this much is still
# searched, and its p-value's lower bound is lowered by this much: the vectorised |z|
# and erfc and the per-split ones may differ in their last bits.
_Z_MARGIN = 1e-9
_P_MARGIN = 1e-6


@dataclass(frozen=True)
class _Plan:
    """Index arrays for every split of every window of one history length (cached)."""

    source: NDArray[np.intp]  # per element of the concatenated windows: its run
    window_base: NDArray[np.int64]  # per element: its window's number times the runs
    double_offset: NDArray[np.int64]  # per element: twice where its window starts
    window_of: NDArray[np.intp]  # per element: its window
    split_window: NDArray[np.intp]  # per split: its window
    split_first_after: NDArray[np.intp]  # per split: its first run after, in the concatenation
    split_end: NDArray[np.intp]  # per split: the end of its window, in the concatenation
    size: NDArray[np.int64]  # per split: runs in its window
    pairs: NDArray[np.int64]  # per split: runs before times runs after
    double_after_pairs: NDArray[np.int64]  # per split: a(a + 1) for a runs after it
    tried: NDArray[np.float64]  # per split: splits of its window (Bonferroni)
    # |2U - pairs| from which the exact test applies (one side short enough, a tail of at
    # most EXACT_DEGREE_LIMIT), and from which it holds; the |z| from which the normal
    # one holds, and the spread of U without ties.
    exact_from: NDArray[np.int64]
    exact_holds_from: NDArray[np.int64]
    z_critical: NDArray[np.float64]
    spread: NDArray[np.float64]
    # The exact lower tails of every (short side, long side) of the splits, concatenated:
    # P(U <= u) is tails[tail_offset + min(u, tail_top)].
    tails: NDArray[np.float64]
    tail_offset: NDArray[np.intp]
    tail_top: NDArray[np.int64]


def window_bounds(
    levels: Sequence[float],
    windows: Sequence[tuple[int, int]],
    *,
    min_runs: int,
    significance: float,
) -> list[float]:
    """For each (start, stop) window, a lower bound of the adjusted rank-test p-value of
    its splits with ``min_runs`` runs on each side; infinite where none can be at most
    ``significance``, so the window can hold no change."""
    plan = _plan(tuple(windows), len(levels), min_runs, significance)
    bounds = np.full(len(windows), np.inf)
    if plan.pairs.size == 0:
        return bounds.tolist()
    array = np.asarray(levels, dtype=np.float64)
    order = np.argsort(array, kind="stable")
    ordered = array[order]
    rises = ordered[1:] != ordered[:-1]
    dense = np.empty(len(array), dtype=np.int64)  # each level's rank among distinct levels
    dense[order] = np.concatenate(([0], np.cumsum(rises)))
    keys = plan.window_base + dense[plan.source]
    by_key = np.argsort(keys, kind="stable")
    tied = not rises.all()
    below, up_to = _places(keys[by_key], by_key, tied=tied)
    double_ranks = below + up_to - plan.double_offset + 1  # twice each mid-rank
    prefix = np.concatenate(([0], np.cumsum(double_ranks)))
    double_u = prefix[plan.split_end] - prefix[plan.split_first_after] - plan.double_after_pairs
    deviation = np.abs(double_u - plan.pairs)  # |2U - mean of 2U|; the tail 2U is pairs - it
    spread = plan.spread if not tied else _tied_spread(plan, up_to - below, len(windows))
    exact = deviation >= plan.exact_from
    holds = np.where(
        exact,
        deviation >= plan.exact_holds_from,
        deviation >= 2 * spread * plan.z_critical,
    )
    if holds.any():
        held = np.flatnonzero(holds)
        lower = _p_lower_bounds(plan, held, deviation[held], spread[held], exact[held])
        np.minimum.at(bounds, plan.split_window[held], lower)
    return bounds.tolist()


def _p_lower_bounds(
    plan: _Plan,
    splits: NDArray[np.intp],
    deviation: NDArray[np.int64],
    spread: NDArray[np.float64],
    exact: NDArray[np.bool_],
) -> NDArray[np.float64]:
    """The adjusted p-values of these splits: exactly ``rank_p_value``'s where the exact
    test applies, else the normal tail lowered by a margin."""
    tail = np.minimum((plan.pairs[splits] - deviation + 1) // 2, plan.tail_top[splits])
    exact_p = np.minimum(1.0, 2.0 * plan.tails[plan.tail_offset[splits] + tail])
    z = np.divide(deviation / 2, spread, out=np.full(len(splits), np.inf), where=spread > 0)
    normal_p = np.minimum(1.0, special.erfc(z / math.sqrt(2.0))) * (1 - _P_MARGIN)
    adjusted_p: NDArray[np.float64] = np.minimum(
        1.0, np.where(exact, exact_p, normal_p) * plan.tried[splits]
    )
    return adjusted_p


def _places(
    sorted_keys: NDArray[np.int64], by_key: NDArray[np.intp], *, tied: bool
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Per element, where its key's run of equal keys starts and ends in sorted order."""
    count = len(sorted_keys)
    below = np.empty(count, dtype=np.int64)
    if not tied:
        below[by_key] = np.arange(count)
        return below, below + 1
    first = np.ones(count, dtype=bool)
    first[1:] = sorted_keys[1:] != sorted_keys[:-1]
    starts = np.flatnonzero(first)
    group = np.cumsum(first) - 1
    up_to = np.empty(count, dtype=np.int64)
    below[by_key] = starts[group]
    up_to[by_key] = np.append(starts[1:], count)[group]
    return below, up_to


def _tied_spread(plan: _Plan, ties: NDArray[np.int64], windows: int) -> NDArray[np.float64]:
    """The standard deviation of U with the variance's tie correction (sum of t^3 - t
    over each window's groups of t equal levels); infinite where it is zero (|z| = 0)."""
    tie_term = np.bincount(plan.window_of, weights=ties * ties - 1, minlength=windows)
    size = plan.size
    tie = (size + 1) - tie_term[plan.split_window] / (size * (size - 1))
    variance = plan.pairs / 12 * tie
    return np.where(variance > 0.0, np.sqrt(np.maximum(variance, 0.0)), np.inf)


@lru_cache(maxsize=256)
def _plan(
    windows: tuple[tuple[int, int], ...], runs: int, min_runs: int, significance: float
) -> _Plan:
    sources: list[int] = []
    window_of: list[int] = []
    offset_of: list[int] = []
    split_window: list[int] = []
    first_after: list[int] = []
    split_end: list[int] = []
    befores: list[int] = []
    afters: list[int] = []
    offset = 0
    for number, (start, stop) in enumerate(windows):
        length = stop - start
        sources.extend(range(start, stop))
        window_of.extend([number] * length)
        offset_of.extend([offset] * length)
        for split in range(min_runs, length - min_runs + 1):
            split_window.append(number)
            first_after.append(offset + split)
            split_end.append(offset + length)
            befores.append(split)
            afters.append(length - split)
        offset += length
    before, after = np.array(befores, dtype=np.int64), np.array(afters, dtype=np.int64)
    size, pairs = before + after, before * after
    tried = [splits_tried(b + a, min_runs) for b, a in zip(befores, afters, strict=True)]
    sides = [(min(b, a), max(b, a)) for b, a in zip(befores, afters, strict=True)]
    tail_critical = np.array(
        [_tail_critical(*side, t, significance) for side, t in zip(sides, tried, strict=True)],
        dtype=np.int64,
    )
    tails, tail_offset, tail_top = _tail_table(sides)
    z_critical = np.array([_z_critical(t, significance) for t in tried])
    exact_side = np.minimum(before, after) <= EXACT_SIDE_LIMIT
    window_numbers = np.array(window_of, dtype=np.intp)
    spread = np.sqrt(pairs / 12 * (size + 1))
    return _Plan(
        source=np.array(sources, dtype=np.intp),
        window_base=window_numbers.astype(np.int64) * max(runs, 1),
        double_offset=2 * np.array(offset_of, dtype=np.int64),
        window_of=window_numbers,
        split_window=np.array(split_window, dtype=np.intp),
        split_first_after=np.array(first_after, dtype=np.intp),
        split_end=np.array(split_end, dtype=np.intp),
        size=size,
        pairs=pairs,
        double_after_pairs=after * (after + 1),
        tried=np.array(tried, dtype=np.float64),
        # Where the exact test never applies, a bound no deviation reaches (<= pairs).
        exact_from=np.where(exact_side, pairs - 2 * EXACT_DEGREE_LIMIT, pairs + 1),
        exact_holds_from=pairs - 2 * tail_critical,
        z_critical=z_critical,
        spread=spread,
        tails=tails,
        tail_offset=tail_offset,
        tail_top=tail_top,
    )


def _tail_table(
    sides: list[tuple[int, int]],
) -> tuple[NDArray[np.float64], NDArray[np.intp], NDArray[np.int64]]:
    """Every exact-test side pair's lower tails, concatenated, and where each split's are."""
    starts: dict[tuple[int, int], int] = {}
    chunks = [np.ones(1)]  # for splits the exact test never judges
    offsets, tops, length = [], [], 1
    for small, large in sides:
        if small > EXACT_SIDE_LIMIT:
            offsets.append(0)
            tops.append(0)
            continue
        top = _tail_top(small, large)
        if (small, large) not in starts:
            starts[(small, large)] = length
            chunks.append(exact_lower_tails(small, large, top))
            length += top + 1
        offsets.append(starts[(small, large)])
        tops.append(top)
    return (
        np.concatenate(chunks),
        np.array(offsets, dtype=np.intp),
        np.array(tops, dtype=np.int64),
    )


def _tail_top(small: int, large: int) -> int:
    """The largest tail U worth counting: a tail of half the pairs or more has p = 1."""
    return min(EXACT_DEGREE_LIMIT, small * large // 2)


@lru_cache(maxsize=65536)
def _tail_critical(small: int, large: int, tried: int, significance: float) -> int:
    """The largest tail U whose exact two-sided p-value, adjusted, is <= significance
    (-1 if none), by ``rank_p_value``'s own arithmetic."""
    if small > EXACT_SIDE_LIMIT:
        return -1
    tails = exact_lower_tails(small, large, _tail_top(small, large))
    critical = -1
    for tail, probability in enumerate(tails.tolist()):
        if adjusted(min(1.0, 2.0 * probability), tried) > significance:
            break
        critical = tail
    return critical


@lru_cache(maxsize=4096)
def _z_critical(tried: int, significance: float) -> float:
    """|z| from which erfc(|z| / sqrt 2), adjusted, is <= significance, less the margin."""
    z = math.sqrt(2.0) * float(special.erfcinv(significance / tried))
    return z * (1 - _Z_MARGIN) - _Z_MARGIN
