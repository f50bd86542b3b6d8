"""HTTP for comparisons: sync against async, run against run."""

import uuid
from typing import Annotated

from fastapi import APIRouter, Query, Response

from benchboard.compare import baseline, modes, service
from benchboard.compare.schemas import (
    MODE_PAGE_MAX,
    BaselineComparison,
    ModeComparison,
    RunComparison,
)
from benchboard.deps import ReadAccess, SessionDep
from benchboard.errors import ErrorOut
from benchboard.pagination import PAGE_DEFAULT
from benchboard.series.filters import SeriesFilterDep

router = APIRouter(prefix="/api/v1", tags=["compare"], dependencies=[ReadAccess])


@router.get("/compare/modes", response_model=ModeComparison)
def compare_modes(
    session: SessionDep,
    series_filter: SeriesFilterDep,
    limit: Annotated[
        int, Query(ge=1, le=MODE_PAGE_MAX, description="sync series a page pairs")
    ] = PAGE_DEFAULT,
    cursor: str | None = None,
) -> Response:
    """Sync/async pairs of series that differ only in mode (and variant unless filtered),
    a page of `limit` sync series with their pairs at a time (by sync series): follow
    `next_cursor` for the rest."""
    body = modes.compare_modes(session, series_filter, limit=limit, cursor=cursor)
    return Response(body, media_type="application/json")


@router.get("/compare/runs", responses={404: {"model": ErrorOut}})
def compare_runs(baseline: uuid.UUID, contender: uuid.UUID, session: SessionDep) -> RunComparison:
    """Two runs side by side: shared results with change and verdict, and the rest apart."""
    return service.compare_runs(session, baseline, contender)


@router.get(
    "/runs/{run_id}/baseline-comparison",
    responses={404: {"model": ErrorOut}, 422: {"model": ErrorOut}},
)
def get_baseline_comparison(
    run_id: uuid.UUID,
    session: SessionDep,
    branch: Annotated[
        str | None, Query(description="baseline branch; default: the suite's default branch")
    ] = None,
    baseline_run: Annotated[
        uuid.UUID | None,
        Query(alias="baseline", description="this run as the baseline, not the nearest earlier"),
    ] = None,
) -> BaselineComparison:
    """The run against its baseline: per series both values, the change worded by
    direction, and a verdict (regression, improvement, unchanged) with what it rests on."""
    return baseline.get_baseline_comparison(
        session, run_id, branch=branch, baseline_id=baseline_run
    )
