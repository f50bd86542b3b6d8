"""Webhooks through an outbox: one JSON POST per new regression, never lost, retried.

The detection transaction that stores a regression also writes its delivery row, so a
delivery exists exactly when the regression does. Workers send due deliveries (each
row locked while it is sent, so two workers never send the same one), record every
attempt on the row, and retry failures with exponential backoff. A web process never
sends or waits.
"""

import logging
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


def deliver_due(
    session_factory: sessionmaker[Session],
    client: httpx.Client,
    *,
    url: str,
    retry_first: timedelta,
) -> DeliveryReport:
    """Send up to BATCH due deliveries, one transaction; what happened to them."""
    delivered = failed = 0
    with session_factory() as session, session.begin():
        due = session.scalars(
            select(WebhookDelivery)
            .where(
                WebhookDelivery.delivered_at.is_(None),
                WebhookDelivery.gave_up_at.is_(None),
                WebhookDelivery.next_attempt_at <= func.now(),
            )
            .order_by(WebhookDelivery.next_attempt_at, WebhookDelivery.id)
            .limit(BATCH)
            .with_for_update(skip_locked=True)
        ).all()
        for delivery in due:
            if _attempt(session, client, delivery, url=url, retry_first=retry_first):
                delivered += 1
            else:
                failed += 1
    return DeliveryReport(delivered, failed)


def _attempt(
    session: Session,
    client: httpx.Client,
    delivery: WebhookDelivery,
    *,
    url: str,
    retry_first: timedelta,
) -> bool:
    status: int | None = None
    error: str | None = None
    try:
        response = client.post(url, json=delivery.payload)
        status = response.status_code
        if not response.is_success:
            error = f"HTTP {status}"
    except httpx.HTTPError as failure:
        error = f"{type(failure).__name__}: {failure}"
    attempts = delivery.attempts + 1
    values: dict[str, Any] = {
        "attempts": attempts,
        "last_attempt_at": func.now(),
        "last_status": status,
        "last_error": error,
    }
    if error is None:
        values["delivered_at"] = func.now()
    elif _permanent(status) or attempts >= MAX_ATTEMPTS:
        values["gave_up_at"] = func.now()
        logger.error(
            "webhook delivery %d gave up after %d attempts: %s", delivery.id, attempts, error
        )
    else:
        values["next_attempt_at"] = func.now() + backoff(retry_first, attempts)
        logger.warning("webhook delivery %d failed (attempt %d): %s", delivery.id, attempts, error)
    session.execute(update(WebhookDelivery).where(WebhookDelivery.id == delivery.id).values(values))
    metrics.WEBHOOK_ATTEMPTS.labels("delivered" if error is None else "failed").inc()
    return error is None


def backoff(retry_first: timedelta, attempts: int) -> timedelta:
    """The wait after a failed attempt: retry_first, doubling, at most an hour."""
    wait: timedelta = min(retry_first * 2 ** (attempts - 1), MAX_RETRY_WAIT)
    return wait


def _permanent(status: int | None) -> bool:
    """A 4xx other than timeout or rate limit will not change by retrying."""
    return status is not None and 400 <= status < 500 and status not in (408, 429)
