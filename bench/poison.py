"""A poisoned series among 10,000 queued (issue 27): every other series is still checked.

    flock /work/bench.lock .venv/bin/python bench/poison.py [--series 10000] [--runs 50]

Seeds its own database (.data/bench/poison, re-created each time), queues every series
in one transaction, and keeps one detection worker running the way a supervisor would,
starting a new one whenever it dies. The worker is `benchboard worker` with one change
(this script's `--worker-poisoned-by SERIES_ID` mode): whenever a batch it reads holds
the poison series, the process kills itself with SIGKILL, as a segfault or the OOM
killer would. Prints when every other series was checked, how often the worker died, and
how the poison shows after `--seconds`: its queue row, then through `benchboard serve`
its health counts, its /metrics gauges and its History page's detection state. Default
settings: 5 s lease doubling, 5 attempts, batches of 1,000.
"""

import argparse
import os
import signal
import subprocess
import sys
import time
from collections.abc import Generator, Sequence
from datetime import UTC, datetime, timedelta
from random import Random
from typing import Any
from unittest import mock

import httpx
import psycopg
from common import BenchService, exit_cleanly_on_sigterm, machine_summary
from seeding import seed
from sqlalchemy import create_engine, select, text
from sqlalchemy.orm import Session

from benchboard.config import get_settings
from benchboard.database_server import resolve_database_url
from benchboard.db import make_engine
from benchboard.models import Series
from benchboard.pipeline import runner
from benchboard.pipeline.queue import enqueue_series
from benchboard.pipeline.worker import run_worker
from benchboard.regressions.histories import History, read_histories

_POISON_ROW = text(
    "SELECT attempts, failed_at IS NOT NULL AS failing, last_error"
    " FROM detection_queue WHERE series_id = :poison"
)


def poisoned_worker(poison: int) -> None:
    """`benchboard worker`, killed by the check of any batch that holds `poison`."""

    def killing(session: Session, series_ids: Sequence[int]) -> Generator[History, None, None]:
        if poison in series_ids:
            os.kill(os.getpid(), signal.SIGKILL)
        histories: Generator[History, None, None] = read_histories(session, series_ids)
        return histories

    settings = get_settings()
    url = resolve_database_url(settings)
    # The runner's own name for the reader: what a check calls.
    with mock.patch.object(runner, "read_histories", killing):
        run_worker(settings, url, make_engine(url))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--series", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--worker-poisoned-by", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker_poisoned_by is not None:
        poisoned_worker(args.worker_poisoned_by)
        return
    exit_cleanly_on_sigterm()
    service = BenchService("poison")
    service.cli("db", "reset", "--yes")
    print(f"seeding {args.series:,} series x {args.runs} runs", flush=True)
    with psycopg.connect(service.database_url) as conn:
        seeded = seed(
            conn,
            suite="poison",
            hardware="bench-poison-host",
            series=args.series,
            runs=args.runs,
            start=datetime.now(UTC) - timedelta(days=365),
            rng=Random(27),
        )
    poison = seeded.series_ids[len(seeded.series_ids) // 2]
    engine = create_engine(service.database_url.replace("postgresql://", "postgresql+psycopg://"))
    with Session(engine) as session, session.begin():
        enqueue_series(session, session.scalars(select(Series.id)).all())
    started = time.monotonic()
    deaths, others_done, marked = supervise(service, poison, started, args.seconds)
    with Session(engine) as session:
        row = session.execute(_POISON_ROW, {"poison": poison}).one_or_none()
    engine.dispose()
    health, gauges, detection = shown_over_http(service, poison)
    print()
    print(f"Poisoned series - {machine_summary()}, {args.series:,} series x {args.runs} runs,")
    print(f"one worker at a time (restarted when it dies), poison = series {poison}")
    print()
    print(f"every other series checked after: {fmt(others_done)}")
    print(f"poison marked failing after:      {fmt(marked)}")
    print(f"worker deaths (SIGKILL by the poison's check): {deaths}")
    print(f"queue row of the poison: {row}")
    print(f"GET /api/v1/health: detection {health}")
    print("GET /metrics:")
    for line in gauges:
        print(f"  {line}")
    print(f"GET /api/v1/series/{poison}/detection (its History page):")
    print(f"  check_failure: {detection['check_failure']}")
    print(f"  text: {detection['text']}")
    print()
    print("commands run:")
    print("  flock /work/bench.lock .venv/bin/python bench/poison.py")
    for command in service.commands:
        print(f"  {command}")


def shown_over_http(
    service: BenchService, poison: int
) -> tuple[dict[str, Any], list[str], dict[str, Any]]:
    """How the poison shows to people and monitoring: `benchboard serve` started on the
    database as left, its health, its /metrics queue gauges and the series' detection
    state (what its History page shows)."""
    service.start()
    try:
        health = httpx.get(f"{service.base_url}/api/v1/health").json()["detection"]
        metrics = httpx.get(f"{service.base_url}/metrics").text.splitlines()
        detection = httpx.get(f"{service.base_url}/api/v1/series/{poison}/detection").json()
    finally:
        service.stop()
    gauges = [line for line in metrics if line.startswith("benchboard_detection_queue_")]
    return health, gauges, detection


def supervise(
    service: BenchService, poison: int, started: float, seconds: float
) -> tuple[int, float | None, float | None]:
    """Keep one poisoned worker running for `seconds` (or until the poison is marked);
    its deaths, and when the others were all checked and the poison marked failing."""
    argv = [sys.executable, __file__, "--worker-poisoned-by", str(poison)]
    log = (service.data_dir / "workers.log").open("wb")

    def start() -> "subprocess.Popen[bytes]":
        return subprocess.Popen(argv, env=service.env, stdout=log, stderr=subprocess.STDOUT)

    deaths = 0
    others_done: float | None = None
    marked: float | None = None
    worker = start()
    with psycopg.connect(service.database_url, autocommit=True) as conn:
        while time.monotonic() - started < seconds and marked is None:
            if worker.poll() is not None:
                deaths += 1
                worker = start()
            others, failed = conn.execute(
                "SELECT count(*) FILTER (WHERE series_id <> %(p)s),"
                " bool_or(series_id = %(p)s AND failed_at IS NOT NULL) FROM detection_queue",
                {"p": poison},
            ).fetchone() or (0, None)
            now = time.monotonic() - started
            if others == 0 and others_done is None:
                others_done = now
            if failed:
                marked = now
            time.sleep(0.1)
    service.stop_process(worker)
    return deaths, others_done, marked


def fmt(seconds: float | None) -> str:
    return "not within the run" if seconds is None else f"{seconds:.1f} s"


if __name__ == "__main__":
    main()
