"""HTTP for annotations: maintainers write them, everyone reads them."""

from fastapi import APIRouter, Response

from benchboard.annotations import service
from benchboard.annotations.schemas import (
    AnnotationEdit,
    AnnotationIn,
    AnnotationList,
    AnnotationOut,
)
from benchboard.bounds import BoundedJsonRoute, Id64
from benchboard.deps import MaintainerToken, SessionDep, ViewerDep
from benchboard.errors import ErrorOut

router = APIRouter(prefix="/api/v1/annotations", tags=["annotations"], route_class=BoundedJsonRoute)
_WRITE_ERRORS: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorOut} for code in (401, 403, 404, 422)
}


@router.post("", status_code=201, responses=_WRITE_ERRORS)
def create_annotation(
    annotation: AnnotationIn, session: SessionDep, token: MaintainerToken
) -> AnnotationOut:
    """Pin a note to a series, a suite or a machine, at a time or a run."""
    return service.create_annotation(session, annotation, actor=token)


@router.get("")
def list_annotations(
    session: SessionDep,
    viewer: ViewerDep,
    series_id: Id64 | None = None,
    suite: str | None = None,
    hardware: str | None = None,
) -> AnnotationList:
    """Notes in time order; with series_id, every note that applies to that series."""
    return service.list_annotations(
        session, viewer, series_id=series_id, suite=suite, hardware=hardware
    )


@router.patch("/{annotation_id}", responses=_WRITE_ERRORS)
def edit_annotation(
    annotation_id: Id64, edit: AnnotationEdit, session: SessionDep, token: MaintainerToken
) -> AnnotationOut:
    return service.edit_annotation(session, annotation_id, edit, actor=token)


@router.delete("/{annotation_id}", status_code=204, responses=_WRITE_ERRORS)
def delete_annotation(annotation_id: Id64, session: SessionDep, token: MaintainerToken) -> Response:
    service.delete_annotation(session, annotation_id, actor=token)
    return Response(status_code=204)
