"""Stored rows become the detector's runs: replicates and stats in base units."""

import math

import pytest

from benchboard.regressions.runner import History, runs_of


def test_runs_carry_replicates_and_stats_in_base_units() -> None:
    history = History(
        series_id=1,
        higher_is_better=False,
        keys=["a", "b", "c", "d"],
        values=[0.001, 0.002, 0.003, 0.004],  # value_base, seconds
        units={"b": "us", "c": "ms", "gone": "ms"},  # of the results with stats or replicates
        stats={"b": {"n": 10, "median": 2000.0}},
        samples={"c": [3.0, 3.5, 2.5], "gone": [1.0]},  # "gone": outside the window
    )
    found = runs_of(history)
    assert list(found.keys) == ["a", "b", "c", "d"]
    assert list(found.values) == [0.001, 0.002, 0.003, 0.004]
    assert sorted(found.richer) == [1, 2]  # only the results with stats or replicates
    levels = found.levels()
    # b: its stats' median (2,000 us); c: the median of its samples (3, 3.5, 2.5 ms)
    assert [level.level for level in levels] == pytest.approx([0.001, 0.002, 0.003, 0.004])
    assert levels[0].variance is None
    assert levels[3].variance is None
    assert levels[2].n == 3  # with the sampling error of its 3 samples
    assert levels[2].variance == pytest.approx(math.pi / 2 * (1.4826 * 0.0005) ** 2 / 3)


def test_since_a_baseline_reset_keeps_the_richer_runs_in_place() -> None:
    history = History(
        series_id=1,
        higher_is_better=False,
        keys=["a", "b", "c"],
        values=[1.0, 2.0, 3.0],
        units={"c": "s"},
        stats={"c": {"n": 5, "mean": 3.0, "stddev": 0.1}},
        samples={},
    )
    later = runs_of(history).since(1)
    assert list(later.keys) == ["b", "c"]
    assert sorted(later.richer) == [1]
    assert later.levels()[1].n == 5
