"""Triage is never overwritten by a check: not when the maintainer triages while the check
runs (between its read and its write), and not by the upsert of a change found again on
the same run. New data that moves a triaged change leaves a `moved` audit event."""

from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from benchboard.models import Regression, RegressionEvent, Run, Series
from benchboard.pipeline import queue, runner
from benchboard.pipeline.changes import StoredRegression
from benchboard.pipeline.worker import Worker
from benchboard.tokens.service import create_token
from tests.history_builder import NOISY_LEVEL, STEPPED, TEST_WORKER_ID
from tests.pipeline.conftest import Committing

TRIAGE = {"status": "acknowledged", "note": "allocator", "links": ["https://example.org/1"]}


def _history(committing: Committing, values: list[float]) -> tuple[int, list[Any]]:
    """The values as one run a day, committed; the series and its runs, oldest first."""
    for day, value in enumerate(values):
        committing.upload(committing.run_body(day, value, ["raced"]))
    with Session(committing.engine) as session:
        series_id = session.scalars(select(Series.id).where(Series.suite == committing.suite)).one()
        runs = session.scalars(
            select(Run.id).where(Run.suite == committing.suite).order_by(Run.started_at)
        ).all()
    return series_id, list(runs)


def _store_change(committing: Committing, series_id: int, run_id: Any, **columns: Any) -> int:
    """A change as an earlier check stored it, the series queued for a check again."""
    with Session(committing.engine) as session, session.begin():
        started = session.get_one(Run, run_id).started_at
        change = Regression(
            series_id=series_id,
            run_id=run_id,
            started_at=started,
            before_base=100e-6,
            after_base=130e-6,
            confidence=0.999,
            provisional=False,
            links=[],
            **columns,
        )
        session.add(change)
        queue.enqueue_series(session, [series_id])
        session.flush()
        return change.id


def _check(committing: Committing) -> None:
    state = committing.client.app.state  # type: ignore[attr-defined]
    Worker(state.settings, state.session_factory, worker_id=TEST_WORKER_ID).drain()


def _after(committing: Committing, regression_id: int) -> tuple[Regression, list[dict[str, Any]]]:
    with Session(committing.engine) as session:
        change = session.get_one(Regression, regression_id)
        events = session.scalars(
            select(RegressionEvent.changes)
            .where(RegressionEvent.regression_id == regression_id)
            .order_by(RegressionEvent.id)
        ).all()
        session.expunge(change)
    return change, list(events)


def test_a_triage_between_the_checks_read_and_write_is_kept(
    committing: Committing, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A flat history under a stored change: the check retracts it, unless the maintainer
    triaged it meanwhile."""
    series_id, runs = _history(committing, NOISY_LEVEL * 2)
    change_id = _store_change(
        committing, series_id, runs[10], direction="regression", relative_change=0.3
    )
    with Session(committing.engine) as session, session.begin():
        maintainer = create_token(session, name=f"{committing.suite}-maintain", scope="maintain")
    read = runner.stored_regressions

    def read_then_triage(session: Session, series_ids: list[int]) -> Any:
        stored: dict[int, list[StoredRegression]] = read(session, series_ids)
        assert [s.status for s in stored[series_id]] == ["untriaged"]
        answer = committing.client.patch(
            f"/api/v1/regressions/{change_id}",
            json=TRIAGE,
            headers={"Authorization": f"Bearer {maintainer}"},
        )
        assert answer.status_code == 200, answer.text  # committed before the check writes
        return stored

    monkeypatch.setattr(runner, "stored_regressions", read_then_triage)
    _check(committing)
    change, events = _after(committing, change_id)
    assert change.retracted_at is None
    assert (change.status, change.note, change.links) == (
        "acknowledged",
        "allocator",
        ["https://example.org/1"],
    )
    assert events[-1] == {"moved": [0.3, None]}
    shown = committing.client.get(f"/api/v1/regressions/{change_id}")
    assert shown.status_code == 200


def test_a_change_found_again_on_a_triaged_row_keeps_its_triage(committing: Committing) -> None:
    """The detector finds a slowdown on the run of a triaged speed-up: the row stays the
    maintainer's, and says what the new data shows."""
    series_id, runs = _history(committing, STEPPED)
    change_id = _store_change(
        committing,
        series_id,
        runs[10],
        direction="improvement",
        relative_change=-0.2,
        status="wontfix",
        note="kept on purpose",
    )
    _check(committing)
    change, events = _after(committing, change_id)
    assert (change.direction, change.relative_change) == ("improvement", -0.2)
    assert (change.status, change.note) == ("wontfix", "kept on purpose")
    (moved,) = [event["moved"] for event in events if "moved" in event]
    assert moved[0] == -0.2
    assert moved[1] == pytest.approx(0.3, abs=0.02)
    # Checked again with nothing new: the same finding is not reported twice.
    with Session(committing.engine) as session, session.begin():
        queue.enqueue_series(session, [series_id])
    _check(committing)
    assert _after(committing, change_id)[1] == events
