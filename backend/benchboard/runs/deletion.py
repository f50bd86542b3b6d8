"""Undoing an upload: a run and its results go in one transaction, the series they
touched are queued for change detection again, and the audit log keeps who did it.
The record stays: changes detected on the run are retracted with their audit trail,
and notes pinned to it stay at its time.

Series left with no result (a mistaken benchmark name, say) go too, with their queue
rows, unless a change was ever detected on them; the rest are re-checked, so a change
that rested on the deleted run is retracted or moved by the detector, as it would be for
any new history.
"""

import uuid

from sqlalchemy import delete, exists, func, or_, select, update
from sqlalchemy.orm import Session

from benchboard.annotations.service import record_deletions
from benchboard.errors import Conflict, NotFound
from benchboard.models import (
    Annotation,
    DetectionQueue,
    Finding,
    Hardware,
    Regression,
    RegressionEvent,
    Result,
    Run,
    RunDeletion,
    Series,
)
from benchboard.pipeline.queue import enqueue_series
from benchboard.runs.schemas import RunDeleted
from benchboard.runs.totals import uncount_run
from benchboard.tokens.service import Principal


def delete_run(
    session: Session, run_id: uuid.UUID, *, deleted_by: str, deleter: Principal | None
) -> RunDeleted:
    """`deleter` is the token (None: the CLI on the server), which must cover the suite."""
    run = session.scalar(select(Run).where(Run.id == run_id).with_for_update())
    if run is None:
        raise NotFound(f"no run {run_id}")
    if deleter is not None:
        deleter.require_suite(run.suite)
    _refuse_if_pinned(session, run_id)
    touched = set(session.scalars(select(Result.series_id).where(Result.run_id == run_id)))
    removed = session.execute(delete(Result).where(Result.run_id == run_id).returning(Result.id))
    result_count = len(removed.all())
    hardware = session.scalars(select(Hardware.name).where(Hardware.id == run.hardware_id)).one()
    session.add(
        RunDeletion(
            run_id=run.id,
            suite=run.suite,
            hardware=hardware,
            started_at=run.started_at,
            result_count=result_count,
            deleted_by=deleted_by,
            token_id=deleter.token_id if deleter else None,
            upload_body=run.upload_body,
        )
    )
    _retract_regressions(session, run_id, deleted_by=deleted_by, deleter=deleter)
    # Its regressions and annotations keep their rows: run_id goes null (ON DELETE SET NULL).
    session.execute(delete(Run).where(Run.id == run_id))
    emptied = _delete_empty_series(
        session, touched, deleted_by=deleted_by, token_id=deleter.token_id if deleter else None
    )
    uncount_run(
        session,
        suite=run.suite,
        branch=run.branch,
        started_at=run.started_at,
        series_ids=touched - emptied,
    )
    requeued = sorted(touched - emptied)
    if requeued:
        enqueue_series(session, requeued)
    session.flush()
    return RunDeleted(
        id=run_id,
        result_count=result_count,
        requeued_series=len(requeued),
        deleted_series=len(emptied),
    )


def _retract_regressions(
    session: Session, run_id: uuid.UUID, *, deleted_by: str, deleter: Principal | None
) -> None:
    """The changes detected on the run are retracted, not deleted: a triaged change keeps
    its status, note and trail, and the trail says who retracted it."""
    retracted = session.scalars(
        update(Regression)
        .where(Regression.run_id == run_id, Regression.retracted_at.is_(None))
        .values(retracted_at=func.now())
        .returning(Regression.id)
    ).all()
    session.add_all(
        RegressionEvent(
            regression_id=regression_id,
            actor=deleted_by,
            token_id=deleter.token_id if deleter else None,
            changes={"retracted": [False, True]},
        )
        for regression_id in retracted
    )


def _refuse_if_pinned(session: Session, run_id: uuid.UUID) -> None:
    pinned = select(Finding.suite).where(
        or_(Finding.numerator_run_id == run_id, Finding.denominator_run_id == run_id)
    )
    suites = sorted(set(session.scalars(pinned)))
    if suites:
        raise Conflict(
            f"run {run_id} is pinned by a finding of {', '.join(suites)}: "
            "change those findings first (PUT /api/v1/suites/{suite}/findings)"
        )


def _delete_empty_series(
    session: Session, series_ids: set[int], *, deleted_by: str, token_id: int | None
) -> set[int]:
    """Of these series, delete those with no result left and no change on record; their
    ids. Their notes go with them (ON DELETE CASCADE), each leaving a record of who
    deleted it. A series that ever had a change stays, empty, so its (retracted) changes
    keep their triage and trail."""
    if not series_ids:
        return set()
    has_result = exists().where(Result.series_id == Series.id)
    has_change = exists().where(Regression.series_id == Series.id)
    empty = set(
        session.scalars(
            select(Series.id)
            .where(Series.id.in_(series_ids), ~has_result, ~has_change)
            .with_for_update()
        )
    )
    if empty:
        notes = session.scalars(select(Annotation.id).where(Annotation.series_id.in_(empty)))
        record_deletions(session, notes, deleted_by=deleted_by, token_id=token_id)
        session.execute(delete(DetectionQueue).where(DetectionQueue.series_id.in_(empty)))
        session.execute(delete(Series).where(Series.id.in_(empty)))
    return empty
