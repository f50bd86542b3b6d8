"""The detection state of one series, read as the worker reads it (GET /series/{id}/detection)."""

from sqlalchemy import select
from sqlalchemy.orm import Session

from benchboard.errors import NotFound
from benchboard.models import Regression, Series
from benchboard.regressions.runner import read_histories, since_baseline
from benchboard.regressions.schemas import SeriesDetection
from benchboard.regressions.state import detection_state


def get_series_detection(session: Session, series_id: int) -> SeriesDetection:
    """The series' detection state over the history the worker analyses."""
    series = session.get(Series, series_id)
    if series is None:
        raise NotFound(f"no series {series_id}")
    histories = list(read_histories(session, [series_id]))
    expected = session.scalars(
        select(Regression.run_id).where(
            Regression.series_id == series_id, Regression.status == "expected"
        )
    )
    if not histories:  # off its suite's default branch: never checked
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
            baseline_reset=False,
            text=f"Not checked: change detection reads only the suite's default branch, "
            f"and this series is on branch {series.branch!r}.",
        )
    observed = since_baseline(histories[0], [str(run_id) for run_id in expected])
    state = detection_state(observed, higher_is_better=series.direction == "higher")
    return SeriesDetection(
        series_id=series_id,
        **vars(state),
        baseline_reset=len(observed) < len(histories[0].keys),
    )
