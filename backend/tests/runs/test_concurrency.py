"""Two uploads with the same id at the same moment yield exactly one run.

This test commits for real (the race is between two transactions), so it uses its
own engine-backed app and deletes what it stored.
"""

import json
import threading
import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, delete, func, select
from sqlalchemy.orm import Session

from benchboard.config import Settings
from benchboard.main import create_app
from benchboard.models import ApiToken, DetectionQueue, Hardware, Result, Run, Series, Suite
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
