"""Webhooks through an outbox: one JSON POST per new regression, never lost, retried.

The detection transaction that stores a regression also writes its delivery row, so a
delivery exists exactly when the regression does. Workers send due deliveries one at a
time, each leased first (so two workers never send the same one) and its outcome
committed before the next: no transaction is open while a POST waits. Every attempt is
recorded on the row; failures retry with exponential backoff. A web process never sends
or waits.
"""

import logging
import threading
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import httpx
from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session, sessionmaker

from benchboard import metrics
from benchboard.models import WebhookDelivery
from benchboard.regressions.service import get_regression

logger = logging.getLogger(__name__)

EVENT = "regression.detected"
TIMEOUT_S = 5.0
# Retries wait retry_first, doubling, at most an hour; after MAX_ATTEMPTS it gives up.
MAX_ATTEMPTS = 12
MAX_RETRY_WAIT = timedelta(hours=1)
BATCH = 20
# A delivery in hand is not due for this long: longer than any POST (TIMEOUT_S bounds each
# of its phases), short enough that one whose worker died is soon sent again.
LEASE = timedelta(minutes=1)


def queue_deliveries(session: Session, regression_ids: list[int]) -> None:
    """In the transaction that stores the regressions: their announcements, as of now."""
    rows = [
        {
            "regression_id": rid,
            "event": EVENT,
            "payload": {
                "event": EVENT,
                "regression": get_regression(session, rid).model_dump(mode="json"),
            },
        }
        for rid in regression_ids
    ]
    session.execute(pg_insert(WebhookDelivery), rows)


@dataclass(frozen=True)
class DeliveryReport:
    delivered: int
    failed: int


@dataclass(frozen=True)
class _Leased:
    """A delivery this worker holds for one POST."""

    id: int
    payload: dict[str, Any]
    attempts: int


def deliver_due(
    session_factory: sessionmaker[Session],
    client: httpx.Client,
    *,
    url: str,
    retry_first: timedelta,
    stopping: threading.Event,
) -> DeliveryReport:
    """Send up to BATCH due deliveries, one at a time: each is leased in a short
    transaction, posted with no transaction open, and its outcome committed before the
    next is taken. A stop ends the round after the delivery in hand, so a restart sends
    again none that was sent (a worker killed mid-POST sends that one again)."""
    delivered = failed = 0
    while delivered + failed < BATCH and not stopping.is_set():
        leased = _lease_next(session_factory)
        if leased is None:
            break
        if _attempt(session_factory, client, leased, url=url, retry_first=retry_first):
            delivered += 1
        else:
            failed += 1
    return DeliveryReport(delivered, failed)


def _lease_next(session_factory: sessionmaker[Session]) -> _Leased | None:
    """The next due delivery, made not due for LEASE: no other worker takes it meanwhile,
    and it is due again should this one die holding it."""
    due = (
        select(WebhookDelivery.id)
        .where(
            WebhookDelivery.delivered_at.is_(None),
            WebhookDelivery.gave_up_at.is_(None),
            WebhookDelivery.next_attempt_at <= func.now(),
        )
        .order_by(WebhookDelivery.next_attempt_at, WebhookDelivery.id)
        .limit(1)
        .with_for_update(skip_locked=True)
        .scalar_subquery()
    )
    with session_factory() as session, session.begin():
        row = session.execute(
            update(WebhookDelivery)
            .where(WebhookDelivery.id == due)
            .values(next_attempt_at=func.now() + LEASE)
            .returning(WebhookDelivery.id, WebhookDelivery.payload, WebhookDelivery.attempts)
        ).first()
    return None if row is None else _Leased(row.id, row.payload, row.attempts)


def _attempt(
    session_factory: sessionmaker[Session],
    client: httpx.Client,
    leased: _Leased,
    *,
    url: str,
    retry_first: timedelta,
) -> bool:
    status: int | None = None
    error: str | None = None
    try:
        response = client.post(url, json=leased.payload)
        status = response.status_code
        if not response.is_success:
            error = f"HTTP {status}"
    except httpx.HTTPError as failure:
        error = f"{type(failure).__name__}: {failure}"
    attempts = leased.attempts + 1
    values: dict[str, Any] = {
        "attempts": attempts,
        "last_attempt_at": func.now(),
        "last_status": status,
        "last_error": error,  # None on success: an old failure no longer counts
    }
    if error is None:
        values["delivered_at"] = func.now()
    elif _permanent(status) or attempts >= MAX_ATTEMPTS:
        values["gave_up_at"] = func.now()
        logger.error(
            "webhook delivery %d gave up after %d attempts: %s", leased.id, attempts, error
        )
    else:
        values["next_attempt_at"] = func.now() + backoff(retry_first, attempts)
        logger.warning("webhook delivery %d failed (attempt %d): %s", leased.id, attempts, error)
    with session_factory() as session, session.begin():
        session.execute(
            update(WebhookDelivery).where(WebhookDelivery.id == leased.id).values(values)
        )
    metrics.WEBHOOK_ATTEMPTS.labels("delivered" if error is None else "failed").inc()
    return error is None


def backoff(retry_first: timedelta, attempts: int) -> timedelta:
    """The wait after a failed attempt: retry_first, doubling, at most an hour."""
    wait: timedelta = min(retry_first * 2 ** (attempts - 1), MAX_RETRY_WAIT)
    return wait


def _permanent(status: int | None) -> bool:
    """A 4xx other than timeout or rate limit will not change by retrying."""
    return status is not None and 400 <= status < 500 and status not in (408, 429)
