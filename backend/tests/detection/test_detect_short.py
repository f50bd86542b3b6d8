"""Short histories, replicates and evidence: the detector's two-level t-test path."""

import itertools
import random

import pytest
from scipy import stats

from benchboard.detection.detect import Observation, detect_changes, reconcile_changes


def values(*levels: float) -> list[Observation]:
    return [Observation(key=f"r{i}", value=v) for i, v in enumerate(levels)]


def replicated(
    levels: list[float], *, seed: int, offset_sd: float = 0.0, cv: float = 0.01, n: int = 20
) -> list[Observation]:
    """Runs with ``n`` samples each around ``levels``, each run shifted by its own offset."""
    rng = random.Random(seed)
    runs = []
    for i, level in enumerate(levels):
        centre = level * (1 + offset_sd * rng.gauss(0, 1))
        samples = tuple(centre * (1 + cv * rng.gauss(0, 1)) for _ in range(n))
        runs.append(Observation(key=f"r{i}", value=sum(samples) / n, samples=samples))
    return runs


def test_three_runs_then_two_30_percent_slower_are_a_regression() -> None:
    (change,) = detect_changes(values(100, 101, 100.5, 130, 131), higher_is_better=False)
    assert (change.index, change.direction) == (3, "regression")
    assert change.relative_change == pytest.approx(0.30, abs=0.01)
    assert not change.provisional
    evidence = change.evidence
    assert (evidence.runs_before, evidence.runs_after) == (3, 2)
    assert (evidence.test, evidence.replicates_used) == ("student_t", False)
    assert evidence.p_value < 0.01
    low, high = evidence.interval
    assert low < change.relative_change < high
    assert low > 0.2


def test_two_runs_before_are_too_few_without_replicates() -> None:
    # The 100, 101, 130, 130, 130 us: two quiet runs say nothing about the noise.
    assert detect_changes(values(100, 101, 130, 130, 130), higher_is_better=False) == []
    assert detect_changes(values(100, 101, 100, 130), higher_is_better=False) == []
    (change,) = detect_changes(values(100, 101, 100, 130, 130), higher_is_better=False)
    assert change.index == 3


@pytest.mark.parametrize("runs", [5, 6, 7, 8])
@pytest.mark.parametrize("seed", range(25))
def test_flat_short_value_histories_raise_nothing(runs: int, seed: int) -> None:
    rng = random.Random(seed * 31 + runs)
    history = values(*(100 * (1 + 0.01 * rng.gauss(0, 1)) for _ in range(runs)))
    assert detect_changes(history, higher_is_better=False) == []


def test_with_replicates_two_runs_before_and_one_after_make_a_provisional_change() -> None:
    history = replicated([100.0, 100.0, 130.0], seed=1)
    (change,) = detect_changes(history, higher_is_better=False)
    assert change.provisional
    assert (change.index, change.direction) == (2, "regression")
    evidence = change.evidence
    assert (evidence.runs_before, evidence.runs_after) == (2, 1)
    assert (evidence.test, evidence.replicates_used) == ("two_level_t", True)
    assert evidence.within_run_cv is not None
    assert evidence.within_run_cv < 0.01


def test_a_second_run_confirms_a_provisional_change() -> None:
    history = replicated([100.0, 100.0, 130.0, 130.0], seed=2)
    (first,) = detect_changes(history[:3], higher_is_better=False)
    (second,) = detect_changes(history, higher_is_better=False)
    assert first.provisional
    assert not second.provisional
    outcome = reconcile_changes([o.key for o in history], [], [first])
    assert outcome.new == [first]
    assert second.index == first.index


def test_a_provisional_change_the_next_run_contradicts_is_gone() -> None:
    history = replicated([100.0, 100.0, 130.0, 100.0, 100.0], seed=3)
    assert detect_changes(history[:3], higher_is_better=False)
    assert detect_changes(history, higher_is_better=False) == []


@pytest.mark.parametrize("seed", range(20))
def test_without_run_to_run_variance_a_small_step_is_found_on_the_samples(seed: int) -> None:
    # 3 % at 1 % sample noise, 20 samples: each run's level is known to ~0.25 %.
    history = replicated([100.0] * 6 + [103.0] * 3, seed=seed)
    (change,) = detect_changes(history, higher_is_better=False)
    assert change.index == 6
    assert change.evidence.replicates_used


def test_large_run_to_run_variance_raises_no_false_alarm() -> None:
    # Runs scatter by 3 % while each run's samples pin its level to ~0.25 %: consecutive
    # runs "differ" on their samples, but no level changed.
    naive_alarms = alarms = 0
    for seed in range(40):
        history = replicated([100.0] * 9, seed=seed, offset_sd=0.03)
        alarms += len(detect_changes(history, higher_is_better=False))
        naive_alarms += sum(
            stats.ttest_ind(a.samples, b.samples, equal_var=False).pvalue < 0.01
            for a, b in itertools.pairwise(history)
        )
    assert alarms == 0
    assert naive_alarms > 100  # of 320 consecutive pairs


def test_long_histories_state_their_rank_test_evidence() -> None:
    rng = random.Random(9)
    history = values(*(lvl * (1 + 0.01 * rng.gauss(0, 1)) for lvl in [100.0] * 40 + [110.0] * 30))
    (change,) = detect_changes(history, higher_is_better=False)
    assert change.evidence.test == "rank_sum"
    assert (change.evidence.runs_before, change.evidence.runs_after) == (40, 30)
    assert change.evidence.interval[0] < 0.1 < change.evidence.interval[1]
    assert change.evidence.run_to_run_cv == pytest.approx(0.01, rel=0.3)
