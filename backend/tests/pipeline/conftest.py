"""A committing client for tests whose uploads must be seen by other processes."""

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from benchboard.config import Settings
from benchboard.main import create_app
from benchboard.models import DetectionQueue, Regression, Series
from benchboard.tokens.service import create_token
from tests.builders import result, run
from tests.processes import delete_suite, unique_suite


@dataclass(frozen=True)
class Committing:
    """Uploads that commit for real, all in one suite that is deleted afterwards."""

    client: TestClient
    engine: Engine
    token: str
    suite: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def run_body(self, day: int, value: float, benchmarks: list[str]) -> dict[str, Any]:
        """One run a day from 2025-01-01: every benchmark at `value`."""
        return run(
            suite=self.suite,
            hardware={"name": f"{self.suite}-machine"},
            started_at=f"2025-{1 + day // 28:02d}-{1 + day % 28:02d}T00:00:00Z",
            results=[result(benchmark=b, value=value) for b in benchmarks],
        )

    def upload(self, body: dict[str, Any]) -> None:
        response = self.client.post("/api/v1/runs", json=body, headers=self.auth)
        assert response.status_code == 201, response.text

    def queued(self) -> int:
        """Series of the suite still in the detection queue."""
        with Session(self.engine) as session:
            return (
                session.scalar(
                    select(func.count())
                    .select_from(DetectionQueue)
                    .join(Series, Series.id == DetectionQueue.series_id)
                    .where(Series.suite == self.suite)
                )
                or 0
            )

    def regressions(self) -> list[Regression]:
        """The suite's visible (not retracted) detected changes."""
        with Session(self.engine) as session:
            return list(
                session.scalars(
                    select(Regression)
                    .join(Series, Series.id == Regression.series_id)
                    .where(Series.suite == self.suite, Regression.retracted_at.is_(None))
                )
            )


@pytest.fixture
def committing(settings: Settings, engine: Engine) -> Iterator[Committing]:
    suite = unique_suite("committed")
    with Session(engine) as session, session.begin():
        token = create_token(session, name=f"{suite}-upload", scope="upload")
    app = create_app(settings, database_url=engine.url.render_as_string(hide_password=False))
    try:
        with TestClient(app) as client:
            yield Committing(client, engine, token, suite)
    finally:
        delete_suite(engine, suite)
        app.state.engine.dispose()
