"""The webhook outbox as maintainers read it: every delivery with its attempts and state.

The pipeline (pipeline/webhooks.py) writes and sends these rows; this module only reads.
"""

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from benchboard.models import WebhookDelivery
from benchboard.regressions.schemas import WebhookDeliveryOut, WebhookDeliveryPage
from benchboard.vocabulary import DeliveryState


def list_deliveries(session: Session, *, failing_only: bool, limit: int) -> WebhookDeliveryPage:
    query = select(WebhookDelivery).order_by(WebhookDelivery.id.desc()).limit(limit)
    if failing_only:
        query = query.where(
            WebhookDelivery.delivered_at.is_(None),
            or_(WebhookDelivery.attempts > 0, WebhookDelivery.gave_up_at.is_not(None)),
        )
    return WebhookDeliveryPage(
        items=[_out(delivery) for delivery in session.scalars(query)],
    )


def _out(delivery: WebhookDelivery) -> WebhookDeliveryOut:
    state: DeliveryState
    if delivery.delivered_at is not None:
        state = "delivered"
    elif delivery.gave_up_at is not None:
        state = "gave_up"
    else:
        state = "pending"
    return WebhookDeliveryOut(
        id=delivery.id,
        regression_id=delivery.regression_id,
        event=delivery.event,
        state=state,
        created_at=delivery.created_at,
        attempts=delivery.attempts,
        last_attempt_at=delivery.last_attempt_at,
        last_status=delivery.last_status,
        last_error=delivery.last_error,
        next_attempt_at=None if state != "pending" else delivery.next_attempt_at,
        delivered_at=delivery.delivered_at,
    )
