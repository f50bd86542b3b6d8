"""Operational endpoints: GET /api/v1/health for load balancers and people, GET /metrics
for Prometheus."""

from fastapi import APIRouter, Response
from pydantic import BaseModel
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchboard.deps import SessionDep
from benchboard.metrics import exposition
from benchboard.regressions.queue import queue_status
from benchboard.regressions.schemas import DetectionQueueOut

router = APIRouter(tags=["health"])


class HealthOut(BaseModel):
    status: str
    detection: DetectionQueueOut


@router.get("/api/v1/health")
def get_health(session: SessionDep) -> HealthOut:
    """`ok` once the database answers, with how far change detection is behind."""
    return HealthOut(status="ok", detection=detection_queue(session))


def detection_queue(session: Session) -> DetectionQueueOut:
    status = queue_status(session)
    age = None
    if status.oldest_queued_at is not None:
        now = session.scalar(select(func.now()))
        assert now is not None
        age = round((now - status.oldest_queued_at).total_seconds(), 3)
    return DetectionQueueOut(
        queued_series=status.queued_series,
        oldest_queued_at=status.oldest_queued_at,
        oldest_age_s=age,
        failing_series=status.failing_series,
    )


@router.get("/metrics", include_in_schema=False)
def get_metrics(session: SessionDep) -> Response:
    """Prometheus text exposition (see benchboard.metrics)."""
    body, content_type = exposition(session)
    return Response(body, media_type=content_type)
