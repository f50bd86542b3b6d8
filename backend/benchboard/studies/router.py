"""HTTP for studies: the list of suites with their first findings, and a study's page
(tagged with suites, as the suites' own settings are)."""

from fastapi import APIRouter

from benchboard.bounds import SuiteName
from benchboard.deps import ReadAccess, SessionDep, ViewerDep
from benchboard.errors import ErrorOut
from benchboard.studies import service
from benchboard.studies.schemas import Study, SuiteList

router = APIRouter(prefix="/api/v1/suites", tags=["suites"])


@router.get("", dependencies=[ReadAccess])
def list_suites(session: SessionDep, viewer: ViewerDep) -> SuiteList:
    """Every suite with its run, result and series counts, dates, languages and machines."""
    return service.list_suites(session, viewer)


@router.get("/{suite}/study", dependencies=[ReadAccess], responses={404: {"model": ErrorOut}})
def get_study(suite: SuiteName, session: SessionDep) -> Study:
    """A study's page: title, description, authors, links, machines in full, its newest
    runs, its workloads and its pinned findings."""
    return service.get_study(session, suite)
