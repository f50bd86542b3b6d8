"""Stored rows become the detector's observations: replicates and stats in base units."""

import pytest

from benchboard.regressions.detect import Observation
from benchboard.regressions.runner import History, observations


def test_observations_carry_replicates_and_stats_in_base_units() -> None:
    history = History(
        series_id=1,
        higher_is_better=False,
        keys=["a", "b", "c", "d"],
        values=[0.001, 0.002, 0.003, 0.004],  # value_base, seconds
        units=["ms", "us", "ms", "s"],
        stats=[None, {"n": 10, "median": 2000.0}, None, None],
        samples={"c": [3.0, 3.5, 2.5], "gone": [1.0]},  # "gone": outside the window
    )
    found = observations(history)
    assert [o.key for o in found] == ["a", "b", "c", "d"]
    assert found[0] == Observation(key="a", value=0.001)
    assert found[1].stats == {"n": 10, "median": pytest.approx(0.002)}
    assert found[1].samples == ()
    assert found[2].samples == pytest.approx((0.003, 0.0035, 0.0025))
    assert found[2].stats is None
    assert found[3] == Observation(key="d", value=0.004)
