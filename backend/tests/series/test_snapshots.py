"""History snapshots (series/snapshots.py): the same bytes as the live query, served
only while no result of the series has changed, built by idle workers; windows sliced
from the snapshot of every point (series/every_point.py)."""

import re
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest
import zstandard
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY
from sqlalchemy import Connection, event, text
from sqlalchemy.orm import Session, sessionmaker

from benchboard.config import REPO_ROOT
from benchboard.pipeline.worker import Worker
from benchboard.series import every_point, snapshots
from tests.builders import result, run
from tests.history_builder import TEST_WORKER_ID, long_series

RUNS = 2500  # more than either snapshot's max_points: both are downsampled


def _history(client: TestClient, series_id: int, **params: Any) -> bytes:
    response = client.get(f"/api/v1/series/{series_id}/history", params=params)
    assert response.status_code == 200, response.text
    return response.content


def _session_factory(connection: Connection) -> sessionmaker[Session]:
    return sessionmaker(bind=connection, join_transaction_mode="create_savepoint")


def _statements(connection: Connection, read: Any) -> list[str]:
    """The statements `read()` sends, savepoints and the ETag's version query (caching.py)
    left out."""
    statements: list[str] = []

    def record(*args: Any) -> None:
        statements.append(args[2])

    event.listen(connection, "before_cursor_execute", record)
    try:
        read()
    finally:
        event.remove(connection, "before_cursor_execute", record)
    return [
        sql for sql in statements if "SAVEPOINT" not in sql and "pg_current_snapshot" not in sql
    ]


def test_a_snapshot_serves_the_live_documents_bytes_in_one_statement(
    client: TestClient, connection: Connection, auth: dict[str, str]
) -> None:
    series_id = long_series(client, connection, auth, runs=RUNS)
    live = {n: _history(client, series_id, max_points=n) for n in snapshots.MAX_POINTS}
    factory = _session_factory(connection)
    with Session(bind=connection) as session:
        assert snapshots.stale_series(session, min_points=1) == [series_id]
    assert snapshots.refresh_snapshots(factory, [series_id], min_points=1) == 1
    assert snapshots.refresh_snapshots(factory, [series_id], min_points=1) == 0  # current
    with Session(bind=connection) as session:
        assert snapshots.stale_series(session, min_points=1) == []
    for max_points, document in live.items():
        reads = _statements(
            connection, lambda n=max_points: _history(client, series_id, max_points=n)
        )
        assert len(reads) == 1, reads  # the series' row and its snapshot: no points query
        assert _history(client, series_id, max_points=max_points) == document
    # What is served is the snapshot: replaced, it shows; other max_points stay live.
    connection.execute(
        text("UPDATE history_snapshot SET points_zstd = :points WHERE max_points = 2000"),
        {"points": zstandard.ZstdCompressor().compress(b"[]")},
    )
    assert client.get(f"/api/v1/series/{series_id}/history").json()["points"] == []
    assert len(client.get(f"/api/v1/series/{series_id}/history?max_points=1500").json()["points"])


# Windows of a series of RUNS points an hour apart from 2025-01-01 00:00 UTC, plus a
# second point at 2025-01-02 00:00 (TIED). Each is cut from the snapshot's index; the
# bytes must be the live query's.
TIED = "2025-01-02T00:00:00Z"
SLICED_WINDOWS: list[dict[str, Any]] = [
    {"since": TIED, "max_points": 2500},  # from two points at one time, both in: 2,477
    {"until": TIED},  # to those two points, both in
    {"since": "2025-01-03T00:30:00Z", "until": "2025-01-05T12:30:00Z"},  # between points
    # Another time zone, and a bound a microsecond after a point.
    {"since": "2025-01-03T01:00:00+01:00", "until": "2025-01-03T05:00:00.000001Z"},
    {"since": "2025-01-01T00:00:00Z", "until": "2025-01-01T00:00:00Z"},  # the first point
    {"since": "2024-06-01T00:00:00Z", "until": "2024-12-31T00:00:00Z"},  # before it: none
    {"since": "2030-01-01T00:00:00Z"},  # after the last: none
    {"since": "2025-01-05T00:00:00Z", "until": "2025-01-04T00:00:00Z"},  # inverted: none
]
# Windows the index counts, but whose points are time buckets written by the live query.
COUNTED_WINDOWS: list[dict[str, Any]] = [
    {"since": "2024-01-01T00:00:00Z"},  # all 2,501 points, over the default 2,000
    {"since": "2025-01-03T00:00:00Z", "until": "2025-01-20T00:00:00Z", "max_points": 100},
]


def test_a_window_is_sliced_from_the_snapshot_of_every_point_with_the_live_bytes(
    client: TestClient, connection: Connection, auth: dict[str, str]
) -> None:
    series_id = long_series(client, connection, auth, runs=RUNS)
    tied = run(started_at=TIED, results=[result(value=7.0)])
    assert client.post("/api/v1/runs", json=tied, headers=auth).status_code == 201
    naive = {"since": "2025-01-03T00:00:00", "until": "2025-01-04T00:00:00"}
    windows = [*SLICED_WINDOWS, *COUNTED_WINDOWS, naive]
    live = [_history(client, series_id, **window) for window in windows]
    assert [len(orjson.loads(document)["points"]) for document in live[:3]] == [2477, 26, 60]
    snapshots.refresh_snapshots(_session_factory(connection), [series_id], min_points=1)
    stored = connection.execute(
        text("SELECT point_index IS NOT NULL FROM history_snapshot WHERE max_points = :every"),
        {"every": every_point.EVERY_POINT},
    )
    assert stored.scalar_one() is True
    for window, document in zip(windows, live, strict=True):
        reads = _statements(connection, lambda w=window: _history(client, series_id, **w))
        assert _history(client, series_id, **window) == document, window
        if window in SLICED_WINDOWS:
            assert len(reads) == 1, (window, reads)  # the series and its snapshot, no more
        elif window in COUNTED_WINDOWS:
            assert len(reads) == 2, (window, reads)  # and the buckets, but no count
        else:  # a bound without a time zone is read in the session's zone: live
            assert len(reads) == 3, (window, reads)


@pytest.mark.parametrize("change", ["upload", "delete", "recount"])
def test_a_change_to_the_series_retires_its_snapshots(
    client: TestClient,
    connection: Connection,
    auth: dict[str, str],
    admin_token: str,
    change: str,
) -> None:
    series_id = long_series(client, connection, auth, runs=RUNS)
    factory = _session_factory(connection)
    snapshots.refresh_snapshots(factory, [series_id], min_points=1)
    before = client.get(f"/api/v1/series/{series_id}/history").json()
    if change == "upload":
        body = run(started_at="2026-01-01T00:00:00Z", results=[result(value=99.0)])
        assert client.post("/api/v1/runs", json=body, headers=auth).status_code == 201
        expected_total = RUNS + 1
    elif change == "delete":
        newest = before["points"][-1]["run_id"]
        response = client.delete(
            f"/api/v1/runs/{newest}", headers={"Authorization": f"Bearer {admin_token}"}
        )
        assert response.status_code == 200, response.text
        expected_total = RUNS - 1
    else:  # retention, a bulk load: results change outside the upload path, then a recount
        connection.execute(
            text("DELETE FROM result WHERE series_id = :id AND started_at < :day_two"),
            {"id": series_id, "day_two": datetime(2025, 1, 2, tzinfo=UTC)},
        )
        connection.execute(text("SELECT recount_totals()"))
        expected_total = RUNS - 24  # the first day: 00:00 to 23:00
    with Session(bind=connection) as session:
        assert snapshots.stale_series(session, min_points=1) == [series_id]
    after = client.get(f"/api/v1/series/{series_id}/history").json()
    assert after["total_points"] == expected_total
    assert sum(point["count"] for point in after["points"]) == expected_total
    assert after["points"] != before["points"]
    window = orjson.loads(_history(client, series_id, since="2024-01-01T00:00:00Z"))
    assert window["total_points"] == expected_total  # counted live, not from the index


def test_an_idle_worker_builds_the_snapshots_of_long_series_only(
    client: TestClient, connection: Connection, auth: dict[str, str]
) -> None:
    """It scans for stale snapshots when it starts, then rebuilds the series it checks."""
    series_id = long_series(client, connection, auth, runs=RUNS)
    short = run(results=[result(benchmark="short")])
    assert client.post("/api/v1/runs", json=short, headers=auth).status_code == 201
    settings = client.app.state.settings.model_copy(update={"snapshot_min_points": RUNS})  # type: ignore[attr-defined]
    worker = Worker(settings, _session_factory(connection), worker_id=TEST_WORKER_ID)
    worker.drain()  # both series' checks
    assert list(worker.snapshots.due) == [series_id]  # the short one is not due
    built_before = REGISTRY.get_sample_value("benchboard_history_snapshots_built_total")
    assert worker.snapshots.refresh() is True
    built = REGISTRY.get_sample_value("benchboard_history_snapshots_built_total")
    assert built == (built_before or 0) + 1
    assert worker.snapshots.refresh() is False  # nothing left: the worker sleeps
    stored = connection.execute(text("SELECT series_id, max_points FROM history_snapshot"))
    kinds = sorted([*snapshots.MAX_POINTS, every_point.EVERY_POINT])
    assert sorted(stored) == [(series_id, n) for n in kinds]
    # A new run: the worker checks the series, then rebuilds it; no scan is due.
    body = run(started_at="2026-01-01T00:00:00Z", results=[result(value=99.0)])
    assert client.post("/api/v1/runs", json=body, headers=auth).status_code == 201
    assert worker.snapshots.refresh() is False  # not checked yet: not known to this worker
    worker.drain()
    assert worker.snapshots.refresh() is True
    with Session(bind=connection) as session:
        assert snapshots.stale_series(session, min_points=RUNS) == []
    history = client.get(f"/api/v1/series/{series_id}/history").json()
    assert history["total_points"] == RUNS + 1


def test_the_dashboards_and_the_apis_max_points_are_snapshotted(client: TestClient) -> None:
    api_ts = (REPO_ROOT / "frontend/src/features/history/api.ts").read_text()
    dashboard = re.search(r"export const MAX_POINTS = (\d+);", api_ts)
    assert dashboard is not None
    history = client.get("/openapi.json").json()["paths"]["/api/v1/series/{series_id}/history"]
    (default,) = [
        p["schema"]["default"] for p in history["get"]["parameters"] if p["name"] == "max_points"
    ]
    assert {int(dashboard.group(1)), default} == set(snapshots.MAX_POINTS)


def test_a_missing_kind_of_snapshot_is_built_alone(
    client: TestClient, connection: Connection, auth: dict[str, str]
) -> None:
    """After the upgrade that added the snapshot of every point, workers write only it."""
    series_id = long_series(client, connection, auth, runs=RUNS)
    factory = _session_factory(connection)
    snapshots.refresh_snapshots(factory, [series_id], min_points=1)
    connection.execute(
        text("UPDATE history_snapshot SET built_at = '2000-01-01T00:00:00Z'"),
    )
    connection.execute(
        text("DELETE FROM history_snapshot WHERE max_points = :every"),
        {"every": every_point.EVERY_POINT},
    )
    with Session(bind=connection) as session:
        assert snapshots.stale_series(session, min_points=1) == [series_id]
    assert snapshots.refresh_snapshots(factory, [series_id], min_points=1) == 1
    rebuilt = connection.execute(
        text("SELECT max_points FROM history_snapshot WHERE built_at > '2000-01-01T00:00:00Z'")
    )
    assert list(rebuilt.scalars()) == [every_point.EVERY_POINT]
