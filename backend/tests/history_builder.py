"""Upload a series' history run by run, as a runner would, with detection after each."""

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import Connection, text

from benchboard.pipeline.runner import CheckReport
from benchboard.pipeline.worker import Worker
from tests.builders import result, run

TEST_WORKER_ID = 1


def check_queued(client: TestClient) -> CheckReport:
    """What a worker would do now: check every queued series, in the test's transaction."""
    state = client.app.state  # type: ignore[attr-defined]
    return Worker(state.settings, state.session_factory, worker_id=TEST_WORKER_ID).drain()


def upload_history(
    client: TestClient,
    auth: dict[str, str],
    values: list[float],
    first_day: int = 0,
    branch: str | None = None,
    *,
    check: bool = True,
    run_fields: dict[str, Any] | None = None,
    **result_fields: Any,
) -> list[str]:
    """One run a day from 2025-01-01 + first_day, so later calls continue the history;
    on `branch` (git.branch) when given; with `check`, the queue is checked after each
    upload, as a worker would."""
    run_ids = []
    for day, value in enumerate(values, start=first_day):
        body = run(
            started_at=f"2025-{1 + day // 28:02d}-{1 + day % 28:02d}T00:00:00Z",
            results=[result(value=value, **result_fields)],
            **(run_fields or {}),
        )
        if branch is not None:
            body["git"] = {"branch": branch, "commit": f"c{day:04d}"}
        response = client.post("/api/v1/runs", json=body, headers=auth)
        assert response.status_code == 201, response.text
        if check:
            check_queued(client)
        run_ids.append(body["id"])
    return run_ids


# Ten runs around 100 us, then ten around 130 us: a 30 % slowdown at run 10.
NOISY_LEVEL = [100.0, 101.0, 99.0, 100.5, 99.5, 100.2, 99.8, 100.7, 99.3, 100.1]
STEPPED = NOISY_LEVEL + [v * 1.3 for v in NOISY_LEVEL]


# Copies of one uploaded run, an hour apart, each value scaled by its copy's number mod
# 7 (a history with a shape), written by SQL in a second; the totals recounted after, as
# after any bulk load.
_COPIES_OF_RUN = text(
    "WITH copies AS ("
    " INSERT INTO run (id, suite, name, started_at, branch, hardware_id, result_count,"
    " upload_body, upload_sha256)"
    " SELECT gen_random_uuid(), suite, name, started_at + n * interval '1 hour', branch,"
    " hardware_id, result_count, upload_body, upload_sha256"
    " FROM run, generate_series(1, :copies) AS n WHERE id = :run"
    " RETURNING id, started_at)"
    " INSERT INTO result (run_id, series_id, started_at, value, unit, value_base, stats)"
    " SELECT copies.id, series_id, copies.started_at, value * f, unit, value_base * f,"
    " stats FROM copies CROSS JOIN result,"
    " LATERAL (SELECT 1 + extract(hour FROM copies.started_at)::int % 7 AS f) AS scale"
    " WHERE result.run_id = :run"
)


def long_series(
    client: TestClient, connection: Connection, auth: dict[str, str], *, runs: int
) -> int:
    """The only series, of `runs` runs an hour apart from 2025-01-01, in the test's
    transaction; its id."""
    body = run(
        started_at="2025-01-01T00:00:00Z",
        results=[result(value=2.5, stats={"n": 5, "mean": 2.5, "stddev": 0.125})],
    )
    assert client.post("/api/v1/runs", json=body, headers=auth).status_code == 201
    connection.execute(_COPIES_OF_RUN, {"run": body["id"], "copies": runs - 1})
    connection.execute(text("SELECT recount_totals()"))
    (series,) = client.get("/api/v1/series").json()["items"]
    assert series["run_count"] == runs
    series_id: int = series["id"]
    return series_id
