"""Alert groups: listing with their summaries, one-step triage, moving a change apart."""

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, exists, func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from benchboard.alerts.schemas import (
    AlertGroupDetail,
    AlertGroupMove,
    AlertGroupOut,
    AlertGroupPage,
)
from benchboard.errors import FieldError, NotFound, ValidationFailed
from benchboard.models import AlertGroup, Hardware, Regression, RegressionEvent, Run, Series
from benchboard.pagination import Keyset, keyset_page
from benchboard.regressions.schemas import EventChanges, RegressionOut, RegressionTriage
from benchboard.regressions.service import apply_triage, get_regression, regressions_by_id
from benchboard.tokens.service import Principal
from benchboard.tokens.visibility import Viewer, viewer_of
from benchboard.vocabulary import ALERT_CAUSES, AlertCause, TriageStatus

NEWEST_FIRST = Keyset((AlertGroup.created_at, AlertGroup.id), descending=True)
# A group's changes, largest regression first, then largest improvement.
WORST_FIRST = (
    (Regression.direction == "regression").desc(),
    func.abs(Regression.relative_change).desc(),
    Regression.id,
)


@dataclass(frozen=True)
class GroupFilter:
    """Groups of a suite, or with a change of a status, on a branch or on a machine."""

    suite: str | None = None
    status: TriageStatus | None = None
    branch: str | None = None
    machine: str | None = None
    hidden: frozenset[str] = frozenset()  # private suites the reader may not see

    def conditions(self) -> list[ColumnElement[bool]]:
        member = select(Regression.id).where(_visible_member())
        if self.status is not None:
            member = member.where(Regression.status == self.status)
        if self.branch is not None or self.machine is not None:
            member = member.join(Series, Series.id == Regression.series_id)
        if self.branch is not None:
            member = member.where(Series.branch == self.branch)
        if self.machine is not None:
            member = member.join(Hardware, Hardware.id == Series.hardware_id).where(
                Hardware.name == self.machine
            )
        conditions: list[ColumnElement[bool]] = [exists(member)]
        if self.suite is not None:
            conditions.append(AlertGroup.suite == self.suite)
        if self.hidden:
            conditions.append(AlertGroup.suite.not_in(sorted(self.hidden)))
        return conditions


def _visible_member() -> ColumnElement[bool]:
    return (Regression.group_id == AlertGroup.id) & Regression.retracted_at.is_(None)


def list_groups(
    session: Session, group_filter: GroupFilter, *, limit: int, cursor: str | None
) -> AlertGroupPage:
    query: Select[Any] = select(AlertGroup).where(*group_filter.conditions())
    page = keyset_page(session, query, NEWEST_FIRST, limit=limit, cursor=cursor)
    groups = [row.AlertGroup for row in page.rows]
    return AlertGroupPage(items=summaries(session, groups), next_cursor=page.next_cursor)


def summaries(session: Session, groups: list[AlertGroup]) -> list[AlertGroupOut]:
    """Each group's counts, machines, branches and worst change: four statements."""
    ids = [group.id for group in groups]
    visible = (Regression.group_id.in_(ids), Regression.retracted_at.is_(None))
    by_direction: dict[int, dict[str, int]] = defaultdict(dict)
    by_status: dict[int, dict[str, int]] = defaultdict(dict)
    newest: dict[int, datetime] = {}
    counts = session.execute(
        select(
            Regression.group_id,
            Regression.direction,
            Regression.status,
            func.count(),
            func.max(Regression.started_at),
        )
        .where(*visible)
        .group_by(Regression.group_id, Regression.direction, Regression.status)
    )
    for group_id, direction, status, count, started_at in counts:
        by_direction[group_id][direction] = by_direction[group_id].get(direction, 0) + count
        by_status[group_id][status] = count + by_status[group_id].get(status, 0)
        newest[group_id] = max(started_at, newest.get(group_id, started_at))
    machines: dict[int, set[str]] = defaultdict(set)
    branches: dict[int, set[str]] = defaultdict(set)
    places = session.execute(
        select(Regression.group_id, Hardware.name, Series.branch)
        .distinct()
        .join(Series, Series.id == Regression.series_id)
        .join(Hardware, Hardware.id == Series.hardware_id)
        .where(*visible)
    )
    for group_id, machine, branch in places:
        machines[group_id].add(machine)
        branches[group_id].add(branch)
    worst_ids = session.scalars(
        select(Regression.id)
        .distinct(Regression.group_id)
        .where(*visible)
        .order_by(Regression.group_id, *WORST_FIRST)
    ).all()
    worst = {r.group_id: r for r in regressions_by_id(session, list(worst_ids))}
    return [
        AlertGroupOut(
            id=group.id,
            suite=group.suite,
            cause=cause_of(group),
            commit=group.commit,
            created_at=group.created_at,
            started_at=newest[group.id],
            changes=sum(by_direction[group.id].values()),
            by_direction=by_direction[group.id],
            by_status=by_status[group.id],
            machines=sorted(machines[group.id]),
            branches=sorted(branches[group.id]),
            worst=worst[group.id],
        )
        for group in groups
        if group.id in worst
    ]


def cause_of(group: AlertGroup) -> AlertCause:
    kind = group.cause.split(":", 1)[0]
    assert kind in ALERT_CAUSES, group.cause
    return kind


def get_group(session: Session, viewer: Viewer, group_id: int) -> AlertGroupDetail:
    group = session.get(AlertGroup, group_id)
    if group is not None:
        viewer.require(group.suite, f"alert group {group_id}")
    found = summaries(session, [group]) if group is not None else []
    if not found:
        raise NotFound(f"no alert group {group_id}")
    member_ids = session.scalars(
        select(Regression.id)
        .where(Regression.group_id == group_id, Regression.retracted_at.is_(None))
        .order_by(*WORST_FIRST)
    ).all()
    members = regressions_by_id(session, list(member_ids))
    return AlertGroupDetail(**found[0].model_dump(), members=members)


def triage_group(
    session: Session, group_id: int, triage: RegressionTriage, *, actor: Principal
) -> AlertGroupDetail:
    """Apply the triage to every untriaged change of the group, each with its audit event;
    changes already triaged keep theirs."""
    group = get_group(session, viewer_of(session, actor, None), group_id)
    actor.require_suite(group.suite)
    untriaged = session.scalars(
        select(Regression)
        .where(
            Regression.group_id == group_id,
            Regression.retracted_at.is_(None),
            Regression.status == "untriaged",
        )
        .order_by(Regression.id)  # the detector locks in this order too
        .with_for_update()
    ).all()
    apply_triage(session, list(untriaged), triage, actor=actor)
    return get_group(session, viewer_of(session, actor, None), group_id)


def move_change(
    session: Session, regression_id: int, move: AlertGroupMove, *, actor: Principal
) -> RegressionOut:
    """Move a change to another group of its suite, or (group_id null) to its own."""
    regression = session.get(Regression, regression_id, with_for_update=True)
    if regression is None or regression.retracted_at is not None:
        raise NotFound(f"no regression {regression_id}")
    suite = session.scalars(select(Run.suite).where(Run.id == regression.run_id)).one()
    actor.require_suite(suite)
    if move.group_id is None:
        # Set apart once before and brought back: its own group is there to reuse.
        apart = pg_insert(AlertGroup).values(suite=suite, cause=f"apart:{regression_id}")
        target_id = session.scalars(
            apart.on_conflict_do_update(
                constraint="uq_alert_group_suite_cause", set_={"cause": apart.excluded.cause}
            ).returning(AlertGroup.id)
        ).one()
    else:
        target = session.get(AlertGroup, move.group_id)
        if target is None or target.suite != suite:
            raise ValidationFailed(
                f"no alert group {move.group_id} in suite {suite}",
                [FieldError(path="group_id", message="must be a group of the change's suite")],
            )
        target_id = target.id
    if target_id != regression.group_id:
        event = EventChanges.model_validate({"group": [regression.group_id, target_id]})
        session.add(
            RegressionEvent(
                regression_id=regression_id,
                actor=actor.name,
                token_id=actor.token_id,
                changes=event.model_dump(mode="json", exclude_unset=True),
            )
        )
        regression.group_id = target_id
        session.flush()
    return get_regression(session, regression_id)
