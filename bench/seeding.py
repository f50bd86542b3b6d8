"""Series with long histories, written straight into PostgreSQL with binary COPY.

For the detection benchmarks: `series` series of one suite, `runs` runs each, values
around a level with 1 % Gaussian noise; `STEP_SHARE` of the series step up 20 % at a
random run, `STATS_SHARE` of the results carry summary statistics, `SAMPLES_SHARE` of
the series carry 5 replicates per run. Identities and fingerprints are those an upload
of `upload_results` would resolve to, so later uploads through the API extend them.
"""

import random
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import psycopg
from common import generated_run, generated_series
from psycopg.types.json import Jsonb
from sqlalchemy import create_engine

from benchboard.models import DEFAULT_BRANCH
from benchboard.partitions import create_months, months_between
from benchboard.runs.resolve import SERIES_COPY
from benchboard.runs.store import RESULT_COPY, RUN_COPY
from benchboard_ingest.vocabulary import unit_info

STEP_SHARE = 0.1
STATS_SHARE = 0.1
SAMPLES_SHARE = 0.02
RUN_INTERVAL = timedelta(hours=1)
LANGUAGE, IMPLEMENTATION, MODE, METRIC, UNIT = "go", "net/http", "async", "time_per_op", "us"
FACTOR = unit_info(UNIT).factor


@dataclass(frozen=True)
class Seeded:
    suite: str
    hardware: str
    benchmarks: list[str]
    series_ids: list[int]  # in the order of `benchmarks`
    next_started_at: datetime  # after the last seeded run


def upload_results(benchmarks: list[str], rng: random.Random) -> list[dict[str, Any]]:
    """Results of one more run of these series (contract v1), at their usual level."""
    return [
        {
            "benchmark": benchmark,
            "params": {},
            "language": LANGUAGE,
            "implementation": IMPLEMENTATION,
            "mode": MODE,
            "metric": METRIC,
            "unit": UNIT,
            "value": round(100.0 * (1 + rng.gauss(0, 0.01)), 3),
        }
        for benchmark in benchmarks
    ]


def _create_months(conn: psycopg.Connection[Any], first: datetime, last: datetime) -> None:
    """The partitions of `result` the rows will go to, by the service's own code, on a
    connection of their own before this one writes anything."""
    engine = create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(conn.info.dsn))
    with engine.begin() as connection:
        create_months(connection, months_between(first, last))
    engine.dispose()


def seed(
    conn: psycopg.Connection[Any],
    *,
    suite: str,
    hardware: str,
    series: int,
    runs: int,
    start: datetime,
    rng: random.Random,
) -> Seeded:
    """Write the suite's series and their histories in one transaction, then analyse."""
    _create_months(conn, start, start + RUN_INTERVAL * max(runs - 1, 0))
    benchmarks = [f"{suite}-{index:05d}" for index in range(series)]
    hardware_id = _hardware(conn, hardware)
    # As an upload does: every suite with runs has its settings row (default branch).
    conn.execute("INSERT INTO suite (name) VALUES (%s) ON CONFLICT DO NOTHING", (suite,))
    ids = _series(conn, suite, hardware, hardware_id, benchmarks)
    starts = [start + RUN_INTERVAL * index for index in range(runs)]
    run_ids = [uuid.uuid4() for _ in range(runs)]
    body = b'{"generated": "bench/seeding.py"}'
    RUN_COPY.write(
        conn,
        (
            generated_run(
                run_id,
                suite=suite,
                started_at=started_at,
                hardware_id=hardware_id,
                result_count=series,
                body=body,
            )
            for run_id, started_at in zip(run_ids, starts, strict=True)
        ),
    )
    RESULT_COPY.write(conn, _results(ids, run_ids, starts, rng))
    conn.execute("SELECT recount_totals()")  # what uploads keep (runs/totals.py)
    conn.commit()
    conn.autocommit = True
    conn.execute("VACUUM (ANALYZE)")
    conn.autocommit = False
    return Seeded(suite, hardware, benchmarks, ids, start + RUN_INTERVAL * runs)


def _hardware(conn: psycopg.Connection[Any], name: str) -> int:
    row = conn.execute(
        "INSERT INTO hardware (name) VALUES (%s)"
        " ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id",
        (name,),
    ).fetchone()
    assert row is not None
    hardware_id: int = row[0]
    return hardware_id


def _series(
    conn: psycopg.Connection[Any],
    suite: str,
    hardware: str,
    hardware_id: int,
    benchmarks: list[str],
) -> list[int]:
    rows = [
        generated_series(
            suite=suite,
            benchmark=benchmark,
            params={},
            language=LANGUAGE,
            implementation=IMPLEMENTATION,
            mode=MODE,
            variant=None,
            hardware=hardware,
            hardware_id=hardware_id,
            metric=METRIC,
            unit=UNIT,
        )
        for benchmark in benchmarks
    ]
    SERIES_COPY.write(conn, rows)
    fingerprints = [row[SERIES_COPY.columns.index("fingerprint")] for row in rows]
    cursor = conn.execute(
        "SELECT fingerprint, id FROM series WHERE suite = %s AND branch = %s",
        (suite, DEFAULT_BRANCH),
    )
    ids = {bytes(fingerprint): series_id for fingerprint, series_id in cursor}
    return [ids[fingerprint] for fingerprint in fingerprints]


def _results(
    ids: list[int], run_ids: list[uuid.UUID], starts: list[datetime], rng: random.Random
) -> Iterator[tuple[Any, ...]]:
    """Rows in upload order (run by run), as the service would have stored them."""
    steps = {sid: rng.randrange(len(run_ids)) for sid in ids if rng.random() < STEP_SHARE}
    replicated = {sid for sid in ids if rng.random() < SAMPLES_SHARE}
    for index, (run_id, started_at) in enumerate(zip(run_ids, starts, strict=True)):
        for sid in ids:
            level = 120.0 if sid in steps and index >= steps[sid] else 100.0
            value = level * (1 + rng.gauss(0, 0.01))
            samples = (
                [value * (1 + rng.gauss(0, 0.01)) for _ in range(5)] if sid in replicated else None
            )
            stats = None
            if rng.random() < STATS_SHARE:
                stats = Jsonb({"n": 100, "median": value, "mean": value, "stddev": value * 0.01})
            yield (run_id, sid, started_at, value, UNIT, value * FACTOR, stats, samples)
