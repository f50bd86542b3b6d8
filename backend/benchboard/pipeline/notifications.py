"""Notifications through an outbox: messages per alert group and target, sent with
Apprise (Slack, e-mail, Teams, Matrix, json:// and ~100 more), no change told twice.

The check that announces a change writes a `notification_delivery` for its group to
each target of the suite that wants it (its directions, its smallest change), unless one
is pending already: one pending message per target and group, whatever the number of
changes and uploads. The worker's notification thread sends it once it is `settle` old,
composed from the group as it is then, so the same commit measured on several machines
within the window makes one message. A change that joins the group after a message was
sent (a machine that uploads later) queues a follow-up, which names only the changes no
sent message named (`announced`, kept with the message as it is marked sent). Failures
are retried with the webhooks' backoff. Delivery is at-least-once: a worker killed
between the send and its commit sends again.
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


_PENDING = NotificationDelivery.delivered_at.is_(None) & NotificationDelivery.gave_up_at.is_(None)


def queue_notifications(session: Session, announced: list[int]) -> None:
    """In the transaction that announces these changes: a message for each of their
    groups to each target of its suite that wants one of them and has not been told of
    it, unless one is pending. The conflict takes the pending row's lock: a sender that
    holds it (composing without these changes) finishes first, and a fresh row follows."""
    if not announced:
        return
    told = (
        select(NotificationDelivery.id)
        .where(
            NotificationDelivery.target_id == NotificationTarget.id,
            NotificationDelivery.group_id == Regression.group_id,
            Regression.id == any_(NotificationDelivery.announced),
        )
        .exists()
    )
    wanted = (
        select(NotificationTarget.id, Regression.group_id)
        .distinct()
        .join(AlertGroup, AlertGroup.id == Regression.group_id)
        .join(NotificationTarget, NotificationTarget.suite == AlertGroup.suite)
        .where(
            Regression.id == any_(type_coerce(sorted(announced), ARRAY(BigInteger))),
            NotificationTarget.events.has_key(Regression.direction),
            func.abs(Regression.relative_change) >= NotificationTarget.min_change,
            ~told,
        )
        .order_by(NotificationTarget.id, Regression.group_id)
    )
    insert = pg_insert(NotificationDelivery).from_select(["target_id", "group_id"], wanted)
    session.execute(
        insert.on_conflict_do_update(
            index_elements=["target_id", "group_id"],
            index_where=_PENDING,
            set_={"target_id": insert.excluded.target_id},  # unchanged: only the lock
        )
    )


def send_due_notifications(
    session_factory: sessionmaker[Session],
    *,
    public_url: str,
    retry_first: timedelta,
    settle: timedelta,
) -> DeliveryReport:
    """Send up to BATCH due messages, `settle` old at least, one transaction (each row
    locked while sent)."""
    delivered = failed = 0
    with session_factory() as session, session.begin():
        due = session.execute(
            select(NotificationDelivery, NotificationTarget)
            .join(NotificationTarget, NotificationTarget.id == NotificationDelivery.target_id)
            .where(
                _PENDING,
                NotificationDelivery.next_attempt_at <= func.now(),
                NotificationDelivery.created_at <= func.now() - settle,
            )
            .order_by(NotificationDelivery.next_attempt_at, NotificationDelivery.id)
            .limit(BATCH)
            .with_for_update(of=NotificationDelivery, skip_locked=True)
        ).all()
        for delivery, target in due:
            error, told = _send(session, delivery, target, public_url=public_url)
            _record(session, delivery, error, told, retry_first=retry_first)
            delivered += error is None
            failed += error is not None
    return DeliveryReport(delivered, failed)


def _told(session: Session, delivery: NotificationDelivery) -> set[int]:
    """The changes of the group that sent messages to the target named."""
    named = session.scalars(
        select(func.unnest(NotificationDelivery.announced)).where(
            NotificationDelivery.target_id == delivery.target_id,
            NotificationDelivery.group_id == delivery.group_id,
            NotificationDelivery.delivered_at.is_not(None),
        )
    )
    return set(named)


def _send(
    session: Session, delivery: NotificationDelivery, target: NotificationTarget, *, public_url: str
) -> tuple[str | None, list[int]]:
    """Send the target the group's changes it has not been told of: the error, or None
    once sent (nothing to tell counts as sent); and the changes the message named."""
    group = get_group(session, SERVICE, delivery.group_id)
    message = group_message(
        group,
        events=target.events,
        min_change=target.min_change,
        link=group_link(public_url, group.id),
        told=_told(session, delivery),
    )
    if message is None:
        return None, []
    notifier = apprise.Apprise()
    if not notifier.add(target.url):
        return "not a URL Apprise can send to", []
    # Apprise logs why a send failed and returns False: the log is the error to keep.
    with apprise.LogCapture(level=logging.WARNING) as log:  # type: ignore[no-untyped-call]
        sent = notifier.notify(
            title=message.title, body=message.body, body_format=apprise.NotifyFormat.MARKDOWN
        )
        if sent:
            return None, message.announced
        return log.getvalue().strip()[-1000:] or "Apprise could not send it", []


def _record(
    session: Session,
    delivery: NotificationDelivery,
    error: str | None,
    told: list[int],
    *,
    retry_first: timedelta,
) -> None:
    attempts = delivery.attempts + 1
    values: dict[str, Any] = {
        "attempts": attempts,
        "last_attempt_at": func.now(),
        "last_error": error,
    }
    if error is None:
        values["delivered_at"] = func.now()
        values["announced"] = told
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
