"""What detection can see in a series: readiness, noise at two levels, reach."""

import random

import pytest

from benchboard.regressions.detect import Observation, detect_changes
from benchboard.regressions.state import detection_state


def values(*levels: float) -> list[Observation]:
    return [Observation(key=f"r{i}", value=v) for i, v in enumerate(levels)]


def test_two_value_runs_are_not_enough_history() -> None:
    state = detection_state(values(100, 101), higher_is_better=False)
    assert state.readiness == "not_enough_history"
    assert (state.runs_analysed, state.runs_needed) == (2, 1)
    assert state.smallest_detectable_change is None
    assert state.text.startswith("Not enough history: 1 more run needed")


def test_three_quiet_runs_can_catch_a_30_percent_step_two_runs_after() -> None:
    state = detection_state(values(100, 101, 100), higher_is_better=False)
    assert state.readiness == "ready"
    assert state.runs_after_change == 2
    assert state.run_to_run_cv == pytest.approx(0.0057, abs=5e-4)
    assert state.smallest_detectable_change is not None
    assert 0.02 <= state.smallest_detectable_change < 0.30
    # And the detector does catch that step when it comes.
    assert detect_changes(values(100, 101, 100, 130, 130), higher_is_better=False)
    assert "would be reported 2 runs after it" in state.text


def test_the_smallest_detectable_change_is_what_the_detector_reports() -> None:
    rng = random.Random(2)
    quiet = [100 * (1 + 0.01 * rng.gauss(0, 1)) for _ in range(8)]
    state = detection_state(values(*quiet), higher_is_better=False)
    assert state.smallest_detectable_change is not None
    mean = sum(quiet) / len(quiet)
    bigger = 1 + state.smallest_detectable_change * 1.05
    smaller = 1 + state.smallest_detectable_change * 0.6
    assert detect_changes(values(*quiet, mean * bigger, mean * bigger), higher_is_better=False)
    assert not detect_changes(
        values(*quiet, mean * smaller, mean * smaller), higher_is_better=False
    )


def test_replicates_give_both_noise_levels_and_a_provisional_reach() -> None:
    rng = random.Random(4)
    runs = []
    for i in range(4):
        centre = 100 * (1 + 0.02 * rng.gauss(0, 1))
        samples = tuple(centre * (1 + 0.01 * rng.gauss(0, 1)) for _ in range(20))
        runs.append(Observation(key=f"r{i}", value=centre, samples=samples))
    state = detection_state(runs, higher_is_better=False)
    assert state.replicates
    assert state.runs_after_change == 1
    assert state.within_run_cv is not None
    assert state.within_run_cv < 0.005  # 1 % / √20, a median's
    assert state.run_to_run_cv is not None
    assert state.run_to_run_cv > state.within_run_cv
    assert "within a run" in state.text


def test_noise_is_estimated_on_the_current_level_after_a_change() -> None:
    rng = random.Random(6)
    history = values(*(lvl * (1 + 0.005 * rng.gauss(0, 1)) for lvl in [100.0] * 30 + [150.0] * 20))
    state = detection_state(history, higher_is_better=False)
    assert state.runs_at_level == 20
    assert state.run_to_run_cv == pytest.approx(0.005, rel=0.5)
    assert "since the last change" in state.text
