"""Regressions: listing, triage with an audit trail."""

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Select, select, tuple_
from sqlalchemy.orm import Session

from benchboard.errors import FieldError, NotFound, ValidationFailed
from benchboard.models import Hardware, Regression, RegressionEvent, Series
from benchboard.pagination import decode_cursor, encode_cursor
from benchboard.regressions.schemas import (
    RegressionEventOut,
    RegressionHistory,
    RegressionOut,
    RegressionPage,
    RegressionTriage,
)
from benchboard.series.service import series_identity
from benchboard.tokens.service import Principal


def _query() -> Select[Any]:
    return (
        select(Regression, Series, Hardware.name.label("hardware_name"))
        .join(Series, Series.id == Regression.series_id)
        .join(Hardware, Hardware.id == Series.hardware_id)
        .where(Regression.retracted_at.is_(None))
    )


def _out(row: Any) -> RegressionOut:
    regression: Regression = row.Regression
    return RegressionOut(
        id=regression.id,
        series=series_identity(row.Series, row.hardware_name),
        run_id=regression.run_id,
        started_at=regression.started_at,
        direction=regression.direction,
        relative_change=regression.relative_change,
        before_base=regression.before_base,
        after_base=regression.after_base,
        confidence=regression.confidence,
        status=regression.status,
        note=regression.note,
        links=regression.links,
        updated_at=regression.updated_at,
    )


def list_regressions(
    session: Session,
    *,
    filters: dict[str, Any],
    since: datetime | None,
    limit: int,
    cursor: str | None,
) -> RegressionPage:
    """Newest first; `filters` maps suite/language/benchmark/hardware/status/direction/series_id."""
    columns = {
        "suite": Series.suite,
        "language": Series.language,
        "benchmark": Series.benchmark,
        "hardware": Hardware.name,
        "status": Regression.status,
        "direction": Regression.direction,
        "series_id": Regression.series_id,
    }
    query = _query().order_by(Regression.started_at.desc(), Regression.id.desc()).limit(limit + 1)
    for name, value in filters.items():
        if value is not None:
            query = query.where(columns[name] == value)
    if since is not None:
        query = query.where(Regression.started_at >= since)
    if cursor is not None:
        started_at, regression_id = decode_cursor(cursor)
        query = query.where(
            tuple_(Regression.started_at, Regression.id)
            < (datetime.fromisoformat(str(started_at)), int(str(regression_id)))
        )
    rows = session.execute(query).all()
    items = [_out(row) for row in rows[:limit]]
    next_cursor = encode_cursor(items[-1].started_at, items[-1].id) if len(rows) > limit else None
    return RegressionPage(items=items, next_cursor=next_cursor)


def get_regression(session: Session, regression_id: int) -> RegressionOut:
    row = session.execute(_query().where(Regression.id == regression_id)).one_or_none()
    if row is None:
        raise NotFound(f"no regression {regression_id}")
    return _out(row)


def triage_regression(
    session: Session, regression_id: int, triage: RegressionTriage, *, actor: Principal
) -> RegressionOut:
    regression = session.get(Regression, regression_id, with_for_update=True)
    if regression is None or regression.retracted_at is not None:
        raise NotFound(f"no regression {regression_id}")
    sent = triage.model_dump(exclude_unset=True, mode="json")
    if not sent:
        raise ValidationFailed(
            "send at least one of status, note, links",
            [FieldError(path="(body)", message="nothing to change")],
        )
    changes = {
        field: [getattr(regression, field), value]
        for field, value in sent.items()
        if getattr(regression, field) != value
    }
    for field, (_, value) in changes.items():
        setattr(regression, field, value)
    if changes:
        regression.updated_at = datetime.now(UTC)
        session.add(RegressionEvent(regression_id=regression.id, actor=actor.name, changes=changes))
    session.flush()
    return get_regression(session, regression_id)


def get_regression_history(session: Session, regression_id: int) -> RegressionHistory:
    get_regression(session, regression_id)
    events = session.scalars(
        select(RegressionEvent)
        .where(RegressionEvent.regression_id == regression_id)
        .order_by(RegressionEvent.at, RegressionEvent.id)
    )
    return RegressionHistory(
        items=[
            RegressionEventOut(id=e.id, actor=e.actor, at=e.at, changes=e.changes) for e in events
        ]
    )
