"""Read speed (issues 2 and 14): history, facets, sync/async pairs, series and suite lists.

    .venv/bin/python bench/read_speed.py [--results 10000000] [--regenerate] [--requests 200]

Starts its own service (embedded PostgreSQL under .data/bench/read, or read-<N> for
another --results, 2 workers, a free port on 127.0.0.1). The first invocation for a size
generates the dataset straight into PostgreSQL with binary COPY into each month's
partition of `result`: suites of 1,000 series (5 of 8 languages each, sync and async,
10 workloads x 5 sizes, 2 metrics) on 3 machines, one run every 6 hours per suite,
every 5th with summary statistics; 10,000,000 results are 5 suites x 2,000 runs, larger
sets have 5,000-run histories (100,000,000: 20 suites). Rows are written in upload
order (run by run), as the service would have stored them. Later invocations reuse the
dataset while the database holds exactly that many results.

The requests are sequential over one keep-alive connection after a warm-up, with a
browser's Accept-Encoding; the figures are client-side times until the body is decoded.
A target missed prints `TARGET MISSED` and the script exits 1. `GET /api/v1/health`
(one small query) is timed last, without a target: the machine's floor for a request
through the whole stack, to read runs on machines of different speed against each other.

The service's detection worker builds the history snapshots of long series when idle
(backend/benchboard/series/snapshots.py); the script waits until it has, as a reader
would find the service some time after the last upload, and says how long that took. A
whole series' history is then served from its snapshot, and a window (`since=`) is
sliced from the snapshot of every point (series/every_point.py); right after an upload,
before the worker has rebuilt them, both are written per request.

History series are picked at random by `--seed`: the same seed reads the same series, so
a second run finds their pages in the OS page cache, while a seed not used since the
cache was filled with other data reads them from the disk. For each history endpoint
the script prints the blocks PostgreSQL read from outside its shared buffers (which
start empty with the service) during the timed requests and how long that took, ~5 us
a block from the OS page cache and 50-200 us from this machine's disk: how cold the
figure was. For a run cold from the disk, empty the OS page cache first (as root:
`sync; echo 3 > /proc/sys/vm/drop_caches`).
"""

import argparse
import itertools
import os
import random
import sys
import time
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any
from urllib.parse import quote

import httpx
import orjson
import psycopg
from common import (
    IMPLEMENTATIONS,
    LANGUAGES,
    BenchService,
    exit_cleanly_on_sigterm,
    generated_run,
    generated_series,
    machine_summary,
    percentile,
    print_table,
)
from psycopg.types.json import Jsonb, set_json_dumps
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from benchboard.config import Settings
from benchboard.partitions import create_months, month_of, months_between, partition_name
from benchboard.runs.resolve import SERIES_COPY
from benchboard.runs.store import RESULT_COPY, RUN_COPY
from benchboard.series import snapshots
from benchboard.series.identity import series_fingerprint
from benchboard_ingest.vocabulary import unit_info

SUITES = (
    "sync-vs-async-io",
    "rest-servers",
    "isolate-messaging",
    "fio-storage",
    "json-codecs",
)
MACHINES = ("do-8vcpu", "do-40vcpu", "hetzner-ax41")
LANGUAGES_PER_SUITE = 5
WORKLOADS = 10
SIZES = (1, 10, 100, 1_000, 10_000)
METRICS = (("time_per_op", "us"), ("throughput", "ops/s"))
RUN_INTERVAL = timedelta(hours=6)
STATS_EVERY = 5
SERIES_PER_SUITE = LANGUAGES_PER_SUITE * 2 * WORKLOADS * len(SIZES) * len(METRICS)
DEFAULT_RESULTS = 10_000_000
DEFAULT_SEED = 10  # picks the series read; a second run with the same seed reads cached pages
DEFAULT_REQUESTS = 200
DEFAULT_WARMUP = 20
PLACEHOLDER_BODY = b'{"generated": "bench/read_speed.py"}'

# Targets of p95 (issue 14).
HISTORY_TARGET_MS = 15.0
FACETS_TARGET_MS = 30.0
MODES_TARGET_MS = 50.0
SERIES_TARGET_MS = 50.0
SUITES_TARGET_MS = 30.0
LARGER_HISTORY_TARGET_MS = 20.0  # above 10,000,000 results
HISTORY_POINTS = 2_000
# What Chrome, Edge and Firefox send: the service answers zstd (httpx decodes it with
# the zstandard package the service depends on).
BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd"
PEERS = "2,000-point history, median: Bencher 38 ms, Conbench 1,024 ms, Codespeed 142 ms"

Connection = psycopg.Connection[tuple[Any, ...]]


@dataclass(frozen=True)
class SeriesSpec:
    suite: str
    machine: str
    benchmark: str
    params: dict[str, int]
    language: str
    mode: str
    metric: str
    unit: str
    level: float
    step_at: int  # run index of a level change; RUNS_PER_SUITE for none
    step: float

    def identity(self) -> dict[str, Any]:
        """The series' identity fields, as series_fingerprint and generated_series take them."""
        return {
            "suite": self.suite,
            "benchmark": self.benchmark,
            "params": self.params,
            "language": self.language,
            "implementation": IMPLEMENTATIONS[self.language],
            "mode": self.mode,
            "variant": self.variant,
            "hardware": self.machine,
            "metric": self.metric,
        }

    def fingerprint(self) -> bytes:
        fingerprint: bytes = series_fingerprint(**self.identity())
        return fingerprint

    @property
    def variant(self) -> str | None:
        return "sequential" if self.mode == "async" else None


@dataclass(frozen=True)
class Shape:
    """How many suites of SERIES_PER_SUITE series, each with how many runs: 10,000,000
    results are 5 suites x 2,000 runs; larger sets have 5,000-run histories (100,000,000:
    20 suites, 20,000 series)."""

    results: int
    suites: tuple[str, ...]
    runs_per_suite: int

    @classmethod
    def of(cls, results: int) -> "Shape":
        runs = 2_000 if results <= DEFAULT_RESULTS else 5_000
        count, rest = divmod(results, SERIES_PER_SUITE * runs)
        if rest or not count:
            raise SystemExit(f"--results must be a multiple of {SERIES_PER_SUITE * runs:,}")
        names = tuple(
            SUITES[index % len(SUITES)] + (f"-{index // len(SUITES)}" if index >= 5 else "")
            for index in range(count)
        )
        return cls(results, names, runs)

    @property
    def data_dir(self) -> str:
        """Each size is cached in its own database."""
        return "read" if self.results == DEFAULT_RESULTS else f"read-{self.results:_d}"


@dataclass(frozen=True)
class RunSpec:
    id: uuid.UUID
    suite_index: int
    index: int
    started_at: datetime


def suite_series(shape: Shape, suite_index: int, rng: random.Random) -> list[SeriesSpec]:
    suite = shape.suites[suite_index]
    languages = [
        LANGUAGES[(suite_index * 3 + offset) % len(LANGUAGES)]
        for offset in range(LANGUAGES_PER_SUITE)
    ]
    specs = []
    for language in languages:
        for mode in ("sync", "async"):
            for workload in range(WORKLOADS):
                for size in SIZES:
                    for metric, unit in METRICS:
                        changes = rng.random() < 0.3
                        specs.append(
                            SeriesSpec(
                                suite=suite,
                                machine=MACHINES[suite_index % len(MACHINES)],
                                benchmark=f"{suite}-{workload:02d}",
                                params={"size": size},
                                language=language,
                                mode=mode,
                                metric=metric,
                                unit=unit,
                                level=rng.lognormvariate(4, 1.5),
                                step_at=rng.randrange(shape.runs_per_suite)
                                if changes
                                else shape.runs_per_suite,
                                step=rng.choice((0.8, 0.9, 1.1, 1.25)),
                            )
                        )
    return specs


def all_runs(shape: Shape, started: datetime) -> list[RunSpec]:
    """Every run of every suite, in upload (time) order."""
    runs = [
        RunSpec(
            id=uuid.uuid4(),
            suite_index=suite_index,
            index=index,
            started_at=started + index * RUN_INTERVAL + suite_index * timedelta(minutes=17),
        )
        for suite_index in range(len(shape.suites))
        for index in range(shape.runs_per_suite)
    ]
    return sorted(runs, key=lambda run: run.started_at)


def insert_hardware(conn: Connection) -> dict[str, int]:
    ids = {}
    for machine in MACHINES:
        row = conn.execute(
            "INSERT INTO hardware (name, info) VALUES (%s, %s) RETURNING id",
            (machine, Jsonb({"os": "linux", "storage": "nvme"})),
        ).fetchone()
        assert row is not None
        ids[machine] = int(row[0])
    return ids


def insert_series(
    conn: Connection, specs: list[SeriesSpec], hardware: dict[str, int]
) -> dict[bytes, int]:
    rows = [
        generated_series(**spec.identity(), hardware_id=hardware[spec.machine], unit=spec.unit)
        for spec in specs
    ]
    SERIES_COPY.write(conn, rows)
    cursor = conn.execute("SELECT fingerprint, id FROM series")
    return {bytes(fingerprint): int(series_id) for fingerprint, series_id in cursor}


def insert_runs(
    conn: Connection, shape: Shape, runs: list[RunSpec], hardware: dict[str, int]
) -> None:
    for suite in shape.suites:  # as an upload does: every suite with runs has its settings row
        conn.execute("INSERT INTO suite (name) VALUES (%s)", (suite,))
    rows = (
        generated_run(
            run.id,
            suite=shape.suites[run.suite_index],
            started_at=run.started_at,
            hardware_id=hardware[MACHINES[run.suite_index % len(MACHINES)]],
            result_count=SERIES_PER_SUITE,
            body=PLACEHOLDER_BODY,
            name=f"{shape.suites[run.suite_index]} #{run.index}",
            git=Jsonb({"repo": "https://example.org/bench.git", "commit": f"{run.index:07x}"}),
            environment=Jsonb({"kernel": "6.1"}),
            tags=Jsonb({"published_by": "bench/read_speed.py"}),
        )
        for run in runs
    )
    RUN_COPY.write(conn, rows)


def result_rows(
    runs: list[RunSpec], by_suite: list[list[tuple[SeriesSpec, int, float]]], rng: random.Random
) -> Iterator[tuple[Any, ...]]:
    """The rows of `result`, run by run, as uploads would have written them (RESULT_COPY)."""
    for run in runs:
        with_stats = run.index % STATS_EVERY == 0
        for spec, series_id, factor in by_suite[run.suite_index]:
            level = spec.level * (spec.step if run.index >= spec.step_at else 1.0)
            value = level * (1 + rng.gauss(0, 0.02))
            stats = None
            if with_stats:
                spread = value * 0.03
                stats = Jsonb(
                    {
                        "n": 100,
                        "min": value - 2 * spread,
                        "median": value,
                        "mean": value,
                        "stddev": spread,
                        "p95": value + 1.6 * spread,
                        "max": value + 4 * spread,
                    }
                )
            samples = None
            yield (
                run.id,
                series_id,
                run.started_at,
                value,
                spec.unit,
                value * factor,
                stats,
                samples,
            )


def result_ddl(conn: Connection) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Secondary indexes and unique/foreign-key constraints of `result`, to rebuild after."""
    constraints = conn.execute(
        "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
        " WHERE conrelid = 'result'::regclass AND contype IN ('u', 'f') ORDER BY contype DESC"
    ).fetchall()
    indexes = conn.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'result'"
        " AND indexname NOT IN (SELECT conname FROM pg_constraint"
        " WHERE conrelid = 'result'::regclass)"
    ).fetchall()
    return [(str(n), str(d)) for n, d in constraints], [(str(n), str(d)) for n, d in indexes]


def load_results(
    conn: Connection, months: Iterable[tuple[date, Iterable[tuple[Any, ...]]]]
) -> None:
    """Bulk-load practice, in the caller's transaction, then commit: `result`'s secondary
    indexes and FKs dropped, each month's rows COPYed straight into its partition (not
    through the parent's routing), the indexes built and the FKs checked once with the
    definitions the migrations created, and the totals uploads keep counted."""
    constraints, indexes = result_ddl(conn)
    for name, _ in constraints:
        conn.execute(f'ALTER TABLE result DROP CONSTRAINT "{name}"')
    for name, _ in indexes:
        conn.execute(f'DROP INDEX "{name}"')
    for month, rows in months:
        print(f"  {month:%Y-%m}", end="", flush=True)
        replace(RESULT_COPY, table=partition_name(month)).write(conn, rows)
    print("\nbuilding indexes and constraints of result", flush=True)
    for _, definition in indexes:
        # pg_indexes shows a partitioned index as created ON ONLY the parent: build it
        # on every partition.
        conn.execute(definition.replace(" ON ONLY ", " ON ", 1))
    for name, definition in reversed(constraints):
        conn.execute(f'ALTER TABLE result ADD CONSTRAINT "{name}" {definition}')
    print("counting the totals uploads keep (recount_totals)", flush=True)
    conn.execute("SELECT recount_totals()")
    conn.commit()


def analyse(service: BenchService) -> None:
    """VACUUM (ANALYZE) after a load: visibility maps for index-only scans, statistics."""
    with service.connect(autocommit=True) as conn:
        print("VACUUM (ANALYZE)", flush=True)
        conn.execute("VACUUM (ANALYZE)")


def generate(service: BenchService, shape: Shape, seed: int) -> None:
    """Fill an empty database in one transaction: an interrupted run leaves it empty.

    The rows go straight into their month's partition of `result` (COPY into the
    partition, not through the parent's routing)."""
    rng = random.Random(seed)
    started = time.perf_counter()
    specs = [s for index in range(len(shape.suites)) for s in suite_series(shape, index, rng)]
    runs = all_runs(shape, datetime(2024, 1, 1, tzinfo=UTC))
    engine = create_engine(service.database_url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.begin() as connection:  # the service's own partition code, before any row
        create_months(connection, months_between(runs[0].started_at, runs[-1].started_at))
    engine.dispose()
    with service.connect() as conn:
        set_json_dumps(orjson.dumps, context=conn)
        conn.execute("SET maintenance_work_mem = '1GB'")
        hardware = insert_hardware(conn)
        ids = insert_series(conn, specs, hardware)
        insert_runs(conn, shape, runs, hardware)
        by_suite: list[list[tuple[SeriesSpec, int, float]]] = [[] for _ in shape.suites]
        for spec in specs:
            entry = (spec, ids[spec.fingerprint()], unit_info(spec.unit).factor)
            by_suite[shape.suites.index(spec.suite)].append(entry)
        print(f"COPY {len(runs) * SERIES_PER_SUITE:,} results", flush=True)
        by_month = itertools.groupby(runs, key=lambda run: month_of(run.started_at))
        load_results(conn, ((m, result_rows(list(r), by_suite, rng)) for m, r in by_month))
    analyse(service)
    print(f"generated in {time.perf_counter() - started:.0f} s", flush=True)


def result_count(service: BenchService) -> int:
    """The results stored, from the totals uploads keep (counting 100,000,000 rows would
    take a while)."""
    with service.connect() as conn:
        row = conn.execute("SELECT coalesce(sum(result_count), 0) FROM series").fetchone()
        return int(row[0]) if row else 0


@dataclass(frozen=True)
class Endpoint:
    label: str
    target_ms: float | None
    paths: list[str]
    counts_reads: bool = False  # a history: its time depends on how cold its pages are


def endpoints(
    service: BenchService, shape: Shape, requests: int, rng: random.Random
) -> list[Endpoint]:
    with service.connect() as conn:
        series = conn.execute(
            "SELECT id, last_started_at FROM series WHERE result_count = %s",
            (shape.runs_per_suite,),
        ).fetchall()
        languages = [
            str(row[0])
            for row in conn.execute("SELECT DISTINCT language FROM series ORDER BY language")
        ]
    picked = rng.sample(series, min(requests, len(series)))
    # 10M targets; above, history within 20 ms and the others within twice theirs.
    larger = shape.results > DEFAULT_RESULTS
    scale = 2.0 if larger else 1.0

    def by_language(path: str) -> list[str]:
        return [
            f"{path}?language={languages[i % len(languages)]}&mode=async" for i in range(requests)
        ]

    newest = [  # the newest 2,000 runs: all of a 2,000-run history
        (series_id, (last - (HISTORY_POINTS - 1) * RUN_INTERVAL).isoformat())
        for series_id, last in picked
    ]
    # A whole series is served from its snapshot, a window sliced from the snapshot of
    # every point: timed too, without a target of its own at 10M (the is for the
    # 2,000-point history).
    histories = [
        Endpoint(
            "GET /api/v1/series/{id}/history (2,000 points)",
            HISTORY_TARGET_MS,
            [f"/api/v1/series/{series_id}/history" for series_id, _ in picked],
            counts_reads=True,
        ),
        Endpoint(
            "GET /api/v1/series/{id}/history?since=… (the same 2,000 points as a window)",
            None,
            [f"/api/v1/series/{i}/history?since={quote(since)}" for i, since in newest],
            counts_reads=True,
        ),
    ]
    if larger:
        histories = [
            Endpoint(
                "GET /api/v1/series/{id}/history?since=… (newest 2,000 points)",
                LARGER_HISTORY_TARGET_MS,
                [f"/api/v1/series/{i}/history?since={quote(since)}" for i, since in newest],
                counts_reads=True,
            ),
            Endpoint(
                f"GET /api/v1/series/{{id}}/history ({shape.runs_per_suite:,} points,"
                " max_points=2000)",
                LARGER_HISTORY_TARGET_MS,
                [f"/api/v1/series/{i}/history?max_points={HISTORY_POINTS}" for i, _ in picked],
                counts_reads=True,
            ),
        ]
    return [
        *histories,
        Endpoint(
            "GET /api/v1/facets?language=X&mode=async",
            FACETS_TARGET_MS * scale,
            by_language("/api/v1/facets"),
        ),
        Endpoint(
            "GET /api/v1/compare/modes?language=X&mode=async",
            MODES_TARGET_MS * scale,
            by_language("/api/v1/compare/modes"),
        ),
        Endpoint(
            "GET /api/v1/series?language=X&mode=async (first page)",
            SERIES_TARGET_MS * scale,
            by_language("/api/v1/series"),
        ),
        Endpoint("GET /api/v1/suites", SUITES_TARGET_MS * scale, ["/api/v1/suites"] * requests),
        # No target: the machine's floor for a request through the whole stack, so runs on
        # machines (or moments) of different speed can be read against each other.
        Endpoint("GET /api/v1/health (the floor)", None, ["/api/v1/health"] * requests),
    ]


def timed_get(client: httpx.Client, path: str) -> tuple[float, httpx.Response]:
    """The time until the body is read and decoded, as a browser's fetch().json() waits."""
    started = time.perf_counter()
    response = client.get(path)
    elapsed = time.perf_counter() - started
    if response.status_code != 200:
        raise RuntimeError(f"GET {path} answered {response.status_code}: {response.text[:300]}")
    return elapsed, response


@dataclass(frozen=True)
class Reads:
    """Blocks PostgreSQL read into shared buffers (from the OS page cache or the disk)."""

    blocks: int
    ms: float  # time spent reading them (track_io_timing)

    def __sub__(self, other: "Reads") -> "Reads":
        return Reads(self.blocks - other.blocks, self.ms - other.ms)


# A backend reports its counters at most once a second while busy and after 10 s idle:
# waiting this long after a timed endpoint counts all of its reads.
STATS_FLUSH_WAIT_S = 11.0


def database_reads(service: BenchService) -> Reads:
    with service.connect() as conn:
        row = conn.execute(
            "SELECT blks_read, blk_read_time FROM pg_stat_database"
            " WHERE datname = current_database()"
        ).fetchone()
    assert row is not None
    return Reads(int(row[0]), float(row[1]))


def time_reads(service: BenchService) -> None:
    """Have the service's sessions time their reads (the bench database only)."""
    with service.connect(autocommit=True) as conn:
        database = conn.execute("SELECT current_database()").fetchone()
        assert database is not None
        conn.execute(f'ALTER DATABASE "{database[0]}" SET track_io_timing = on')


@dataclass
class Figures:
    endpoint: Endpoint
    times: list[float]
    body_bytes: int  # mean, decoded
    wire_bytes: int  # mean, as sent
    encodings: set[str]
    reads: Reads | None = None  # during the timed requests (histories only)


def measure(
    client: httpx.Client, endpoint: Endpoint, warmup: int, service: BenchService | None = None
) -> Figures:
    """Warm up on the endpoint's first paths, then time each; with `service`, count the
    database's reads during the timed requests (how cold the series' pages were)."""
    for path in endpoint.paths[:warmup]:
        timed_get(client, path)
    figures = Figures(endpoint, [], 0, 0, set())
    before = None
    if service:
        time.sleep(STATS_FLUSH_WAIT_S)  # the warm-up's reads reported before counting
        before = database_reads(service)
    for path in endpoint.paths:
        elapsed, response = timed_get(client, path)
        figures.times.append(elapsed)
        figures.body_bytes += len(response.content)
        figures.wire_bytes += response.num_bytes_downloaded
        figures.encodings.add(response.headers.get("content-encoding", "identity"))
    count = max(len(endpoint.paths), 1)
    figures.body_bytes //= count
    figures.wire_bytes //= count
    if service and before:
        time.sleep(STATS_FLUSH_WAIT_S)
        figures.reads = database_reads(service) - before
    return figures


def check_history(client: httpx.Client, path: str) -> None:
    history = orjson.loads(timed_get(client, path)[1].content)
    points = len(history["points"])
    if points != HISTORY_POINTS or history["downsampled"]:
        raise RuntimeError(f"{path}: {points} points, downsampled={history['downsampled']}")


# Building the snapshots of 20,000 series of 5,000 runs takes one worker several minutes.
SNAPSHOTS_WAIT_S = 1800.0


def wait_for_snapshots(service: BenchService) -> str:
    """Until the service's worker, idle, has built the history snapshots of every long
    series (series/snapshots.py), as it does after uploads; a line saying how many it
    built and in how long."""
    engine = create_engine(service.database_url.replace("postgresql://", "postgresql+psycopg://"))
    min_points = Settings().snapshot_min_points
    started = time.perf_counter()
    stale: list[int] = []
    with Session(engine) as session:
        while True:
            left = len(snapshots.stale_series(session, min_points=min_points))
            session.rollback()  # a new snapshot of the database next time
            stale.append(left)
            waited = time.perf_counter() - started
            if left == 0 or waited > SNAPSHOTS_WAIT_S:
                break
            print(f"  the worker is building history snapshots: {left:,} series left", flush=True)
            time.sleep(10)
    engine.dispose()
    state = "all built" if stale[-1] == 0 else f"{stale[-1]:,} still missing"
    return (
        f"history snapshots: {stale[0]:,} series had none or an old one at start;"
        f" {state} after {waited:.0f} s (the service's detection worker builds them)"
    )


def dataset_summary(service: BenchService) -> str:
    with service.connect() as conn:
        row = conn.execute(
            "SELECT (SELECT sum(result_count) FROM series), (SELECT count(*) FROM series),"
            " (SELECT count(*) FROM run), pg_database_size(current_database()),"
            " (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('result')),"
            " (SELECT count(*) - 1 FROM pg_partition_tree('result')),"
            " pg_total_relation_size('history_snapshot')"
        ).fetchone()
    assert row is not None
    results, series, runs, database, result_bytes, partitions, snapshot_bytes = row
    return (
        f"dataset: {results:,} results, {series:,} series, {runs:,} runs;"
        f" database {database / 2**30:.1f} GiB, {database / results:.0f} bytes per result"
        f" (result with indexes {result_bytes / 2**30:.1f} GiB in {partitions} partitions,"
        f" history snapshots {snapshot_bytes / 2**30:.2f} GiB)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--regenerate", action="store_true", help="generate the dataset again")
    parser.add_argument(
        "--requests", type=int, default=DEFAULT_REQUESTS, help="timed requests per endpoint"
    )
    parser.add_argument(
        "--warmup", type=int, default=DEFAULT_WARMUP, help="untimed requests per endpoint"
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--results",
        type=int,
        default=DEFAULT_RESULTS,
        help="dataset size (each size is cached apart), e.g. 100000000",
    )
    args = parser.parse_args()
    exit_cleanly_on_sigterm()
    shape = Shape.of(args.results)
    service = BenchService(shape.data_dir)
    service.cli("db", "upgrade")
    count = result_count(service)
    if args.regenerate or count != shape.results:
        print(f"generating the dataset (the database holds {count:,} results)", flush=True)
        service.cli("db", "reset", "--yes")
        generate(service, shape, args.seed)
    else:
        print(f"reusing the dataset: {count:,} results (--regenerate to rebuild)", flush=True)
    rng = random.Random(args.seed)
    plan = endpoints(service, shape, args.requests, rng)
    figures: list[Figures] = []
    browser = {"Accept-Encoding": BROWSER_ACCEPT_ENCODING}
    time_reads(service)
    with service, httpx.Client(base_url=service.base_url, headers=browser, timeout=60) as client:
        service.start()
        snapshots_line = wait_for_snapshots(service)
        check_history(client, plan[0].paths[0])
        for endpoint in plan:
            print(f"timing {endpoint.label}", flush=True)
            counted = service if endpoint.counts_reads else None
            figures.append(measure(client, endpoint, args.warmup, counted))
    print()
    print(
        f"Read speed - {machine_summary()}, service with 2 workers, embedded PostgreSQL;"
        f" load average {load_average()} (1, 5, 15 min) at the end"
    )
    print(dataset_summary(service))
    print(snapshots_line)
    print(
        "sequential requests over one keep-alive connection, after "
        f"{args.warmup} warm-up requests per endpoint; client-side response times until the"
        f" body is decoded; Accept-Encoding: {BROWSER_ACCEPT_ENCODING} (as browsers send it)"
    )
    print()
    rows = [
        [
            f.endpoint.label,
            f"{len(f.times)}",
            f"{percentile(f.times, 50) * 1000:.1f}",
            f"{percentile(f.times, 95) * 1000:.1f}",
            f"{percentile(f.times, 99) * 1000:.1f}",
            f"{f.body_bytes / 1024:.0f}",
            f"{f.wire_bytes / 1024:.0f} {'/'.join(sorted(f.encodings))}",
            f"<= {f.endpoint.target_ms:.0f}" if f.endpoint.target_ms else "-",
        ]
        for f in figures
    ]
    print_table(
        ["endpoint", "requests", "p50 ms", "p95 ms", "p99 ms", "KiB", "KiB sent", "target p95 ms"],
        rows,
    )
    print()
    for f in figures:
        if f.reads is not None:
            print(reads_line(f))
    print(f"peers on a similar machine: {PEERS}")
    print("X cycles through the languages of the dataset; history series are picked at random.")
    print()
    print("commands run:")
    options = "".join(
        f" --{name} {value}" if value is not True else f" --{name}"
        for name, value, default in (
            ("regenerate", args.regenerate, False),
            ("results", args.results, DEFAULT_RESULTS),
            ("seed", args.seed, DEFAULT_SEED),
            ("requests", args.requests, DEFAULT_REQUESTS),
            ("warmup", args.warmup, DEFAULT_WARMUP),
        )
        if value != default
    )
    print(f"  .venv/bin/python bench/read_speed.py{options}")
    for command in service.commands:
        print(f"  {command}")
    missed = missed_targets(figures)
    for line in missed:
        print(f"TARGET MISSED: {line}", file=sys.stderr)
    if missed:
        sys.exit(1)
    print(f"every target met (load average {load_average()})")


def reads_line(figures: Figures) -> str:
    """How cold a history's pages were: ~5 us a block from the OS page cache, ~50-100 us
    from this machine's disk."""
    assert figures.reads is not None
    requests = max(len(figures.times), 1)
    blocks, ms = figures.reads.blocks, figures.reads.ms
    per_block = f"{ms * 1000 / blocks:.0f} us a block" if blocks else "none read"
    return (
        f"{figures.endpoint.label}: {blocks / requests:.0f} blocks a request read from outside"
        f" shared buffers in {ms / requests:.2f} ms ({per_block})"
    )


def missed_targets(figures: list[Figures]) -> list[str]:
    """A line for each endpoint whose p95 is above its target."""
    return [
        f"{f.endpoint.label}: p95 {p95:.1f} ms > {f.endpoint.target_ms:.0f} ms"
        for f in figures
        if f.endpoint.target_ms is not None
        and (p95 := percentile(f.times, 95) * 1000) > f.endpoint.target_ms
    ]


def load_average() -> str:
    return " ".join(f"{load:.2f}" for load in os.getloadavg())


if __name__ == "__main__":
    main()
