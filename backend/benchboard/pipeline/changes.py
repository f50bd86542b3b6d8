"""The regressions a check reads and writes: what is stored for a batch's series, and the
new, refined, restored, retracted and confirmed changes with their audit events, in a
few statements whatever the batch's size.

Triage is never overwritten. The check decides on what it read, but a maintainer may
triage a change before the check writes: the write locks the rows it touches and leaves
every triaged one as it is (status, note, links, figures), and so does the upsert of new
changes. When new data moves a triaged change (its size, or it is no longer seen), the
change gets a `moved` audit event instead of a silent rewrite.
"""

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Double,
    SQLColumnExpression,
    any_,
    case,
    cast,
    func,
    select,
    type_coerce,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from benchboard.detection.detect import DetectedChange, Evidence
from benchboard.models import Regression, RegressionEvent, Run
from benchboard.regressions.schemas import EventChanges

DETECTOR = "detector"
UNTRIAGED = "untriaged"
# A triaged change counts as moved when its relative change shifts by at least one
# percentage point: each new run nudges a level's median by less than that.
MOVED_BY = 0.01


@dataclass(frozen=True)
class StoredRegression:
    id: int
    key: str
    direction: str
    status: str
    retracted: bool
    columns: dict[str, Any]  # what a detection sets (columns_of)
    last_seen: float | None  # see _last_seen


@dataclass
class Changes:
    refined: list[dict[str, Any]] = field(default_factory=list)
    restored: list[int] = field(default_factory=list)  # retracted before, found again
    retracted: list[int] = field(default_factory=list)
    confirmed: list[int] = field(default_factory=list)  # provisional before, not any more
    new: list[tuple[int, DetectedChange]] = field(default_factory=list)
    moved: list[tuple[int, float | None, float | None]] = field(default_factory=list)


def stored_regressions(
    session: Session, series_ids: Sequence[int]
) -> dict[int, list[StoredRegression]]:
    """The regressions stored for each series, as a check compares them."""
    detected = [getattr(Regression, column) for column in _DETECTED]
    rows = session.execute(
        select(
            Regression.id,
            Regression.series_id,
            Regression.run_id,
            Regression.direction,
            Regression.status,
            Regression.retracted_at,
            _last_seen(),
            *detected,
        ).where(_among(Regression.series_id, series_ids))
    )
    stored: dict[int, list[StoredRegression]] = defaultdict(list)
    for row in rows:
        stored[row.series_id].append(
            StoredRegression(
                row.id,
                str(row.run_id),
                row.direction,
                row.status,
                row.retracted_at is not None,
                {column: getattr(row, column) for column in _DETECTED},
                row.last_seen,
            )
        )
    return stored


def _last_seen() -> ColumnElement[float | None]:
    """A change's relative change as last reported: by its latest `moved` event (whose
    null says the detector no longer showed it), else as stored."""
    latest = (
        select(RegressionEvent.changes["moved"])
        .where(
            RegressionEvent.regression_id == Regression.id,
            RegressionEvent.changes.has_key("moved"),
        )
        .order_by(RegressionEvent.id.desc())
        .limit(1)
        .scalar_subquery()
    )
    reported = case(
        (latest.is_(None), Regression.relative_change),
        else_=cast(latest.op("->>")(1), Double),
    )
    return reported.label("last_seen")


def has_moved(last_seen: float | None, fresh: float | None) -> bool:
    """Whether a fresh finding moved a change from what was last reported of it."""
    if last_seen is None or fresh is None:
        return (last_seen is None) != (fresh is None)
    return abs(fresh - last_seen) >= MOVED_BY


_DETECTED = (
    "relative_change",
    "before_base",
    "after_base",
    "confidence",
    "provisional",
    "evidence",
)


def columns_of(change: DetectedChange) -> dict[str, Any]:
    """The columns a detection sets on its regression row."""
    return {
        "relative_change": change.relative_change,
        "before_base": change.before,
        "after_base": change.after,
        "confidence": change.confidence,
        "provisional": change.provisional,
        "evidence": evidence_json(change.evidence),
    }


def evidence_json(evidence: Evidence) -> dict[str, Any]:
    """The evidence as stored (JSON: non-finite numbers become null)."""

    def number(value: float | None) -> float | None:
        return value if value is not None and math.isfinite(value) else None

    return {
        "runs_before": evidence.runs_before,
        "runs_after": evidence.runs_after,
        "replicates_used": evidence.replicates_used,
        "test": evidence.test,
        "p_value": number(evidence.p_value),
        "interval_low": number(evidence.interval[0]),
        "interval_high": number(evidence.interval[1]),
        "interval_level": evidence.interval_level,
        "run_to_run_cv": number(evidence.run_to_run_cv),
        "within_run_cv": number(evidence.within_run_cv),
    }


def write_changes(session: Session, changes: Changes) -> tuple[list[int], list[int]]:
    """Store the batch's changes; returns the ids of new regressions and of those to
    announce (new or confirmed, not provisional)."""
    _leave_triaged(session, changes)
    events = [_event(rid, {"retracted": [True, False]}) for rid in changes.restored]
    if changes.refined:
        session.execute(update(Regression), changes.refined)
    if changes.retracted:
        retracted = session.scalars(
            update(Regression)
            .where(Regression.id.in_(changes.retracted), Regression.retracted_at.is_(None))
            .values(retracted_at=func.now())
            .returning(Regression.id)
        )
        events += [_event(rid, {"retracted": [False, True]}) for rid in retracted]
    events += [_event(rid, {"provisional": [True, False]}) for rid in changes.confirmed]
    new_ids = _insert_new(session, changes) if changes.new else []
    events += [_event(rid, {"detected": detail}) for rid, detail, _ in new_ids]
    events += [_event(rid, {"moved": [was, now]}) for rid, was, now in changes.moved]
    if events:
        session.execute(pg_insert(RegressionEvent), events)
    firm = [rid for rid, _, provisional in new_ids if not provisional]
    return [rid for rid, _, _ in new_ids], firm + changes.confirmed


def _leave_triaged(session: Session, changes: Changes) -> None:
    """Drop from the writes every change triaged since the check read it; a triage waits
    for these row locks, so none can slip in before the commit. Each one the new data
    moved gets a `moved` event instead."""
    touched = {row["id"] for row in changes.refined}
    touched.update(changes.retracted, changes.confirmed, changes.restored)
    if not touched:
        return
    rows = session.execute(
        select(Regression.id, Regression.status, _last_seen())
        .where(_among(Regression.id, touched))
        .order_by(Regression.id)
        .with_for_update()
    )
    triaged = {row.id: row.last_seen for row in rows if row.status != UNTRIAGED}
    if not triaged:
        return
    fresh = {row["id"]: row.get("relative_change") for row in changes.refined}
    for rid, was in triaged.items():
        now = None if rid in changes.retracted else fresh.get(rid, was)
        if has_moved(was, now):
            changes.moved.append((rid, was, now))
    changes.refined = [row for row in changes.refined if row["id"] not in triaged]
    changes.retracted = [rid for rid in changes.retracted if rid not in triaged]
    changes.confirmed = [rid for rid in changes.confirmed if rid not in triaged]
    changes.restored = [rid for rid in changes.restored if rid not in triaged]


def _insert_new(session: Session, changes: Changes) -> list[tuple[int, dict[str, Any], bool]]:
    """Insert the new changes. A change found again on the run of a retracted one of the
    other direction takes that row (one row per series and run), unless a maintainer
    triaged it: that row keeps its triage and figures, and gets a `moved` event."""
    started = _started_at(session, [change.key for _, change in changes.new])
    rows: list[dict[str, Any]] = [
        {
            "series_id": series_id,
            "run_id": change.key,
            "started_at": started[change.key],
            "direction": change.direction,
            **columns_of(change),
            "retracted_at": None,
            "links": [],
        }
        for series_id, change in changes.new
    ]
    insert = pg_insert(Regression).values(rows)
    statement = insert.on_conflict_do_update(
        constraint="uq_regression_series_id_run_id",
        set_={
            column: insert.excluded[column] for column in ("direction", *_DETECTED, "retracted_at")
        },
        where=Regression.status == UNTRIAGED,
    ).returning(
        Regression.id,
        Regression.series_id,
        Regression.run_id,
        Regression.relative_change,
        Regression.confidence,
        Regression.provisional,
    )
    written = session.execute(statement).all()
    _note_triaged_conflicts(session, changes, {(row.series_id, str(row.run_id)) for row in written})
    return [
        (
            row.id,
            {
                "relative_change": row.relative_change,
                "confidence": row.confidence,
                "provisional": row.provisional,
            },
            row.provisional,
        )
        for row in written
    ]


def _note_triaged_conflicts(
    session: Session, changes: Changes, written: set[tuple[int, str]]
) -> None:
    """The new changes the upsert left alone (their row is triaged), as moved events: what
    the new data shows on that run replaces the 'no longer seen' of the row's own direction."""
    fresh = {
        (series_id, change.key): change.relative_change
        for series_id, change in changes.new
        if (series_id, change.key) not in written
    }
    if not fresh:
        return
    rows = session.execute(
        select(Regression.id, Regression.series_id, Regression.run_id, _last_seen()).where(
            _among(Regression.series_id, {series_id for series_id, _ in fresh})
        )
    )
    kept: dict[int, tuple[float | None, float]] = {}
    for row in rows:
        now = fresh.get((row.series_id, str(row.run_id)))
        if now is not None:
            kept[row.id] = (row.last_seen, now)
    changes.moved = [moved for moved in changes.moved if moved[0] not in kept]
    changes.moved += [(rid, was, now) for rid, (was, now) in kept.items() if has_moved(was, now)]


def _among(column: SQLColumnExpression[int], ids: Iterable[int]) -> ColumnElement[bool]:
    """`column` among `ids`, bound as one array parameter: an IN list of a batch's 1,000
    bound ids was ~6 % of the worker's time in psycopg's query conversion alone (py-spy)."""
    return column == any_(type_coerce(sorted(ids), ARRAY(BigInteger)))


def _started_at(session: Session, keys: list[str]) -> dict[str, datetime]:
    rows = session.execute(select(Run.id, Run.started_at).where(Run.id.in_(keys)))
    return {str(run_id): started_at for run_id, started_at in rows}


def _event(regression_id: int, changes: dict[str, Any]) -> dict[str, Any]:
    event = EventChanges.model_validate(changes).model_dump(mode="json", exclude_unset=True)
    return {"regression_id": regression_id, "actor": DETECTOR, "changes": event}
