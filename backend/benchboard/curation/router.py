"""HTTP for baseline curation: outlier marks and baseline resets, set and undone by
maintainers, read by everyone (the history chart draws outliers hollow)."""

import uuid

from fastapi import APIRouter

from benchboard.bounds import BoundedJsonRoute, Id64
from benchboard.curation import service
from benchboard.curation.schemas import BaselineReset, CurationNote, SeriesCurationOut
from benchboard.deps import MaintainerToken, ReadAccess, SessionDep
from benchboard.errors import ErrorOut

router = APIRouter(
    prefix="/api/v1/series/{series_id}", tags=["series"], route_class=BoundedJsonRoute
)
_WRITE: dict[int | str, dict[str, object]] = {
    404: {"model": ErrorOut},
    401: {"model": ErrorOut},
    403: {"model": ErrorOut},
    422: {"model": ErrorOut},
}


@router.get("/curation", dependencies=[ReadAccess], responses={404: {"model": ErrorOut}})
def get_series_curation(series_id: Id64, session: SessionDep) -> SeriesCurationOut:
    """The series' outliers, its baseline reset, and the record of every mark and undoing."""
    return service.get_curation(session, series_id)


@router.put("/outliers/{run_id}", responses=_WRITE)
def mark_outlier(
    series_id: Id64,
    run_id: uuid.UUID,
    body: CurationNote,
    session: SessionDep,
    token: MaintainerToken,
) -> SeriesCurationOut:
    """Leave the run's result out of change detection and baselines; the series is checked
    again."""
    return service.mark(
        session, series_id, run_id, "outlier", note=body.note, actor=token, path="run_id"
    )


@router.delete("/outliers/{run_id}", responses=_WRITE)
def restore_outlier(
    series_id: Id64, run_id: uuid.UUID, session: SessionDep, token: MaintainerToken
) -> SeriesCurationOut:
    """Take the run's result back into detection."""
    return service.unmark(session, series_id, "outlier", run_id=run_id, actor=token)


@router.put("/baseline-reset", responses=_WRITE)
def reset_baseline(
    series_id: Id64, body: BaselineReset, session: SessionDep, token: MaintainerToken
) -> SeriesCurationOut:
    """Start detection and baseline verdicts (hence the CI gate) at this run, after an
    intended change (replaces an earlier reset)."""
    return service.mark(
        session,
        series_id,
        body.run_id,
        "baseline_reset",
        note=body.note,
        actor=token,
        path="run_id",
    )


@router.delete("/baseline-reset", responses=_WRITE)
def undo_baseline_reset(
    series_id: Id64, session: SessionDep, token: MaintainerToken
) -> SeriesCurationOut:
    """Detection and baseline verdicts read the whole window again."""
    return service.unmark(session, series_id, "baseline_reset", run_id=None, actor=token)
