"""Contention is not an outage: a request that loses a lock race (deadlock, lock
timeout, serialization failure) is a 503 `database_busy` with a short Retry-After; an
unreachable database stays `database_unavailable` (test_bounds.py, test_outage.py)."""

import threading
import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, Engine, create_engine, func, select, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from benchboard.errors import DatabaseBusy, DatabaseUnavailable, database_failure
from benchboard.models import Run
from tests.builders import run
from tests.processes import free_port


def test_an_upload_that_times_out_on_a_lock_is_503_database_busy(
    client: TestClient,
    auth: dict[str, str],
    connection: Connection,
    engine: Engine,
    session: Session,
) -> None:
    body = run()
    connection.exec_driver_sql("SET lock_timeout = '200ms'")  # undone with the test's rollback
    with engine.connect() as holder:
        # Every upload adds to its suite branch's totals: a SHARE lock makes it wait.
        holder.exec_driver_sql("LOCK TABLE suite_branch IN SHARE MODE")
        response = client.post("/api/v1/runs", json=body, headers=auth)
        holder.rollback()
    assert response.status_code == 503, response.text
    assert response.json()["error"] == "database_busy"
    assert response.headers["Retry-After"] == str(DatabaseBusy.retry_after_s)
    stored = select(func.count()).select_from(Run).where(Run.id == uuid.UUID(body["id"]))
    assert session.scalar(stored) == 0
    # The same request, sent again once the lock is gone, is stored.
    assert client.post("/api/v1/runs", json=body, headers=auth).status_code == 201


def test_a_deadlock_is_contention(engine: Engine) -> None:
    """Two transactions each wait for the other's advisory lock: PostgreSQL aborts one."""
    failures: list[Exception] = []
    with engine.connect() as first, engine.connect() as second:
        first.execute(text("SELECT pg_advisory_xact_lock(20001)"))
        second.execute(text("SELECT pg_advisory_xact_lock(20002)"))

        def take(connection: Connection, key: int) -> None:
            try:
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})
            except OperationalError as error:
                failures.append(error)
                connection.rollback()  # releases its locks: the other one proceeds

        waiting = threading.Thread(target=take, args=(first, 20002))
        waiting.start()
        take(second, 20001)
        waiting.join(timeout=30)
        first.rollback()
        second.rollback()
    assert len(failures) == 1
    assert isinstance(database_failure(failures[0]), DatabaseBusy)


@pytest.mark.parametrize("state", ["serialization_failure", "deadlock_detected"])
def test_transaction_rollback_errors_are_contention(engine: Engine, state: str) -> None:
    raising = f"DO $$ BEGIN RAISE EXCEPTION 'raised' USING ERRCODE = '{state}'; END $$"
    with engine.connect() as connection, pytest.raises(OperationalError) as raised:
        connection.exec_driver_sql(raising)
    assert isinstance(database_failure(raised.value), DatabaseBusy)


def test_a_refused_connection_is_an_outage(unreachable_engine: Engine) -> None:
    with pytest.raises(OperationalError) as raised, unreachable_engine.connect():
        pass
    assert isinstance(database_failure(raised.value), DatabaseUnavailable)


@pytest.fixture
def unreachable_engine() -> Iterator[Engine]:
    """Nothing listens on the port it names."""
    engine = create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/none")
    yield engine
    engine.dispose()
