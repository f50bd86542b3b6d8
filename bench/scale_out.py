"""Scale-out (issue 8): two API processes and one, then two, detection workers on one
PostgreSQL; uploads driven at both APIs.

    .venv/bin/python bench/scale_out.py [--rate 8] [--seconds 30] [--jobs 16]

The production shape on one machine: two `benchboard serve` processes on two ports
(one uvicorn worker each, BENCHBOARD_DETECT_WORKERS=0: stateless API replicas) and
separate `benchboard worker` processes, all on one embedded PostgreSQL
(.data/bench/scaleout, re-created each time). `--jobs` CI jobs each own 50 series with
200 runs of history (seeded with COPY, bench/seeding.py); uploads of one run of a job
(50 results) go out open-loop at `--rate` per second, alternating between the two APIs,
for `--seconds`. The same load runs with one worker, then with two. Reported per
round: the aggregate upload rate and latency, the detection lag from each upload's 201
until its series are checked (bench/common.py LagWatch), and the queue depth over time.
"""

import argparse
import random
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import orjson
import psycopg
from common import (
    APPLICATION_NAME,
    BenchService,
    LagWatch,
    exit_cleanly_on_sigterm,
    free_port,
    machine_summary,
    percentile,
    print_table,
    wait_for,
)
from seeding import Seeded, seed, upload_results

SERIES_PER_JOB = 50
DEPTH_EVERY_S = 1.0
CLIENT_THREADS = 6


@dataclass
class Round:
    workers: int
    latencies_s: list[float] = field(default_factory=list)
    lags_s: list[float] = field(default_factory=list)
    depths: list[int] = field(default_factory=list)
    wall_s: float = 0.0
    drain_s: float = 0.0


def depth_sampler(database_url: str, depths: list[int], stop: threading.Event) -> None:
    with psycopg.connect(database_url, autocommit=True, application_name=APPLICATION_NAME) as c:
        while not stop.wait(DEPTH_EVERY_S):
            row = c.execute("SELECT count(*) FROM detection_queue").fetchone()
            depths.append(row[0] if row else 0)


def drive(
    service: BenchService,
    apis: list[str],
    token: str,
    seeded: Seeded,
    found: Round,
    *,
    rate: float,
    seconds: float,
    rng: random.Random,
) -> None:
    """Open-loop uploads: upload k leaves at start + k / rate, whatever came back before."""
    jobs = [
        (seeded.benchmarks[i : i + SERIES_PER_JOB], seeded.series_ids[i : i + SERIES_PER_JOB])
        for i in range(0, len(seeded.benchmarks), SERIES_PER_JOB)
    ]
    count = int(rate * seconds)
    clock = seeded.next_started_at
    bodies = []
    for k in range(count):
        benchmarks, _ = jobs[k % len(jobs)]
        body = {
            "id": str(uuid.uuid4()),
            "suite": seeded.suite,
            "started_at": (clock + timedelta(minutes=k)).isoformat(),
            "hardware": {"name": seeded.hardware},
            "results": upload_results(benchmarks, rng),
        }
        bodies.append(orjson.dumps(body))
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    clients = [httpx.Client(base_url=api, headers=headers, timeout=60) for api in apis]
    lock = threading.Lock()
    with LagWatch(service.database_url) as watch:
        start = time.perf_counter()

        def upload(k: int) -> None:
            delay = start + k / rate - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            sent = time.perf_counter()
            response = clients[k % len(clients)].post("/api/v1/runs", content=bodies[k])
            answered = time.time()
            if response.status_code != 201:
                raise RuntimeError(f"upload answered {response.status_code}: {response.text}")
            with lock:
                found.latencies_s.append(time.perf_counter() - sent)
            watch.track(jobs[k % len(jobs)][1], answered)

        with ThreadPoolExecutor(CLIENT_THREADS) as pool:
            list(pool.map(upload, range(count)))
        found.wall_s = time.perf_counter() - start
        watch.wait_all()
        found.drain_s = time.perf_counter() - start - found.wall_s
    found.lags_s = watch.lags
    for client in clients:
        client.close()


def one_round(
    service: BenchService,
    apis: list[str],
    token: str,
    seeded: Seeded,
    workers: int,
    args: argparse.Namespace,
) -> Round:
    print(f"{workers} worker(s): {args.rate:g} uploads/s for {args.seconds:g} s", flush=True)
    found = Round(workers)
    processes = [service.spawn(["worker"]) for _ in range(workers)]
    wait_for(lambda: _workers_ready(service.database_url) == workers, "workers did not start")
    stop = threading.Event()
    sampler = threading.Thread(
        target=depth_sampler, args=(service.database_url, found.depths, stop), daemon=True
    )
    sampler.start()
    try:
        drive(
            service,
            apis,
            token,
            seeded,
            found,
            rate=args.rate,
            seconds=args.seconds,
            rng=random.Random(args.seed + workers),
        )
    finally:
        stop.set()
        sampler.join()
        for process in processes:
            service.stop_process(process)
    return found


def _workers_ready(database_url: str) -> int:
    """Workers connected and listening (each has its presence session)."""
    with psycopg.connect(database_url, autocommit=True, application_name=APPLICATION_NAME) as c:
        row = c.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'benchboard-worker'"
        ).fetchone()
    return row[0] if row else 0


def report(rounds: list[Round], args: argparse.Namespace, series: int) -> None:
    print()
    print(
        f"Scale-out - {machine_summary()}: 2 API processes, 1 then 2 detection workers,"
        f" one PostgreSQL; {args.jobs} jobs x {SERIES_PER_JOB} series ({series:,}),"
        " 200-run histories"
    )
    print()
    rows = []
    for found in rounds:
        uploads = len(found.latencies_s)
        rows.append(
            [
                f"{found.workers} worker(s)",
                f"{uploads / found.wall_s:.1f}",
                f"{uploads * SERIES_PER_JOB / found.wall_s:,.0f}",
                f"{percentile(found.latencies_s, 50) * 1000:.0f} / "
                f"{percentile(found.latencies_s, 99) * 1000:.0f}",
                f"{percentile(found.lags_s, 50) * 1000:,.0f} / "
                f"{percentile(found.lags_s, 99) * 1000:,.0f}",
                f"{max(found.depths, default=0):,}",
                f"{found.drain_s:.1f}",
            ]
        )
    print_table(
        [
            "detection",
            "uploads/s",
            "results/s",
            "upload p50/p99 ms",
            "lag p50/p99 ms",
            "max queue",
            "drain s",
        ],
        rows,
    )
    print()
    for found in rounds:
        timeline = " ".join(str(depth) for depth in found.depths)
        print(f"queue depth every {DEPTH_EVERY_S:g} s, {found.workers} worker(s): {timeline}")
    print()
    print(
        "Lag: from an upload's 201 until a committed check covered all its series."
        " Drain: from the last 201 until the last upload was covered."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=8.0, help="uploads per second")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--jobs", type=int, default=16)
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args()
    exit_cleanly_on_sigterm()
    service = BenchService("scaleout")
    service.cli("db", "reset", "--yes")
    token = service.create_token("bench-scaleout")
    series = args.jobs * SERIES_PER_JOB
    print(f"seeding {series:,} series x 200 runs", flush=True)
    with psycopg.connect(service.database_url) as conn:
        seeded = seed(
            conn,
            suite="scale-out",
            hardware="bench-scaleout-host",
            series=series,
            runs=200,
            start=datetime.now(UTC) - timedelta(days=365),
            rng=random.Random(args.seed),
        )
    api_env: dict[str, Any] = {"BENCHBOARD_WORKERS": "1", "BENCHBOARD_DETECT_WORKERS": "0"}
    with service:
        apis = []
        for _ in range(2):
            port = free_port()
            process = service.spawn(["serve"], {**api_env, "BENCHBOARD_PORT": str(port)})
            apis.append(f"http://127.0.0.1:{port}")
            service.wait_healthy(apis[-1], process)
        rounds = [one_round(service, apis, token, seeded, n, args) for n in (1, 2)]
    report(rounds, args, series)
    print()
    print("commands run:")
    print("  .venv/bin/python bench/scale_out.py")
    for command in service.commands:
        print(f"  {command}")


if __name__ == "__main__":
    main()
