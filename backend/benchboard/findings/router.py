"""HTTP for a study's findings: read them, or replace them with a `maintain` token."""

from fastapi import APIRouter

from benchboard.bounds import BoundedJsonRoute, SuiteName
from benchboard.deps import MaintainerToken, ReadAccess, SessionDep
from benchboard.errors import ErrorOut
from benchboard.findings import service
from benchboard.findings.schemas import FindingList, FindingsUpdate

router = APIRouter(prefix="/api/v1/suites", tags=["findings"], route_class=BoundedJsonRoute)


@router.get("/{suite}/findings", dependencies=[ReadAccess], responses={404: {"model": ErrorOut}})
def list_findings(suite: SuiteName, session: SessionDep) -> FindingList:
    """The study's pinned findings in their order, each a ratio worded for readers."""
    return FindingList(items=service.list_suite_findings(session, suite))


@router.put(
    "/{suite}/findings",
    responses={code: {"model": ErrorOut} for code in (401, 403, 404, 422)},
)
def replace_findings(
    suite: SuiteName, update: FindingsUpdate, session: SessionDep, token: MaintainerToken
) -> FindingList:
    """Pin these findings, in this order, in place of the study's current ones."""
    token.require_suite(suite)
    return service.replace_findings(
        session, suite, update, actor=token.name, token_id=token.token_id
    )
