"""One series' values in time order, downsampled in SQL when there are too many."""

from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.orm import Session

from benchboard.models import Result
from benchboard.series.schemas import HistoryPoint, SeriesHistory
from benchboard.series.service import get_series_identity
from benchboard.units import unit_info


def get_series_history(
    session: Session,
    series_id: int,
    *,
    since: datetime | None,
    until: datetime | None,
    max_points: int,
) -> SeriesHistory:
    identity = get_series_identity(session, series_id)
    in_range = _in_range(series_id, since, until)
    total = session.scalar(select(func.count()).select_from(Result).where(*in_range)) or 0
    if total <= max_points:
        rows = session.execute(
            select(
                Result.run_id,
                Result.started_at,
                Result.value,
                Result.unit,
                Result.value_base,
                Result.stats,
            )
            .where(*in_range)
            .order_by(Result.started_at, Result.run_id)
        ).all()
        points = [HistoryPoint(**row._asdict()) for row in rows]
        return SeriesHistory(series=identity, points=points, downsampled=False, total_points=total)
    factor = unit_info(identity.unit).factor
    points = [
        HistoryPoint(**row._asdict(), value=row.value_base / factor, unit=identity.unit, stats=None)
        for row in session.execute(_bucket_query(in_range, max_points))
    ]
    return SeriesHistory(series=identity, points=points, downsampled=True, total_points=total)


def _in_range(
    series_id: int, since: datetime | None, until: datetime | None
) -> list[ColumnElement[bool]]:
    conditions = [Result.series_id == series_id]
    if since is not None:
        conditions.append(Result.started_at >= since)
    if until is not None:
        conditions.append(Result.started_at <= until)
    return conditions


def _bucket_query(in_range: list[ColumnElement[bool]], buckets: int) -> Any:
    """Equal-width time buckets, each with its mean, extremes and newest run.

    So a 100,000-point history draws as `buckets` points with its spread as a band.
    """
    epoch = func.extract("epoch", Result.started_at)
    span = (
        select(func.min(epoch).label("lo"), func.max(epoch).label("hi")).where(*in_range).subquery()
    )
    bucket = func.width_bucket(epoch, span.c.lo, span.c.hi + 1e-6, buckets).label("bucket")
    bucketed = (
        select(Result.run_id, Result.started_at, Result.value_base, epoch.label("epoch"), bucket)
        .where(*in_range)
        .join(span, span.c.lo.is_not(None))
        .subquery()
    )
    newest_run = func.array_agg(
        aggregate_order_by(bucketed.c.run_id, bucketed.c.started_at.desc())
    )[1]
    return (
        select(
            newest_run.label("run_id"),
            func.to_timestamp(func.avg(bucketed.c.epoch)).label("started_at"),
            func.avg(bucketed.c.value_base).label("value_base"),
            func.min(bucketed.c.value_base).label("min_base"),
            func.max(bucketed.c.value_base).label("max_base"),
            func.count().label("count"),
        )
        .group_by(bucketed.c.bucket)
        .order_by(bucketed.c.bucket)
    )
