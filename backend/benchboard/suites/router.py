"""HTTP for suites: the list, one suite's settings and branches, a maintainer's update."""

from typing import Annotated

from fastapi import APIRouter, Path

from benchboard.deps import MaintainerToken, ReadAccess, SessionDep
from benchboard.errors import ErrorOut
from benchboard.runs.schemas import SLUG_PATTERN
from benchboard.suites import service
from benchboard.suites.schemas import Study, SuiteList, SuiteSettings, SuiteUpdate

router = APIRouter(prefix="/api/v1/suites", tags=["suites"])
SuiteName = Annotated[str, Path(pattern=SLUG_PATTERN, description="the suite's slug")]


@router.get("", dependencies=[ReadAccess])
def list_suites(session: SessionDep) -> SuiteList:
    """Every suite with its run, result and series counts, dates, languages and machines."""
    return service.list_suites(session)


@router.get("/{suite}", dependencies=[ReadAccess], responses={404: {"model": ErrorOut}})
def get_suite(suite: SuiteName, session: SessionDep) -> SuiteSettings:
    """The suite's settings (its default branch) and the branches its runs came from."""
    return service.get_suite(session, suite)


@router.get("/{suite}/study", dependencies=[ReadAccess], responses={404: {"model": ErrorOut}})
def get_study(suite: SuiteName, session: SessionDep) -> Study:
    """A study's page: title, description, authors, links, machines in full, its newest
    runs, its workloads and its pinned findings."""
    return service.get_study(session, suite)


@router.put(
    "/{suite}",
    responses={code: {"model": ErrorOut} for code in (401, 403, 422)},
)
def update_suite(
    suite: SuiteName, update: SuiteUpdate, session: SessionDep, token: MaintainerToken
) -> SuiteSettings:
    """Change the settings and study metadata sent (partial update); needs a `maintain`
    token."""
    return service.update_suite(session, suite, update)
