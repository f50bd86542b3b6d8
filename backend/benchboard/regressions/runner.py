"""Detection after an upload: each touched series is re-checked over its recent history.

Runs after the upload has committed (a background task), with its own transaction, so
a slow or failing detection never touches the upload. New changes are stored once;
refined or retracted ones are updated in place (see detect.reconcile_changes).
"""

import logging
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from fastapi import BackgroundTasks, Request
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from benchboard.config import Settings
from benchboard.models import Regression, RegressionEvent, Series
from benchboard.regressions.detect import (
    DetectedChange,
    StoredChange,
    detect_changes,
    reconcile_changes,
)
from benchboard.series.recent import as_observation, recent_results
from benchboard.suites.service import on_default_branch

logger = logging.getLogger(__name__)

HISTORY_WINDOW = 200
CHUNK = 500
DETECTOR = "detector"


def detect_for_series(session: Session, series_ids: Sequence[int]) -> list[int]:
    """Check each series and store what changed; returns the ids of new regressions.

    Series off their suite's default branch are skipped: only the default branch has
    regressions, so a feature branch's step never raises one on the published history.
    """
    new_ids: list[int] = []
    for start in range(0, len(series_ids), CHUNK):
        rows = session.execute(
            select(Series.id, Series.direction).where(
                Series.id.in_(series_ids[start : start + CHUNK]),
                on_default_branch(Series.suite, Series.branch),
            )
        )
        directions = {series_id: direction for series_id, direction in rows}
        chunk = list(directions)
        histories = recent_results(session, chunk, window=HISTORY_WINDOW)
        stored = _stored(session, chunk)
        for series_id, history in histories.items():
            new_ids += _check_series(
                session,
                series_id,
                history,
                stored[series_id],
                higher_is_better=directions[series_id] == "higher",
            )
    session.flush()
    return new_ids


def _stored(session: Session, series_ids: list[int]) -> dict[int, list[Regression]]:
    stored: dict[int, list[Regression]] = defaultdict(list)
    for regression in session.scalars(
        select(Regression).where(Regression.series_id.in_(series_ids))
    ):
        stored[regression.series_id].append(regression)
    return stored


def _check_series(
    session: Session,
    series_id: int,
    history: list[Any],
    stored: list[Regression],
    *,
    higher_is_better: bool,
) -> list[int]:
    # A maintainer's `expected` resets the baseline: only data from that change on counts.
    keys = [str(row.run_id) for row in history]
    expected = [
        keys.index(str(r.run_id))
        for r in stored
        if r.status == "expected" and str(r.run_id) in keys
    ]
    history = history[max(expected, default=0) :]
    observations = [as_observation(row) for row in history]
    detected = detect_changes(observations, higher_is_better=higher_is_better)
    by_key = {str(r.run_id): r for r in stored}
    reconciliation = reconcile_changes(
        [o.key for o in observations],
        [
            StoredChange(
                key=k,
                direction=r.direction,  # type: ignore[arg-type]
                triaged=r.status != "untriaged",
            )
            for k, r in by_key.items()
        ],
        detected,
    )
    started = {str(row.run_id): row.started_at for row in history}
    for key, change in reconciliation.refined.items():
        _refine(by_key[key], change, started[change.key])
    for key in reconciliation.retracted:
        if by_key[key].retracted_at is None:
            by_key[key].retracted_at = datetime.now(UTC)
            session.add(
                RegressionEvent(
                    regression_id=by_key[key].id,
                    actor=DETECTOR,
                    changes={"retracted": [False, True]},
                )
            )
    return [
        _store_new(session, series_id, change, started[change.key]) for change in reconciliation.new
    ]


def _refine(regression: Regression, change: DetectedChange, started_at: datetime) -> None:
    regression.run_id = change.key  # type: ignore[assignment]
    regression.started_at = started_at
    regression.relative_change = change.relative_change
    regression.before_base, regression.after_base = change.before, change.after
    regression.confidence = change.confidence
    regression.retracted_at = None


def _store_new(
    session: Session, series_id: int, change: DetectedChange, started_at: datetime
) -> int:
    regression = Regression(
        series_id=series_id,
        run_id=change.key,
        started_at=started_at,
        direction=change.direction,
        relative_change=change.relative_change,
        before_base=change.before,
        after_base=change.after,
        confidence=change.confidence,
        status="untriaged",
        links=[],
    )
    session.add(regression)
    session.flush()
    session.add(
        RegressionEvent(
            regression_id=regression.id,
            actor=DETECTOR,
            changes={
                "detected": {
                    "relative_change": change.relative_change,
                    "confidence": change.confidence,
                }
            },
        )
    )
    return regression.id


def schedule_detection(
    background: BackgroundTasks, request: Request, series_ids: list[int]
) -> None:
    """Check the series after the response, in the web process (see detect_after_upload)."""
    settings: Settings = request.app.state.settings
    background.add_task(
        detect_after_upload, request.app.state.session_factory, series_ids, settings.webhook_url
    )


def detect_after_upload(
    session_factory: sessionmaker[Session], series_ids: list[int], webhook_url: str | None
) -> None:
    """The background task: detect in its own transaction, then notify."""
    from benchboard.regressions.notify import notify_new_regressions

    try:
        with session_factory() as session, session.begin():
            new_ids = detect_for_series(session, series_ids)
    except Exception:
        logger.exception("change detection failed for %d series", len(series_ids))
        return
    if new_ids and webhook_url:
        notify_new_regressions(session_factory, new_ids, webhook_url)
