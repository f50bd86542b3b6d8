"""Detection speed (issue 8): series/s one `benchboard worker` checks, and where the time goes.

    .venv/bin/python bench/detection_speed.py [--series 10000] [--runs 200]

Seeds its own database (.data/bench/detection, re-created each time) with `--series`
series of `--runs` runs each (bench/seeding.py: 10 % with a step, 10 % of results with
summary stats, 2 % of series with replicates), then starts one `benchboard worker`
process as an operator would, queues every series in one transaction (as one upload
touching them all would) and times from that commit until the queue is empty. It does
this twice: the first pass stores the changes it finds, the second (every series queued
again) refines them, as later uploads do. The worker's own counters (its /metrics)
split the time per series into database time (read histories, write changes, claim
and finish) and Python time (rows to the detector's input, the detector). The detector alone
on the same kind of histories, in this process, is printed for comparison.
"""

import argparse
import random
import re
import subprocess
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import httpx
import psycopg
from common import (
    BenchService,
    exit_cleanly_on_sigterm,
    free_port,
    machine_summary,
    print_table,
    wait_for,
    wait_until_checked,
)
from seeding import seed
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from benchboard.detection.detect import detect_changes
from benchboard.models import Series
from benchboard.pipeline.queue import enqueue_series
from benchboard.regressions.histories import read_histories, runs_of

TARGET = 2_000
PHASES = ("read", "build", "detect", "write")


@dataclass(frozen=True)
class Pass:
    name: str
    series: int
    wall_s: float
    phase_s: dict[str, float]  # the worker's counters over this pass
    cpu_s: float  # the worker process's CPU seconds over this pass


def scrape(port: int) -> tuple[dict[str, float], float, float]:
    """The worker's phase seconds, series checked and CPU seconds so far."""
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text

    def value(pattern: str) -> float:
        found = re.search("^" + pattern + r" (\S+)$", text, re.MULTILINE)
        return float(found.group(1)) if found else 0.0

    phases = {p: value(rf'benchboard_detection_seconds_total\{{phase="{p}"\}}') for p in PHASES}
    return phases, value("benchboard_detection_series_total"), value("process_cpu_seconds_total")


def one_pass(name: str, service: BenchService, port: int, sqlalchemy_url: str) -> Pass:
    phases_before, series_before, cpu_before = scrape(port)
    engine = create_engine(sqlalchemy_url)
    with Session(engine) as session, session.begin():
        enqueue_series(session, session.scalars(select(Series.id)).all())
    queued = time.time()
    wall = wait_until_checked(service.database_url, queued)
    engine.dispose()
    time.sleep(0.5)  # the worker records its counters right after its last commit
    phases_after, series_after, cpu_after = scrape(port)
    return Pass(
        name,
        int(series_after - series_before),
        wall,
        {p: phases_after[p] - phases_before[p] for p in PHASES},
        cpu_after - cpu_before,
    )


def _answers(port: int, worker: "subprocess.Popen[bytes]") -> bool:
    if worker.poll() is not None:
        raise RuntimeError("benchboard worker exited; see .data/bench/detection/worker-0.log")
    try:
        return httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=2).is_success
    except httpx.TransportError:
        return False


def detector_alone(sqlalchemy_url: str, count: int) -> float:
    """Calls/s of detect_changes on `count` seeded histories (observations prepared)."""
    engine = create_engine(sqlalchemy_url)
    with Session(engine) as session:
        ids = list(session.scalars(select(Series.id).limit(count)))
        histories = list(read_histories(session, ids))
    engine.dispose()
    prepared = [(runs_of(h), h.higher_is_better) for h in histories]
    started = time.perf_counter()
    for observed, higher in prepared:
        detect_changes(observed, higher_is_better=higher)
    return len(prepared) / (time.perf_counter() - started)


def report(passes: list[Pass], alone: float, runs: int) -> None:
    print()
    print(f"Detection speed - {machine_summary()}, one `benchboard worker`, {runs}-run histories")
    print()
    rows = []
    for found in passes:
        per = {p: found.phase_s[p] / found.series * 1e6 for p in PHASES}
        other = found.wall_s / found.series * 1e6 - sum(per.values())
        rows.append(
            [
                found.name,
                f"{found.series / found.wall_s:,.0f}",
                f"{per['read']:.0f}",
                f"{per['write']:.0f}",
                f"{other:.0f}",
                f"{per['build']:.0f}",
                f"{per['detect']:.0f}",
                f"{found.cpu_s / found.series * 1e6:.0f}",
            ]
        )
    print_table(
        [
            "pass",
            "series/s",
            "db read us",
            "db write us",
            "claim+finish us",
            "build us",
            "detect us",
            "worker CPU us",
        ],
        rows,
    )
    print()
    print(f"target: >= {TARGET:,} series/s. Per-series times: database (read histories and")
    print("stored changes, write changes; claim, finish and commit = wall minus the phases)")
    print("and Python (build = stored rows to the detector's Runs, detect = detect_changes and")
    print(f"reconcile_changes). The detector alone, same histories: {alone:,.0f} calls/s.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--series", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args()
    exit_cleanly_on_sigterm()
    service = BenchService("detection")
    service.cli("db", "reset", "--yes")
    print(f"seeding {args.series:,} series x {args.runs} runs", flush=True)
    with psycopg.connect(service.database_url) as conn:
        seed(
            conn,
            suite="detection-speed",
            hardware="bench-detection-host",
            series=args.series,
            runs=args.runs,
            start=datetime.now(UTC) - timedelta(days=365),
            rng=random.Random(args.seed),
        )
    sqlalchemy_url = service.database_url.replace("postgresql://", "postgresql+psycopg://", 1)
    port = free_port()
    with service:
        worker = service.spawn(["worker"], {"BENCHBOARD_WORKER_METRICS_PORT": str(port)})
        wait_for(lambda: _answers(port, worker), "the worker's /metrics did not answer")
        passes = [
            one_pass("first check (stores changes)", service, port, sqlalchemy_url),
            one_pass("re-check (refines them)", service, port, sqlalchemy_url),
        ]
    report(passes, detector_alone(sqlalchemy_url, 500), args.runs)
    print()
    print("commands run:")
    print("  .venv/bin/python bench/detection_speed.py")
    for command in service.commands:
        print(f"  {command}")


if __name__ == "__main__":
    main()
