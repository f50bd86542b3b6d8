"""The detector's fast paths decide exactly as the plain method does.

Each vectorised part is checked against its plain definition (SciPy's mid-ranks, the
scalar rank test, medians and sums in Python), and the whole detector against the
detections the plain search (before the screen, main at 94e49e9) made on a seeded set
of histories: long ones with steps, ties, stats and replicates, windows cut short, and
short ones (``detections_before_screen.json``; regenerate it only with a deliberate
change of the method, and say what it changed: its ``produced_by`` does).
"""

import hashlib
import json
import math
import random
import statistics
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from benchboard.detection.detect import Observation, detect_changes
from benchboard.detection.ranks import RankSums, exact_lower_tail, exact_lower_tails
from benchboard.detection.screen import window_bounds
from benchboard.detection.segmentation import Segmenter, _seeded_intervals

STORED = Path(__file__).with_name("detections_before_screen.json")
LENGTHS = (200, 200, 200, 200, 17, 31, 33, 64, 65, 100, 129, 150, 199, 250)


def seeded_history(rng: random.Random) -> tuple[list[Observation], bool]:
    """A history like the detection benchmarks' (bench/seeding.py), with more variety."""
    if rng.random() < 0.15:  # short: 3-5 runs, maybe then 2-3 after a 30 % step
        before, after = rng.randint(3, 5), rng.choice([0, 2, 3])
        levels = [100.0] * before + [rng.choice([130.0, 70.0])] * after
        values = [level * (1 + rng.gauss(0, 0.01)) for level in levels]
        return [Observation(f"r{i}", v) for i, v in enumerate(values)], rng.random() < 0.5
    runs = rng.choice(LENGTHS)
    noise = rng.choice([0.001, 0.01, 0.01, 0.03])
    steps = {
        rng.randrange(runs): rng.choice([1.2, 0.97, 1.05, 0.7]) for _ in range(rng.randint(0, 2))
    }
    rounding = rng.choice([None, None, None, 0, 1])  # whole or tenths: ties
    replicated, with_stats = rng.random() < 0.08, rng.random() < 0.3
    level, observations = 100.0, []
    for index in range(runs):
        level *= steps.get(index, 1.0)
        value = level * (1 + rng.gauss(0, noise))
        value = round(value, rounding) if rounding is not None else value
        samples = tuple(value * (1 + rng.gauss(0, 0.01)) for _ in range(5)) if replicated else ()
        summary = None
        if with_stats and rng.random() < 0.1:
            summary = {"n": 100, "median": value, "mean": value, "stddev": value * 0.01}
        observations.append(Observation(f"r{index}", value, samples, summary))
    return observations, rng.random() < 0.5


def digest(observations: list[Observation], higher_is_better: bool) -> str:
    found = detect_changes(observations, higher_is_better=higher_is_better)
    return hashlib.sha256(repr(found).encode()).hexdigest()[:16]


def test_detections_are_those_of_the_plain_search() -> None:
    stored = json.loads(STORED.read_text())
    rng = random.Random(stored["seed"])
    histories = [seeded_history(rng) for _ in stored["digests"]]
    found = [digest(*history) for history in histories]
    differing = [i for i, (a, b) in enumerate(zip(found, stored["digests"], strict=True)) if a != b]
    assert differing == []
    # The set is worth comparing: many histories with changes, and long ones without.
    with_changes = sum(bool(detect_changes(o, higher_is_better=h)) for o, h in histories[:200])
    assert 40 < with_changes < 160


def levels_of(rng: random.Random, runs: int, *, step: float | None, ties: bool) -> list[float]:
    at = rng.randrange(runs)
    values = [
        (100.0 * (step if step and i >= at else 1.0)) * (1 + rng.gauss(0, 0.01))
        for i in range(runs)
    ]
    return [round(v) for v in values] if ties else values


@pytest.mark.parametrize("seed", range(40))
def test_the_screen_bounds_every_windows_best_adjusted_p_value(seed: int) -> None:
    rng = random.Random(seed)
    runs = rng.choice([16, 40, 100, 200])
    levels = levels_of(rng, runs, step=rng.choice([None, 1.05, 1.2]), ties=seed % 3 == 0)
    segmenter = Segmenter(levels, 0.02, 0.01, 3)
    seeds = _seeded_intervals(runs, 3)
    bounds = window_bounds(levels, seeds, min_runs=3, significance=0.01)
    for (start, stop), bound in zip(seeds, bounds, strict=True):
        splits = range(start + 3, stop - 2)
        best = min((segmenter.p_value(start, s, stop) for s in splits), default=1.0)
        if bound == math.inf:  # no split can hold, so the search has nothing to find
            assert best > 0.01
            assert segmenter._interval_split(start, stop) is None
        else:
            assert bound <= best


def test_the_screen_passes_over_noise_and_stops_at_a_step() -> None:
    rng = random.Random(3)
    flat = levels_of(rng, 200, step=None, ties=False)
    seeds = _seeded_intervals(200, 3)
    assert all(b == math.inf for b in window_bounds(flat, seeds, min_runs=3, significance=0.01))
    stepped = [v * (1.2 if i >= 100 else 1.0) for i, v in enumerate(flat)]
    bounds = window_bounds(stepped, seeds, min_runs=3, significance=0.01)
    held = [seed for seed, bound in zip(seeds, bounds, strict=True) if bound < math.inf]
    assert (0, 200) in held
    assert all(start < 100 < stop for start, stop in held)


@pytest.mark.parametrize("ties", [False, True])
def test_rank_sums_are_scipys_mid_ranks(ties: bool) -> None:
    rng = random.Random(7)
    values = [float(rng.randint(0, 20)) if ties else rng.random() for _ in range(60)]
    sums = RankSums.of(values)
    assert sums.prefix == [0.0, *np.cumsum(stats.rankdata(values)).tolist()]
    assert sums.tie_term == sum(t**3 - t for t in Counter(values).values())
    assert sums.abs_z(3, 57).tolist() == [abs(sums.z(s)) for s in range(3, 58)]


def test_exact_tails_in_one_count_are_the_single_ones() -> None:
    for small, large in [(3, 3), (5, 40), (12, 188)]:
        tails = exact_lower_tails(small, large, 300)
        assert tails.tolist() == [exact_lower_tail(small, large, u) for u in range(301)]


def test_median_fits_are_the_plain_sums() -> None:
    rng = random.Random(11)
    levels = [round(rng.gauss(100, 2)) for _ in range(80)]  # ties make fits equal
    segmenter = Segmenter(levels, 0.02, 0.01, 3)

    def fit(start: int, stop: int) -> float:
        centre = statistics.median(levels[start:stop])
        return sum(abs(value - centre) for value in levels[start:stop])

    splits = np.arange(10, 70)
    plain = [fit(5, s) + fit(s, 75) for s in splits]
    assert segmenter._fits(5, 75, splits).tolist() == plain
