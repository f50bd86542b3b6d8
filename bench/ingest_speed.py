"""Ingest speed (issues 2 and 8): upload throughput against a raw COPY, small uploads,
and the detection lag behind both.

    .venv/bin/python bench/ingest_speed.py

Starts its own service as `make run` does (`benchboard serve`: the API with 2 uvicorn
workers and BENCHBOARD_DETECT_WORKERS=1 detection worker; embedded PostgreSQL under
.data/bench/ingest, re-created on each invocation; a free port on 127.0.0.1) and
measures, in one invocation:

1. one upload of 100,000 results creating 100,000 new series (the first run);
2. three uploads of 100,000 results to those existing series, each beside a raw binary
   `COPY` of 100,000 rows into the same `result` table (same indexes and FKs), committed
   and then deleted again: results/s of each, medians, and their ratio;
3. two more such uploads back to back: the second is timed, sent right after the first's
   201 while the worker checks the first's 100,000 series (the uploads of 2. start with
   detection done), against the same COPY median;
4. 1,000 sequential uploads of 50 results each (existing series, one keep-alive
   connection), a `GET /api/v1/health` after every fifth: uploads/s, results/s, p50/p99
   latency against the health p50 of the same run.

Uploads/s moves with whatever else the two cores do (a worker's check, autovacuum), so
the CPU the uploads cost is counted too, from /proc: user and system seconds of the
service's processes (API and detection workers) and of PostgreSQL's, from before each
upload until its check is committed (for the small ones, the whole loop).

Times are HTTP response times, what a runner waits for. Detection lag is from an
upload's 201 to the worker's commit of the check that covered it: for a big upload
until the queue is empty, for small ones by polling their series' queue rows every
20 ms (bench/common.py LagWatch). Before each COPY the benchmark waits for the
database to be quiet (detection done, autovacuum idle).
"""

import argparse
import random
import statistics
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import orjson
import psycopg
from common import (
    IMPLEMENTATIONS,
    LANGUAGES,
    BenchService,
    LagWatch,
    exit_cleanly_on_sigterm,
    generated_run,
    machine_summary,
    percentile,
    print_table,
    wait_until_checked,
    wait_until_settled,
)
from psycopg.types.json import Jsonb, set_json_dumps

from benchboard.runs.store import RESULT_COPY, RUN_COPY
from benchboard.series.identity import series_fingerprint
from benchboard_ingest.vocabulary import unit_info

SUITE = "ingest-speed"
HARDWARE = {"name": "bench-ingest-host", "cores": 2, "memory_gb": 24, "os": "linux"}
BIG_RUN_RESULTS = 100_000
SMALL_RUN_RESULTS = 50
HEALTH_EVERY = 5
SMALL_RUNS = 1_000
REPEATS = 3
STATS_SHARE = 0.1
TARGET_RATIO = 0.4
SMALL_BUDGET_S = 150.0

METRICS = (("time_per_op", "us"), ("throughput", "ops/s"))
BENCHMARKS = 50
PEERS = "Bencher 2,708 results/s; Conbench 44 results/s; Codespeed 15-26 results/s"


Connection = psycopg.Connection[tuple[Any, ...]]


@dataclass(frozen=True)
class Identity:
    """The identity fields of one result: one series."""

    benchmark: str
    params: dict[str, int]
    language: str
    implementation: str
    mode: str
    variant: str | None
    metric: str
    unit: str

    def fingerprint(self) -> bytes:
        fingerprint: bytes = series_fingerprint(
            suite=SUITE,
            benchmark=self.benchmark,
            params=self.params,
            language=self.language,
            implementation=self.implementation,
            mode=self.mode,
            variant=self.variant,
            hardware=str(HARDWARE["name"]),
            metric=self.metric,
        )
        return fingerprint


def identity(index: int) -> Identity:
    """A distinct series for each index: language, mode, metric, workload, then size."""
    language = LANGUAGES[index % len(LANGUAGES)]
    mode = ("sync", "async")[(index // 8) % 2]
    metric, unit = METRICS[(index // 16) % 2]
    return Identity(
        benchmark=f"workload-{(index // 32) % BENCHMARKS:02d}",
        params={"size": index // (32 * BENCHMARKS), "payload_bytes": 13},
        language=language,
        implementation=IMPLEMENTATIONS[language],
        mode=mode,
        variant="sequential" if mode == "async" else None,
        metric=metric,
        unit=unit,
    )


@dataclass(frozen=True)
class Figure:
    """One result's figures: the headline value and, for some, summary statistics."""

    value: float
    stats: dict[str, float] | None


def figures(count: int, rng: random.Random) -> list[Figure]:
    out: list[Figure] = []
    for _ in range(count):
        value = round(rng.uniform(10, 1000), 3)
        stats = None
        if rng.random() < STATS_SHARE:
            spread = value * 0.05
            stats = {
                "n": 1000,
                "min": round(value - 2 * spread, 3),
                "median": value,
                "mean": value,
                "stddev": round(spread, 3),
                "p95": round(value + 1.6 * spread, 3),
                "max": round(value + 4 * spread, 3),
            }
        out.append(Figure(value, stats))
    return out


def upload_body(identities: list[Identity], values: list[Figure], started_at: datetime) -> bytes:
    results = []
    for ident, figure in zip(identities, values, strict=True):
        result: dict[str, Any] = {
            "benchmark": ident.benchmark,
            "params": ident.params,
            "language": ident.language,
            "implementation": ident.implementation,
            "mode": ident.mode,
            "metric": ident.metric,
            "unit": ident.unit,
            "value": figure.value,
        }
        if ident.variant is not None:
            result["variant"] = ident.variant
        if figure.stats is not None:
            result["stats"] = figure.stats
        results.append(result)
    run = {
        "id": str(uuid.uuid4()),
        "suite": SUITE,
        "name": f"ingest speed, {len(results)} results",
        "started_at": started_at.isoformat(),
        "git": {"repo": "https://example.org/bench.git", "commit": "4f2a9c1", "branch": "main"},
        "hardware": HARDWARE,
        "environment": {"kernel": "6.1"},
        "tags": {"published_by": "bench/ingest_speed.py"},
        "results": results,
    }
    return orjson.dumps(run)


def post_run(client: httpx.Client, body: bytes) -> tuple[float, float]:
    """Upload one run: the seconds until the response, and its time.time()."""
    started = time.perf_counter()
    response = client.post("/api/v1/runs", content=body)
    elapsed = time.perf_counter() - started
    if response.status_code != 201:
        raise RuntimeError(f"upload answered {response.status_code}: {response.text[:500]}")
    return elapsed, time.time()


def get_health(client: httpx.Client) -> float:
    started = time.perf_counter()
    client.get("/api/v1/health").raise_for_status()
    return time.perf_counter() - started


def series_ids(conn: Connection, identities: list[Identity]) -> list[int]:
    rows = conn.execute("SELECT fingerprint, id FROM series WHERE suite = %s", (SUITE,))
    by_fingerprint = {bytes(fingerprint): series_id for fingerprint, series_id in rows}
    return [by_fingerprint[ident.fingerprint()] for ident in identities]


def copy_rows(
    run_id: uuid.UUID,
    started_at: datetime,
    identities: list[Identity],
    ids: list[int],
    values: list[Figure],
) -> list[tuple[Any, ...]]:
    """The rows the service would write for this run (RESULT_COPY's columns), prepared
    before timing."""
    rows = []
    for ident, series_id, figure in zip(identities, ids, values, strict=True):
        factor = unit_info(ident.unit).factor
        stats = Jsonb(figure.stats) if figure.stats else None
        value_base = figure.value * factor
        rows.append(
            (run_id, series_id, started_at, figure.value, ident.unit, value_base, stats, None)
        )
    return rows


def timed_copy(conn: Connection, hardware_id: int, started_at: datetime, rows: list[Any]) -> float:
    """COPY the rows of one run and commit; the seconds of COPY + COMMIT. Deletes it after."""
    run_id = rows[0][0]
    body = b'{"generated": "bench/ingest_speed.py"}'
    run = generated_run(
        run_id,
        suite=SUITE,
        started_at=started_at,
        hardware_id=hardware_id,
        result_count=len(rows),
        body=body,
    )
    RUN_COPY.write(conn, [run])
    started = time.perf_counter()
    RESULT_COPY.write(conn, rows)
    conn.commit()
    elapsed = time.perf_counter() - started
    conn.execute("DELETE FROM run WHERE id = %s", (run_id,))  # results go with it (CASCADE)
    conn.commit()
    return elapsed


@dataclass
class Measurements:
    first_upload_s: float = 0.0
    first_detection_s: float = 0.0
    upload_s: list[float] = field(default_factory=list)
    copy_s: list[float] = field(default_factory=list)
    detection_s: list[float] = field(default_factory=list)
    contended_upload_s: float = 0.0  # right after another upload's 201
    contended_queued: int = 0  # series still queued when it was sent
    contended_detection_s: float = 0.0
    small_latencies_s: list[float] = field(default_factory=list)
    health_latencies_s: list[float] = field(default_factory=list)
    small_lags_s: list[float] = field(default_factory=list)
    small_wall_s: float = 0.0
    small_drain_s: float = 0.0
    # CPU seconds (service, PostgreSQL): each big upload of 2. with its check; the loop of 4.
    upload_cpu_s: list[tuple[float, float]] = field(default_factory=list)
    small_cpu_s: tuple[float, float] = (0.0, 0.0)


def cpu_used(service: BenchService, before: tuple[float, float]) -> tuple[float, float]:
    """CPU seconds (service, PostgreSQL) since `before` (BenchService.cpu_seconds)."""
    now = service.cpu_seconds()
    return now[0] - before[0], now[1] - before[1]


def measure(
    service: BenchService, token: str, rng: random.Random, small_budget_s: float
) -> Measurements:
    identities = [identity(index) for index in range(BIG_RUN_RESULTS)]
    clock = datetime.now(UTC).replace(microsecond=0) - timedelta(days=60)
    found = Measurements()
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    with (
        httpx.Client(base_url=service.base_url, headers=headers, timeout=600) as client,
        service.connect() as conn,
    ):
        set_json_dumps(orjson.dumps, context=conn)
        client.get("/api/v1/health").raise_for_status()  # connect before timing
        print(f"upload 1: {BIG_RUN_RESULTS:,} results, new series", flush=True)
        body = upload_body(identities, figures(BIG_RUN_RESULTS, rng), clock)
        print(f"  body {len(body) / 1024**2:.1f} MiB", flush=True)
        found.first_upload_s, answered = post_run(client, body)
        found.first_detection_s = wait_until_checked(service.database_url, answered)
        wait_until_settled(service.database_url)
        ids = series_ids(conn, identities)
        hardware_row = conn.execute(
            "SELECT id FROM hardware WHERE name = %s", (HARDWARE["name"],)
        ).fetchone()
        assert hardware_row is not None
        hardware_id: int = hardware_row[0]
        conn.commit()
        for repeat in range(REPEATS):
            print(f"repeat {repeat + 1}/{REPEATS}: upload and COPY", flush=True)
            clock += timedelta(hours=1)
            body = upload_body(identities, figures(BIG_RUN_RESULTS, rng), clock)
            cpu_before = service.cpu_seconds()
            elapsed, answered = post_run(client, body)
            found.upload_s.append(elapsed)
            found.detection_s.append(wait_until_checked(service.database_url, answered))
            found.upload_cpu_s.append(cpu_used(service, cpu_before))
            wait_until_settled(service.database_url)
            clock += timedelta(hours=1)
            rows = copy_rows(uuid.uuid4(), clock, identities, ids, figures(BIG_RUN_RESULTS, rng))
            found.copy_s.append(timed_copy(conn, hardware_id, clock, rows))
            wait_until_settled(service.database_url)
        clock = contended_upload(service, client, conn, identities, rng, clock, found)
        print(
            f"{SMALL_RUNS:,} uploads of {SMALL_RUN_RESULTS} results"
            f" (at most {small_budget_s:.0f} s)",
            flush=True,
        )
        small = identities[:SMALL_RUN_RESULTS]
        bodies = []
        for _ in range(SMALL_RUNS):
            clock += timedelta(minutes=10)
            bodies.append(upload_body(small, figures(SMALL_RUN_RESULTS, rng), clock))
        touched = ids[:SMALL_RUN_RESULTS]
        with LagWatch(service.database_url) as watch:
            cpu_before = service.cpu_seconds()
            wall = time.perf_counter()
            for index, body in enumerate(bodies):
                elapsed, answered = post_run(client, body)
                found.small_latencies_s.append(elapsed)
                watch.track(touched, answered)
                if index % HEALTH_EVERY == HEALTH_EVERY - 1:
                    found.health_latencies_s.append(get_health(client))
                if time.perf_counter() - wall > small_budget_s:
                    break  # the run stays bounded in time; the table says how many ran
            found.small_wall_s = time.perf_counter() - wall
            watch.wait_all()
            found.small_drain_s = time.perf_counter() - wall - found.small_wall_s
            found.small_cpu_s = cpu_used(service, cpu_before)
        found.small_lags_s = watch.lags
    return found


def contended_upload(
    service: BenchService,
    client: httpx.Client,
    conn: Connection,
    identities: list[Identity],
    rng: random.Random,
    clock: datetime,
    found: Measurements,
) -> datetime:
    """The uploads above start with detection done; this one is sent right after another
    upload's 201, while the worker checks that upload's 100,000 series."""
    print("upload right after another's 201, its detection running", flush=True)
    bodies = []
    for _ in range(2):
        clock += timedelta(hours=1)
        bodies.append(upload_body(identities, figures(BIG_RUN_RESULTS, rng), clock))
    post_run(client, bodies[0])
    row = conn.execute("SELECT count(*) FROM detection_queue").fetchone()
    conn.commit()
    found.contended_queued = row[0] if row else 0
    found.contended_upload_s, answered = post_run(client, bodies[1])
    found.contended_detection_s = wait_until_checked(service.database_url, answered)
    wait_until_settled(service.database_url)
    return clock


def report(found: Measurements) -> None:
    n = BIG_RUN_RESULTS
    small_p50 = percentile(found.small_latencies_s, 50)
    health_p50 = percentile(found.health_latencies_s, 50)
    small = len(found.small_latencies_s)
    upload_rate = n / statistics.median(found.upload_s)
    copy_rate = n / statistics.median(found.copy_s)

    def seconds(values: list[float]) -> str:
        return " ".join(f"{value:.2f}" for value in values)

    def cpu_ms(used: tuple[float, float], per: float) -> str:
        service_ms, postgres_ms = (1000 * value / per for value in used)
        return f"{service_ms:.1f} + {postgres_ms:.1f} = {service_ms + postgres_ms:.1f} ms"

    big_cpu = sorted(found.upload_cpu_s, key=sum)[len(found.upload_cpu_s) // 2]

    print()
    print(
        f"Ingest speed - {machine_summary()}, `benchboard serve` (2 API workers,"
        " 1 detection worker), embedded PostgreSQL"
    )
    print()
    rows = [
        [
            f"upload {n:,} results, new series (1x)",
            f"{n / found.first_upload_s:,.0f} results/s",
            f"{found.first_upload_s:.2f}",
            "",
        ],
        [
            f"upload {n:,} results, existing series (median of {REPEATS})",
            f"{upload_rate:,.0f} results/s",
            seconds(found.upload_s),
            "",
        ],
        [
            f"raw binary COPY {n:,} rows into result (median of {REPEATS})",
            f"{copy_rate:,.0f} results/s",
            seconds(found.copy_s),
            "",
        ],
        [
            "upload / COPY",
            f"{upload_rate / copy_rate:.2f}x",
            "",
            f">= {TARGET_RATIO}x COPY",
        ],
        [
            "  CPU per 1,000 results, upload and its check: service + PostgreSQL (median)",
            cpu_ms(big_cpu, n / 1000),
            "",
            "",
        ],
        [
            f"upload {n:,} results right after another's 201 (1x; {found.contended_queued:,}"
            " series of that one queued when sent)",
            f"{n / found.contended_upload_s:,.0f} results/s",
            f"{found.contended_upload_s:.2f}",
            "",
        ],
        [
            "  that upload / COPY (detection running beside it)",
            f"{n / found.contended_upload_s / copy_rate:.2f}x",
            "",
            "",
        ],
        [
            f"{small:,} of {SMALL_RUNS:,} sequential uploads x {SMALL_RUN_RESULTS} results",
            f"{small / found.small_wall_s:,.1f} uploads/s",
            f"{found.small_wall_s:.2f}",
            "",
        ],
        [
            "  CPU per upload, with its check: service + PostgreSQL",
            cpu_ms(found.small_cpu_s, small),
            "",
            "",
        ],
        [
            "  latency p50",
            f"{percentile(found.small_latencies_s, 50) * 1000:.1f} ms",
            "",
            "",
        ],
        [
            "  latency p99",
            f"{percentile(found.small_latencies_s, 99) * 1000:.1f} ms",
            "",
            "",
        ],
        [
            "  GET /api/v1/health p50 (every 5th request)",
            f"{health_p50 * 1000:.1f} ms",
            "",
            "",
        ],
        [
            "  upload p50 / health p50",
            f"{small_p50 / health_p50:.1f}x",
            "",
            "<= 5x",
        ],
        [
            "  results/s in small uploads",
            f"{small * SMALL_RUN_RESULTS / found.small_wall_s:,.0f} results/s",
            "",
            "Bencher 2,708",
        ],
        [
            "  detection lag p50 / p99 (201 to checked)",
            f"{percentile(found.small_lags_s, 50) * 1000:.0f} / "
            f"{percentile(found.small_lags_s, 99) * 1000:.0f} ms",
            "",
            "",
        ],
        [
            f"detection lag of a {n:,}-result upload, new / existing series",
            f"{found.first_detection_s:.1f} / {seconds(found.detection_s)}"
            f" / back to back {found.contended_detection_s:.1f} s",
            "",
            "<= 60 s",
        ],
    ]
    print_table(["measure", "figure", "seconds", "target"], rows)
    print()
    print(f"peers on a similar machine: {PEERS}")
    print(
        "Times are HTTP response times. Change detection runs in the detection worker"
        " process; its lag is from the 201 to the committed check."
    )
    print(
        f"The small uploads ran back to back with the worker; the last one was checked"
        f" {found.small_drain_s:.2f} s after its response."
    )
    print(
        "CPU is user + system time from /proc of the service's processes and PostgreSQL's;"
        " the small uploads' includes their health requests and this benchmark's polling"
        " of the detection queue every 20 ms."
    )
    if small < SMALL_RUNS:
        print(
            f"The small uploads stopped after {small:,} of {SMALL_RUNS:,} at the"
            " --small-budget time limit; `--small-budget 1e9` runs all of them."
        )
    print(
        "COPY: the service's own COPY statement and column types, rows prepared in memory"
        " beforehand, timed through COMMIT, then the run is deleted again."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2, help="random seed of the values")
    parser.add_argument(
        "--small-budget",
        type=float,
        default=SMALL_BUDGET_S,
        help="seconds after which the sequential small uploads stop (default %(default)s)",
    )
    args = parser.parse_args()
    exit_cleanly_on_sigterm()
    service = BenchService("ingest")
    service.cli("db", "reset", "--yes")
    token = service.create_token("bench-ingest")
    with service:
        service.start()
        found = measure(service, token, random.Random(args.seed), args.small_budget)
    report(found)
    print()
    print("commands run:")
    print("  .venv/bin/python bench/ingest_speed.py")
    for command in service.commands:
        print(f"  {command}")


if __name__ == "__main__":
    main()
