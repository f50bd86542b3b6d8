"""HTTP for suites: the list, one suite's settings and branches, a maintainer's update."""

from fastapi import APIRouter

from benchboard.bounds import BoundedJsonRoute, SuiteName
from benchboard.deps import MaintainerToken, ReadAccess, SessionDep
from benchboard.errors import ErrorOut
from benchboard.suites import service
from benchboard.suites.schemas import SuiteSettings, SuiteUpdate

router = APIRouter(prefix="/api/v1/suites", tags=["suites"], route_class=BoundedJsonRoute)


@router.get("/{suite}", dependencies=[ReadAccess], responses={404: {"model": ErrorOut}})
def get_suite(suite: SuiteName, session: SessionDep) -> SuiteSettings:
    """The suite's settings (its default branch) and the branches its runs came from."""
    return service.get_suite(session, suite)


@router.put(
    "/{suite}",
    responses={code: {"model": ErrorOut} for code in (401, 403, 422)},
)
def update_suite(
    suite: SuiteName, update: SuiteUpdate, session: SessionDep, token: MaintainerToken
) -> SuiteSettings:
    """Change the settings and study metadata sent (partial update); needs a `maintain`
    token for the suite."""
    token.require_suite(suite)
    return service.update_suite(session, suite, update, token_id=token.token_id)
