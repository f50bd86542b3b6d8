"""The service on a real port, for tests that drive the ingest CLI or client over HTTP."""

import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import uvicorn
from sqlalchemy import Engine, delete, select
from sqlalchemy.orm import Session

from benchboard.config import Settings
from benchboard.main import create_app
from benchboard.models import ApiToken, DetectionQueue, Hardware, Run, Series, Suite
from benchboard.tokens.service import create_token
from tests.processes import free_port

START_TIMEOUT_S = 60.0


@dataclass
class LiveService:
    """Where the service listens, an upload token, and what a test wrote (cleaned up:
    these requests commit to the test database, outside any test transaction)."""

    url: str
    token: str  # upload scope
    maintain_token: str
    suites: set[str] = field(default_factory=set)
    machines: set[str] = field(default_factory=set)


@contextmanager
def live_service_on(
    settings: Settings, engine: Engine, *, database_url: str | None = None
) -> Iterator[LiveService]:
    """The service in this process on the test database (or `database_url`, the same
    database with other connection options); what the test names in `suites` and
    `machines` is deleted afterwards."""
    with Session(engine) as session, session.begin():
        token = create_token(session, name=f"cli-{uuid.uuid4()}", scope="upload")
        maintain = create_token(session, name=f"cli-{uuid.uuid4()}", scope="maintain")
    url = database_url or engine.url.render_as_string(hide_password=False)
    app = create_app(settings, database_url=url)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    _wait_started(server, thread)
    live = LiveService(f"http://127.0.0.1:{port}", token, maintain)
    try:
        yield live
    finally:
        server.should_exit = True
        thread.join()
        _forget(engine, live)
        app.state.engine.dispose()


def _wait_started(server: uvicorn.Server, thread: threading.Thread) -> None:
    """Until the server listens; fail fast when it stopped (a failed bind ends its thread)
    or after START_TIMEOUT_S, instead of hanging the test run."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the live service stopped before it listened (see its log)")
        if time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError(f"the live service did not listen within {START_TIMEOUT_S:.0f} s")
        time.sleep(0.05)


def _forget(engine: Engine, live: LiveService) -> None:
    with Session(engine) as session, session.begin():
        live_series = select(Series.id).where(Series.suite.in_(live.suites)).scalar_subquery()
        session.execute(delete(DetectionQueue).where(DetectionQueue.series_id.in_(live_series)))
        session.execute(delete(Run).where(Run.suite.in_(live.suites)))
        session.execute(delete(Series).where(Series.suite.in_(live.suites)))
        session.execute(delete(Suite).where(Suite.name.in_(live.suites)))
        session.execute(delete(Hardware).where(Hardware.name.in_(live.machines)))
        session.execute(delete(ApiToken).where(ApiToken.name.like("cli-%")))
