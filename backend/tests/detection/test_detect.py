"""Unit tests of the pure change detector on crafted, seeded series."""

import itertools
import math
import random

import pytest

from benchboard.detection.detect import (
    DetectedChange,
    Evidence,
    Observation,
    StoredChange,
    detect_changes,
    reconcile_changes,
)
from benchboard.detection.ranks import exact_lower_tail


def noisy(levels: list[float], cv: float, seed: int) -> list[Observation]:
    """One Gaussian-noise observation per level, keys r0, r1, ..."""
    rng = random.Random(seed)
    return [
        Observation(key=f"r{i}", value=level * (1 + cv * rng.gauss(0, 1)))
        for i, level in enumerate(levels)
    ]


def steps(*parts: tuple[int, float]) -> list[float]:
    """Levels from (runs, level) parts: steps((40, 100), (30, 110))."""
    return [level for runs, level in parts for _ in range(runs)]


@pytest.mark.parametrize(
    ("after", "higher_is_better", "direction"),
    [
        (110.0, False, "regression"),  # a time went up
        (90.0, False, "improvement"),  # a time went down
        (110.0, True, "improvement"),  # a throughput went up
        (90.0, True, "regression"),  # a throughput went down
    ],
)
def test_clear_step_is_found_once_with_its_direction(
    after: float, higher_is_better: bool, direction: str
) -> None:
    observations = noisy(steps((40, 100.0), (30, after)), cv=0.01, seed=1)
    changes = detect_changes(observations, higher_is_better=higher_is_better)
    assert len(changes) == 1
    change = changes[0]
    assert (change.index, change.key, change.direction) == (40, "r40", direction)
    assert change.relative_change == pytest.approx((after - 100.0) / 100.0, abs=0.01)
    assert change.before == pytest.approx(100.0, rel=0.01)
    assert change.confidence >= 0.99


@pytest.mark.parametrize("seed", range(10))
def test_no_step_reports_nothing(seed: int) -> None:
    observations = noisy([100.0] * 100, cv=0.04, seed=seed)
    assert detect_changes(observations, higher_is_better=False) == []


@pytest.mark.parametrize("seed", range(5))
def test_single_big_outliers_report_nothing(seed: int) -> None:
    observations = noisy([100.0] * 80, cv=0.01, seed=seed)
    spiked = [
        Observation(o.key, o.value * 2.5) if i in {5, 30, 31 + seed, 60, 79} else o
        for i, o in enumerate(observations)
    ]
    assert detect_changes(spiked, higher_is_better=False) == []


@pytest.mark.parametrize("seed", range(10))
def test_bimodal_noise_without_level_change_reports_nothing(seed: int) -> None:
    rng = random.Random(seed)
    values = [(106.0 if rng.random() < 0.35 else 100.0) + rng.gauss(0, 0.5) for _ in range(90)]
    observations = [Observation(f"r{i}", v) for i, v in enumerate(values)]
    assert detect_changes(observations, higher_is_better=False) == []


def test_drift_smaller_than_min_relative_change_is_not_reported() -> None:
    levels = [100.0 * (1 + 0.015 * i / 59) for i in range(60)]
    observations = noisy(levels, cv=0.003, seed=3)
    assert detect_changes(observations, higher_is_better=False) == []


def test_strong_drift_is_reported_as_a_staircase_of_regressions() -> None:
    levels = [100.0 * (1 + 0.15 * i / 59) for i in range(60)]
    observations = noisy(levels, cv=0.005, seed=3)
    changes = detect_changes(observations, higher_is_better=False)
    assert 1 <= len(changes) <= 6
    assert all(change.direction == "regression" for change in changes)
    assert all(change.relative_change >= 0.02 for change in changes)


def with_replicates(levels: list[float], cv: float, seed: int) -> list[Observation]:
    """Runs whose headline is a single iteration, with 15 replicates kept."""
    rng = random.Random(seed)
    observations = []
    for i, level in enumerate(levels):
        samples = tuple(level * (1 + cv * rng.gauss(0, 1)) for _ in range(15))
        observations.append(Observation(f"r{i}", samples[0], samples=samples))
    return observations


def test_replicates_make_a_smaller_step_detectable() -> None:
    observations = with_replicates(steps((30, 100.0), (30, 104.0)), cv=0.06, seed=7)
    headline_only = [Observation(o.key, o.value) for o in observations]
    assert detect_changes(headline_only, higher_is_better=False) == []
    changes = detect_changes(observations, higher_is_better=False)
    assert len(changes) == 1
    assert abs(changes[0].index - 30) <= 1
    assert changes[0].direction == "regression"


def test_step_and_revert_reports_both() -> None:
    observations = noisy(steps((40, 100.0), (10, 120.0), (30, 100.0)), cv=0.02, seed=5)
    changes = detect_changes(observations, higher_is_better=False)
    assert [(c.index, c.direction) for c in changes] == [(40, "regression"), (50, "improvement")]


def test_stored_change_keeps_its_run_as_runs_arrive() -> None:
    observations = noisy(steps((30, 100.0), (50, 106.0)), cv=0.02, seed=11)
    stored: list[StoredChange] = []
    for length in range(2, len(observations) + 1):
        history = observations[:length]
        fresh = detect_changes(history, higher_is_better=False)
        # The estimate may wobble by a run while the data is ambiguous, no more.
        assert all(abs(change.index - 30) <= 1 for change in fresh), (length, fresh)
        outcome = reconcile_changes([o.key for o in history], stored, fresh)
        assert outcome.retracted == []
        stored += [StoredChange(change.key, change.direction) for change in outcome.new]
    assert stored == [StoredChange("r30", "regression")]


def test_large_step_is_reported_four_runs_after_it() -> None:
    observations = noisy(steps((40, 100.0), (4, 150.0)), cv=0.02, seed=2)
    changes = detect_changes(observations, higher_is_better=False)
    assert [(c.index, c.direction) for c in changes] == [(40, "regression")]


def test_short_histories_report_nothing() -> None:
    assert detect_changes([], higher_is_better=True) == []
    assert detect_changes(noisy([100.0, 200.0], 0.0, seed=1), higher_is_better=True) == []


def test_replicate_median_is_the_run_level_over_the_headline() -> None:
    outlier_heavy = [
        Observation(f"r{i}", 500.0 if i >= 20 else 100.0, samples=(99.0, 100.0, 101.0, 400.0))
        for i in range(40)
    ]
    assert detect_changes(outlier_heavy, higher_is_better=False) == []


@pytest.mark.parametrize(("small", "large"), [(1, 5), (3, 4), (3, 9), (5, 6)])
def test_exact_tail_matches_enumeration(small: int, large: int) -> None:
    total = small + large
    arrangements = list(itertools.combinations(range(total), small))
    for u in range(small * large + 1):
        # U counts pairs where the large sample's element lies above the small one's.
        count = sum(
            1
            for chosen in arrangements
            if sum(sum(1 for x in range(total) if x not in chosen and x > c) for c in chosen) <= u
        )
        assert exact_lower_tail(small, large, u) == pytest.approx(count / math.comb(total, small))


EVIDENCE = Evidence(
    runs_before=30,
    runs_after=10,
    replicates_used=False,
    test="rank_sum",
    p_value=0.001,
    interval=(0.08, 0.12),
    interval_level=0.99,
    run_to_run_cv=0.01,
    within_run_cv=None,
)


def change(index: int, direction: str = "regression") -> DetectedChange:
    return DetectedChange(
        index=index,
        key=f"r{index}",
        before=100.0,
        after=110.0,
        relative_change=0.1,
        direction="regression" if direction == "regression" else "improvement",
        confidence=0.999,
        evidence=EVIDENCE,
    )


KEYS = [f"r{i}" for i in range(50)]


def test_same_change_point_refines_the_stored_change() -> None:
    outcome = reconcile_changes(KEYS, [StoredChange("r30", "regression")], [change(31)])
    assert outcome.refined == {"r30": change(31)}
    assert (outcome.new, outcome.retracted) == ([], [])


def test_change_gone_from_the_data_is_retracted() -> None:
    outcome = reconcile_changes(KEYS, [StoredChange("r30", "regression")], [])
    assert outcome.retracted == ["r30"]


def test_opposite_direction_is_a_new_change_and_the_old_one_retracted() -> None:
    outcome = reconcile_changes(KEYS, [StoredChange("r30", "regression")], [change(30, "up")])
    assert outcome.new == [change(30, "up")]
    assert outcome.retracted == ["r30"]


def test_triaged_change_is_never_retracted_nor_raised_again() -> None:
    stored = [StoredChange("r30", "regression", triaged=True), StoredChange("r10", "improvement")]
    outcome = reconcile_changes(KEYS, stored, [change(30)])
    assert outcome.new == []
    assert outcome.refined == {}
    assert outcome.retracted == ["r10"]
    assert outcome.kept == {"r30": change(30)}


def test_a_triaged_change_no_longer_seen_is_kept_and_said() -> None:
    stored = [StoredChange("r30", "regression", triaged=True)]
    outcome = reconcile_changes(KEYS, stored, [])
    assert (outcome.retracted, outcome.kept) == ([], {"r30": None})


def test_change_older_than_the_analysed_history_is_left_alone() -> None:
    outcome = reconcile_changes(KEYS[20:], [StoredChange("r5", "regression")], [])
    assert (outcome.new, outcome.refined, outcome.retracted) == ([], {}, [])
