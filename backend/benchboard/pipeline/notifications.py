"""Notifications through an outbox: one message per alert group and target, sent with
Apprise (Slack, e-mail, Teams, Matrix, json:// and ~100 more), never twice.

The check that announces a group's first firm change writes one `notification_delivery`
per target of the suite that wants it (its directions, its smallest change); the row is
unique per target and group, so later changes of the group (another machine's upload of
the same commit) never queue a second message. The worker's notification thread composes
each message when it sends it, from the group as it is then, and retries failures with
the webhooks' backoff. Delivery is at-least-once: a worker killed between the send and
its commit sends again.
"""

import logging
from datetime import timedelta
from typing import Any

import apprise
from sqlalchemy import BigInteger, any_, func, select, type_coerce, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session, sessionmaker

from benchboard import metrics
from benchboard.alerts.messages import group_link, group_message
from benchboard.alerts.service import get_group
from benchboard.models import AlertGroup, NotificationDelivery, NotificationTarget, Regression
from benchboard.pipeline.webhooks import BATCH, MAX_ATTEMPTS, DeliveryReport, backoff
from benchboard.tokens.visibility import SERVICE

logger = logging.getLogger(__name__)


def queue_notifications(session: Session, announced: list[int]) -> None:
    """In the transaction that announces these changes: a message for each of their
    groups to each target of its suite that wants one of them, unless already queued."""
    if not announced:
        return
    wanted = (
        select(NotificationTarget.id, Regression.group_id)
        .distinct()
        .join(AlertGroup, AlertGroup.id == Regression.group_id)
        .join(NotificationTarget, NotificationTarget.suite == AlertGroup.suite)
        .where(
            Regression.id == any_(type_coerce(sorted(announced), ARRAY(BigInteger))),
            NotificationTarget.events.has_key(Regression.direction),
            func.abs(Regression.relative_change) >= NotificationTarget.min_change,
        )
        .order_by(NotificationTarget.id, Regression.group_id)
    )
    session.execute(
        pg_insert(NotificationDelivery)
        .from_select(["target_id", "group_id"], wanted)
        .on_conflict_do_nothing(constraint="uq_notification_delivery_target_id")
    )


def send_due_notifications(
    session_factory: sessionmaker[Session], *, public_url: str, retry_first: timedelta
) -> DeliveryReport:
    """Send up to BATCH due messages, one transaction (each row locked while sent)."""
    delivered = failed = 0
    with session_factory() as session, session.begin():
        due = session.execute(
            select(NotificationDelivery, NotificationTarget)
            .join(NotificationTarget, NotificationTarget.id == NotificationDelivery.target_id)
            .where(
                NotificationDelivery.delivered_at.is_(None),
                NotificationDelivery.gave_up_at.is_(None),
                NotificationDelivery.next_attempt_at <= func.now(),
            )
            .order_by(NotificationDelivery.next_attempt_at, NotificationDelivery.id)
            .limit(BATCH)
            .with_for_update(of=NotificationDelivery, skip_locked=True)
        ).all()
        for delivery, target in due:
            error = _send(session, delivery, target, public_url=public_url)
            _record(session, delivery, error, retry_first=retry_first)
            delivered += error is None
            failed += error is not None
    return DeliveryReport(delivered, failed)


def _send(
    session: Session, delivery: NotificationDelivery, target: NotificationTarget, *, public_url: str
) -> str | None:
    """Send the group's message to the target; the error, or None once sent."""
    group = get_group(session, SERVICE, delivery.group_id)
    message = group_message(
        group,
        events=target.events,
        min_change=target.min_change,
        link=group_link(public_url, group.id),
    )
    notifier = apprise.Apprise()
    if not notifier.add(target.url):
        return "not a URL Apprise can send to"
    # Apprise logs why a send failed and returns False: the log is the error to keep.
    with apprise.LogCapture(level=logging.WARNING) as log:  # type: ignore[no-untyped-call]
        sent = notifier.notify(
            title=message.title, body=message.body, body_format=apprise.NotifyFormat.MARKDOWN
        )
        if sent:
            return None
        return log.getvalue().strip()[-1000:] or "Apprise could not send it"


def _record(
    session: Session, delivery: NotificationDelivery, error: str | None, *, retry_first: timedelta
) -> None:
    attempts = delivery.attempts + 1
    values: dict[str, Any] = {
        "attempts": attempts,
        "last_attempt_at": func.now(),
        "last_error": error,
    }
    if error is None:
        values["delivered_at"] = func.now()
    elif attempts >= MAX_ATTEMPTS:
        values["gave_up_at"] = func.now()
        logger.error("notification %d gave up after %d attempts: %s", delivery.id, attempts, error)
    else:
        values["next_attempt_at"] = func.now() + backoff(retry_first, attempts)
        logger.warning("notification %d failed (attempt %d): %s", delivery.id, attempts, error)
    session.execute(
        update(NotificationDelivery).where(NotificationDelivery.id == delivery.id).values(values)
    )
    metrics.NOTIFICATION_ATTEMPTS.labels("delivered" if error is None else "failed").inc()
