"""Studies: the list on the home page (each suite with its first finding, from the totals
uploads keep, runs/totals.py) and a study's page (the suite's settings with its machines,
newest runs, workloads and pinned findings). It sits above suites, runs and findings,
which know nothing of it."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchboard.findings.schemas import FindingOut
from benchboard.findings.service import list_findings
from benchboard.models import Hardware, Run, Series, Suite, SuiteBranch
from benchboard.runs.queries import RunFilter, list_runs
from benchboard.runs.schemas import HardwareOut
from benchboard.studies.schemas import Study, StudyWorkload, SuiteList, SuiteOut
from benchboard.suites.branches import on_default_branch
from benchboard.suites.service import get_suite
from benchboard.suites.titles import common_prefix, shared_title, suite_title
from benchboard.tokens.visibility import Viewer

# The newest runs a study's page lists; the runs page pages through the rest.
STUDY_RUNS = 50


def get_study(session: Session, suite: str) -> Study:
    """A study's page: metadata, machines in full, newest runs, workloads, findings."""
    settings = get_suite(session, suite)
    hardware = session.execute(
        select(Hardware.name, Hardware.info)
        .where(Hardware.id.in_(select(Run.hardware_id).where(Run.suite == suite)))
        .order_by(Hardware.name)
    ).all()
    workloads = session.execute(
        select(Series.benchmark, Series.metric, func.count().label("series_count"))
        .where(Series.suite == suite, on_default_branch(Series.suite, Series.branch))
        .group_by(Series.benchmark, Series.metric)
        .order_by(Series.benchmark, Series.metric)
    ).all()
    runs = list_runs(session, RunFilter(suite=suite), limit=STUDY_RUNS, cursor=None)
    return Study(
        suite=suite,
        title=settings.title or _derived_title(session, suite),
        description=settings.description,
        authors=settings.authors,
        links=settings.links,
        default_branch=settings.default_branch,
        hardware=[HardwareOut(name=h.name, info=h.info) for h in hardware],
        runs=runs.items,
        workloads=[
            StudyWorkload(benchmark=w.benchmark, metric=w.metric, series_count=w.series_count)
            for w in workloads
        ],
        findings=list_findings(session, [suite]),
    )


def _derived_title(session: Session, suite: str) -> str | None:
    names = session.scalars(select(Run.name).where(Run.suite == suite).distinct()).all()
    return suite_title(list(names))


def list_suites(session: Session, viewer: Viewer) -> SuiteList:
    """Every suite with runs the viewer sees, newest first, with its first finding, from
    the totals uploads keep per branch (runs/totals.py): its title is the maintainer's,
    else what its runs' names share; its description only ever the maintainer's (an
    upload's tags never speak for the suite); series, languages and machines are those
    of its default branch."""
    by_suite: dict[str, list[SuiteBranch]] = {}
    branches = select(SuiteBranch).where(viewer.shows(SuiteBranch.suite))
    for row in session.scalars(branches.order_by(SuiteBranch.branch)):
        by_suite.setdefault(row.suite, []).append(row)
    suites = session.scalars(select(Suite).where(Suite.name.in_(by_suite))).all()
    first_findings = {f.suite: f for f in list_findings(session, first_only=True)}
    items = [
        _suite_out(suite, by_suite[suite.name], first_findings.get(suite.name)) for suite in suites
    ]
    return SuiteList(items=sorted(items, key=lambda item: item.last_started_at, reverse=True))


def _suite_out(suite: Suite, branches: list[SuiteBranch], finding: FindingOut | None) -> SuiteOut:
    on_default = next((b for b in branches if b.branch == suite.default_branch), None)
    prefixes = [b.name_prefix for b in branches if b.name_prefix is not None]
    several = any(b.names_differ for b in branches) or len(set(prefixes)) > 1
    derived = shared_title(common_prefix(prefixes), several=several) if prefixes else None
    return SuiteOut(
        suite=suite.name,
        title=suite.title or derived,
        description=suite.description,
        authors=suite.authors,
        first_finding=finding,
        default_branch=suite.default_branch,
        branches=[b.branch for b in branches],
        run_count=sum(b.run_count for b in branches),
        result_count=sum(b.result_count for b in branches),
        series_count=on_default.series_count if on_default else 0,
        first_started_at=min(b.first_started_at for b in branches),
        last_started_at=max(b.last_started_at for b in branches),
        languages=on_default.languages if on_default else [],
        hardware=on_default.hardware if on_default else [],
    )
