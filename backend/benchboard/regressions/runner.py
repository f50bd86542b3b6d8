"""Checking a batch of series: read their recent histories in bulk, detect, store.

Called by the detection worker (worker.py) inside the transaction that also removes the
batch from the queue. A batch costs a fixed number of statements whatever its size: one
history read, one read of stored changes, and a few writes when something changed. New
changes are stored once; refined or retracted ones are updated in place (see
detect.reconcile_changes), each with the evidence it rests on. A provisional change (one
run after it) is announced to webhooks only once a later run confirms it. The time of
each phase is returned, so database time and detector time can be tuned apart.
"""

import math
import time
from collections import defaultdict
from collections.abc import Generator, Iterable, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import BigInteger, any_, func, select, type_coerce, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from benchboard.bulk import driver_connection
from benchboard.models import Regression, RegressionEvent, Run
from benchboard.regressions.detect import (
    DetectedChange,
    Evidence,
    Reconciliation,
    Runs,
    StoredChange,
    detect_changes,
    reconcile_changes,
)
from benchboard.regressions.webhooks import queue_deliveries
from benchboard.series.recent import in_base_units
from benchboard.stats.noise import run_level

HISTORY_WINDOW = 200
_STREAM_CHUNK = 20  # histories per fetch (chunked mode: libpq >= 17, as psycopg[binary] ships)
DETECTOR = "detector"


@dataclass(frozen=True)
class History:
    """The newest HISTORY_WINDOW results of one series, oldest first, as stored."""

    series_id: int
    higher_is_better: bool
    keys: list[str]  # run ids
    values: list[float]  # value_base
    # By run id, only the few results that carry stats or replicates (the rest need none):
    units: dict[str, str]
    stats: dict[str, dict[str, float]]
    samples: dict[str, list[float]]


def runs_of(history: History) -> Runs:
    """The detector's view of a history: values as read, and the levels of the few
    results with replicates or stats (in base units)."""
    levels = {}
    units = history.units
    if units:  # one pass over the keys: no map of all 200 positions for the ~20 with a level
        for index, key in enumerate(history.keys):
            if key in units:
                samples, stats = in_base_units(
                    units[key], history.samples.get(key), history.stats.get(key)
                )
                levels[index] = run_level(history.values[index], samples, stats)
    return Runs(history.keys, history.values, levels)


def since_baseline(history: History, expected: Sequence[str]) -> Runs:
    """The runs detection analyses: from the newest change a maintainer marked
    `expected` on (a baseline reset), else the whole window."""
    start = 0
    if expected:
        position = {key: index for index, key in enumerate(history.keys)}
        start = max(position.get(key, 0) for key in expected)
    return runs_of(history).since(start)


# Index-only scans of ix_result_series_started_at, newest first; replicates come from
# the partial index of results that have them, over the same span of time. The monthly
# partitions before the series' first run are pruned as the statement runs (no index
# descent into each). Not after its last run too: with both bounds the planner guesses
# a few rows in the range and reads the series' whole history to sort it (Append and
# top-N sort of 2,000 rows, not Merge Append of 201: 2.1 vs 0.8 ms a series at 10M);
# one bound keeps the merge. Units and stats only of the results that have stats:
# building them for every run was a third of the statement's time. Only series on their
# suite's default branch: only it has regressions, so a feature branch's step never
# raises one on the published history.
_HISTORIES = """
SELECT s.id, s.direction, h.keys, h.values_base, h.stats, r.samples
FROM unnest(%(ids)s::bigint[]) AS i(id)
JOIN series AS s ON s.id = i.id
JOIN suite ON suite.name = s.suite AND suite.default_branch = s.branch
CROSS JOIN LATERAL (
    SELECT array_agg(run_id::text ORDER BY started_at DESC, run_id DESC) AS keys,
           array_agg(value_base ORDER BY started_at DESC, run_id DESC) AS values_base,
           (jsonb_object_agg(run_id::text, jsonb_build_array(unit, stats))
               FILTER (WHERE stats IS NOT NULL))::text AS stats,
           min(started_at) AS oldest
    FROM (SELECT run_id, started_at, value_base, unit, stats FROM result
          WHERE series_id = i.id AND started_at >= s.first_started_at
          ORDER BY started_at DESC, run_id DESC LIMIT %(window)s) AS recent
) AS h
LEFT JOIN LATERAL (
    SELECT jsonb_object_agg(run_id::text, jsonb_build_array(unit, samples))::text AS samples
    FROM result
    WHERE series_id = i.id AND samples IS NOT NULL
      AND started_at BETWEEN h.oldest AND s.last_started_at
) AS r ON true
WHERE h.keys IS NOT NULL
"""


def read_histories(session: Session, series_ids: Sequence[int]) -> Generator[History, None, None]:
    """Every series' recent history from one statement, streamed in chunks (binary arrays,
    JSON parsed here): PostgreSQL reads the next histories while the caller checks these.
    Series off their default branch have none."""
    driver = driver_connection(session)
    params = {"ids": list(series_ids), "window": HISTORY_WINDOW}
    with driver.cursor(binary=True) as cursor:
        for row in cursor.stream(_HISTORIES, params, size=_STREAM_CHUNK):
            series_id, direction, keys, values, with_stats, with_samples = row
            keys.reverse()  # newest first from the index; detection wants oldest first
            values.reverse()
            units: dict[str, str] = {}
            stats: dict[str, dict[str, float]] = {}
            samples: dict[str, list[float]] = {}
            for key, (unit, result_stats) in _by_run(with_stats):
                if result_stats:  # JSON null or {}: nothing to add to the value
                    units[key], stats[key] = unit, result_stats
            for key, (unit, result_samples) in _by_run(with_samples):
                units[key], samples[key] = unit, result_samples
            yield History(
                series_id=series_id,
                higher_is_better=direction == "higher",
                keys=keys,
                values=values,
                units=units,
                stats=stats,
                samples=samples,
            )


def _by_run(column: str | None) -> Iterable[tuple[str, tuple[str, Any]]]:
    """A JSON object of [unit, detail] pairs by run id, as read (None: none)."""
    return orjson.loads(column).items() if column else ()


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


@dataclass(frozen=True)
class _Stored:
    id: int
    key: str
    direction: str
    status: str
    retracted: bool
    columns: dict[str, Any]  # what a detection sets (_columns)


@dataclass
class _Changes:
    refined: list[dict[str, Any]] = field(default_factory=list)
    restored: list[int] = field(default_factory=list)  # retracted before, found again
    retracted: list[int] = field(default_factory=list)
    confirmed: list[int] = field(default_factory=list)  # provisional before, not any more
    new: list[tuple[int, DetectedChange]] = field(default_factory=list)


def check_series(
    session: Session, series_ids: Sequence[int], *, notify_webhook: bool
) -> CheckReport:
    """Check each series over its recent history and store what changed."""
    report = CheckReport()
    started = time.perf_counter()
    stored = _stored(session, series_ids)
    changes = _Changes()
    # Closed on any error: an open stream holds the connection, and the rollback waits.
    with closing(read_histories(session, series_ids)) as histories:
        while (history := next(histories, None)) is not None:
            report.read_s += time.perf_counter() - started  # waiting for the stream
            _check(history, stored[history.series_id], changes, report)
            report.series += 1
            started = time.perf_counter()
    report.read_s += time.perf_counter() - started
    started = time.perf_counter()
    report.new_regressions, report.announced = _write(session, changes)
    if notify_webhook and report.announced:
        queue_deliveries(session, report.announced)
    report.write_s = time.perf_counter() - started
    return report


def _stored(session: Session, series_ids: Sequence[int]) -> dict[int, list[_Stored]]:
    detected = [getattr(Regression, column) for column in _DETECTED]
    # The ids as one array parameter: an IN list of a batch's 1,000 bound ids was ~6 % of
    # the worker's time in psycopg's query conversion alone (py-spy).
    rows = session.execute(
        select(
            Regression.id,
            Regression.series_id,
            Regression.run_id,
            Regression.direction,
            Regression.status,
            Regression.retracted_at,
            *detected,
        ).where(Regression.series_id == any_(type_coerce(list(series_ids), ARRAY(BigInteger))))
    )
    stored: dict[int, list[_Stored]] = defaultdict(list)
    for row in rows:
        stored[row.series_id].append(
            _Stored(
                row.id,
                str(row.run_id),
                row.direction,
                row.status,
                row.retracted_at is not None,
                {column: getattr(row, column) for column in _DETECTED},
            )
        )
    return stored


def _check(history: History, stored: list[_Stored], changes: _Changes, report: CheckReport) -> None:
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


def _collect(
    series_id: int, stored: list[_Stored], reconciliation: Reconciliation, changes: _Changes
) -> None:
    by_key = {s.key: s for s in stored}
    for key, change in reconciliation.refined.items():
        # The stored change keeps its run and takes the fresh sizes (detect.py).
        was = by_key[key]
        fresh = _columns(change)
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


_DETECTED = (
    "relative_change",
    "before_base",
    "after_base",
    "confidence",
    "provisional",
    "evidence",
)


def _columns(change: DetectedChange) -> dict[str, Any]:
    """The columns a detection sets on its regression row."""
    return {
        "relative_change": change.relative_change,
        "before_base": change.before,
        "after_base": change.after,
        "confidence": change.confidence,
        "provisional": change.provisional,
        "evidence": evidence_json(change.evidence),
    }


def evidence_json(evidence: Evidence) -> dict[str, Any]:
    """The evidence as stored (JSON: non-finite numbers become null)."""

    def number(value: float | None) -> float | None:
        return value if value is not None and math.isfinite(value) else None

    return {
        "runs_before": evidence.runs_before,
        "runs_after": evidence.runs_after,
        "replicates_used": evidence.replicates_used,
        "test": evidence.test,
        "p_value": number(evidence.p_value),
        "interval_low": number(evidence.interval[0]),
        "interval_high": number(evidence.interval[1]),
        "interval_level": evidence.interval_level,
        "run_to_run_cv": number(evidence.run_to_run_cv),
        "within_run_cv": number(evidence.within_run_cv),
    }


def _write(session: Session, changes: _Changes) -> tuple[list[int], list[int]]:
    """Store the batch's changes; returns the ids of new regressions and of those to
    announce (new or confirmed, not provisional)."""
    events = [_event(rid, {"retracted": [True, False]}) for rid in changes.restored]
    if changes.refined:
        session.execute(update(Regression), changes.refined)
    if changes.retracted:
        retracted = session.scalars(
            update(Regression)
            .where(Regression.id.in_(changes.retracted), Regression.retracted_at.is_(None))
            .values(retracted_at=func.now())
            .returning(Regression.id)
        )
        events += [_event(rid, {"retracted": [False, True]}) for rid in retracted]
    events += [_event(rid, {"provisional": [True, False]}) for rid in changes.confirmed]
    new_ids = _insert_new(session, changes.new) if changes.new else []
    events += [_event(rid, {"detected": detail}) for rid, detail, _ in new_ids]
    if events:
        session.execute(pg_insert(RegressionEvent), events)
    firm = [rid for rid, _, provisional in new_ids if not provisional]
    return [rid for rid, _, _ in new_ids], firm + changes.confirmed


def _insert_new(
    session: Session, new: list[tuple[int, DetectedChange]]
) -> list[tuple[int, dict[str, Any], bool]]:
    started = _started_at(session, [change.key for _, change in new])
    rows: list[dict[str, Any]] = [
        {
            "series_id": series_id,
            "run_id": change.key,
            "started_at": started[change.key],
            "direction": change.direction,
            **_columns(change),
            "retracted_at": None,
            "links": [],
        }
        for series_id, change in new
    ]
    insert = pg_insert(Regression).values(rows)
    # A change found again on the run of a retracted one of the other direction: the
    # stored row takes the new finding (one row per series and run).
    statement = insert.on_conflict_do_update(
        constraint="uq_regression_series_id_run_id",
        set_={
            column: insert.excluded[column] for column in ("direction", *_DETECTED, "retracted_at")
        },
    ).returning(
        Regression.id, Regression.relative_change, Regression.confidence, Regression.provisional
    )
    return [
        (
            row.id,
            {
                "relative_change": row.relative_change,
                "confidence": row.confidence,
                "provisional": row.provisional,
            },
            row.provisional,
        )
        for row in session.execute(statement)
    ]


def _started_at(session: Session, keys: list[str]) -> dict[str, datetime]:
    rows = session.execute(select(Run.id, Run.started_at).where(Run.id.in_(keys)))
    return {str(run_id): started_at for run_id, started_at in rows}


def _event(regression_id: int, changes: dict[str, Any]) -> dict[str, Any]:
    return {"regression_id": regression_id, "actor": DETECTOR, "changes": changes}
