"""The detection queue in PostgreSQL: which series need a check, and who is checking them.

Writers (an upload or a batch of them, a run deletion) call `enqueue_series` inside
their own transaction: the request is as durable as the data
it is about. One statement per call, whatever the number of series, rows locked in
series order (no deadlock between writers), coalesced per series.

Workers claim a batch in a short committed transaction, check it in a second one, and
`finish_batch` inside that second one. A claim is a lease with backoff: rows a worker
claimed and did not finish (it died, or their check failed) are claimed again only after
it, one at a time, and a series that fails `Retries.max_attempts` times is marked failing
and skipped until new data or a maintainer's retry. The design and its reasons are in
README.md.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    any_,
    case,
    delete,
    func,
    select,
    text,
    true,
    type_coerce,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import TextClause

from benchboard.bulk import driver_connection, int8_array
from benchboard.models import DetectionQueue, Result

# LISTEN/NOTIFY channel that wakes idle workers when something is queued.
CHANNEL = "benchboard_detection"
# Advisory-lock class of worker presence: a worker holds (WORKER_LOCK_CLASS, its id) for
# as long as its session lives, and its claims are honoured only while it does.
WORKER_LOCK_CLASS = 0x6264
# A lease or a failed check's wait doubles with each attempt, at most 2**9 times (with
# the default 5 s: 5 s, 10 s, 20 s ... at most 43 min).
RETRY_DOUBLINGS = 9


@dataclass(frozen=True)
class Retries:
    """How claims and failed checks back off, and when a series is given up on
    (BENCHBOARD_DETECT_RETRY_S, BENCHBOARD_DETECT_MAX_ATTEMPTS)."""

    first: timedelta = timedelta(seconds=5)
    max_attempts: int = 5

    def wait(self, attempts: Any) -> Any:
        """The lease, or the wait after a failure, for the attempt `attempts` (from 0)."""
        return self.first * func.power(2, func.least(attempts, RETRY_DOUBLINGS))


# One statement whatever the number of series, SQL text so it is compiled once (built
# with the dialect's INSERT … ON CONFLICT it took ~3.6 ms of a ~10 ms small upload), the
# ids one binary array parameter built by NumPy (bulk.py). Rows are inserted in series
# order: one lock order for every writer. A re-request of a series being checked bumps
# `requests`, so the worker that read the older history leaves the row for another
# check; it then dates from now. The notification is sent at commit, and only if a row was written.
_ENQUEUE = (
    "WITH queued AS ("
    " INSERT INTO detection_queue AS q (series_id)"
    " SELECT DISTINCT id FROM unnest(%b::bigint[]) AS t(id) ORDER BY id"
    " ON CONFLICT (series_id) DO UPDATE SET requests = q.requests + 1,"
    " queued_at = CASE WHEN q.claimed_by IS NULL THEN q.queued_at ELSE now() END,"
    # New data ends a series' failing mark: it is checked afresh, in batches again.
    " attempts = CASE WHEN q.failed_at IS NULL THEN q.attempts ELSE 0 END,"
    " not_before = CASE WHEN q.failed_at IS NULL THEN q.not_before ELSE now() END,"
    " last_error = CASE WHEN q.failed_at IS NULL THEN q.last_error END,"
    " failed_at = NULL"
    " RETURNING series_id)"
    " SELECT pg_notify(%s, '') FROM (SELECT 1 FROM queued LIMIT 1) AS any_row"
)


def enqueue_series(session: Session, series_ids: Sequence[int]) -> None:
    """Queue a check of these series; duplicates are fine. A series marked failing is
    checked again (a maintainer's retry is this call too)."""
    if not series_ids:
        return
    driver_connection(session).execute(_ENQUEUE, (int8_array(series_ids), CHANNEL))


@dataclass(frozen=True)
class Claimed:
    """A series a worker holds, and how many requests its check covers."""

    series_id: int
    requests: int
    queued_at: datetime


# Whose claims are honoured: workers holding their presence lock (presence.py).
_LIVE = """
    WITH live AS (
        SELECT objid::bigint AS worker FROM pg_locks
        WHERE locktype = 'advisory' AND classid = :lock_class AND objsubid = 2 AND granted
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
    )
"""
# A row is free when due, not failing, and unclaimed or claimed by a worker that is gone
# or stuck past the claim timeout. Rows claimed before and not finished ("retried": their
# worker died, or their check failed) are taken one at a time, fresh rows in batches.
_FREE = """
    failed_at IS NULL AND not_before <= now()
    AND (claimed_by IS NULL
         OR claimed_at < now() - :claim_timeout
         OR claimed_by NOT IN (SELECT worker FROM live))
"""


def _claim(rows: str) -> TextClause:
    """The claim of due `rows` (an SQL condition), as a lease that grows with each attempt
    (as Retries.wait)."""
    return text(
        f"""{_LIVE}, picked AS (
            SELECT series_id FROM detection_queue WHERE {rows} AND {_FREE}
            ORDER BY queued_at LIMIT :limit FOR UPDATE SKIP LOCKED
        )
        UPDATE detection_queue AS q
        SET claimed_by = :worker, claimed_at = now(), attempts = q.attempts + 1,
            not_before = now() + :first * power(2, least(q.attempts, :doublings))
        WHERE q.series_id = ANY(ARRAY(SELECT series_id FROM picked))
        RETURNING q.series_id, q.requests, q.queued_at"""  # noqa: S608
    )


# The queue swings between empty and a big upload's 100,000 series, and a worker's
# connection prepares the statements it repeats: a generic plan made while the queue was
# empty (0 pages: nested loops over sequential scans) was kept at 96,000 rows, 13 s a
# claim, until autoanalyze happened to replace it (bench/README.md, stop 39). The claim's
# and the finish's statements are planned for the queue as it is: SET LOCAL as a
# function, ~0.5 ms of planning each. Its statistics can still say "empty" (a vacuum of
# the drained queue), so none of them joins the queue to anything either: a join planned
# for one row of it ran a nested loop over all of them (see finish_batch).
_CUSTOM_PLANS = text("SELECT set_config('plan_cache_mode', 'force_custom_plan', true)")

_CLAIM_RETRIED = _claim("attempts > 0")
_CLAIM_FRESH = _claim("attempts = 0")
# Retried rows whose worker died with them `max_attempts` times: their check kills it.
_GIVE_UP = text(
    f"""{_LIVE}
    UPDATE detection_queue
    SET failed_at = now(), claimed_by = NULL, claimed_at = NULL,
        last_error = coalesce(last_error, :lost)
    WHERE attempts > 0 AND attempts >= :max_attempts AND {_FREE}"""  # noqa: S608
)


def claim_batch(
    session: Session,
    *,
    worker: int,
    limit: int,
    claim_timeout: timedelta,
    retries: Retries = Retries(),
) -> list[Claimed]:
    """Claim up to `limit` queued series, oldest request first; the caller commits.

    The claim is a lease: should the worker die with it, the rows are free again after
    `retries.wait` (growing with each attempt), and then are claimed one at a time, so
    that one series whose check kills its worker is found and, after
    `retries.max_attempts`, marked failing, while every other series is checked.
    """
    bound = {
        "lock_class": WORKER_LOCK_CLASS,
        "claim_timeout": claim_timeout,
        "worker": worker,
        "first": retries.first,
        "doublings": RETRY_DOUBLINGS,
    }
    lost = f"its check ended the worker {retries.max_attempts} times (process or connection lost)"
    session.execute(_CUSTOM_PLANS)
    session.execute(
        _GIVE_UP,
        {
            "lock_class": WORKER_LOCK_CLASS,
            "claim_timeout": claim_timeout,
            "max_attempts": retries.max_attempts,
            "lost": lost,
        },
    )
    rows = session.execute(_CLAIM_RETRIED, {**bound, "limit": 1}).all()
    if not rows:
        rows = session.execute(_CLAIM_FRESH, {**bound, "limit": limit}).all()
    claimed = [Claimed(row.series_id, row.requests, row.queued_at) for row in rows]
    return sorted(claimed, key=lambda c: c.series_id)


class ClaimLost(Exception):
    """Another worker took over a claim (this one was presumed dead): roll back."""


def finish_batch(session: Session, *, worker: int, claimed: Sequence[Claimed]) -> None:
    """In the transaction that stored the checks: drop the rows they covered.

    A row whose `requests` moved since the claim saw an upload after the history was
    read: it stays, unclaimed, for another check.
    """
    ids = [c.series_id for c in claimed]
    session.execute(_CUSTOM_PLANS)
    holders = session.execute(
        select(DetectionQueue.series_id, DetectionQueue.claimed_by, DetectionQueue.requests)
        .where(_among(ids))
        .order_by(DetectionQueue.series_id)
        .with_for_update()
    ).all()
    lost = [series_id for series_id, holder, _ in holders if holder != worker]
    if lost:
        raise ClaimLost(f"series {lost[:5]} were claimed by another worker")
    # Compared here, on the locked rows, not by joining the queue to the claim's requests:
    # planned on statistics that said the queue was empty, that join scanned all 100,000
    # rows for each of the batch's 1,000 (13 s a batch, stop 41).
    claimed_requests = {c.series_id: c.requests for c in claimed}
    checked = [
        series_id for series_id, _, requests in holders if requests == claimed_requests[series_id]
    ]
    session.execute(delete(DetectionQueue).where(_among(checked)))
    release(session, worker=worker, series_ids=ids)


def release(
    session: Session,
    *,
    worker: int,
    series_ids: Sequence[int],
    error: str | None = None,
    retries: Retries = Retries(),
    give_up: bool = False,
) -> None:
    """Give claimed rows back: checked (the lease ends), or after a failed check (`error`)
    with backoff, marked failing when `give_up` or out of attempts."""
    values: dict[Any, Any] = {DetectionQueue.claimed_by: None, DetectionQueue.claimed_at: None}
    if error is None:
        values[DetectionQueue.attempts] = 0
        values[DetectionQueue.not_before] = func.now()
    else:
        values[DetectionQueue.not_before] = func.now() + retries.wait(DetectionQueue.attempts - 1)
        values[DetectionQueue.last_error] = error[:2000]
        out_of_attempts = DetectionQueue.attempts >= retries.max_attempts
        values[DetectionQueue.failed_at] = case(
            (true() if give_up else out_of_attempts, func.now()), else_=None
        )
    session.execute(
        update(DetectionQueue)
        .where(_among(series_ids), DetectionQueue.claimed_by == worker)
        .values(values)
    )


def _among(series_ids: Sequence[int]) -> ColumnElement[bool]:
    """Queue rows of these series, the ids as one array parameter: an IN list binds each
    of a batch's 1,000 ids on its own (psycopg's query conversion, see
    changes.stored_regressions)."""
    return DetectionQueue.series_id == any_(type_coerce(list(series_ids), ARRAY(BigInteger)))


@dataclass(frozen=True)
class QueueStatus:
    queued_series: int
    oldest_queued_at: datetime | None  # of the series not marked failing
    oldest_age_s: float | None  # by the database's clock, as queued_at was written
    retrying_series: int  # their last check failed; they back off and are tried again
    failing_series: int  # marked failing: skipped until new data or a maintainer's retry


def queue_status(session: Session) -> QueueStatus:
    """How far behind the workers are: the one reading health and /metrics both show. A
    series marked failing waits for people, not workers: it is not part of the lag."""
    waiting = DetectionQueue.failed_at.is_(None)
    oldest = func.min(DetectionQueue.queued_at).filter(waiting)
    row = session.execute(
        select(
            func.count(),
            oldest,
            func.extract("epoch", func.now() - oldest),
            func.count().filter(waiting, DetectionQueue.last_error.is_not(None)),
            func.count().filter(DetectionQueue.failed_at.is_not(None)),
        )
    ).one()
    age = None if row[2] is None else float(row[2])
    return QueueStatus(
        queued_series=row[0],
        oldest_queued_at=row[1],
        oldest_age_s=age,
        retrying_series=row[3],
        failing_series=row[4],
    )


def pending_in_run(session: Session, run_id: Any) -> int:
    """How many of the run's series still wait for a check."""
    touched = select(Result.series_id).where(Result.run_id == run_id)
    return (
        session.scalar(
            select(func.count()).where(DetectionQueue.series_id.in_(touched.scalar_subquery()))
        )
        or 0
    )
