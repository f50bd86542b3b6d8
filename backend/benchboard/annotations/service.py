"""Annotations: create, list (what applies to a series), edit, delete."""

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Select, or_, select
from sqlalchemy.orm import Session

from benchboard.annotations.schemas import (
    AnnotationEdit,
    AnnotationIn,
    AnnotationList,
    AnnotationOut,
)
from benchboard.errors import FieldError, NotFound, ValidationFailed
from benchboard.models import Annotation, AnnotationDeletion, Hardware, Run, Series
from benchboard.tokens.service import Principal
from benchboard.tokens.visibility import Viewer


def _query() -> Select[Any]:
    return select(Annotation, Hardware.name.label("hardware_name")).outerjoin(
        Hardware, Hardware.id == Annotation.hardware_id
    )


def _out(annotation: Annotation, hardware_name: str | None) -> AnnotationOut:
    return AnnotationOut(
        id=annotation.id,
        text=annotation.text,
        series_id=annotation.series_id,
        suite=annotation.suite,
        hardware=hardware_name,
        run_id=annotation.run_id,
        at=annotation.at,
        created_by=annotation.created_by,
        created_by_token=annotation.token_id,
        created_at=annotation.created_at,
        updated_at=annotation.updated_at,
        updated_by=annotation.updated_by,
        updated_by_token=annotation.updated_token_id,
    )


def _missing(path: str, what: str) -> ValidationFailed:
    return ValidationFailed(f"{path}: {what}", [FieldError(path=path, message=what)])


def _require_scope(
    session: Session, actor: Principal, *, series_id: int | None, suite: str | None
) -> None:
    """A note on a series or a suite needs a token for its suite; one on a machine (which
    spans suites) a token for every suite."""
    if series_id is not None:
        series = session.get(Series, series_id)
        if series is not None:
            actor.require_suite(series.suite)
    elif suite is not None:
        actor.require_suite(suite)
    else:
        actor.require_every_suite("a machine's annotation")


def create_annotation(session: Session, given: AnnotationIn, *, actor: Principal) -> AnnotationOut:
    _require_scope(session, actor, series_id=given.series_id, suite=given.suite)
    hardware_id = None
    if given.hardware is not None:
        hardware_id = session.scalar(select(Hardware.id).where(Hardware.name == given.hardware))
        if hardware_id is None:
            raise _missing("hardware", f"no machine named {given.hardware!r}")
    if given.series_id is not None and session.get(Series, given.series_id) is None:
        raise _missing("series_id", f"no series {given.series_id}")
    at = given.at
    if given.run_id is not None:
        run_started = session.scalar(select(Run.started_at).where(Run.id == given.run_id))
        if run_started is None:
            raise _missing("run_id", f"no run {given.run_id}")
        at = at or run_started
    assert at is not None  # the schema requires at or run_id
    annotation = Annotation(
        text=given.text,
        series_id=given.series_id,
        suite=given.suite,
        hardware_id=hardware_id,
        run_id=given.run_id,
        at=at,
        created_by=actor.name,
        token_id=actor.token_id,
    )
    session.add(annotation)
    session.flush()
    return get_annotation(session, annotation.id)


def get_annotation(session: Session, annotation_id: int) -> AnnotationOut:
    row = session.execute(_query().where(Annotation.id == annotation_id)).one_or_none()
    if row is None:
        raise NotFound(f"no annotation {annotation_id}")
    return _out(row.Annotation, row.hardware_name)


def list_annotations(
    session: Session,
    viewer: Viewer,
    *,
    series_id: int | None,
    suite: str | None,
    hardware: str | None,
) -> AnnotationList:
    """With series_id: every note that applies to it (its own, its suite's, its machine's).
    Notes on the suites hidden from the viewer, or on their series, are left out."""
    query = _query().order_by(Annotation.at).where(viewer.shows(Annotation.suite))
    if viewer.hidden:
        on_hidden_series = select(Series.id).where(
            Series.id == Annotation.series_id, ~viewer.shows(Series.suite)
        )
        query = query.where(~on_hidden_series.exists())
    if series_id is not None:
        series = session.get(Series, series_id)
        if series is None:
            raise NotFound(f"no series {series_id}")
        query = query.where(
            or_(
                Annotation.series_id == series_id,
                Annotation.suite == series.suite,
                Annotation.hardware_id == series.hardware_id,
            )
        )
    if suite is not None:
        query = query.where(Annotation.suite == suite)
    if hardware is not None:
        query = query.where(Hardware.name == hardware)
    return AnnotationList(
        items=[_out(r.Annotation, r.hardware_name) for r in session.execute(query)]
    )


def _annotation_to_change(session: Session, annotation_id: int, actor: Principal) -> Annotation:
    annotation = session.get(Annotation, annotation_id)
    if annotation is None:
        raise NotFound(f"no annotation {annotation_id}")
    _require_scope(session, actor, series_id=annotation.series_id, suite=annotation.suite)
    return annotation


def edit_annotation(
    session: Session, annotation_id: int, edit: AnnotationEdit, *, actor: Principal
) -> AnnotationOut:
    annotation = _annotation_to_change(session, annotation_id, actor)
    for field, value in edit.model_dump(exclude_unset=True).items():
        if value is None:
            raise _missing(field, "may not be null")
        setattr(annotation, field, value)
    annotation.updated_at = datetime.now(UTC)
    annotation.updated_by = actor.name
    annotation.updated_token_id = actor.token_id
    session.flush()
    return get_annotation(session, annotation_id)


def delete_annotation(session: Session, annotation_id: int, *, actor: Principal) -> None:
    annotation = _annotation_to_change(session, annotation_id, actor)
    record_deletions(session, [annotation_id], deleted_by=actor.name, token_id=actor.token_id)
    session.delete(annotation)
    session.flush()


def record_deletions(
    session: Session, annotation_ids: Iterable[int], *, deleted_by: str, token_id: int | None
) -> None:
    """Before these notes are deleted: a record of each as it reads, and of who deleted it."""
    rows = session.execute(_query().where(Annotation.id.in_(list(annotation_ids))))
    session.add_all(
        AnnotationDeletion(
            annotation_id=row.Annotation.id,
            annotation=_out(row.Annotation, row.hardware_name).model_dump(mode="json"),
            deleted_by=deleted_by,
            token_id=token_id,
        )
        for row in rows
    )
