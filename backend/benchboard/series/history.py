"""One series' values in time order, downsampled in SQL when there are too many.

PostgreSQL writes the points' JSON itself (json_agg): building 2,000 point objects in
Python cost ~15 ms a request against ~1 ms for the index-only scan. The document is
still the SeriesHistory schema; the tests validate responses against that model.
"""

from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Text, func, literal, null, select
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.orm import Session

from benchboard import exact_json
from benchboard.models import Result
from benchboard.series.service import get_series_span
from benchboard_ingest.vocabulary import unit_info


def get_series_history_json(
    session: Session,
    series_id: int,
    *,
    since: datetime | None,
    until: datetime | None,
    max_points: int,
) -> bytes:
    """A SeriesHistory document as JSON bytes."""
    span = get_series_span(session, series_id, _GENERIC_PLANS)
    identity, total = span.identity, span.result_count
    # Within the series' own first and last run: the planner reads only those months'
    # partitions of `result` (partitions.py).
    in_range = [
        *_in_range(series_id, since, until),
        *_in_range(series_id, span.first_started_at, span.last_started_at)[1:],
    ]
    if since is not None or until is not None:
        total = session.scalar(select(func.count()).select_from(Result).where(*in_range)) or 0
    downsampled = total > max_points
    if downsampled:
        factor = unit_info(identity.unit).factor
        points = _bucket_query(in_range, max_points, factor=factor, unit=identity.unit)
    else:
        points = _point_query(in_range)
    points_json: str = session.scalar(_as_json_array(points)) or "[]"
    head = exact_json.dumps(
        {
            "series": identity.model_dump(mode="json"),
            "downsampled": downsampled,
            "total_points": total,
        }
    )
    return head[:-1] + b',"points":' + points_json.encode() + b"}"


# One plan per connection, pruned to the series' months when it runs: planning the monthly
# partitions of `result` anew for every history cost more than reading it. SET LOCAL as a
# function (set_config's is_local), evaluated with the series' lookup before the points
# query is planned: one round trip fewer than a statement of its own.
_GENERIC_PLANS = func.set_config("plan_cache_mode", "force_generic_plan", True)


def _in_range(
    series_id: int, since: datetime | None, until: datetime | None
) -> list[ColumnElement[bool]]:
    conditions = [Result.series_id == series_id]
    if since is not None:
        conditions.append(Result.started_at >= since)
    if until is not None:
        conditions.append(Result.started_at <= until)
    return conditions


def _as_json_array(points: Any) -> Any:
    """The rows as one JSON array, in time order."""
    ordered = aggregate_order_by(points.table_valued(), points.c.started_at, points.c.run_id)
    return select(func.json_agg(ordered).cast(Text))


def _point_query(in_range: list[ColumnElement[bool]]) -> Any:
    """Every point as stored: served by the covering index alone. A point of one run
    has no min_base/max_base (optional in HistoryPoint): two keys fewer for PostgreSQL
    to write and 12 % fewer bytes in a 2,000-point answer."""
    return (
        select(
            Result.run_id,
            Result.started_at,
            Result.value,
            Result.unit,
            Result.value_base,
            Result.stats,
            literal(1).label("count"),
        )
        .where(*in_range)
        .subquery()
    )


def _bucket_query(
    in_range: list[ColumnElement[bool]], buckets: int, *, factor: float, unit: str
) -> Any:
    """Equal-width time buckets, each with its mean, extremes and newest run.

    So a 100,000-point history draws as `buckets` points with its spread as a band.
    """
    epoch = func.extract("epoch", Result.started_at)
    # min/max of the column itself: each is one probe at an end of the index (of epoch
    # they read all the series' index entries, 2 of 14 ms at 5,000 points).
    span = (
        select(
            func.extract("epoch", func.min(Result.started_at)).label("lo"),
            func.extract("epoch", func.max(Result.started_at)).label("hi"),
        )
        .where(*in_range)
        .subquery()
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
    mean = func.avg(bucketed.c.value_base)
    return (
        select(
            newest_run.label("run_id"),
            func.to_timestamp(func.avg(bucketed.c.epoch)).label("started_at"),
            (mean / factor).label("value"),
            literal(unit).label("unit"),
            mean.label("value_base"),
            null().label("stats"),
            func.count().label("count"),
            func.min(bucketed.c.value_base).label("min_base"),
            func.max(bucketed.c.value_base).label("max_base"),
        )
        .group_by(bucketed.c.bucket)
        .subquery()
    )
