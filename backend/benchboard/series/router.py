"""HTTP for series: facets, the series list, one series' history."""

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query, Response

from benchboard.bounds import Id64
from benchboard.deps import ReadAccess, SessionDep
from benchboard.errors import ErrorOut
from benchboard.pagination import PAGE_DEFAULT
from benchboard.series import history, service
from benchboard.series.filters import SeriesFilterDep
from benchboard.series.schemas import SERIES_PAGE_MAX, Facets, SeriesHistory, SeriesPage

router = APIRouter(prefix="/api/v1", tags=["series"], dependencies=[ReadAccess])


@router.get("/facets")
def get_facets(session: SessionDep, series_filter: SeriesFilterDep) -> Facets:
    """For each dimension, its values with series counts under the other filters."""
    return service.get_facets(session, series_filter)


@router.get("/series", response_model=SeriesPage)
def list_series(
    session: SessionDep,
    series_filter: SeriesFilterDep,
    limit: Annotated[int, Query(ge=1, le=SERIES_PAGE_MAX)] = PAGE_DEFAULT,
    cursor: str | None = None,
) -> Response:
    """Series matching the filters, each with its identity and latest value."""
    body = service.list_series(session, series_filter, limit=limit, cursor=cursor)
    return Response(body, media_type="application/json")


@router.get(
    "/series/{series_id}/history",
    response_model=SeriesHistory,
    responses={404: {"model": ErrorOut}},
)
def get_series_history(
    series_id: Id64,
    session: SessionDep,
    since: datetime | None = None,
    until: datetime | None = None,
    max_points: Annotated[int, Query(ge=10, le=20_000)] = 2000,
) -> Response:
    """The series' values in time order; above max_points, time buckets (downsampled)."""
    body = history.get_series_history_json(
        session, series_id, since=since, until=until, max_points=max_points
    )
    return Response(body, media_type="application/json")
