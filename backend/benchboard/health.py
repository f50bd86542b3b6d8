"""Operational endpoints: GET /api/v1/health for load balancers and people, GET /metrics
for Prometheus (with the pipeline's gauges, read from the database when scraped)."""

from collections.abc import Iterator
from datetime import datetime

from fastapi import APIRouter, Response
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchboard.deps import SessionDep
from benchboard.metrics import exposition
from benchboard.models import WebhookDelivery
from benchboard.pipeline.queue import queue_status

router = APIRouter(tags=["health"])


class DetectionQueueOut(BaseModel):
    """The change-detection queue: how far behind the workers are."""

    queued_series: int
    oldest_queued_at: datetime | None
    oldest_age_s: float | None = Field(description="Age of the oldest pending check, seconds")
    failing_series: int = Field(description="Queued series whose last check failed (retrying)")


class HealthOut(BaseModel):
    status: str
    detection: DetectionQueueOut


@router.get("/api/v1/health")
def get_health(session: SessionDep) -> HealthOut:
    """`ok` once the database answers, with how far change detection is behind."""
    status = queue_status(session)
    age = None if status.oldest_age_s is None else round(status.oldest_age_s, 3)
    return HealthOut(
        status="ok",
        detection=DetectionQueueOut(
            queued_series=status.queued_series,
            oldest_queued_at=status.oldest_queued_at,
            oldest_age_s=age,
            failing_series=status.failing_series,
        ),
    )


@router.get("/metrics", include_in_schema=False)
def get_metrics(session: SessionDep) -> Response:
    """Prometheus text exposition (see benchboard.metrics)."""
    body, content_type = exposition(_PipelineGauges(session))
    return Response(body, media_type=content_type)


class _PipelineGauges(Collector):
    """Queue depth, lag and webhook backlog, read when scraped."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def collect(self) -> Iterator[Metric]:
        status = queue_status(self.session)
        yield GaugeMetricFamily(
            "benchboard_detection_queue_series",
            "Series waiting for change detection",
            value=status.queued_series,
        )
        yield GaugeMetricFamily(
            "benchboard_detection_queue_oldest_age_seconds",
            "Age of the oldest pending check (0 when the queue is empty)",
            value=status.oldest_age_s or 0.0,
        )
        yield GaugeMetricFamily(
            "benchboard_detection_queue_failing_series",
            "Queued series whose last check failed",
            value=status.failing_series,
        )
        backlog = GaugeMetricFamily(
            "benchboard_webhook_deliveries", "Webhook deliveries not sent", labels=["state"]
        )
        pending, gave_up = self.session.execute(
            select(
                func.count().filter(WebhookDelivery.gave_up_at.is_(None)),
                func.count().filter(WebhookDelivery.gave_up_at.is_not(None)),
            ).where(WebhookDelivery.delivered_at.is_(None))
        ).one()
        backlog.add_metric(["pending"], pending)
        backlog.add_metric(["gave_up"], gave_up)
        yield backlog
