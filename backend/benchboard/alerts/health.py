"""Triage health: how long changes wait for a maintainer, and the oldest group waiting.

A change's time to triage runs from its detection (`regression.created_at`) to its
first audit event that set a status (a maintainer's: the detector never sets one). The
answer holds no figure of the clock (a public read is cached by data version, see
caching.py): the oldest waiting group is given by when it was created, and /metrics turns
that into an age when scraped.
"""

from datetime import timedelta

from sqlalchemy import exists, func, select
from sqlalchemy.orm import Session

from benchboard.alerts.schemas import TriageHealth
from benchboard.models import AlertGroup, Regression, RegressionEvent

WITHIN = timedelta(days=3)


def triage_health(
    session: Session, *, suite: str | None = None, hidden: frozenset[str] = frozenset()
) -> TriageHealth:
    """Over the suite's groups, or every suite's but the `hidden` ones."""
    first_status = (
        select(func.min(RegressionEvent.at))
        .where(
            RegressionEvent.regression_id == Regression.id,
            RegressionEvent.changes.has_key("status"),
        )
        .scalar_subquery()
    )
    waited = func.extract("epoch", first_status - Regression.created_at)
    changes = select(waited.label("waited")).where(Regression.retracted_at.is_(None))
    if suite is not None:
        changes = changes.join(AlertGroup, AlertGroup.id == Regression.group_id).where(
            AlertGroup.suite == suite
        )
    elif hidden:
        changes = changes.where(
            ~exists().where(
                AlertGroup.id == Regression.group_id, AlertGroup.suite.in_(sorted(hidden))
            )
        )
    timed = changes.subquery()
    within = WITHIN.total_seconds()
    triaged, median, on_time = session.execute(
        select(
            func.count(timed.c.waited),
            func.percentile_cont(0.5).within_group(timed.c.waited),
            func.count().filter(timed.c.waited <= within),
        )
    ).one()
    waiting = select(func.count(), func.min(AlertGroup.created_at)).where(
        exists().where(
            Regression.group_id == AlertGroup.id,
            Regression.retracted_at.is_(None),
            Regression.status == "untriaged",
        )
    )
    if suite is not None:
        waiting = waiting.where(AlertGroup.suite == suite)
    elif hidden:
        waiting = waiting.where(AlertGroup.suite.not_in(sorted(hidden)))
    groups, oldest = session.execute(waiting).one()
    return TriageHealth(
        triaged_changes=triaged,
        median_time_to_triage_s=median,
        triaged_within_share=on_time / triaged if triaged else None,
        within_s=within,
        untriaged_groups=groups,
        oldest_untriaged_group_at=oldest,
    )
