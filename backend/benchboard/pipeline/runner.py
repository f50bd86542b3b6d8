"""Checking a batch of series: read their recent histories in bulk, detect, store.

Called by the detection worker (worker.py) inside the transaction that also removes the
batch from the queue. A batch costs a fixed number of statements whatever its size: one
history read (regressions/histories.py), one read of stored changes, and a few writes
when something changed (changes.py). New changes are stored once; refined or retracted
ones are updated in place (see detect.reconcile_changes), each with the evidence it rests
on. A provisional change (one
run after it) is announced to webhooks only once a later run confirms it. The time of
each phase is returned, so database time and detector time can be tuned apart.
"""

import time
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from benchboard.detection.detect import (
    Reconciliation,
    StoredChange,
    detect_changes,
    reconcile_changes,
)
from benchboard.pipeline.changes import (
    Changes,
    StoredRegression,
    columns_of,
    has_moved,
    stored_regressions,
    write_changes,
)
from benchboard.pipeline.grouping import group_changes
from benchboard.pipeline.notifications import queue_notifications
from benchboard.pipeline.webhooks import queue_deliveries
from benchboard.regressions.histories import History, read_histories, since_baseline


@dataclass
class CheckReport:
    """What one batch did and where its time went."""

    series: int = 0
    new_regressions: list[int] = field(default_factory=list)  # incl. provisional ones
    announced: list[int] = field(default_factory=list)  # new and confirmed, not provisional
    read_s: float = 0.0  # database: histories and stored changes
    build_s: float = 0.0  # rows to the detector's Runs
    detect_s: float = 0.0  # detect_changes + reconcile_changes
    write_s: float = 0.0  # database: storing what changed


def check_series(
    session: Session, series_ids: Sequence[int], *, notify_webhook: bool
) -> CheckReport:
    """Check each series over its recent history and store what changed."""
    report = CheckReport()
    started = time.perf_counter()
    stored = stored_regressions(session, series_ids)
    changes = Changes()
    # Closed on any error: an open stream holds the connection, and the rollback waits.
    with closing(read_histories(session, series_ids)) as histories:
        while (history := next(histories, None)) is not None:
            report.read_s += time.perf_counter() - started  # waiting for the stream
            _check(history, stored[history.series_id], changes, report)
            report.series += 1
            started = time.perf_counter()
    report.read_s += time.perf_counter() - started
    started = time.perf_counter()
    report.new_regressions, report.announced = write_changes(session, changes)
    group_changes(session, report.new_regressions)
    queue_notifications(session, report.announced)
    if notify_webhook and report.announced:
        queue_deliveries(session, report.announced)
    report.write_s = time.perf_counter() - started
    return report


def _check(
    history: History, stored: list[StoredRegression], changes: Changes, report: CheckReport
) -> None:
    started = time.perf_counter()
    observed = since_baseline(history, [s.key for s in stored if s.status == "expected"])
    built = time.perf_counter()
    detected = detect_changes(observed, higher_is_better=history.higher_is_better)
    reconciliation = reconcile_changes(
        observed.keys,
        [
            StoredChange(key=s.key, direction=s.direction, triaged=s.status != "untriaged")  # type: ignore[arg-type]
            for s in stored
        ],
        detected,
    )
    report.build_s += built - started
    report.detect_s += time.perf_counter() - built
    _collect(history.series_id, stored, reconciliation, changes)
    # A change stored on a result now marked an outlier: no longer in the history, so the
    # detector cannot judge it; it goes as a retracted one would (triaged ones stay).
    changes.retracted += [
        s.id
        for s in stored
        if s.key in history.outliers and not s.retracted and s.key not in reconciliation.retracted
    ]


def _collect(
    series_id: int, stored: list[StoredRegression], reconciliation: Reconciliation, changes: Changes
) -> None:
    by_key = {s.key: s for s in stored}
    for key, change in reconciliation.refined.items():
        # The stored change keeps its run and takes the fresh sizes (detect.py).
        was = by_key[key]
        fresh = columns_of(change)
        if fresh != was.columns:
            changes.refined.append({"id": was.id, **fresh, "retracted_at": None})
        elif was.retracted:
            changes.refined.append({"id": was.id, "retracted_at": None})
        if was.retracted:
            changes.restored.append(was.id)
        if was.columns["provisional"] and not change.provisional and was.status == "untriaged":
            changes.confirmed.append(was.id)
    changes.retracted += [by_key[key].id for key in reconciliation.retracted]
    changes.new += [(series_id, change) for change in reconciliation.new]
    for key, found in reconciliation.kept.items():
        was = by_key[key]
        # An expected change's run starts the history analysed (a baseline reset): no
        # fresh pass can see it, by design.
        if was.status == "expected" or was.retracted:
            continue
        now = found.relative_change if found is not None else None
        if has_moved(was.last_seen, now):
            changes.moved.append((was.id, was.last_seen, now))
