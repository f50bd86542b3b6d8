"""Alert groups: the worker puts each new change in the group of its cause.

A cause is the git commit of the run the change was found at, within its suite: the same
commit measured on every machine and branch view lands in one group, so a commit that
slows 200 benchmarks is one thing to triage and one message to send. A run without a
commit is its own cause. Two statements per batch, whatever its size; the unique
(suite, cause) key makes concurrent workers agree on one group.
"""

from sqlalchemy import BigInteger, Text, any_, cast, func, literal, select, type_coerce, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from benchboard.models import AlertGroup, Regression, Run


def group_changes(session: Session, regression_ids: list[int]) -> None:
    """Place the new changes (those not in a group yet) in their cause's group."""
    if not regression_ids:
        return
    ids = any_(type_coerce(sorted(regression_ids), ARRAY(BigInteger)))
    commit = Run.git["commit"].astext
    cause = func.coalesce(literal("commit:") + commit, literal("run:") + cast(Run.id, Text))
    causes = (
        select(Run.suite, cause.label("cause"), commit.label("commit"))
        .distinct()
        .join(Regression, Regression.run_id == Run.id)
        .where(Regression.id == ids, Regression.group_id.is_(None))
        .order_by(Run.suite, cause)  # one lock order for concurrent workers
    )
    session.execute(
        pg_insert(AlertGroup)
        .from_select(["suite", "cause", "commit"], causes)
        .on_conflict_do_nothing(constraint="uq_alert_group_suite_cause")
    )
    session.execute(
        update(Regression)
        .where(
            Regression.id == ids,
            Regression.group_id.is_(None),
            Run.id == Regression.run_id,
            AlertGroup.suite == Run.suite,
            AlertGroup.cause == cause,
        )
        .values(group_id=AlertGroup.id)
    )
