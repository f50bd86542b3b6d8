"""A history's JSON has exactly SeriesHistory's keys and types, in every shape.

series/history.py writes the document from its own table of fields (`_FIELDS`), in SQL,
and splices the bytes together; pydantic never sees them. These tests read the bytes as
served, a snapshot's included, and hold them to the schema: strict types, and every
object's keys exactly its model's fields, so a field added to the SQL or to the schema
alone fails here.
"""

from typing import Any

import orjson
from fastapi.testclient import TestClient
from pydantic import BaseModel
from sqlalchemy import Connection
from sqlalchemy.orm import Session

from benchboard.series import history, snapshots
from benchboard.series.schemas import HistoryPoint, SeriesHistory, SeriesIdentity
from tests.builders import result, run
from tests.history_builder import long_series

# A point of one run leaves these out (optional in HistoryPoint); a bucket has them all.
_LEFT_OUT_OF_A_RUNS_POINT = {"min_base", "max_base"}


def _keys(model: type[BaseModel]) -> set[str]:
    return set(model.model_fields)


def _assert_exactly_the_schema(raw: bytes) -> SeriesHistory:
    """The document validates strictly, and no object has a key more or less than its
    model (pydantic alone would ignore an extra key and fill a missing optional one)."""
    document = SeriesHistory.model_validate_json(raw, strict=True)
    parsed: dict[str, Any] = orjson.loads(raw)
    assert set(parsed) == _keys(SeriesHistory)
    assert set(parsed["series"]) == _keys(SeriesIdentity)
    point_keys = _keys(HistoryPoint)
    if not document.downsampled:
        point_keys -= _LEFT_OUT_OF_A_RUNS_POINT
    for point in parsed["points"]:
        assert set(point) == point_keys, point
    return document


def _history(client: TestClient, series_id: int, **params: Any) -> bytes:
    response = client.get(f"/api/v1/series/{series_id}/history", params=params)
    assert response.status_code == 200, response.text
    content: bytes = response.content
    return content


def test_points_buckets_and_windows_have_exactly_the_schemas_keys(
    client: TestClient, auth: dict[str, str]
) -> None:
    for day in range(1, 31):
        stats = {"n": 5, "mean": float(day), "stddev": 0.5} if day % 3 else None
        body = run(
            started_at=f"2025-01-{day:02d}T00:00:00Z",
            results=[result(value=float(day), stats=stats)],
        )
        response = client.post("/api/v1/runs", json=body, headers=auth)
        assert response.status_code == 201, response.text
    (series,) = client.get("/api/v1/series").json()["items"]
    window = {"since": "2025-01-05T00:00:00Z", "until": "2025-01-25T00:00:00Z"}
    shapes: dict[str, dict[str, Any]] = {
        "points": {},
        "buckets": {"max_points": 10},
        "window of points": window,
        "window of buckets": {**window, "max_points": 10},
        "empty window": {"since": "2026-01-01T00:00:00Z"},
    }
    downsampled = {
        name: _assert_exactly_the_schema(_history(client, series["id"], **params)).downsampled
        for name, params in shapes.items()
    }
    assert downsampled == {
        "points": False,
        "buckets": True,
        "window of points": False,
        "window of buckets": True,
        "empty window": False,
    }


def test_a_snapshots_history_has_exactly_the_schemas_keys(
    client: TestClient, auth: dict[str, str], connection: Connection, session: Session
) -> None:
    series_id = long_series(client, connection, auth, runs=1500)
    built = snapshots.refresh_snapshots(
        client.app.state.session_factory,  # type: ignore[attr-defined]
        [series_id],
        min_points=1,
    )
    assert built == 1
    for max_points in snapshots.MAX_POINTS:  # 1,500 points in 1,000 buckets, and as stored
        span = history.get_series_span(session, series_id, snapshot_of=max_points)
        assert span.snapshot is not None  # the answer is the snapshot's
        document = _assert_exactly_the_schema(_history(client, series_id, max_points=max_points))
        assert document.downsampled is (max_points < 1500)
