"""The regressions a check reads and writes: what is stored for a batch's series, and the
new, refined, restored, retracted and confirmed changes with their audit events, in a
few statements whatever the batch's size."""

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, any_, func, select, type_coerce, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from benchboard.detection.detect import DetectedChange, Evidence
from benchboard.models import Regression, RegressionEvent, Run
from benchboard.regressions.schemas import EventChanges

DETECTOR = "detector"


@dataclass(frozen=True)
class StoredRegression:
    id: int
    key: str
    direction: str
    status: str
    retracted: bool
    columns: dict[str, Any]  # what a detection sets (columns_of)


@dataclass
class Changes:
    refined: list[dict[str, Any]] = field(default_factory=list)
    restored: list[int] = field(default_factory=list)  # retracted before, found again
    retracted: list[int] = field(default_factory=list)
    confirmed: list[int] = field(default_factory=list)  # provisional before, not any more
    new: list[tuple[int, DetectedChange]] = field(default_factory=list)


def stored_regressions(
    session: Session, series_ids: Sequence[int]
) -> dict[int, list[StoredRegression]]:
    """The regressions stored for each series, as a check compares them."""
    detected = [getattr(Regression, column) for column in _DETECTED]
    # The ids as one array parameter: an IN list of a batch's 1,000 bound ids was ~6 % of
    # the worker's time in psycopg's query conversion alone (py-spy).
    rows = session.execute(
        select(
            Regression.id,
            Regression.series_id,
            Regression.run_id,
            Regression.direction,
            Regression.status,
            Regression.retracted_at,
            *detected,
        ).where(Regression.series_id == any_(type_coerce(list(series_ids), ARRAY(BigInteger))))
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
            )
        )
    return stored


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
    new_ids = _insert_new(session, changes.new) if changes.new else []
    events += [_event(rid, {"detected": detail}) for rid, detail, _ in new_ids]
    if events:
        session.execute(pg_insert(RegressionEvent), events)
    firm = [rid for rid, _, provisional in new_ids if not provisional]
    return [rid for rid, _, _ in new_ids], firm + changes.confirmed


def _insert_new(
    session: Session, new: list[tuple[int, DetectedChange]]
) -> list[tuple[int, dict[str, Any], bool]]:
    started = _started_at(session, [change.key for _, change in new])
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
        for series_id, change in new
    ]
    insert = pg_insert(Regression).values(rows)
    # A change found again on the run of a retracted one of the other direction: the
    # stored row takes the new finding (one row per series and run).
    statement = insert.on_conflict_do_update(
        constraint="uq_regression_series_id_run_id",
        set_={
            column: insert.excluded[column] for column in ("direction", *_DETECTED, "retracted_at")
        },
    ).returning(
        Regression.id, Regression.relative_change, Regression.confidence, Regression.provisional
    )
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
        for row in session.execute(statement)
    ]


def _started_at(session: Session, keys: list[str]) -> dict[str, datetime]:
    rows = session.execute(select(Run.id, Run.started_at).where(Run.id.in_(keys)))
    return {str(run_id): started_at for run_id, started_at in rows}


def _event(regression_id: int, changes: dict[str, Any]) -> dict[str, Any]:
    event = EventChanges.model_validate(changes).model_dump(mode="json", exclude_unset=True)
    return {"regression_id": regression_id, "actor": DETECTOR, "changes": event}
