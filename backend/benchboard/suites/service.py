"""Suites: their settings (the default branch), the branch every upload resolves, the list.

The default branch is resolved once, when a run is written (see resolve_branch): a run
without `git.branch` counts on the branch that is the default at that moment, and stays
there if a maintainer later names another default.
"""

from typing import Any

from sqlalchemy import ColumnElement, func, select, text, tuple_
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from benchboard.errors import FieldError, NotFound, ValidationFailed
from benchboard.findings.service import list_findings
from benchboard.models import Hardware, Run, Series, Suite
from benchboard.runs.queries import RunFilter, list_runs
from benchboard.runs.schemas import HardwareOut
from benchboard.suites.schemas import (
    BranchOut,
    Study,
    StudyLink,
    StudyWorkload,
    SuiteList,
    SuiteOut,
    SuiteSettings,
    SuiteUpdate,
)
from benchboard.suites.titles import suite_title

# The newest runs a study's page lists; the runs page pages through the rest.
STUDY_RUNS = 50
# Metadata a maintainer may clear with null: lists become empty, texts null.
_LIST_SETTINGS = ("authors", "links")

# SQL text: SQLAlchemy never caches the dialect's INSERT … ON CONFLICT (see runs.service).
_CREATE_SUITE = text("INSERT INTO suite (name) VALUES (:name) ON CONFLICT (name) DO NOTHING")


def resolve_branch(session: Session, suite: str, git_branch: str | None) -> tuple[str, bool]:
    """(branch the run counts on, whether that is the suite's default); creates the suite."""
    default = session.scalar(select(Suite.default_branch).where(Suite.name == suite))
    if default is None:  # the suite's first run (or a concurrent first run)
        session.execute(_CREATE_SUITE, {"name": suite})
        default = session.scalar(select(Suite.default_branch).where(Suite.name == suite))
    assert default is not None
    branch = git_branch or default
    return branch, branch == default


def on_default_branch(suite: Any, branch: Any) -> ColumnElement[bool]:
    """Rows (a series, a run) on their suite's default branch: a semi-join on the small
    suite table, so filters stay on the rows' own indexes."""
    return tuple_(suite, branch).in_(select(Suite.name, Suite.default_branch))


def default_branch(session: Session, suite: str) -> str:
    branch = session.scalar(select(Suite.default_branch).where(Suite.name == suite))
    if branch is None:
        raise NotFound(f"no suite {suite!r}")
    return branch


def get_suite(session: Session, suite: str) -> SuiteSettings:
    row = session.get(Suite, suite)
    if row is None:
        raise NotFound(f"no suite {suite!r}")
    branches = session.execute(
        select(Run.branch, func.count().label("runs"), func.max(Run.started_at).label("last"))
        .where(Run.suite == suite)
        .group_by(Run.branch)
        .order_by(func.max(Run.started_at).desc())
    ).all()
    return SuiteSettings(
        suite=row.name,
        default_branch=row.default_branch,
        branches=[
            BranchOut(name=b.branch, run_count=b.runs, last_started_at=b.last) for b in branches
        ],
        title=row.title,
        description=row.description,
        authors=row.authors,
        links=[StudyLink.model_validate(link) for link in row.links],
        updated_at=row.updated_at,
    )


def update_suite(session: Session, suite: str, update: SuiteUpdate) -> SuiteSettings:
    """Set what was sent; a suite without runs yet is created (settings may come first)."""
    sent = update.model_dump(exclude_unset=True)
    if not sent:
        raise ValidationFailed(
            "send at least one setting", [FieldError(path="(body)", message="nothing to change")]
        )
    if sent.get("default_branch", "") is None:
        raise ValidationFailed(
            "a suite always has a default branch",
            [FieldError(path="default_branch", message="must be a branch name, not null")],
        )
    for name in _LIST_SETTINGS:
        if name in sent and sent[name] is None:
            sent[name] = []
    statement = pg_insert(Suite).values(name=suite, **sent)
    session.execute(
        statement.on_conflict_do_update(
            index_elements=[Suite.name], set_={**sent, "updated_at": func.now()}
        )
    )
    session.flush()
    session.expire_all()
    return get_suite(session, suite)


def list_suites(session: Session) -> SuiteList:
    """Every suite, newest first, with its first finding: its title is the maintainer's,
    else what its runs' names share; its description the maintainer's, else the newest
    run's `description` tag; series, languages and machines are those of its default
    branch."""
    newest = (
        select(Run.suite, Run.tags["description"].astext.label("description"))
        .distinct(Run.suite)
        .order_by(Run.suite, Run.started_at.desc())
        .subquery()
    )
    runs = (
        select(
            Run.suite,
            func.count().label("run_count"),
            func.sum(Run.result_count).label("result_count"),
            func.min(Run.started_at).label("first_started_at"),
            func.max(Run.started_at).label("last_started_at"),
            func.array_agg(Run.name.distinct()).label("names"),
            func.array_agg(aggregate_order_by(Run.branch.distinct(), Run.branch)).label("branches"),
        )
        .group_by(Run.suite)
        .subquery()
    )
    series = (
        select(
            Series.suite,
            func.count().label("series_count"),
            func.array_agg(aggregate_order_by(Series.language.distinct(), Series.language)).label(
                "languages"
            ),
            func.array_agg(aggregate_order_by(Hardware.name.distinct(), Hardware.name)).label(
                "hardware"
            ),
        )
        .join(Hardware, Hardware.id == Series.hardware_id)
        .where(on_default_branch(Series.suite, Series.branch))
        .group_by(Series.suite)
        .subquery()
    )
    rows = session.execute(
        select(
            runs,
            Suite.default_branch,
            Suite.title,
            Suite.description.label("suite_description"),
            Suite.authors,
            newest.c.description,
            func.coalesce(series.c.series_count, 0).label("series_count"),
            series.c.languages,
            series.c.hardware,
        )
        .join(Suite, Suite.name == runs.c.suite)
        .join(newest, newest.c.suite == runs.c.suite)
        .outerjoin(series, series.c.suite == runs.c.suite)
        .order_by(runs.c.last_started_at.desc())
    ).all()
    first_findings = {f.suite: f for f in list_findings(session, first_only=True)}
    return SuiteList(
        items=[
            SuiteOut(
                suite=r.suite,
                title=r.title or suite_title(r.names),
                description=r.suite_description or r.description,
                authors=r.authors,
                first_finding=first_findings.get(r.suite),
                default_branch=r.default_branch,
                branches=r.branches,
                run_count=r.run_count,
                result_count=r.result_count,
                series_count=r.series_count,
                first_started_at=r.first_started_at,
                last_started_at=r.last_started_at,
                languages=r.languages or [],
                hardware=r.hardware or [],
            )
            for r in rows
        ]
    )


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
