"""The detection queue in PostgreSQL: which series need a check, and who is checking them.

Writers (an upload or a batch of them, a run deletion) call `enqueue_series` inside
their own transaction: the request is as durable as the data
it is about. One statement per call, whatever the number of series, rows locked in
series order (no deadlock between writers), coalesced per series.

Workers claim a batch in a short committed transaction, check it in a second one, and
`finish_batch` inside that second one. The design and its reasons are in README.md.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import BigInteger, ColumnElement, any_, func, select, text, type_coerce, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from benchboard.bulk import driver_connection, int8_array
from benchboard.models import DetectionQueue, Result

# LISTEN/NOTIFY channel that wakes idle workers when something is queued.
CHANNEL = "benchboard_detection"
# Advisory-lock class of worker presence: a worker holds (WORKER_LOCK_CLASS, its id) for
# as long as its session lives, and its claims are honoured only while it does.
WORKER_LOCK_CLASS = 0x6264
# A series whose check fails waits 5 s, 10 s, 20 s ... at most 5 s x 2**9 (43 min).
RETRY_FIRST = timedelta(seconds=5)
RETRY_DOUBLINGS = 9


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
    " queued_at = CASE WHEN q.claimed_by IS NULL THEN q.queued_at ELSE now() END"
    " RETURNING series_id)"
    " SELECT pg_notify(%s, '') FROM (SELECT 1 FROM queued LIMIT 1) AS any_row"
)


def enqueue_series(session: Session, series_ids: Sequence[int]) -> None:
    """Queue a check of these series; duplicates are fine."""
    if not series_ids:
        return
    driver_connection(session).execute(_ENQUEUE, (int8_array(series_ids), CHANNEL))


@dataclass(frozen=True)
class Claimed:
    """A series a worker holds, and how many requests its check covers."""

    series_id: int
    requests: int
    queued_at: datetime


_CLAIM = text(
    """
    WITH live AS (
        SELECT objid::bigint AS worker FROM pg_locks
        WHERE locktype = 'advisory' AND classid = :lock_class AND objsubid = 2 AND granted
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
    ), picked AS (
        SELECT series_id FROM detection_queue
        WHERE not_before <= now()
          AND (claimed_by IS NULL
               OR claimed_at < now() - :claim_timeout
               OR claimed_by NOT IN (SELECT worker FROM live))
        ORDER BY queued_at
        LIMIT :limit
        FOR UPDATE SKIP LOCKED
    )
    UPDATE detection_queue AS q
    SET claimed_by = :worker, claimed_at = now(), attempts = q.attempts + 1
    FROM picked WHERE q.series_id = picked.series_id
    RETURNING q.series_id, q.requests, q.queued_at
    """
)


def claim_batch(
    session: Session, *, worker: int, limit: int, claim_timeout: timedelta
) -> list[Claimed]:
    """Claim up to `limit` queued series, oldest request first; the caller commits.

    A row is free when unclaimed, or when its worker no longer holds its presence lock
    (it died: its connection closed), or when the claim is older than `claim_timeout`
    (a worker that hangs with its connection open).
    """
    rows = session.execute(
        _CLAIM,
        {
            "lock_class": WORKER_LOCK_CLASS,
            "claim_timeout": claim_timeout,
            "limit": limit,
            "worker": worker,
        },
    )
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
    holders = session.execute(
        select(DetectionQueue.series_id, DetectionQueue.claimed_by)
        .where(_among(ids))
        .order_by(DetectionQueue.series_id)
        .with_for_update()
    ).all()
    lost = [series_id for series_id, holder in holders if holder != worker]
    if lost:
        raise ClaimLost(f"series {lost[:5]} were claimed by another worker")
    session.execute(
        text(
            "DELETE FROM detection_queue AS q USING unnest(:ids, :requests) AS c(id, requests)"
            " WHERE q.series_id = c.id AND q.requests = c.requests"
        ),
        {"ids": ids, "requests": [c.requests for c in claimed]},
    )
    release(session, worker=worker, series_ids=ids)


def release(
    session: Session, *, worker: int, series_ids: Sequence[int], error: str | None = None
) -> None:
    """Give claimed rows back; after a failed check (`error`), with exponential backoff."""
    values: dict[Any, Any] = {DetectionQueue.claimed_by: None, DetectionQueue.claimed_at: None}
    if error is None:
        values[DetectionQueue.attempts] = 0
    else:
        doubling = func.power(2, func.least(DetectionQueue.attempts - 1, RETRY_DOUBLINGS))
        values[DetectionQueue.not_before] = func.now() + RETRY_FIRST * doubling
        values[DetectionQueue.last_error] = error[:2000]
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
    oldest_queued_at: datetime | None
    oldest_age_s: float | None  # by the database's clock, as queued_at was written
    failing_series: int


def queue_status(session: Session) -> QueueStatus:
    """How far behind the workers are: the one reading health and /metrics both show."""
    oldest = func.min(DetectionQueue.queued_at)
    row = session.execute(
        select(
            func.count(),
            oldest,
            func.extract("epoch", func.now() - oldest),
            func.count().filter(DetectionQueue.last_error.is_not(None)),
        )
    ).one()
    age = None if row[2] is None else float(row[2])
    return QueueStatus(
        queued_series=row[0], oldest_queued_at=row[1], oldest_age_s=age, failing_series=row[3]
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
