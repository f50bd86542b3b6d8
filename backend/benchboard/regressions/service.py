"""Regressions: listing, triage with an audit trail."""

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, func, select
from sqlalchemy.orm import Session

from benchboard.errors import FieldError, NotFound, ValidationFailed
from benchboard.models import (
    DetectionQueue,
    Hardware,
    Regression,
    RegressionEvent,
    Series,
)
from benchboard.pagination import Keyset, keyset_page
from benchboard.regressions.schemas import (
    DetectionEvidence,
    EventChanges,
    RegressionEventOut,
    RegressionHistory,
    RegressionOut,
    RegressionPage,
    RegressionTriage,
)
from benchboard.series.service import series_identity
from benchboard.suites.branches import on_default_branch
from benchboard.tokens.service import Principal
from benchboard.vocabulary import ChangeDirection, TriageStatus


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
        provisional=regression.provisional,
        evidence=DetectionEvidence.model_validate(regression.evidence)
        if regression.evidence is not None
        else None,
        status=regression.status,
        note=regression.note,
        links=regression.links,
        group_id=regression.group_id,
        updated_at=regression.updated_at,
    )


@dataclass(frozen=True)
class RegressionFilter:
    """Detected changes of a suite, language, benchmark, machine or series, by status,
    direction and date; every given field must match. Only the default branch has them
    (see pipeline/runner.py); `branch` shows those of a branch that was the default once."""

    suite: str | None = None
    branch: str | None = None
    language: str | None = None
    benchmark: str | None = None
    hardware: str | None = None
    series_id: int | None = None
    status: TriageStatus | None = None
    direction: ChangeDirection | None = None
    since: datetime | None = None
    hidden: frozenset[str] = frozenset()  # private suites the reader may not see

    def series_conditions(self, table: Any = Series) -> list[ColumnElement[bool]]:
        """The conditions on the series alone (joined with Hardware); the default branch's
        series unless a branch or a series is named. `table` may be `SeriesGroup` when no
        series is named."""
        equal_to: list[tuple[Any, object]] = [
            (table.suite, self.suite),
            (table.language, self.language),
            (table.benchmark, self.benchmark),
            (Hardware.name, self.hardware),
        ]
        if self.series_id is not None:
            equal_to.append((table.id, self.series_id))
        conditions = [column == value for column, value in equal_to if value is not None]
        if self.hidden:
            conditions.append(table.suite.not_in(sorted(self.hidden)))
        if self.branch is not None:
            conditions.append(table.branch == self.branch)
        elif self.series_id is None:
            conditions.append(on_default_branch(table.suite, table.branch))
        return conditions

    def conditions(self) -> list[ColumnElement[bool]]:
        equal_to: list[tuple[Any, object]] = [
            (Regression.status, self.status),
            (Regression.direction, self.direction),
        ]
        conditions = self.series_conditions()
        conditions += [column == value for column, value in equal_to if value is not None]
        if self.since is not None:
            conditions.append(Regression.started_at >= self.since)
        return conditions


NEWEST_FIRST = Keyset((Regression.started_at, Regression.id), descending=True)


def list_regressions(
    session: Session, regression_filter: RegressionFilter, *, limit: int, cursor: str | None
) -> RegressionPage:
    # The queue first: each statement reads its own snapshot, and a check commits its
    # changes with its queue row's removal, so "nothing pending" read before the list
    # means the list holds every change. Read after, a check committed between the two
    # gave an empty list that said nothing was pending.
    pending = _pending_series(session, regression_filter)
    query = _query().where(*regression_filter.conditions())
    page = keyset_page(session, query, NEWEST_FIRST, limit=limit, cursor=cursor)
    return RegressionPage(
        items=[_out(row) for row in page.rows],
        next_cursor=page.next_cursor,
        detection_pending_series=pending,
        history_support=None,  # the router adds it to an empty first page (series_state)
    )


def _pending_series(session: Session, regression_filter: RegressionFilter) -> int:
    """Queued series the filter's series conditions select: their changes may still come."""
    query = select(func.count()).select_from(DetectionQueue)
    conditions = regression_filter.series_conditions()
    if conditions:
        query = query.join(Series, Series.id == DetectionQueue.series_id)
        query = query.join(Hardware, Hardware.id == Series.hardware_id).where(*conditions)
    return session.scalar(query) or 0


def get_regression(session: Session, regression_id: int) -> RegressionOut:
    row = session.execute(_query().where(Regression.id == regression_id)).one_or_none()
    if row is None:
        raise NotFound(f"no regression {regression_id}")
    return _out(row)


def regressions_by_id(session: Session, regression_ids: list[int]) -> list[RegressionOut]:
    """The visible regressions among these ids, in their order."""
    rows = session.execute(_query().where(Regression.id.in_(regression_ids)))
    found = {row.Regression.id: _out(row) for row in rows}
    return [found[rid] for rid in regression_ids if rid in found]


def triage_regression(
    session: Session, regression_id: int, triage: RegressionTriage, *, actor: Principal
) -> RegressionOut:
    regression = session.get(Regression, regression_id, with_for_update=True)
    if regression is None or regression.retracted_at is not None:
        raise NotFound(f"no regression {regression_id}")
    actor.require_suite(session.get_one(Series, regression.series_id).suite)
    apply_triage(session, [regression], triage, actor=actor)
    return get_regression(session, regression_id)


def apply_triage(
    session: Session, regressions: list[Regression], triage: RegressionTriage, *, actor: Principal
) -> None:
    """Set what the triage sends on each (locked) regression, with an audit event for each
    one it changed."""
    sent = _sent(triage)
    now = datetime.now(UTC)
    events = []
    for regression in regressions:
        changes = {
            field: [getattr(regression, field), value]
            for field, value in sent.items()
            if getattr(regression, field) != value
        }
        for field, (_, value) in changes.items():
            setattr(regression, field, value)
        if changes:
            regression.updated_at = now
            event = EventChanges.model_validate(changes).model_dump(mode="json", exclude_unset=True)
            events.append(
                RegressionEvent(
                    regression_id=regression.id,
                    actor=actor.name,
                    token_id=actor.token_id,
                    changes=event,
                )
            )
    session.add_all(events)
    session.flush()


def _sent(triage: RegressionTriage) -> dict[str, Any]:
    """What a triage sets, as stored; 422 when it sets nothing or nulls the status."""
    sent = triage.model_dump(exclude_unset=True, mode="json")
    if not sent:
        raise ValidationFailed(
            "send at least one of status, note, links",
            [FieldError(path="(body)", message="nothing to change")],
        )
    if sent.get("status", "") is None:
        raise ValidationFailed(
            "a change always has a status",
            [FieldError(path="status", message="must be a status, not null")],
        )
    if "links" in sent and sent["links"] is None:
        sent["links"] = []
    return sent


def get_regression_history(session: Session, regression_id: int) -> RegressionHistory:
    get_regression(session, regression_id)
    events = session.scalars(
        select(RegressionEvent)
        .where(RegressionEvent.regression_id == regression_id)
        .order_by(RegressionEvent.at, RegressionEvent.id)
    )
    return RegressionHistory(
        items=[
            RegressionEventOut(
                id=e.id,
                actor=e.actor,
                token_id=e.token_id,
                at=e.at,
                changes=EventChanges.model_validate(e.changes),
            )
            for e in events
        ]
    )
