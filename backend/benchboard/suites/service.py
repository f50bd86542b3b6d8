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
from benchboard.models import Hardware, Run, Series, Suite
from benchboard.suites.schemas import BranchOut, SuiteList, SuiteOut, SuiteSettings, SuiteUpdate
from benchboard.suites.titles import suite_title

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
    """Every suite, newest first: its title is what its runs' names share (else the newest
    run's name), its description the newest run's `description` tag; series, languages and
    machines are those of its default branch."""
    newest = (
        select(Run.suite, Run.name, Run.tags["description"].astext.label("description"))
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
            newest.c.name,
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
    return SuiteList(
        items=[
            SuiteOut(
                suite=r.suite,
                title=suite_title(r.names, newest=r.name),
                description=r.description,
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
