"""Retention: remove runs (and their results) older than an age, cheaply.

A month whose every run is older than the cutoff goes whole: its partition of `result`
is dropped (no row-by-row delete, no table bloat), then its run rows. Where a month is
mixed (it straddles the cutoff, holds kept runs, or only other branches' runs go) and in
the default partition, runs go in bounded batches, one transaction each, so uploads and
reads never wait long. Kept whatever their age: runs a study finding pins, runs of a
triaged regression (any status but `untriaged`), runs a maintainer's note is pinned to.
Totals (runs/totals.py) are recounted at the end.

A crash between a removal and that recount (the DROPs and batches commit one by one) would
leave totals and history snapshots stale, and a rerun with nothing left to remove would
never recount them. So each removal's transaction marks the totals stale (a `stale_totals`
row), the recount's transaction clears the mark, and every run starts by recounting what
a mark says an interrupted run left.

Dropping a partition takes an ACCESS EXCLUSIVE lock on `result` for the moment of the
DROP. Waiting for it (behind a long read or upload) would queue every later upload and
read of `result` behind retention, so the DROP waits at most DROP_LOCK_TIMEOUT, is tried
again DROP_ATTEMPTS times, and a month that stays busy goes in batches like a mixed one.
Not DETACH first: DETACH … CONCURRENTLY, the one with a weak lock, cannot run in a
transaction block and is refused while `result` has a default partition; a plain DETACH
takes the same ACCESS EXCLUSIVE lock on `result`, and SHARE ROW EXCLUSIVE on `run` and
`series` (the detached table's foreign keys get triggers of their own there), whose
DROP then takes ACCESS EXCLUSIVE on `run` and `series` as well.
"""

import re
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

import psycopg
from sqlalchemy import Connection, Engine, bindparam, delete, text
from sqlalchemy.dialects.postgresql import ARRAY, UUID
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from benchboard.findings.service import pinned_run_ids
from benchboard.models import StaleTotals
from benchboard.partitions import monthly_partitions, next_month
from benchboard.runs.totals import recount_totals

AGE = re.compile(r"^(\d+)([ymwd])$")
BATCH_RUNS = 200
DROP_LOCK_TIMEOUT = "1s"
DROP_ATTEMPTS = 5
DROP_PAUSE_S = 2.0  # between attempts: in-flight uploads and reads finish, the lock is had

_KEPT = (
    "(id = ANY(CAST(:pinned AS uuid[]))"
    " OR id IN (SELECT run_id FROM regression WHERE status <> 'untriaged')"
    " OR id IN (SELECT run_id FROM annotation WHERE run_id IS NOT NULL))"
)
_ON_BRANCHES = (
    "(NOT :other_branches_only OR (suite, branch) NOT IN (SELECT name, default_branch FROM suite))"
)
# Runs retention removes: older than the cutoff, on the branches asked for, not kept.
_REMOVABLE = f"started_at < :cutoff AND {_ON_BRANCHES} AND NOT {_KEPT}"
_STALE = pg_insert(StaleTotals).values(cause="retention").on_conflict_do_nothing()
_RECOUNTED = (
    delete(StaleTotals).where(StaleTotals.cause == "retention").returning(StaleTotals.cause)
)


@dataclass
class RetentionReport:
    cutoff: datetime
    dry_run: bool
    partitions_dropped: list[tuple[str, int]] = field(default_factory=list)
    partitions_busy: list[str] = field(default_factory=list)  # lock not had: went in batches
    runs_removed: int = 0
    results_removed: int = 0
    runs_kept: int = 0  # older than the cutoff but pinned, triaged or annotated
    recovered: bool = False  # recounted first what an interrupted run left stale


def parse_age(age: str) -> tuple[int, int]:
    """'2y', '18m', '6w', '90d' → (months, days)."""
    match = AGE.match(age.strip())
    if match is None:
        raise ValueError(f"{age!r} is not an age like 2y, 18m, 6w or 90d")
    amount, unit = int(match[1]), match[2]
    return {"y": (12 * amount, 0), "m": (amount, 0), "w": (0, 7 * amount), "d": (0, amount)}[unit]


def cutoff_for(age: str, now: datetime) -> datetime:
    months, days = parse_age(age)
    month_index = now.year * 12 + now.month - 1 - months
    year, month = divmod(month_index, 12)
    last_day = (next_month(date(year, month + 1, 1)) - timedelta(days=1)).day
    moved = now.replace(year=year, month=month + 1, day=min(now.day, last_day))
    return moved - timedelta(days=days)


def apply_retention(
    engine: Engine,
    *,
    older_than: str,
    other_branches_only: bool,
    dry_run: bool = False,
    now: datetime | None = None,
) -> RetentionReport:
    cutoff = cutoff_for(older_than, now or datetime.now(UTC))
    report = RetentionReport(cutoff=cutoff, dry_run=dry_run)
    with Session(engine) as session:
        pinned = sorted(pinned_run_ids(session))
    params = {"cutoff": cutoff, "pinned": pinned, "other_branches_only": other_branches_only}
    with engine.begin() as connection:
        report.runs_kept = _count(
            connection, f"started_at < :cutoff AND {_ON_BRANCHES} AND {_KEPT}", params
        )
        if dry_run:
            report.runs_removed = _count(connection, _REMOVABLE, params)
            report.results_removed = _results_of_removable(connection, params)
            return report
    report.recovered = _recount_if_stale(engine)
    if not other_branches_only:
        _drop_whole_months(engine, params, report)
    _remove_in_batches(engine, params, report)
    _recount_if_stale(engine)
    return report


def _recount_if_stale(engine: Engine) -> bool:
    """Recount the totals if a removal marked them stale, clearing the mark in the same
    transaction; whether it did."""
    with engine.begin() as connection:
        stale = connection.execute(_RECOUNTED).first() is not None
        if stale:
            recount_totals(connection)
    return stale


def _count(connection: Connection, condition: str, params: dict[str, object]) -> int:
    statement = text(f"SELECT count(*) FROM run WHERE {condition}")  # noqa: S608
    return int(connection.execute(statement, params).scalar_one())


def _results_of_removable(connection: Connection, params: dict[str, object]) -> int:
    statement = text(f"SELECT coalesce(sum(result_count), 0) FROM run WHERE {_REMOVABLE}")  # noqa: S608
    return int(connection.execute(statement, params).scalar_one())


def _drop_whole_months(engine: Engine, params: dict[str, object], report: RetentionReport) -> None:
    """Drop each month that ends before the cutoff and holds no kept run."""
    with engine.connect() as connection:
        months = monthly_partitions(connection)
    cutoff = params["cutoff"]
    assert isinstance(cutoff, datetime)
    for month, name in sorted(months.items()):
        end = datetime.combine(next_month(month), datetime.min.time(), UTC)
        if end > cutoff:
            break
        bounds = {**params, "low": datetime.combine(month, datetime.min.time(), UTC), "high": end}
        in_month = "started_at >= :low AND started_at < :high"
        with engine.begin() as connection:
            removable = _count(connection, f"{in_month} AND ({_REMOVABLE})", bounds)
            if _count(connection, in_month, bounds) != removable:
                continue  # a kept run: its results stay, the month goes run by run
            results = int(connection.execute(text(f"SELECT count(*) FROM {name}")).scalar_one())  # noqa: S608
            if not _drop_partition(connection, name):
                report.partitions_busy.append(name)
                continue  # its runs go in batches
            connection.execute(_STALE)
            report.partitions_dropped.append((name, results))
            report.results_removed += results
        report.runs_removed += _delete_runs(engine, f"{in_month} AND ({_REMOVABLE})", bounds)[0]


def _drop_partition(connection: Connection, name: str) -> bool:
    """DROP TABLE `name`, each attempt waiting at most DROP_LOCK_TIMEOUT for the lock on
    `result`; whether it went."""
    connection.execute(text(f"SET LOCAL lock_timeout = '{DROP_LOCK_TIMEOUT}'"))
    for attempt in range(DROP_ATTEMPTS):
        if attempt:
            time.sleep(DROP_PAUSE_S)
        try:
            with connection.begin_nested():
                connection.execute(text(f"DROP TABLE {name}"))
        except OperationalError as error:
            if not isinstance(error.orig, psycopg.errors.LockNotAvailable):
                raise
        else:
            return True
    return False


def _remove_in_batches(engine: Engine, params: dict[str, object], report: RetentionReport) -> None:
    runs, results = _delete_runs(engine, _REMOVABLE, params)
    report.runs_removed += runs
    report.results_removed += results


def _delete_runs(engine: Engine, condition: str, params: dict[str, object]) -> tuple[int, int]:
    """Delete matching runs and their results, BATCH_RUNS per transaction; (runs, results)."""
    pick = text(
        f"SELECT id FROM run WHERE {condition} ORDER BY started_at LIMIT {BATCH_RUNS}"  # noqa: S608
    )
    ids_param = bindparam("ids", type_=ARRAY(UUID(as_uuid=True)))
    # The results first, bounded by the cutoff so only the old months' partitions are
    # searched; then the runs (their cascade finds nothing left).
    delete_results = text(
        "DELETE FROM result WHERE run_id = ANY(:ids) AND started_at < :cutoff"
    ).bindparams(ids_param)
    delete_runs = text("DELETE FROM run WHERE id = ANY(:ids)").bindparams(ids_param)
    runs = results = 0
    while True:
        with engine.begin() as connection:
            ids: list[uuid.UUID] = list(connection.execute(pick, params).scalars())
            if not ids:
                return runs, results
            batch = {"ids": ids, "cutoff": params["cutoff"]}
            connection.execute(_STALE)
            results += connection.execute(delete_results, batch).rowcount
            runs += connection.execute(delete_runs, batch).rowcount
