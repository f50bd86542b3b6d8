"""Two uploads with the same id at the same moment yield exactly one run; two that create
the same series at the same moment share it.

This test commits for real (the race is between two transactions), so it uses its
own engine-backed app and deletes what it stored.
"""

import json
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, delete, func, select, text
from sqlalchemy.orm import Session

from benchboard.config import Settings
from benchboard.main import create_app
from benchboard.models import ApiToken, DetectionQueue, Hardware, Result, Run, Series, Suite
from benchboard.runs.resolve import Placement, resolve_series, series_rows
from benchboard.runs.schemas import RunUpload
from benchboard.tokens.service import create_token
from tests.builders import result, run


@pytest.fixture
def committing_client(settings: Settings, engine: Engine) -> Iterator[tuple[TestClient, str]]:
    with Session(engine) as session, session.begin():
        token = create_token(session, name=f"race-{uuid.uuid4()}", scope="upload")
    app = create_app(settings, database_url=engine.url.render_as_string(hide_password=False))
    with TestClient(app) as client:
        yield client, token
    with Session(engine) as session, session.begin():
        race = select(Series.id).where(Series.suite == "race").scalar_subquery()
        session.execute(delete(DetectionQueue).where(DetectionQueue.series_id.in_(race)))
        session.execute(delete(Run).where(Run.suite == "race"))
        session.execute(delete(Series).where(Series.suite == "race"))
        session.execute(delete(Suite).where(Suite.name == "race"))
        session.execute(delete(Hardware).where(Hardware.name == "race-machine"))
        session.execute(delete(ApiToken).where(ApiToken.name.like("race-%")))
    app.state.engine.dispose()


def test_concurrent_uploads_with_one_id_store_one_run(
    committing_client: tuple[TestClient, str], engine: Engine
) -> None:
    client, token = committing_client
    body = json.dumps(
        run(
            suite="race",
            hardware={"name": "race-machine"},
            results=[result(benchmark=f"b{i}") for i in range(2000)],
        )
    )
    statuses: list[int] = []
    barrier = threading.Barrier(4)

    def upload() -> None:
        barrier.wait()
        response = client.post(
            "/api/v1/runs",
            content=body,
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        )
        statuses.append(response.status_code)

    threads = [threading.Thread(target=upload) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 200, 200, 201]
    run_id = uuid.UUID(json.loads(body)["id"])
    with Session(engine) as session:
        assert session.scalar(select(func.count()).select_from(Run).where(Run.id == run_id)) == 1
        assert (
            session.scalar(select(func.count()).select_from(Result).where(Result.run_id == run_id))
            == 2000
        )


def test_an_upload_that_loses_the_race_for_a_new_series_extends_the_winners(
    committing_client: tuple[TestClient, str], engine: Engine
) -> None:
    """Another upload holds the same new series, inserted and not yet committed: this one
    waits for it, finds the series taken when it commits, and extends that series (its
    plain INSERT fails, and the rows go again with ON CONFLICT DO NOTHING)."""
    client, token = committing_client
    headers = {"Authorization": f"Bearer {token}"}
    machine = {"name": "race-machine"}
    first = client.post("/api/v1/runs", json=run(suite="race", hardware=machine), headers=headers)
    assert first.status_code == 201, first.text
    body = run(suite="race", hardware=machine, results=[result(benchmark="contested")])
    with Session(engine) as winner:
        hardware_id = winner.scalar(select(Hardware.id).where(Hardware.name == "race-machine"))
        assert hardware_id is not None
        placement = Placement("race", "main", hardware_id)
        _, created = resolve_series(
            winner, [(placement, series_rows(RunUpload.model_validate(body)))]
        )
        assert len(created) == 1
        responses: list[Any] = []
        loser = threading.Thread(
            target=lambda: responses.append(client.post("/api/v1/runs", json=body, headers=headers))
        )
        loser.start()
        _wait_until_an_insert_waits_for_a_lock(engine)
        winner.commit()
        loser.join()
    (response,) = responses
    assert response.status_code == 201, response.text
    with Session(engine) as session:
        contested = session.scalars(
            select(Series.id).where(Series.suite == "race", Series.benchmark == "contested")
        ).all()
        assert len(contested) == 1
        extended = select(Result.series_id).where(Result.run_id == uuid.UUID(body["id"]))
        assert session.scalars(extended).all() == contested


def _wait_until_an_insert_waits_for_a_lock(engine: Engine) -> None:
    waiting = text(
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO series%'"
    )
    deadline = time.monotonic() + 30
    with engine.connect() as conn:
        while not conn.scalar(waiting):
            assert time.monotonic() < deadline, "the second upload never waited for the first"
            time.sleep(0.01)
            conn.rollback()
