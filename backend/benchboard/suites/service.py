"""Suites: their settings (the default branch and study metadata). Branch resolution is
branches.py; the list of studies and a study's page, which compose runs and findings,
are studies/."""

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from benchboard.errors import FieldError, NotFound, ValidationFailed
from benchboard.models import Run, Suite
from benchboard.suites.schemas import (
    BranchOut,
    StudyLink,
    SuiteSettings,
    SuiteUpdate,
)

# Metadata a maintainer may clear with null: lists become empty, texts null.
_LIST_SETTINGS = ("authors", "links")


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
        visibility=row.visibility,
        updated_at=row.updated_at,
    )


def update_suite(
    session: Session, suite: str, update: SuiteUpdate, *, token_id: int | None
) -> SuiteSettings:
    """Set what was sent; a suite without runs yet is created (settings may come first)."""
    sent = update.model_dump(exclude_unset=True)
    if not sent:
        raise ValidationFailed(
            "send at least one setting", [FieldError(path="(body)", message="nothing to change")]
        )
    for name, what in (("default_branch", "a branch name"), ("visibility", "public or private")):
        if sent.get(name, "") is None:
            raise ValidationFailed(
                f"a suite always has a {name}",
                [FieldError(path=name, message=f"must be {what}, not null")],
            )
    for name in _LIST_SETTINGS:
        if name in sent and sent[name] is None:
            sent[name] = []
    sent["token_id"] = token_id
    statement = pg_insert(Suite).values(name=suite, **sent)
    session.execute(
        statement.on_conflict_do_update(
            index_elements=[Suite.name], set_={**sent, "updated_at": func.now()}
        )
    )
    session.flush()
    session.expire_all()
    return get_suite(session, suite)
