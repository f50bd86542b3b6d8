"""Suites: their settings (the default branch), the branch every upload resolves, the list.

The default branch is resolved once, when a run is written (see resolve_branch): a run
without `git.branch` counts on the branch that is the default at that moment, and stays
there if a maintainer later names another default.
"""

from typing import Any

from sqlalchemy import ColumnElement, func, literal_column, select, text, tuple_
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from benchboard.errors import FieldError, NotFound, ValidationFailed
from benchboard.findings.schemas import FindingOut
from benchboard.findings.service import list_findings
from benchboard.models import Hardware, Run, Series, Suite, SuiteBranch
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
from benchboard.suites.titles import common_prefix, shared_title, suite_title

# The newest runs a study's page lists; the runs page pages through the rest.
STUDY_RUNS = 50
# Metadata a maintainer may clear with null: lists become empty, texts null.
_LIST_SETTINGS = ("authors", "links")

# SQL text: SQLAlchemy never caches the dialect's INSERT … ON CONFLICT (runs/service.py's
# docstring).
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
    """Every suite with runs, newest first, with its first finding, from the totals
    uploads keep per branch (runs/totals.py): its title is the maintainer's, else what
    its runs' names share; its description the maintainer's, else the newest run's
    `description` tag; series, languages and machines are those of its default branch."""
    by_suite: dict[str, list[SuiteBranch]] = {}
    for row in session.scalars(select(SuiteBranch).order_by(SuiteBranch.branch)):
        by_suite.setdefault(row.suite, []).append(row)
    newest = (
        select(Run.tags["description"].astext.label("description"))
        .where(Run.suite == Suite.name)
        .order_by(Run.started_at.desc())
        .limit(1)
        .lateral("newest")
    )
    suites = session.execute(
        select(Suite, newest.c.description).join(newest, literal_column("true"))
    ).all()
    first_findings = {f.suite: f for f in list_findings(session, first_only=True)}
    items = [
        _suite_out(suite, description, by_suite[suite.name], first_findings.get(suite.name))
        for suite, description in suites
        if suite.name in by_suite
    ]
    return SuiteList(items=sorted(items, key=lambda item: item.last_started_at, reverse=True))


def _suite_out(
    suite: Suite, description: str | None, branches: list[SuiteBranch], finding: FindingOut | None
) -> SuiteOut:
    on_default = next((b for b in branches if b.branch == suite.default_branch), None)
    prefixes = [b.name_prefix for b in branches if b.name_prefix is not None]
    several = any(b.names_differ for b in branches) or len(set(prefixes)) > 1
    derived = shared_title(common_prefix(prefixes), several=several) if prefixes else None
    return SuiteOut(
        suite=suite.name,
        title=suite.title or derived,
        description=suite.description or description,
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
