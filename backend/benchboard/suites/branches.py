"""The branch a run counts on, and which rows are on their suite's default branch.

The default branch is resolved once, when a run is written (see resolve_branch): a run
without `git.branch` counts on the branch that is the default at that moment, and stays
there if a maintainer later names another default. A leaf: runs, series, compare and
regressions all ask it, and it asks nothing of them.
"""

from typing import Any

from sqlalchemy import ColumnElement, select, text, tuple_
from sqlalchemy.orm import Session

from benchboard.errors import NotFound
from benchboard.models import Suite

# SQL text: SQLAlchemy never caches the dialect's INSERT … ON CONFLICT (runs/store.py's
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
