"""The detection queue inside one transaction: coalescing, re-requests, failures."""

from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, select, text
from sqlalchemy.orm import Session

from benchboard.models import DetectionQueue
from benchboard.pipeline import queue, runner
from benchboard.pipeline.runner import check_series
from tests.builders import result, run
from tests.history_builder import STEPPED, TEST_WORKER_ID, check_queued, upload_history

BENCHMARKS = ("coalesce-a", "coalesce-b", "coalesce-c")


def _upload(client: TestClient, auth: dict[str, str], day: int, value: float = 100.0) -> None:
    body = run(
        started_at=f"2025-01-{1 + day:02d}T00:00:00Z",
        results=[result(benchmark=b, value=value) for b in BENCHMARKS],
    )
    assert client.post("/api/v1/runs", json=body, headers=auth).status_code == 201


def _queue(session: Session) -> list[DetectionQueue]:
    return list(session.scalars(select(DetectionQueue).order_by(DetectionQueue.series_id)))


def test_n_uploads_before_a_check_make_one_check_per_series(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    for day in range(5):
        _upload(client, auth, day)
    assert [row.requests for row in _queue(session)] == [5, 5, 5]
    report = check_queued(client)
    assert report.series == len(BENCHMARKS)
    assert _queue(session) == []


def test_an_upload_during_a_check_keeps_the_series_queued(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    """The check read the history before the upload: the series must be checked again."""
    upload_history(client, auth, STEPPED[:10])  # checked after each
    factory = client.app.state.session_factory  # type: ignore[attr-defined]
    # One value after the step: not enough to report it (two are).
    upload_history(client, auth, [STEPPED[10]], first_day=10, check=False)
    with factory() as claiming, claiming.begin():
        claimed = queue.claim_batch(
            claiming, worker=TEST_WORKER_ID, limit=10, claim_timeout=timedelta(minutes=1)
        )
    with factory() as checking, checking.begin():
        check_series(checking, [c.series_id for c in claimed], notify_webhook=False)
        upload_history(client, auth, STEPPED[11:], first_day=11, check=False)
        queue.finish_batch(checking, worker=TEST_WORKER_ID, claimed=claimed)
    (left,) = _queue(session)
    assert (left.claimed_by, left.requests) == (None, claimed[0].requests + 9)
    assert client.get("/api/v1/regressions").json()["items"] == []
    assert check_queued(client).series == 1
    assert len(client.get("/api/v1/regressions").json()["items"]) == 1


def test_a_failing_series_backs_off_alone(
    client: TestClient, auth: dict[str, str], session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    detect = runner.detect_changes

    def failing_for_b(runs, **options):  # type: ignore[no-untyped-def]
        if runs.values[0] > 150e-6:  # the 200 us series (values in base units)
            raise ValueError("detector broke")
        return detect(runs, **options)

    monkeypatch.setattr(runner, "detect_changes", failing_for_b)
    body = run(results=[result(benchmark="ok", value=100.0), result(benchmark="b", value=200.0)])
    assert client.post("/api/v1/runs", json=body, headers=auth).status_code == 201
    assert check_queued(client).series == 1  # the good one; the bad one waits
    (failed,) = _queue(session)
    assert failed.last_error == "ValueError: detector broke"
    assert failed.claimed_by is None
    assert failed.not_before > failed.queued_at
    health = client.get("/api/v1/health").json()["detection"]
    assert (health["queued_series"], health["retrying_series"], health["failing_series"]) == (
        1,
        1,
        0,
    )


def test_run_and_regression_pages_say_detection_is_pending(
    client: TestClient, auth: dict[str, str]
) -> None:
    body = run(results=[result(benchmark=b) for b in BENCHMARKS])
    assert client.post("/api/v1/runs", json=body, headers=auth).status_code == 201

    def pending() -> tuple[int, int, int]:
        detail = client.get(f"/api/v1/runs/{body['id']}").json()
        listed = client.get("/api/v1/regressions", params={"suite": body["suite"]}).json()
        other = client.get("/api/v1/regressions", params={"language": "go"}).json()
        return (
            detail["detection_pending_series"],
            listed["detection_pending_series"],
            other["detection_pending_series"],
        )

    assert pending() == (3, 3, 0)
    check_queued(client)
    assert pending() == (0, 0, 0)


def test_a_queued_series_that_was_deleted_is_checked_to_nothing(
    client: TestClient, session: Session
) -> None:
    queue.enqueue_series(session, [987_654_321])  # no such series (the queue has no FK)
    assert check_queued(client).series == 0
    assert _queue(session) == []


def test_claims_and_finishes_join_the_queue_to_nothing(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    """A vacuum of the drained queue leaves statistics that say it is empty, and a join
    planned for one row of it ran a nested loop over all of them when a big upload had
    filled it again: 100,000 rows scanned for each of a batch's 1,000, 13 s a batch
    (bench/README.md, stop 41). Every statement of a claim and a finish reaches the queue
    by its own conditions, so no plan of theirs can multiply its rows."""
    _upload(client, auth, day=0)
    statements: list[tuple[str, Any]] = []

    def capture(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if "detection_queue" in statement:
            statements.append((statement, parameters))

    connection = session.connection()
    event.listen(connection, "before_cursor_execute", capture)
    try:
        claimed = queue.claim_batch(
            session, worker=TEST_WORKER_ID, limit=10, claim_timeout=timedelta(minutes=1)
        )
        queue.finish_batch(session, worker=TEST_WORKER_ID, claimed=claimed)
    finally:
        event.remove(connection, "before_cursor_execute", capture)
    assert len(claimed) == len(BENCHMARKS)
    assert _queue(session) == []
    assert len(statements) >= 4  # give-ups, two claims, the locking read, delete, release
    for statement, parameters in statements:
        plan = "\n".join(
            row[0] for row in connection.exec_driver_sql(f"EXPLAIN {statement}", parameters)
        )
        assert "Join" not in plan, plan
        assert "Nested Loop" not in plan, plan


def test_claims_are_planned_for_the_queue_as_it_is_each_time(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    """The queue swings between empty and a big upload's 100,000 series. A worker's
    connection prepares its repeated statements, and a generic plan made while the
    queue was empty (nested loops over sequential scans) took 13 s a claim at 96,000
    rows until autoanalyze replaced it (bench/README.md, stop 39)."""
    _upload(client, auth, day=0)
    series_ids = [row.series_id for row in _queue(session)]
    for _ in range(12):  # past psycopg's prepare threshold and PostgreSQL's 5 custom plans
        queue.enqueue_series(session, series_ids)
        claimed = queue.claim_batch(
            session, worker=TEST_WORKER_ID, limit=10, claim_timeout=timedelta(minutes=1)
        )
        queue.finish_batch(session, worker=TEST_WORKER_ID, claimed=claimed)
    assert _queue(session) == []
    plans = session.execute(
        text(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements"
            " WHERE statement LIKE '%detection_queue%'"
        )
    ).all()
    assert len(plans) >= 5  # claims and finishes were prepared, as in a worker
    assert [generic for generic, _ in plans] == [0] * len(plans)
