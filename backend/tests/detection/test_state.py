"""What detection can see in a series: readiness, noise at two levels, reach."""

import math
import random

import pytest

from benchboard.detection.detect import Observation, Runs, detect_changes
from benchboard.detection.state import detection_state, too_short_for_a_change


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


def test_a_step_with_two_runs_before_it_is_not_enough_history_not_noise() -> None:
    # The example: detection needs 3 runs before a step and raises nothing here.
    history = values(100, 101, 130, 130, 130)
    assert detect_changes(history, higher_is_better=False) == []
    state = detection_state(history, higher_is_better=False)
    assert state.readiness == "not_enough_history"
    assert state.possible_step is not None
    step = state.possible_step
    assert (step.index, step.key, step.runs_before, step.runs_after) == (2, "r2", 2, 3)
    assert (step.more_runs_before, step.more_runs_after) == (1, 0)
    # Levels are compared on the log scale (stats.noise): the level before is the
    # geometric mean of 100 and 101.
    assert step.relative_change == pytest.approx(130 / math.sqrt(100 * 101) - 1)
    assert state.runs_needed == 1
    # The noise is that of the runs before the step, not one the step inflates.
    assert state.run_to_run_cv == pytest.approx(0.707 / 100.5, rel=0.01)
    assert state.smallest_detectable_change is None
    assert state.too_short_for_a_change
    assert state.text.startswith(
        "Not enough history to judge a possible step at run 3 of 5 (+29.4%)"
    )
    assert "needs 1 more run before it" in state.text
    assert "will not be reported" in state.text
    # Later runs only add after it: it stays a step detection will not report.
    longer = values(100, 101, *[130] * 10)
    assert detect_changes(longer, higher_is_better=False) == []
    assert detection_state(longer, higher_is_better=False).possible_step is not None


def test_a_step_awaiting_its_second_run_says_so_until_detection_reports_it() -> None:
    state = detection_state(values(100, 101, 100, 130), higher_is_better=False)
    assert state.readiness == "not_enough_history"
    assert state.possible_step is not None
    assert (state.possible_step.more_runs_before, state.possible_step.more_runs_after) == (0, 1)
    assert state.runs_needed == 1
    assert "needs 1 more run after it" in state.text
    confirmed = values(100, 101, 100, 130, 130)
    assert [c.index for c in detect_changes(confirmed, higher_is_better=False)] == [3]
    assert detection_state(confirmed, higher_is_better=False).possible_step is None


def test_flat_short_series_rarely_show_a_possible_step() -> None:
    rng = random.Random(8)
    shown = 0
    for _ in range(400):
        runs = rng.randint(3, 15)
        flat = values(*(100 * (1 + 0.01 * rng.gauss(0, 1)) for _ in range(runs)))
        shown += detection_state(flat, higher_is_better=False).possible_step is not None
    assert shown <= 8  # the test's level: 1 %, Bonferroni over the splits tried
    drift = detection_state(values(100, 110, 120, 130, 140), higher_is_better=False)
    assert drift.possible_step is None


def test_too_short_for_a_change_counts_both_sides_from_the_baseline() -> None:
    assert detection_state(
        values(100, 101, 100, 101), higher_is_better=False
    ).too_short_for_a_change
    assert not detection_state(
        values(100, 101, 100, 101, 100), higher_is_better=False
    ).too_short_for_a_change
    rng = random.Random(3)
    replicated = [
        Observation(
            key=f"r{i}", value=100.0, samples=tuple(100 + rng.gauss(0, 1) for _ in range(10))
        )
        for i in range(3)
    ]
    assert not detection_state(replicated, higher_is_better=False).too_short_for_a_change
    assert detection_state(replicated[:2], higher_is_better=False).too_short_for_a_change


def test_the_cheap_check_agrees_with_the_state_where_detection_finds_no_change() -> None:
    rng = random.Random(5)
    histories = [values(100, 101, 130, 130, 130), values(100, 101, 100, 130)]
    for _ in range(300):
        runs, step = rng.randint(2, 15), rng.choice([0.0, 0.05, 0.3])
        at = rng.randint(1, runs)
        histories.append(
            values(*(100 * (1 + step * (i >= at) + 0.01 * rng.gauss(0, 1)) for i in range(runs)))
        )
    agreed = 0
    for history in histories:
        state = detection_state(history, higher_is_better=False)
        full = too_short_for_a_change(Runs.of(history), higher_is_better=False, changed=True)
        assert full == state.too_short_for_a_change
        if not detect_changes(history, higher_is_better=False):
            cheap = too_short_for_a_change(Runs.of(history), higher_is_better=False, changed=False)
            assert cheap == state.too_short_for_a_change
            agreed += 1
    assert agreed > 200
