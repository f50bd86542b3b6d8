"""A series whose check fails or kills its worker cannot stop the others being checked:
a claim is a lease with backoff, a failed batch's series are claimed one at a time, and a
series that keeps failing is marked failing (health, /metrics, its detection state) and
skipped until new data or a maintainer's retry. What a failure means decides what follows
(pipeline/failures.py)."""

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from benchboard.config import Settings
from benchboard.models import DetectionQueue, Series
from benchboard.pipeline import runner
from benchboard.pipeline.failures import Failure, classify
from benchboard.pipeline.worker import Worker
from tests.builders import result, run
from tests.history_builder import TEST_WORKER_ID
from tests.pipeline.conftest import Committing

# Fast backoff and few attempts, so that a test sees a series through to failing.
FAST = {"detect_retry_s": 0.0, "detect_max_attempts": 3, "detect_batch_size": 20}


def _queue_row(session: Session, series_id: int) -> DetectionQueue | None:
    return session.scalars(
        select(DetectionQueue).where(DetectionQueue.series_id == series_id)
    ).one_or_none()


def _poison_detector(monkeypatch: pytest.MonkeyPatch, value: float) -> None:
    """The detector raises on the series measured at `value` us (values in base units)."""
    detect = runner.detect_changes

    def failing(runs: Any, **options: Any) -> Any:
        if abs(runs.values[0] - value * 1e-6) < 1e-12:
            raise ValueError("detector broke")
        return detect(runs, **options)

    monkeypatch.setattr(runner, "detect_changes", failing)


def test_a_series_failing_every_check_is_marked_failing_and_skipped(
    client: TestClient,
    auth: dict[str, str],
    maintain_token: str,
    session: Session,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mended = runner.detect_changes
    _poison_detector(monkeypatch, 666.0)
    results = [result(benchmark=f"ok-{i}", value=100.0 + i) for i in range(5)]
    body = run(results=[*results, result(benchmark="poison", value=666.0)])
    assert client.post("/api/v1/runs", json=body, headers=auth).status_code == 201
    poison = session.scalars(select(Series.id).where(Series.benchmark == "poison")).one()
    state = client.app.state  # type: ignore[attr-defined]
    worker = Worker(settings.model_copy(update=FAST), state.session_factory, TEST_WORKER_ID)
    assert worker.drain().series == 5  # every other series, checked
    failed = _queue_row(session, poison)
    assert failed is not None
    assert failed.failed_at is not None
    assert (failed.attempts, failed.last_error) == (3, "ValueError: detector broke")
    health = client.get("/api/v1/health").json()["detection"]
    assert (health["queued_series"], health["failing_series"]) == (1, 1)
    metrics = client.get("/metrics").text
    assert "benchboard_detection_queue_failing_series 1.0" in metrics
    detection = client.get(f"/api/v1/series/{poison}/detection").json()
    assert detection["check_failure"]["failing"] is True
    assert detection["text"].startswith("Change detection is failing on this series")
    # Skipped: nothing is due.
    assert worker.drain().series == 0
    # A maintainer's retry: tried afresh (and, still broken, marked failing again).
    retry = f"/api/v1/series/{poison}/detection/retry"
    assert client.post(retry, headers=auth).status_code == 403
    answer = client.post(retry, headers={"Authorization": f"Bearer {maintain_token}"})
    assert answer.status_code == 204
    session.expire_all()
    retried = _queue_row(session, poison)
    assert retried is not None
    assert (retried.failed_at, retried.attempts, retried.last_error) == (None, 0, None)
    assert worker.drain().series == 0
    # New data ends the mark too; the detector, mended, checks it.
    monkeypatch.setattr(runner, "detect_changes", mended)
    newer = run(started_at="2025-03-21T12:00:00Z", results=[result(benchmark="poison", value=1.0)])
    assert client.post("/api/v1/runs", json=newer, headers=auth).status_code == 201
    assert worker.drain().series == 1
    session.expire_all()
    assert _queue_row(session, poison) is None


def test_a_series_whose_check_kills_the_connection_cannot_crash_loop_the_worker(
    committing: Committing, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check of one series ends its database connection (as a crash of the backend, or
    an OOM kill, would): the real worker loop reconnects, the batch's other series are
    claimed one at a time after the lease and checked, and the poison is marked failing."""
    benchmarks = [f"s{i:02d}" for i in range(12)]
    committing.upload(committing.run_body(0, 100.0, benchmarks))
    with Session(committing.engine) as session:
        rows = session.execute(
            select(Series.benchmark, Series.id).where(Series.suite == committing.suite)
        )
        ids = {benchmark: series_id for benchmark, series_id in rows}
    poison = ids["s07"]
    read = runner.read_histories

    def killing(session: Session, series_ids: Any) -> Iterator[Any]:
        if poison in series_ids:
            session.execute(text("SELECT pg_terminate_backend(pg_backend_pid())"))
        return read(session, series_ids)

    monkeypatch.setattr(runner, "read_histories", killing)
    monkeypatch.setattr("benchboard.pipeline.worker.RECONNECT_WAIT_S", 0.05)
    state = committing.client.app.state  # type: ignore[attr-defined]
    url = committing.engine.url.render_as_string(hide_password=False)
    worker = Worker(settings.model_copy(update=FAST), state.session_factory, url)

    def settled() -> bool:
        with Session(committing.engine) as session:
            rows = session.scalars(
                select(DetectionQueue).where(DetectionQueue.series_id.in_(ids.values()))
            ).all()
        return [(row.series_id, row.failed_at is not None) for row in rows] == [(poison, True)]

    def watch() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not settled():
            time.sleep(0.2)
        worker.stopping.set()

    watcher = threading.Thread(target=watch)
    watcher.start()
    worker.run()  # in this thread: it installs signal handlers
    watcher.join()
    assert settled(), "the other series were not all checked, or the poison not marked"


@pytest.mark.parametrize(
    ("timeout_ms", "statement", "meaning"),
    [
        (0, "SELECT 1 / 0", Failure.GIVE_UP),  # 22012, a data exception
        (1, "SELECT pg_sleep(1)", Failure.RETRY),  # 57014, cancelled by statement_timeout
        (0, "SELECT pg_terminate_backend(pg_backend_pid())", Failure.OUTAGE),  # 57P01
    ],
)
def test_failures_are_told_apart(
    engine: Engine, timeout_ms: int, statement: str, meaning: Failure
) -> None:
    with engine.connect() as connection:
        connection.execute(text(f"SET statement_timeout = {timeout_ms}"))
        with pytest.raises(DBAPIError) as raised:
            connection.execute(text(statement))
    assert classify(raised.value) is meaning
    assert classify(ValueError("the detector broke")) is Failure.RETRY
