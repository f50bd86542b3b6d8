"""Real processes against the test database: `benchboard worker` and `benchboard serve`.

Tests of crashes and concurrency need what production runs: separate processes,
committed transactions. Waiting has a generous limit so a broken build fails instead of
hanging; it is a guard, never what a test asserts.
"""

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from sqlalchemy import Engine, delete, select
from sqlalchemy.orm import Session

from benchboard.models import ApiToken, DetectionQueue, Hardware, Run, Series, Suite

T = TypeVar("T")
GUARD_S = 180.0


def wait_for(what: str, probe: Callable[[], T | None]) -> T:
    """Poll until `probe` returns something truthy; fail after GUARD_S."""
    deadline = time.monotonic() + GUARD_S
    while time.monotonic() < deadline:
        found = probe()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{what}: not after {GUARD_S:.0f} s")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def service_env(engine: Engine, **settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCHBOARD_")}
    env["DATABASE_URL"] = engine.url.render_as_string(hide_password=False)
    env["BENCHBOARD_DEMO"] = "false"
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    env.update({f"BENCHBOARD_{key.upper()}": value for key, value in settings.items()})
    return env


class Process:
    """A `benchboard` subprocess in its own process group, its output in a file."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        with log.open("ab") as out:
            self.popen = subprocess.Popen(
                [sys.executable, "-m", "benchboard.cli", *args],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def output(self) -> str:
        return self.log.read_text()

    def kill(self) -> None:
        """SIGKILL the whole group (serve and its workers), as a crash would."""
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait()

    def stop(self) -> int:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(timeout=GUARD_S)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.popen.returncode


@contextmanager
def processes(tmp_path: Path) -> Iterator[Callable[..., Process]]:
    """A factory of processes that are all stopped when the block ends."""
    started: list[Process] = []

    def start(args: list[str], env: dict[str, str]) -> Process:
        process = Process(args, env, tmp_path / f"{args[0]}-{len(started)}.log")
        started.append(process)
        return process

    try:
        yield start
    finally:
        for process in started:
            process.kill()


def delete_suite(engine: Engine, suite: str) -> None:
    """What a committing test stored: its queue rows, runs, series (regressions cascade),
    the suite (its totals cascade: else the suite list of later tests shows it), machine
    and tokens."""
    with Session(engine) as session, session.begin():
        of_suite = select(Series.id).where(Series.suite == suite).scalar_subquery()
        session.execute(delete(DetectionQueue).where(DetectionQueue.series_id.in_(of_suite)))
        session.execute(delete(Run).where(Run.suite == suite))
        session.execute(delete(Series).where(Series.suite == suite))
        session.execute(delete(Suite).where(Suite.name == suite))
        session.execute(delete(Hardware).where(Hardware.name == f"{suite}-machine"))
        session.execute(delete(ApiToken).where(ApiToken.name.like(f"{suite}-%")))


def unique_suite(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"
