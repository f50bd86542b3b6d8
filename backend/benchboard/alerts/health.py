"""Triage health: how long changes wait for a maintainer, and the oldest group waiting.

A change's time to triage runs from its detection (`regression.created_at`) to its
first audit event that set a status (a maintainer's: the detector never sets one). The
share within three days counts every change triaged, and every untriaged one older than
three days (it missed the target already); younger untriaged ones are still in time.
"""

from datetime import timedelta

from sqlalchemy import Float, cast, exists, func, select
from sqlalchemy.orm import Session

from benchboard.alerts.schemas import TriageHealth
from benchboard.models import AlertGroup, Regression, RegressionEvent

WITHIN = timedelta(days=3)


def triage_health(session: Session, *, suite: str | None = None) -> TriageHealth:
    first_status = (
        select(func.min(RegressionEvent.at))
        .where(
            RegressionEvent.regression_id == Regression.id,
            RegressionEvent.changes.has_key("status"),
        )
        .scalar_subquery()
    )
    waited = func.extract("epoch", first_status - Regression.created_at)
    age = func.extract("epoch", func.now() - Regression.created_at)
    changes = select(Regression.id).where(Regression.retracted_at.is_(None))
    if suite is not None:
        changes = changes.join(AlertGroup, AlertGroup.id == Regression.group_id).where(
            AlertGroup.suite == suite
        )
    timed = changes.add_columns(waited.label("waited"), age.label("age")).subquery()
    within = WITHIN.total_seconds()
    triaged, median, on_time, judged = session.execute(
        select(
            func.count(timed.c.waited),
            func.percentile_cont(0.5).within_group(timed.c.waited),
            func.count().filter(timed.c.waited <= within),
            func.count().filter((timed.c.waited.is_not(None)) | (timed.c.age > within)),
        )
    ).one()
    waiting = select(AlertGroup.created_at).where(
        exists().where(
            Regression.group_id == AlertGroup.id,
            Regression.retracted_at.is_(None),
            Regression.status == "untriaged",
        )
    )
    if suite is not None:
        waiting = waiting.where(AlertGroup.suite == suite)
    waiting_groups = waiting.subquery()
    groups, oldest = session.execute(
        select(
            func.count(),
            cast(func.extract("epoch", func.now() - func.min(waiting_groups.c.created_at)), Float),
        )
    ).one()
    return TriageHealth(
        triaged_changes=triaged,
        median_time_to_triage_s=median,
        triaged_within_share=on_time / judged if judged else None,
        within_s=within,
        untriaged_groups=groups,
        oldest_untriaged_group_age_s=oldest,
    )
