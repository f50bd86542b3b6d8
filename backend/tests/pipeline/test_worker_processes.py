"""Detection workers as production runs them: separate processes, real commits, crashes.

Each test uses its own suite (see conftest.Committing) and deletes it afterwards.
"""

import logging
import os
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Engine, select, text

from benchboard.detection.detect import Observation, detect_changes
from benchboard.models import Series
from tests.history_builder import STEPPED
from tests.pipeline.conftest import Committing
from tests.processes import GUARD_S, Process, free_port, processes, service_env, wait_for

BENCHMARKS = [f"bench-{i:02d}" for i in range(12)]


def _quiet(*outputs: str) -> None:
    """No error, traceback, deadlock or unique violation in any process's log."""
    for output in outputs:
        for marker in ("ERROR", "Traceback", "deadlock", "UniqueViolation"):
            assert marker not in output, output[-3000:]


@contextmanager
def _regressions_locked(engine: Engine) -> Iterator[None]:
    """Block writes to `regression` (reads and uploads go on): a worker that stores a
    change waits here, inside its batch, until the block ends."""
    with engine.connect() as connection, connection.begin():
        connection.execute(text("LOCK TABLE regression IN SHARE MODE"))
        yield


def _waiting_on_a_lock(engine: Engine) -> bool:
    with engine.connect() as connection:
        waiting = connection.scalar(
            text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock'"
            )
        )
    return bool(waiting)


def test_concurrent_uploads_to_the_same_series_store_one_regression_per_step(
    committing: Committing, engine: Engine, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Several CI jobs of one suite upload at once while two workers check."""
    bodies = [committing.run_body(day, value, BENCHMARKS) for day, value in enumerate(STEPPED)]
    with caplog.at_level(logging.WARNING), processes(tmp_path) as start:
        workers = [start(["worker"], service_env(engine)) for _ in range(2)]
        wait_for("both workers listen", lambda: _workers_listening(engine) == 2)
        with ThreadPoolExecutor(max_workers=4) as uploads:
            list(uploads.map(committing.upload, bodies))
        wait_for("every series checked", lambda: committing.queued() == 0)
        assert [worker.stop() for worker in workers] == [0, 0]
    found = committing.regressions()
    step_runs = {str(body["id"]) for body in bodies[10:13]}  # the step, within tolerance
    assert sorted(len([r for r in found if r.series_id == s]) for s in _series(committing)) == [
        1
    ] * len(BENCHMARKS)
    assert all(r.direction == "regression" and str(r.run_id) in step_runs for r in found)
    _quiet(*(worker.output() for worker in workers))
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


def _workers_listening(engine: Engine) -> int:
    with engine.connect() as connection:
        listening = connection.scalar(
            text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND application_name = 'benchboard-worker'"
            )
        )
    return int(listening or 0)


def _series(committing: Committing) -> list[int]:
    with committing.engine.connect() as connection:
        return list(connection.scalars(select(Series.id).where(Series.suite == committing.suite)))


def test_a_worker_killed_mid_batch_gives_its_batch_back(
    committing: Committing, engine: Engine, tmp_path: Path
) -> None:
    for day, value in enumerate(STEPPED):
        committing.upload(committing.run_body(day, value, BENCHMARKS))
    assert committing.queued() == len(BENCHMARKS)
    with processes(tmp_path) as start:
        with _regressions_locked(engine):
            doomed = start(["worker"], service_env(engine))
            wait_for("the worker is inside its batch", lambda: _waiting_on_a_lock(engine))
            doomed.kill()
        assert committing.regressions() == []  # the killed batch never committed
        assert committing.queued() == len(BENCHMARKS)
        survivor = start(["worker"], service_env(engine))
        wait_for("every series checked", lambda: committing.queued() == 0)
        assert survivor.stop() == 0
    assert len(committing.regressions()) == len(BENCHMARKS)
    _quiet(survivor.output())


def test_a_worker_stopped_mid_batch_commits_the_batch_and_exits_cleanly(
    committing: Committing, engine: Engine, tmp_path: Path
) -> None:
    """SIGTERM while a batch is storing its changes: the batch is finished, not lost."""
    for day, value in enumerate(STEPPED):
        committing.upload(committing.run_body(day, value, BENCHMARKS))
    with processes(tmp_path) as start:
        with _regressions_locked(engine):
            worker = start(["worker"], service_env(engine))
            wait_for("the worker is inside its batch", lambda: _waiting_on_a_lock(engine))
            worker.popen.send_signal(signal.SIGTERM)
            wait_for("the worker took the signal", lambda: "stopping after" in worker.output())
            assert worker.popen.poll() is None  # still in its batch, waiting on the lock
        assert worker.popen.wait(timeout=GUARD_S) == 0  # not stop(): a second signal abandons
        assert committing.queued() == 0
    assert len(committing.regressions()) == len(BENCHMARKS)
    _quiet(worker.output())


def test_the_service_killed_right_after_a_201_still_detects_after_restart(
    committing: Committing, engine: Engine, tmp_path: Path
) -> None:
    """The case that lost every detection before: upload, crash, start again."""
    port = free_port()
    env = service_env(engine, port=str(port), workers="1", detect_workers="1")
    base = f"http://127.0.0.1:{port}"
    history = STEPPED[: _runs_until_detectable(STEPPED)]  # its last run reveals the step
    bodies = [committing.run_body(day, value, BENCHMARKS[:1]) for day, value in enumerate(history)]
    with processes(tmp_path) as start, httpx.Client(base_url=base, timeout=60) as http:

        def serve() -> Process:
            service = start(["serve"], env)
            wait_for("the service answers", lambda: _healthy(http, service.popen.poll()))
            return service

        def upload(body: dict[str, object]) -> None:
            response = http.post("/api/v1/runs", json=body, headers=committing.auth)
            assert response.status_code == 201, response.text

        first = serve()
        for body in bodies[:-1]:
            upload(body)
        wait_for("the history so far is checked", lambda: committing.queued() == 0)
        assert committing.regressions() == []
        with _regressions_locked(engine):
            upload(bodies[-1])
            wait_for("the worker is storing the change", lambda: _waiting_on_a_lock(engine))
            first.kill()  # API and worker, as a crash or power loss would
        assert committing.regressions() == []
        second = serve()
        wait_for("the change is detected after the restart", committing.regressions)
        second.stop()
    (found,) = committing.regressions()
    assert (str(found.run_id), found.direction) == (bodies[10]["id"], "regression")


def _runs_until_detectable(values: list[float]) -> int:
    """How many runs of the history the detector (whatever its method) needs to see the step."""
    for length in range(1, len(values) + 1):
        seen = [Observation(key=str(i), value=v) for i, v in enumerate(values[:length])]
        if detect_changes(seen, higher_is_better=False):
            return length
    raise AssertionError("the step is never detected")


def _healthy(http: httpx.Client, exit_code: int | None) -> bool:
    assert exit_code is None, "benchboard serve exited"
    try:
        return http.get("/api/v1/health").status_code == 200
    except httpx.TransportError:
        return False


def test_a_worker_pauses_after_a_partial_batch_and_never_after_a_full_one(
    committing: Committing, engine: Engine, tmp_path: Path
) -> None:
    """A backlog is claimed batch after batch; after a partial batch the worker waits
    BENCHBOARD_DETECT_SETTLE_S, so the uploads of a stream coalesce in the queue meanwhile."""
    benchmarks = BENCHMARKS[:5]
    committing.upload(committing.run_body(0, 100.0, benchmarks))
    env = service_env(engine, detect_batch_size="2", detect_settle_s="600")
    with processes(tmp_path) as start:
        worker = start(["worker"], env)
        # Batches of 2, 2 and 1: a pause after a full one would outlast wait_for's guard.
        wait_for("the backlog is checked", lambda: committing.queued() == 0)
        committing.upload(committing.run_body(1, 100.0, benchmarks))
        time.sleep(2.0)  # without the pause, the upload's NOTIFY has it checked in ms
        assert committing.queued() == len(benchmarks)
        assert worker.stop() == 0  # a stop ends the pause at once
    _quiet(worker.output())


def test_workers_run_at_a_lower_cpu_priority_than_the_api(engine: Engine, tmp_path: Path) -> None:
    """Uploads and reads come first on a shared machine (BENCHBOARD_DETECT_NICE, 10)."""
    port = free_port()
    with processes(tmp_path) as start:
        service = start(["serve"], service_env(engine, port=str(port), detect_workers="1"))
        wait_for("the worker listens", lambda: _workers_listening(engine) >= 1)
        children = _children(service.popen.pid)
        workers = [pid for pid in children if "worker" in _command_line(pid)]
        api = [pid for pid in children if pid not in workers]
        assert len(workers) == 1
        assert api
        own = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, service.popen.pid) == own
        assert [os.getpriority(os.PRIO_PROCESS, pid) for pid in api] == [own] * len(api)
        assert os.getpriority(os.PRIO_PROCESS, workers[0]) == min(19, own + 10)
        assert service.stop() == 0


def _children(pid: int) -> list[int]:
    tasks = Path(f"/proc/{pid}/task")
    return [
        int(child) for task in tasks.iterdir() for child in (task / "children").read_text().split()
    ]


def _command_line(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
