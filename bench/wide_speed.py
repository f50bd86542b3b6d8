"""Wide read speed (issue 25): a million series, each read the dashboard makes, cold and warm.

    .venv/bin/python bench/wide_speed.py [--regenerate] [--requests 100] [--cold 20]
    .venv/bin/python bench/wide_speed.py --generate-only   # the dataset alone (~3 minutes)

Starts its own service as `make run` does (`benchboard serve`: 2 API workers and one
detection worker) on its own embedded PostgreSQL, .data/bench/wide. The first invocation
generates the dataset straight into PostgreSQL through the store's COPY layouts (as
read_speed.py does): 10 suites of 100,000 series, each 2 of the 3 machines x 20
implementation-modes x 25 benchmarks x 100 parameter sets (size x threads), 2 runs per
machine, so 2 results a series (2,000,000 results, 40 runs). Seven languages: go, rust,
python and java with two implementations each and dart with one, each in sync and async
(pairs); c and zig only sync (no pair: `compare/modes?language=c` has none to find). A
benchmark name appears in five suites. Later invocations reuse the dataset while it holds
exactly 1,000,000 series.

Warm: each read after a warm-up, with `--requests` requests each. Cold: then the
service is restarted, as a deploy restarts it (new processes and connections, empty plan
caches and kept answers), and each read's first `--cold` requests are timed without
warm-up, each on a filter value not asked yet in this process where there are several;
PostgreSQL itself keeps running (its shared buffers and the OS page cache stay warm).
Sequential over one keep-alive connection, with a browser's Accept-Encoding; times until
the body is decoded. A missed target prints `TARGET MISSED` and exits 1.
"""

import argparse
import itertools
import random
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import orjson
from common import (
    BenchService,
    exit_cleanly_on_sigterm,
    generated_run,
    generated_series,
    machine_summary,
    percentile,
)
from common import print_table as print_plain_table
from psycopg.types.json import Jsonb, set_json_dumps
from read_speed import (
    BROWSER_ACCEPT_ENCODING,
    Connection,
    Endpoint,
    Figures,
    analyse,
    load_average,
    load_results,
    missed_targets,
    timed_get,
)
from read_speed import measure as measure_warm
from sqlalchemy import create_engine

from benchboard.pagination import PAGE_DEFAULT
from benchboard.partitions import create_months, month_of, months_between
from benchboard.runs.resolve import SERIES_COPY
from benchboard.runs.store import RUN_COPY
from benchboard_ingest.vocabulary import unit_info

SUITES = tuple(f"wide-{index:02d}" for index in range(10))
MACHINES = ("do-8vcpu", "do-40vcpu", "hetzner-ax41")
# (language, implementation, modes): five languages in sync/async pairs, two sync only.
IMPLEMENTATIONS = (
    ("go", "net/http", ("sync", "async")),
    ("go", "fasthttp", ("sync", "async")),
    ("rust", "tokio", ("sync", "async")),
    ("rust", "async-std", ("sync", "async")),
    ("python", "asyncio", ("sync", "async")),
    ("python", "trio", ("sync", "async")),
    ("java", "netty", ("sync", "async")),
    ("java", "loom", ("sync", "async")),
    ("dart", "dart:io", ("sync", "async")),
    ("c", "posix", ("sync",)),
    ("zig", "std", ("sync",)),
)
SLOTS = [(language, impl, mode) for language, impl, modes in IMPLEMENTATIONS for mode in modes]
BENCHMARK_POOL = 50
BENCHMARKS_PER_SUITE = 25
SIZES = tuple(2**k for k in range(10))
THREADS = tuple(range(1, 11))
METRIC, UNIT = "time_per_op", "us"
RUNS_PER_MACHINE = 2
SERIES = 1_000_000
DEFAULT_REQUESTS = 100
DEFAULT_COLD = 20
DEFAULT_WARMUP = 10
DEFAULT_SEED = 25
EXPLORE_PAGE = 200  # frontend/src/features/explore/page.ts
PLACEHOLDER_BODY = b'{"generated": "bench/wide_speed.py"}'
START = datetime(2026, 10, 1, tzinfo=UTC)

# Targets of p95 at 1,000,000 series (issue 25).
FACETS_TARGET_MS = 50.0
LIST_TARGET_MS = 30.0  # series list, regressions list, suites: first page
BENCHMARK_MODES_TARGET_MS = 100.0
LANGUAGE_MODES_TARGET_MS = 150.0


@dataclass(frozen=True)
class SeriesSpec:
    suite: str
    machine: str
    benchmark: str
    params: dict[str, int]
    language: str
    implementation: str
    mode: str
    level: float

    def row(self, hardware_id: int) -> tuple[Any, ...]:
        """Its `series` row (SERIES_COPY), fingerprint first, as an upload resolves it."""
        return generated_series(
            suite=self.suite,
            benchmark=self.benchmark,
            params=self.params,
            language=self.language,
            implementation=self.implementation,
            mode=self.mode,
            variant=None,
            hardware=self.machine,
            hardware_id=hardware_id,
            metric=METRIC,
            unit=UNIT,
        )


def suite_machines(suite_index: int) -> tuple[str, str]:
    return MACHINES[suite_index % 3], MACHINES[(suite_index + 1) % 3]


def suite_benchmarks(suite_index: int) -> list[str]:
    return [f"op-{(suite_index * 5 + k) % BENCHMARK_POOL:02d}" for k in range(BENCHMARKS_PER_SUITE)]


def all_series(rng: random.Random) -> Iterator[SeriesSpec]:
    for suite_index, suite in enumerate(SUITES):
        for machine in suite_machines(suite_index):
            for benchmark in suite_benchmarks(suite_index):
                for language, implementation, mode in SLOTS:
                    level = rng.lognormvariate(3, 1.5)
                    for size, threads in itertools.product(SIZES, THREADS):
                        yield SeriesSpec(
                            suite,
                            machine,
                            benchmark,
                            {"size": size, "threads": threads},
                            language,
                            implementation,
                            mode,
                            level * (1 + size / 1024),
                        )


@dataclass(frozen=True)
class RunSpec:
    id: uuid.UUID
    suite: str
    machine: str
    index: int
    started_at: datetime


def all_runs() -> list[RunSpec]:
    runs = [
        RunSpec(
            uuid.uuid4(),
            suite,
            machine,
            index,
            START + timedelta(days=index, hours=suite_index, minutes=machine_index),
        )
        for suite_index, suite in enumerate(SUITES)
        for machine_index, machine in enumerate(suite_machines(suite_index))
        for index in range(RUNS_PER_MACHINE)
    ]
    return sorted(runs, key=lambda run: run.started_at)


def _hardware(conn: Connection) -> dict[str, int]:
    ids = {}
    for machine in MACHINES:
        row = conn.execute(
            "INSERT INTO hardware (name, info) VALUES (%s, %s) RETURNING id",
            (machine, Jsonb({"os": "linux"})),
        ).fetchone()
        assert row is not None
        ids[machine] = int(row[0])
    return ids


def _result_rows(
    runs: list[RunSpec], by_placement: dict[tuple[str, str], list[tuple[SeriesSpec, int]]]
) -> Iterator[tuple[Any, ...]]:
    """RESULT_COPY's rows, run by run, as uploads would have written them."""
    factor = unit_info(UNIT).factor
    noise = random.Random(1)
    for run in runs:
        for spec, series_id in by_placement[run.suite, run.machine]:
            value = spec.level * (1 + noise.gauss(0, 0.02))
            yield (run.id, series_id, run.started_at, value, UNIT, value * factor, None, None)


def generate(service: BenchService, seed: int) -> None:
    """Fill the empty database in one transaction, indexes of `result` built after."""
    started = time.perf_counter()
    rng = random.Random(seed)
    specs = list(all_series(rng))
    runs = all_runs()
    engine = create_engine(service.database_url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.begin() as connection:  # the service's own partition code, before any row
        create_months(connection, months_between(runs[0].started_at, runs[-1].started_at))
    engine.dispose()
    with service.connect() as conn:
        set_json_dumps(orjson.dumps, context=conn)
        conn.execute("SET maintenance_work_mem = '512MB'")
        hardware = _hardware(conn)
        print(f"COPY {len(specs):,} series", flush=True)
        rows = [spec.row(hardware[spec.machine]) for spec in specs]
        SERIES_COPY.write(conn, rows)
        fingerprints = [row[SERIES_COPY.columns.index("fingerprint")] for row in rows]
        ids = {bytes(fp): int(i) for fp, i in conn.execute("SELECT fingerprint, id FROM series")}
        for suite in SUITES:  # as an upload does: every suite with runs has its settings row
            conn.execute("INSERT INTO suite (name) VALUES (%s)", (suite,))
        by_placement: dict[tuple[str, str], list[tuple[SeriesSpec, int]]] = {}
        for spec, fingerprint in zip(specs, fingerprints, strict=True):
            by_placement.setdefault((spec.suite, spec.machine), []).append((spec, ids[fingerprint]))
        RUN_COPY.write(
            conn,
            (
                generated_run(
                    run.id,
                    suite=run.suite,
                    started_at=run.started_at,
                    hardware_id=hardware[run.machine],
                    result_count=len(by_placement[run.suite, run.machine]),
                    body=PLACEHOLDER_BODY,
                    name=f"{run.suite} #{run.index}",
                )
                for run in runs
            ),
        )
        print(f"COPY {sum(len(by_placement[r.suite, r.machine]) for r in runs):,} results")
        by_month = itertools.groupby(runs, key=lambda run: month_of(run.started_at))
        load_results(conn, ((m, _result_rows(list(r), by_placement)) for m, r in by_month))
    analyse(service)
    print(f"generated in {time.perf_counter() - started:.0f} s", flush=True)


def series_count(service: BenchService) -> int:
    with service.connect() as conn:
        row = conn.execute("SELECT count(*) FROM series").fetchone()
        return int(row[0]) if row else 0


def _cycle(paths: list[str], requests: int) -> list[str]:
    return [paths[index % len(paths)] for index in range(requests)]


def endpoints(requests: int, rng: random.Random) -> list[Endpoint]:
    """Each read, its target and its paths; filter values shuffled by the seed."""
    paired = sorted({language for language, _, modes in IMPLEMENTATIONS if len(modes) == 2})
    implementations = [impl for _, impl, _ in IMPLEMENTATIONS]
    benchmarks = [f"op-{index:02d}" for index in range(BENCHMARK_POOL)]
    for values in (paired, implementations, benchmarks):
        rng.shuffle(values)
    suites = rng.sample(SUITES, len(SUITES))
    machines = list(MACHINES)
    series_filters = [
        "",
        *(f"language={language}&mode=async" for language in paired),
        *(f"suite={suite}" for suite in suites),
        *(f"benchmark={b}&hardware={machines[i % 3]}" for i, b in enumerate(benchmarks[:10])),
        *(f"implementation={impl}&mode=sync" for impl in implementations),
        "language=c&mode=async",  # matches nothing
    ]
    rng.shuffle(series_filters)
    regression_filters = [
        "",
        *(f"language={language}" for language in paired),
        *(f"suite={suite}" for suite in suites),
        *(f"benchmark={b}" for b in benchmarks[:10]),
        *(f"hardware={machine}" for machine in machines),
    ]
    rng.shuffle(regression_filters)

    def paths(path: str, filters: list[str]) -> list[str]:
        return _cycle([f"{path}?{query}" if query else path for query in filters], requests)

    return [
        Endpoint("facets, no filter", FACETS_TARGET_MS, ["/api/v1/facets"] * requests),
        Endpoint(
            "facets language=X&mode=async",
            FACETS_TARGET_MS,
            paths("/api/v1/facets", [f"language={x}&mode=async" for x in paired]),
        ),
        Endpoint(
            "facets suite=S",
            FACETS_TARGET_MS,
            paths("/api/v1/facets", [f"suite={s}" for s in suites]),
        ),
        Endpoint(
            f"series list, first page (any filter, default limit {PAGE_DEFAULT})",
            LIST_TARGET_MS,
            paths("/api/v1/series", series_filters),
        ),
        Endpoint(
            f"series list, first page (any filter, limit={EXPLORE_PAGE} as Explore asks)",
            LIST_TARGET_MS,
            paths(
                "/api/v1/series", [f"{q}&limit={EXPLORE_PAGE}".lstrip("&") for q in series_filters]
            ),
        ),
        Endpoint(
            "regressions list, first page (any filter)",
            LIST_TARGET_MS,
            paths("/api/v1/regressions", regression_filters),
        ),
        Endpoint("suites", LIST_TARGET_MS, ["/api/v1/suites"] * requests),
        Endpoint(
            "compare/modes benchmark=B (5 suites), first page (100 sync series)",
            BENCHMARK_MODES_TARGET_MS,
            paths("/api/v1/compare/modes", [f"benchmark={b}" for b in benchmarks]),
        ),
        Endpoint(
            "compare/modes language=X, first page (100 sync series)",
            LANGUAGE_MODES_TARGET_MS,
            paths("/api/v1/compare/modes", [f"language={x}" for x in paired]),
        ),
        Endpoint(
            "compare/modes language=X&mode=async, first page (100 sync series)",
            LANGUAGE_MODES_TARGET_MS,
            paths("/api/v1/compare/modes", [f"language={x}&mode=async" for x in paired]),
        ),
        Endpoint(
            "compare/modes language=c (no pair)",
            LANGUAGE_MODES_TARGET_MS,
            paths("/api/v1/compare/modes", ["language=c", "language=zig"]),
        ),
        Endpoint("health (the floor)", None, ["/api/v1/health"] * requests),
    ]


def measure_cold(client: httpx.Client, endpoint: Endpoint, count: int) -> Figures:
    """The endpoint's first `count` paths, no warm-up."""
    figures = Figures(endpoint, [], 0, 0, set())
    for path in endpoint.paths[:count]:
        elapsed, response = timed_get(client, path)
        figures.times.append(elapsed)
        figures.body_bytes += len(response.content)
        figures.wire_bytes += response.num_bytes_downloaded
        figures.encodings.add(response.headers.get("content-encoding", "identity"))
    figures.body_bytes //= max(count, 1)
    figures.wire_bytes //= max(count, 1)
    return figures


def check_paging(client: httpx.Client) -> str:
    """compare/modes pages: the second page continues the first, and they do not overlap."""
    first = orjson.loads(
        timed_get(client, "/api/v1/compare/modes?language=go&limit=200")[1].content
    )
    cursor = first["next_cursor"]
    second = orjson.loads(
        timed_get(client, f"/api/v1/compare/modes?language=go&limit=200&cursor={cursor}")[1].content
    )
    keys = [
        (p["sync"]["series_id"], p["async"]["series_id"]) for p in first["items"] + second["items"]
    ]
    if len(keys) != 400 or len(set(keys)) != 400 or keys != sorted(keys):
        raise RuntimeError("compare/modes pages overlap or are out of order")
    return "compare/modes?language=go&limit=200: two pages of 200 pairs, in order, no overlap"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--regenerate", action="store_true", help="generate the dataset again")
    parser.add_argument("--requests", type=int, default=DEFAULT_REQUESTS, help="warm, per read")
    parser.add_argument("--cold", type=int, default=DEFAULT_COLD, help="cold requests per read")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--generate-only", action="store_true", help="make the dataset, then stop (untimed)"
    )
    args = parser.parse_args()
    exit_cleanly_on_sigterm()
    service = BenchService("wide")
    service.cli("db", "upgrade")
    count = series_count(service)
    if args.regenerate or count != SERIES:
        print(f"generating the dataset (the database holds {count:,} series)", flush=True)
        service.cli("db", "reset", "--yes")
        generate(service, args.seed)
    else:
        print(f"reusing the dataset: {count:,} series (--regenerate to rebuild)", flush=True)
    if args.generate_only:
        return
    plan = endpoints(max(args.requests, args.cold), random.Random(args.seed))
    browser = {"Accept-Encoding": BROWSER_ACCEPT_ENCODING}
    cold: list[Figures] = []
    warm: list[Figures] = []
    loads = [load_average()]
    with service, httpx.Client(base_url=service.base_url, headers=browser, timeout=60) as client:
        service.start()
        for endpoint in plan:
            print(f"timing {endpoint.label}, warm", flush=True)
            timed = replace(endpoint, paths=endpoint.paths[: args.requests])
            warm.append(measure_warm(client, timed, DEFAULT_WARMUP))
        paging = check_paging(client)
        loads.append(load_average())
        # Cold as after a deploy: new service processes, PostgreSQL still running. (Timed
        # first, on the server this invocation started, cold also meant PostgreSQL's own
        # empty buffers, which no restart of the service empties.)
        service.stop()
        service.start()
        for endpoint in plan:
            print(f"timing {endpoint.label}, cold", flush=True)
            cold.append(measure_cold(client, endpoint, args.cold))
        loads.append(load_average())
    report(args, service, cold, warm, loads, paging)


def report(
    args: argparse.Namespace,
    service: BenchService,
    cold: list[Figures],
    warm: list[Figures],
    loads: list[str],
    paging: str,
) -> None:
    print()
    print(f"Wide read speed - {machine_summary()}, `benchboard serve` (2 workers + detection)")
    print(f"load average (1, 5, 15 min): start {loads[0]}; after warm {loads[1]}; end {loads[2]}")
    with service.connect() as conn:
        row = conn.execute(
            "SELECT (SELECT count(*) FROM series), (SELECT sum(result_count) FROM series),"
            " (SELECT count(*) FROM series_group), pg_database_size(current_database())"
        ).fetchone()
    assert row is not None
    print(
        f"dataset: {row[0]:,} series in {len(SUITES)} suites, {row[1]:,} results,"
        f" {row[2]:,} series groups; database {row[3] / 2**30:.1f} GiB"
    )
    print(f"cold: first {args.cold} requests per read after a service restart, no warm-up;")
    print(f"warm: {args.requests} requests per read after {DEFAULT_WARMUP} warm-up requests")
    print()
    rows = [
        [
            c.endpoint.label,
            f"{percentile(c.times, 50) * 1000:.1f}",
            f"{percentile(c.times, 95) * 1000:.1f}",
            f"{percentile(w.times, 50) * 1000:.1f}",
            f"{percentile(w.times, 95) * 1000:.1f}",
            f"{w.body_bytes / 1024:.0f}",
            f"<= {c.endpoint.target_ms:.0f}" if c.endpoint.target_ms else "-",
        ]
        for c, w in zip(cold, warm, strict=True)
    ]
    headers = ["read", "cold p50", "cold p95", "warm p50", "warm p95", "KiB", "target p95 ms"]
    print_plain_table(headers, rows)
    print()
    print(paging)
    print("commands run:")
    options = "".join(
        f" --{name} {value}" if value is not True else f" --{name}"
        for name, value, default in (
            ("regenerate", args.regenerate, False),
            ("requests", args.requests, DEFAULT_REQUESTS),
            ("cold", args.cold, DEFAULT_COLD),
            ("seed", args.seed, DEFAULT_SEED),
        )
        if value != default
    )
    print(f"  .venv/bin/python bench/wide_speed.py{options}")
    for command in service.commands:
        print(f"  {command}")
    missed = [f"cold {line}" for line in missed_targets(cold)]
    missed += [f"warm {line}" for line in missed_targets(warm)]
    for line in missed:
        print(f"TARGET MISSED: {line}", file=sys.stderr)
    if missed:
        sys.exit(1)
    print(f"every target met, cold and warm (load average {load_average()})")


if __name__ == "__main__":
    main()
