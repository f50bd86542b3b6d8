"""Baseline curation, audited and reversible: a maintainer marks a run's result of a
series as an outlier (left out of detection and of baseline verdicts) or resets the
series' baseline at a run after an intended change (detection and baseline verdicts
start there): one rule for both, series/recent.py. Undoing either keeps the row with who
undid it, so the record is whole. Each change queues the series for a fresh check, which
refines or retracts its changes as the curated history shows."""

import uuid
from datetime import UTC, datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from benchboard.curation.schemas import CurationOut, SeriesCurationOut
from benchboard.errors import FieldError, NotFound, ValidationFailed
from benchboard.models import Result, Series, SeriesCuration
from benchboard.pipeline.queue import enqueue_series
from benchboard.tokens.service import Principal
from benchboard.vocabulary import CurationKind


def get_curation(session: Session, series_id: int) -> SeriesCurationOut:
    _series(session, series_id)
    rows = session.scalars(
        select(SeriesCuration)
        .where(SeriesCuration.series_id == series_id)
        .order_by(SeriesCuration.id.desc())
    ).all()
    active = [row for row in rows if row.removed_at is None]
    return SeriesCurationOut(
        series_id=series_id,
        outliers=[row.run_id for row in active if row.kind == "outlier"],
        baseline_reset=next((row.run_id for row in active if row.kind == "baseline_reset"), None),
        record=[CurationOut.model_validate(row, from_attributes=True) for row in rows],
    )


def _series(session: Session, series_id: int) -> Series:
    series = session.get(Series, series_id)
    if series is None:
        raise NotFound(f"no series {series_id}")
    return series


def mark(
    session: Session,
    series_id: int,
    run_id: uuid.UUID,
    kind: CurationKind,
    *,
    note: str | None,
    actor: Principal,
    path: str,
) -> SeriesCurationOut:
    """Set a mark (a reset replaces the series' previous one); a mark already set stays."""
    actor.require_suite(_series(session, series_id).suite)
    _require_result(session, series_id, run_id, path=path)
    if kind == "baseline_reset":
        _remove(session, series_id, kind, run_id=None, actor=actor, keep=run_id)
    already = session.scalar(
        select(SeriesCuration.id).where(
            SeriesCuration.series_id == series_id,
            SeriesCuration.run_id == run_id,
            SeriesCuration.kind == kind,
            SeriesCuration.removed_at.is_(None),
        )
    )
    if already is None:
        session.add(
            SeriesCuration(
                series_id=series_id,
                run_id=run_id,
                kind=kind,
                note=note,
                created_by=actor.name,
                token_id=actor.token_id,
            )
        )
        session.flush()
        enqueue_series(session, [series_id])
    return get_curation(session, series_id)


def unmark(
    session: Session,
    series_id: int,
    kind: CurationKind,
    *,
    run_id: uuid.UUID | None,
    actor: Principal,
) -> SeriesCurationOut:
    """Undo a mark: an outlier's (run_id) or the series' baseline reset (run_id None)."""
    actor.require_suite(_series(session, series_id).suite)
    if not _remove(session, series_id, kind, run_id=run_id, actor=actor, keep=None):
        raise NotFound(f"no {kind} to undo on series {series_id}")
    enqueue_series(session, [series_id])
    return get_curation(session, series_id)


def _remove(
    session: Session,
    series_id: int,
    kind: CurationKind,
    *,
    run_id: uuid.UUID | None,
    actor: Principal,
    keep: uuid.UUID | None,
) -> int:
    statement = update(SeriesCuration).where(
        SeriesCuration.series_id == series_id,
        SeriesCuration.kind == kind,
        SeriesCuration.removed_at.is_(None),
    )
    if run_id is not None:
        statement = statement.where(SeriesCuration.run_id == run_id)
    if keep is not None:
        statement = statement.where(SeriesCuration.run_id != keep)
    removed = session.execute(
        statement.values(
            removed_by=actor.name, removed_token_id=actor.token_id, removed_at=datetime.now(UTC)
        ).returning(SeriesCuration.id)
    ).all()
    return len(removed)


def _require_result(session: Session, series_id: int, run_id: uuid.UUID, *, path: str) -> None:
    if session.get(Series, series_id) is None:
        raise NotFound(f"no series {series_id}")
    found = session.scalar(
        select(Result.id).where(Result.series_id == series_id, Result.run_id == run_id).limit(1)
    )
    if found is None:
        raise ValidationFailed(
            f"run {run_id} has no result in series {series_id}",
            [FieldError(path=path, message="must be a run with a result in this series")],
        )
