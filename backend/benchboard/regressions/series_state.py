"""The detection state of series, read as the worker reads them: one series for
GET /series/{id}/detection, many for the Regressions page's empty list."""

import uuid
from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from sqlalchemy import BigInteger, any_, func, or_, select, true, type_coerce
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from benchboard.detection import state
from benchboard.detection.detect import Runs
from benchboard.detection.state import detection_state, too_short_for_a_change
from benchboard.detection.thresholds import SHORT_SEGMENT, sides_needed_text
from benchboard.errors import NotFound
from benchboard.models import DetectionQueue, Hardware, Regression, Series, SeriesGroup
from benchboard.regressions.histories import History, read_histories, since_baseline
from benchboard.regressions.schemas import (
    CheckFailure,
    HistorySupport,
    PossibleStep,
    SeriesDetection,
)
from benchboard.regressions.service import RegressionFilter
from benchboard.series.groups import FEW_RUNS


def _analysed(session: Session, series_ids: Sequence[int]) -> Iterator[tuple[History, Runs]]:
    """Each series the worker checks (on its suite's default branch) with the runs it
    analyses: from the last baseline reset (a change marked expected) on."""
    expected: dict[int, list[str]] = defaultdict(list)
    resets = session.execute(
        select(Regression.series_id, Regression.run_id).where(
            Regression.series_id == any_(type_coerce(list(series_ids), ARRAY(BigInteger))),
            Regression.status == "expected",
        )
    )
    for series_id, run_id in resets:
        expected[series_id].append(str(run_id))
    for history in read_histories(session, series_ids):
        yield history, since_baseline(history, expected[history.series_id])


def history_support(session: Session, regression_filter: RegressionFilter) -> HistorySupport:
    """How many matching series are too short for a change to show (their detection
    state, detection.state). Only series that can be are read: fewer than SHORT_SEGMENT
    runs, or a change stored (the level since it may be short); any other series has a
    level of SHORT_SEGMENT runs or more, which is always ready. Detection runs only on
    series with a stored change: the others' stored changes (none) stand for its finding
    (3,000 6-run series: 4.2-8.2 s with detection at load 14, 0.5-0.6 s without at load 9-11).
    The series groups' kept counts (series/groups.py) spare even that scan when no
    matching series is between FEW_RUNS and SHORT_SEGMENT runs: those with fewer are
    short whatever their runs say, and only series with a stored change are read."""
    kept = (
        None
        if regression_filter.series_id is not None
        else _kept_counts(session, regression_filter)
    )
    matching = (
        select(Series.id)
        .join(Hardware, Hardware.id == Series.hardware_id)
        .where(*regression_filter.series_conditions())
    )
    has_change = (
        select(Regression.id)
        .where(Regression.series_id == Series.id, Regression.retracted_at.is_(None))
        .exists()
    )
    if kept is not None and kept.few == kept.short:
        series, short = kept.series, kept.few
        stored = select(Regression.series_id).where(Regression.retracted_at.is_(None))
        candidates = matching.add_columns(true()).where(
            Series.id.in_(stored), Series.result_count >= FEW_RUNS
        )
    else:
        series = session.scalar(select(func.count()).select_from(matching.subquery())) or 0
        short = 0
        candidates = matching.add_columns(has_change).where(
            or_(Series.result_count < SHORT_SEGMENT, has_change)
        )
    changed = {series_id: stored for series_id, stored in session.execute(candidates)}
    if changed:  # else no statement more
        short += sum(
            too_short_for_a_change(
                runs,
                higher_is_better=history.higher_is_better,
                changed=changed[history.series_id],
            )
            for history, runs in _analysed(session, list(changed))
        )
    return HistorySupport(series=series, short_series=short, text=_support_text(series, short))


class _Kept(NamedTuple):
    series: int
    few: int
    short: int


def _kept_counts(session: Session, regression_filter: RegressionFilter) -> _Kept:
    """The matching series, and those with fewer than FEW_RUNS and SHORT_RUNS results,
    from the series groups."""
    totals = select(
        func.coalesce(func.sum(SeriesGroup.series_count), 0),
        func.coalesce(func.sum(SeriesGroup.few_runs_count), 0),
        func.coalesce(func.sum(SeriesGroup.short_count), 0),
    ).join(Hardware, Hardware.id == SeriesGroup.hardware_id)
    row = session.execute(totals.where(*regression_filter.series_conditions(SeriesGroup))).one()
    return _Kept(*(int(value) for value in row))


def _support_text(series: int, short: int) -> str:
    if not series:
        return "No series match these filters."
    if not short:
        return (
            f"All {series} series matching these filters have enough runs for change "
            "detection; it found no change in them."
        )
    return (
        f"{short} of the {series} series matching these filters "
        f"{'has' if short == 1 else 'have'} too little history for change detection to judge "
        f"yet: fewer runs than a change needs ({sides_needed_text()}, counted from the last "
        "change or baseline reset), or a possible step "
        "with too few runs before or after it. Each series' History page says which."
    )


def get_series_detection(session: Session, series_id: int) -> SeriesDetection:
    """The series' detection state over the history the worker analyses, and whether the
    worker's checks of it fail."""
    series = session.get(Series, series_id)
    if series is None:
        raise NotFound(f"no series {series_id}")
    failure = _check_failure(session, series_id)  # before the histories' stream opens
    for history, runs in _analysed(session, [series_id]):
        current = detection_state(runs, higher_is_better=history.higher_is_better)
        return SeriesDetection(
            series_id=series_id,
            **{
                **vars(current),
                "possible_step": _step_out(current.possible_step),
                "text": _failure_text(failure) + current.text,
            },
            baseline_reset=len(runs) < len(history.keys),
            check_failure=failure,
        )
    # Off its suite's default branch: never checked.
    return SeriesDetection(
        series_id=series_id,
        readiness="not_checked",
        runs_analysed=0,
        runs_at_level=0,
        replicates=False,
        within_run_cv=None,
        run_to_run_cv=None,
        smallest_detectable_change=None,
        runs_needed=0,
        runs_after_change=0,
        possible_step=None,
        baseline_reset=False,
        text=f"Not checked: change detection reads only the suite's default branch, "
        f"and this series is on branch {series.branch!r}.",
    )


def _check_failure(session: Session, series_id: int) -> CheckFailure | None:
    queued = session.get(DetectionQueue, series_id)
    if queued is None or (queued.last_error is None and queued.failed_at is None):
        return None
    return CheckFailure(
        failing=queued.failed_at is not None,
        failed_at=queued.failed_at,
        attempts=queued.attempts,
        error=queued.last_error,
    )


def _failure_text(failure: CheckFailure | None) -> str:
    if failure is None:
        return ""
    if failure.failing:
        return (
            f"Change detection is failing on this series ({failure.error}): it is skipped "
            "until new data comes or a maintainer retries it. Until then: "
        )
    return f"The last check of this series failed ({failure.error}); it is retried. "


def _step_out(step: state.PossibleStep | None) -> PossibleStep | None:
    if step is None:
        return None
    return PossibleStep(
        run_id=uuid.UUID(step.key),
        run_number=step.index + 1,
        relative_change=step.relative_change,
        runs_before=step.runs_before,
        runs_after=step.runs_after,
        more_runs_before=step.more_runs_before,
        more_runs_after=step.more_runs_after,
    )
