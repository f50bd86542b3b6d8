"""Operational endpoints: GET /api/v1/health for load balancers and people, GET /metrics
for Prometheus (with the pipeline's gauges, read from the database when scraped), and a
maintainer's retry of a series whose checks were failing."""

from collections.abc import Iterator
from datetime import UTC, datetime

from fastapi import APIRouter, Response
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchboard.alerts.health import triage_health
from benchboard.alerts.schemas import TriageHealth
from benchboard.bounds import Id64
from benchboard.deps import CallerDep, MaintainerToken, OperationalRead, SessionDep, SettingsDep
from benchboard.errors import ErrorOut, NotFound
from benchboard.metrics import exposition
from benchboard.models import Series, WebhookDelivery
from benchboard.pipeline.queue import enqueue_series, queue_status

router = APIRouter(tags=["health"])


class DetectionQueueOut(BaseModel):
    """The change-detection queue: how far behind the workers are."""

    queued_series: int
    oldest_queued_at: datetime | None
    oldest_age_s: float | None = Field(description="Age of the oldest pending check, seconds")
    retrying_series: int = Field(
        description="Queued series whose last check failed: retried with backoff"
    )
    failing_series: int = Field(
        description="Series marked failing after repeated failed checks: skipped until new"
        " data or a maintainer's retry (their History page says why)"
    )


class HealthOut(BaseModel):
    status: str
    detection: DetectionQueueOut | None = Field(
        description="null without a token when reads need one (BENCHBOARD_PUBLIC_READ=false)"
    )


@router.get("/api/v1/health")
def get_health(session: SessionDep, settings: SettingsDep, caller: CallerDep) -> HealthOut:
    """`ok` once the database answers, with how far change detection is behind. A
    server whose reads need a token tells the rest only to one."""
    if not settings.public_read and caller is None:
        session.execute(select(1))  # the database answers: a load balancer's question
        return HealthOut(status="ok", detection=None)
    status = queue_status(session)
    age = None if status.oldest_age_s is None else round(status.oldest_age_s, 3)
    return HealthOut(
        status="ok",
        detection=DetectionQueueOut(
            queued_series=status.queued_series,
            oldest_queued_at=status.oldest_queued_at,
            oldest_age_s=age,
            retrying_series=status.retrying_series,
            failing_series=status.failing_series,
        ),
    )


@router.post(
    "/api/v1/series/{series_id}/detection/retry",
    status_code=204,
    tags=["series"],
    responses={code: {"model": ErrorOut} for code in (401, 403, 404)},
)
def retry_series_detection(series_id: Id64, session: SessionDep, token: MaintainerToken) -> None:
    """Queue a check of the series now; one marked failing is tried afresh (what new data
    would do)."""
    series = session.get(Series, series_id)
    if series is None:
        raise NotFound(f"no series {series_id}")
    token.require_suite(series.suite)
    enqueue_series(session, [series_id])


@router.get("/metrics", include_in_schema=False, dependencies=[OperationalRead])
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
            "benchboard_detection_queue_retrying_series",
            "Queued series whose last check failed, retried with backoff",
            value=status.retrying_series,
        )
        yield GaugeMetricFamily(
            "benchboard_detection_queue_failing_series",
            "Series marked failing: skipped until new data or a maintainer's retry",
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
        yield from _triage_gauges(triage_health(self.session), now=datetime.now(UTC))


def _triage_gauges(health: TriageHealth, *, now: datetime) -> Iterator[Metric]:
    """Whether triage keeps up (alerts/health.py); a figure with no data yet is left out."""
    figures = (
        (
            "benchboard_triage_median_seconds",
            "Median time from detection to a change's first status",
            health.median_time_to_triage_s,
        ),
        (
            "benchboard_triage_within_3_days_ratio",
            "Share of changes triaged within 3 days of detection",
            health.triaged_within_share,
        ),
        (
            "benchboard_triage_oldest_untriaged_group_age_seconds",
            "Age of the oldest alert group with an untriaged change (0: none)",
            (now - health.oldest_untriaged_group_at).total_seconds()
            if health.oldest_untriaged_group_at is not None
            else 0.0,
        ),
        (
            "benchboard_triage_untriaged_groups",
            "Alert groups with an untriaged change",
            health.untriaged_groups,
        ),
    )
    for name, documentation, value in figures:
        if value is not None:
            yield GaugeMetricFamily(name, documentation, value=value)
