"""Tests run on a real PostgreSQL: an embedded one under .data/test unless
BENCHBOARD_TEST_DATABASE_URL names a server. The database is re-created and migrated
once per session; each test runs inside a transaction that is rolled back.
"""

import os
from collections.abc import Callable, Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Connection, Engine
from sqlalchemy.orm import Session, sessionmaker

from benchboard.config import REPO_ROOT, Settings
from benchboard.database_server import recreate_database
from benchboard.db import make_engine
from benchboard.main import create_app
from benchboard.migrate import upgrade_database
from benchboard.tokens.service import create_token

_FIGURES = pytest.StashKey[list[str]]()


@pytest.fixture(scope="session")
def settings() -> Settings:
    return Settings(
        database_url=os.environ.get("BENCHBOARD_TEST_DATABASE_URL"),
        data_dir=REPO_ROOT / ".data" / "test",
        database_name="benchboard_test",
        demo=False,
        max_body_bytes=1024 * 1024,
        # A test's writes stay in its transaction, where the data version (caching.py)
        # does not see them: kept answers would be stale. test_caching.py turns it on.
        read_cache_mb=0,
    )


@pytest.fixture(scope="session")
def engine(settings: Settings) -> Iterator[Engine]:
    engine = make_engine(recreate_database(settings))
    upgrade_database(settings, engine)
    yield engine
    engine.dispose()


@pytest.fixture
def connection(engine: Engine) -> Iterator[Connection]:
    with engine.connect() as connection:
        transaction = connection.begin()
        yield connection
        transaction.rollback()


@pytest.fixture
def session(connection: Connection) -> Iterator[Session]:
    with Session(bind=connection, join_transaction_mode="create_savepoint") as session:
        yield session


@pytest.fixture
def app(settings: Settings, engine: Engine, connection: Connection) -> FastAPI:
    app = create_app(settings, database_url=engine.url.render_as_string(hide_password=False))
    # Requests commit to a savepoint of the test's transaction, which is rolled back.
    app.state.session_factory = sessionmaker(
        bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
    )
    return app


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


def _token(session: Session, scope: str) -> str:
    token = create_token(session, name=f"test-{scope}", scope=scope)  # type: ignore[arg-type]
    session.commit()
    return token


@pytest.fixture
def upload_token(session: Session) -> str:
    return _token(session, "upload")


@pytest.fixture
def maintain_token(session: Session) -> str:
    return _token(session, "maintain")


@pytest.fixture
def admin_token(session: Session) -> str:
    return _token(session, "admin")


@pytest.fixture
def auth(upload_token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {upload_token}"}


@pytest.fixture
def report_figure(request: pytest.FixtureRequest) -> Callable[[str], None]:
    """Record a figure a test measured: the run's summary prints it under "figures", so
    every `make test` log carries it, with or without `-s`, passed or failed."""
    return request.config.stash.setdefault(_FIGURES, []).append


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    figures = config.stash.get(_FIGURES, [])
    if figures:
        terminalreporter.section("figures")
        for line in figures:
            terminalreporter.write_line(line)
