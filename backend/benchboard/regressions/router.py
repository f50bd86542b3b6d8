"""HTTP for regressions: the list readers see, and triage for maintainers."""

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query

from benchboard.bounds import BoundedJsonRoute, Id64
from benchboard.deps import MaintainerToken, ReadAccess, SessionDep, ViewerDep
from benchboard.errors import ErrorOut
from benchboard.pagination import PAGE_DEFAULT
from benchboard.regressions import context, deliveries, series_state, service
from benchboard.regressions.schemas import (
    RegressionContext,
    RegressionHistory,
    RegressionOut,
    RegressionPage,
    RegressionTriage,
    SeriesDetection,
    WebhookDeliveryPage,
)
from benchboard.regressions.service import RegressionFilter
from benchboard.vocabulary import ChangeDirection, TriageStatus

router = APIRouter(prefix="/api/v1/regressions", tags=["regressions"], route_class=BoundedJsonRoute)
_NOT_FOUND: dict[int | str, dict[str, object]] = {404: {"model": ErrorOut}}


async def regression_filter(
    suite: str | None = None,
    branch: str | None = None,
    language: str | None = None,
    hardware: str | None = None,
    benchmark: str | None = None,
    series_id: Id64 | None = None,
    status: TriageStatus | None = None,
    direction: ChangeDirection | None = None,
    since: datetime | None = None,
    *,
    viewer: ViewerDep,
) -> RegressionFilter:
    return RegressionFilter(
        suite=suite,
        branch=branch,
        language=language,
        hardware=hardware,
        benchmark=benchmark,
        series_id=series_id,
        status=status,
        direction=direction,
        since=since,
        hidden=viewer.hidden,
    )


@router.get("", dependencies=[ReadAccess])
def list_regressions(
    session: SessionDep,
    regression_filter: Annotated[RegressionFilter, Depends(regression_filter)],
    limit: Annotated[int, Query(ge=1, le=500)] = PAGE_DEFAULT,
    cursor: str | None = None,
) -> RegressionPage:
    """Detected changes, newest first; an empty first page says whether the matching
    series are long enough for a change to show."""
    page = service.list_regressions(session, regression_filter, limit=limit, cursor=cursor)
    if page.items or cursor:
        return page
    support = series_state.history_support(session, regression_filter)
    return page.model_copy(update={"history_support": support})


@router.get("/{regression_id}", dependencies=[ReadAccess], responses=_NOT_FOUND)
def get_regression(regression_id: Id64, session: SessionDep) -> RegressionOut:
    return service.get_regression(session, regression_id)


@router.patch(
    "/{regression_id}",
    responses={
        **_NOT_FOUND,
        401: {"model": ErrorOut},
        403: {"model": ErrorOut},
        422: {"model": ErrorOut},
    },
)
def triage_regression(
    regression_id: Id64, triage: RegressionTriage, session: SessionDep, token: MaintainerToken
) -> RegressionOut:
    """Set status, note or links; every change goes to the audit trail."""
    return service.triage_regression(session, regression_id, triage, actor=token)


# exclude_unset: an event carries only the fields it changed (EventChanges).
@router.get(
    "/{regression_id}/history",
    dependencies=[ReadAccess],
    responses=_NOT_FOUND,
    response_model_exclude_unset=True,
)
def get_regression_history(regression_id: Id64, session: SessionDep) -> RegressionHistory:
    """Who changed what, when (the detector included)."""
    return service.get_regression_history(session, regression_id)


@router.get("/{regression_id}/context", dependencies=[ReadAccess], responses=_NOT_FOUND)
def get_regression_context(
    regression_id: Id64,
    session: SessionDep,
    window: Annotated[int, Query(ge=1, le=500, description="runs on each side")] = 30,
) -> RegressionContext:
    """The series' runs around the change (with replicates), each side's spread, the commit
    range and the last run before it, for the change's chart."""
    return context.regression_context(session, regression_id, window=window)


webhooks_router = APIRouter(prefix="/api/v1/webhooks", tags=["regressions"])


@webhooks_router.get("/deliveries", responses={401: {"model": ErrorOut}, 403: {"model": ErrorOut}})
def list_webhook_deliveries(
    session: SessionDep,
    token: MaintainerToken,
    failing: Annotated[
        bool, Query(description="only those not delivered after an attempt")
    ] = False,
    limit: Annotated[int, Query(ge=1, le=500)] = PAGE_DEFAULT,
) -> WebhookDeliveryPage:
    """The webhook outbox, newest first: every delivery's attempts, status and error."""
    token.require_every_suite("the webhook outbox")
    return deliveries.list_deliveries(session, failing_only=failing, limit=limit)


# What detection sees in one series: a series read, hosted here because it is the
# detection method's view (the series domain knows nothing of detection).
series_detection_router = APIRouter(prefix="/api/v1", tags=["series"], dependencies=[ReadAccess])


@series_detection_router.get("/series/{series_id}/detection", responses={404: {"model": ErrorOut}})
def get_series_detection(series_id: Id64, session: SessionDep) -> SeriesDetection:
    """What change detection can see in the series now: runs analysed, noise within and
    between runs, the smallest change it would report, or how many more runs it needs."""
    return series_state.get_series_detection(session, series_id)
