"""HTTP for alert groups: the changes of one cause, listed, shown and triaged at once."""

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, Response

from benchboard.alerts import feed, health, notifications, service
from benchboard.alerts.schemas import (
    AlertGroupDetail,
    AlertGroupMove,
    AlertGroupPage,
    NotificationSettings,
    NotificationSettingsOut,
    TriageHealth,
)
from benchboard.alerts.service import GroupFilter
from benchboard.bounds import BoundedJsonRoute, Id64
from benchboard.deps import MaintainerToken, ReadAccess, SessionDep, SettingsDep, ViewerDep
from benchboard.errors import ErrorOut
from benchboard.regressions.schemas import RegressionOut, RegressionTriage
from benchboard.vocabulary import TriageStatus

router = APIRouter(prefix="/api/v1", tags=["alerts"], route_class=BoundedJsonRoute)
ATOM = "application/atom+xml"
_NOT_FOUND: dict[int | str, dict[str, object]] = {404: {"model": ErrorOut}}
_WRITE: dict[int | str, dict[str, object]] = {
    **_NOT_FOUND,
    401: {"model": ErrorOut},
    403: {"model": ErrorOut},
    422: {"model": ErrorOut},
}


async def group_filter(
    viewer: ViewerDep,
    suite: str | None = None,
    status: Annotated[
        TriageStatus | None, Query(description="groups with a change of this status")
    ] = None,
    branch: Annotated[str | None, Query(description="groups with a change on this branch")] = None,
    machine: Annotated[
        str | None, Query(description="groups with a change on this machine")
    ] = None,
) -> GroupFilter:
    return GroupFilter(
        suite=suite, status=status, branch=branch, machine=machine, hidden=viewer.hidden
    )


@router.get("/alert-groups", dependencies=[ReadAccess])
def list_alert_groups(
    session: SessionDep,
    filters: Annotated[GroupFilter, Depends(group_filter)],
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    cursor: str | None = None,
) -> AlertGroupPage:
    """Changes grouped by cause (a commit across machines, else a run), newest first."""
    return service.list_groups(session, filters, limit=limit, cursor=cursor)


@router.get("/alert-groups/health", dependencies=[ReadAccess])
def get_triage_health(
    session: SessionDep, viewer: ViewerDep, suite: str | None = None
) -> TriageHealth:
    """Whether triage keeps up: median time to triage, the share within 3 days, the
    oldest group still waiting."""
    if suite is not None:
        viewer.require(suite, f"suite {suite}")
    return health.triage_health(session, suite=suite, hidden=viewer.hidden)


@router.get("/alert-groups/{group_id}", dependencies=[ReadAccess], responses=_NOT_FOUND)
def get_alert_group(group_id: Id64, session: SessionDep, viewer: ViewerDep) -> AlertGroupDetail:
    """A group with every change and its evidence."""
    return service.get_group(session, viewer, group_id)


@router.patch("/alert-groups/{group_id}", responses=_WRITE)
def triage_alert_group(
    group_id: Id64, triage: RegressionTriage, session: SessionDep, token: MaintainerToken
) -> AlertGroupDetail:
    """Set status, note or links on every untriaged change of the group, in one
    transaction, with an audit event per change."""
    return service.triage_group(session, group_id, triage, actor=token)


@router.put("/regressions/{regression_id}/group", responses=_WRITE)
def move_regression(
    regression_id: Id64, move: AlertGroupMove, session: SessionDep, token: MaintainerToken
) -> RegressionOut:
    """Move a change to another alert group of its suite, or (null) set it apart: a
    different cause. The audit trail records the move."""
    return service.move_change(session, regression_id, move, actor=token)


@router.get(
    "/suites/{suite}/notifications",
    dependencies=[ReadAccess],
    responses={**_NOT_FOUND, 401: {"model": ErrorOut}, 403: {"model": ErrorOut}},
)
def get_suite_notifications(
    suite: str, session: SessionDep, token: MaintainerToken
) -> NotificationSettingsOut:
    """Where the suite's alert groups are announced; secrets in the URLs are masked."""
    token.require_suite(suite)
    return notifications.get_notifications(session, suite)


@router.put("/suites/{suite}/notifications", responses=_WRITE)
def set_suite_notifications(
    suite: str, settings: NotificationSettings, session: SessionDep, token: MaintainerToken
) -> NotificationSettingsOut:
    """Replace the suite's notification targets (Apprise URLs): one message per alert
    group and target, sent by the workers."""
    token.require_suite(suite)
    return notifications.set_notifications(session, suite, settings, actor=token)


@router.get(
    "/suites/{suite}/alerts.atom",
    dependencies=[ReadAccess],
    response_class=Response,
    responses={200: {"content": {ATOM: {}}}, **_NOT_FOUND},
)
def get_suite_alerts_feed(
    suite: str, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    """The suite's alert groups as an Atom feed, newest first (50 entries)."""
    notifications.require_suite(session, suite)
    body = feed.suite_feed(
        session, suite, public_url=settings.public_url, self_url=str(request.url)
    )
    return Response(body, media_type=ATOM)
