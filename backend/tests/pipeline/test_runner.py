"""Stored rows become the detector's runs: replicates and stats in base units."""

import math

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from benchboard.detection.detect import Runs
from benchboard.models import Result
from benchboard.regressions.histories import HISTORY_WINDOW, History, read_histories, runs_of
from benchboard.series.recent import as_observation, recent_results
from tests.builders import result, run


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


def test_a_stored_history_reads_as_every_result_row_says(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    """The worker's statement (units and stats only of the results that have stats,
    replicates by run) gives the runs a plain read of every result row gives."""
    run_ids = []
    for day in range(12):
        value = 100.0 + day % 5
        richer: dict[str, object] = {}
        if day % 4 == 1:
            richer = {"stats": {"n": 10, "mean": value, "stddev": 2.0}}
        elif day % 4 == 2:
            richer = {"samples": [value - 1, value, value + 2]}
        elif day == 3:
            richer = {"stats": {"n": 5, "median": value}, "samples": [value, value + 1]}
        body = run(
            started_at=f"2025-01-{1 + day:02d}T00:00:00Z",
            results=[result(value=value, **richer)],
        )
        response = client.post("/api/v1/runs", json=body, headers=auth)
        assert response.status_code == 201, response.text
        run_ids.append(body["id"])
    series_id = session.scalars(select(Result.series_id).where(Result.run_id == run_ids[0])).one()

    [history] = read_histories(session, [series_id])
    rows = recent_results(session, [series_id], window=HISTORY_WINDOW)[series_id].rows
    expected = Runs.of([as_observation(row) for row in rows])
    found = runs_of(history)
    assert list(found.keys) == list(expected.keys) == run_ids
    assert list(found.values) == list(expected.values)
    assert sorted(found.richer) == [1, 2, 3, 5, 6, 9, 10]
    assert found.richer == expected.richer
