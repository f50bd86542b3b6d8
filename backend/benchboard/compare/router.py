"""HTTP for comparisons: sync against async, run against run."""

import uuid

from fastapi import APIRouter

from benchboard.compare import service
from benchboard.compare.schemas import ModeComparison, RunComparison
from benchboard.deps import ReadAccess, SessionDep
from benchboard.errors import ErrorOut
from benchboard.series.filters import SeriesFilterDep

router = APIRouter(prefix="/api/v1/compare", tags=["compare"], dependencies=[ReadAccess])


@router.get("/modes")
def compare_modes(session: SessionDep, series_filter: SeriesFilterDep) -> ModeComparison:
    """Every sync/async pair of series that differ only in mode (and variant unless filtered)."""
    return service.compare_modes(session, series_filter)


@router.get("/runs", responses={404: {"model": ErrorOut}})
def compare_runs(baseline: uuid.UUID, contender: uuid.UUID, session: SessionDep) -> RunComparison:
    """Two runs side by side: shared results with change and verdict, and the rest apart."""
    return service.compare_runs(session, baseline, contender)
