"""What a detected change's page draws: the series' runs around it, the spread of each side,
the commit range and the run to compare with. Results a maintainer marked outliers are
drawn (hollow) but left out of the spreads, as detection leaves them out (read_curation)."""

from collections.abc import Collection, Sequence
from typing import Any

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from benchboard.errors import NotFound
from benchboard.models import Regression, Result, Run
from benchboard.regressions.schemas import ContextPoint, LevelSpread, RegressionContext
from benchboard.series.recent import read_curation


def _point(row: Any) -> ContextPoint:
    # Replicates are stored in the result's unit; the chart draws base units, as history does.
    to_base = row.value_base / row.value if row.value else 0.0
    return ContextPoint(
        run_id=row.run_id,
        started_at=row.started_at,
        value_base=row.value_base,
        samples_base=[s * to_base for s in row.samples] if row.samples else None,
        commit=(row.git or {}).get("commit"),
    )


def level_spread(points: Sequence[ContextPoint], outliers: Collection[str]) -> LevelSpread | None:
    """Five-number summary of the points' run levels, less the outliers' (run ids);
    quartiles interpolate linearly (numpy's default)."""
    levels = [p.value_base for p in points if str(p.run_id) not in outliers]
    if not levels:
        return None
    low, q1, median, q3, high = np.percentile(levels, [0, 25, 50, 75, 100])
    return LevelSpread(count=len(levels), min=low, q1=q1, median=median, q3=q3, max=high)


def regression_context(session: Session, regression_id: int, *, window: int) -> RegressionContext:
    """Up to `window` runs of the series before the change and `window` from it on (the run
    it was found at first)."""
    regression = session.get(Regression, regression_id)
    if regression is None or regression.retracted_at is not None:
        raise NotFound(f"no regression {regression_id}")
    runs = (
        select(
            Result.run_id,
            Result.started_at,
            Result.value,
            Result.value_base,
            Result.samples,
            Run.git,
        )
        .join(Run, Run.id == Result.run_id)
        .where(Result.series_id == regression.series_id)
    )
    changed_at = regression.started_at
    before = session.execute(
        runs.where(Result.started_at < changed_at)
        .order_by(Result.started_at.desc(), Result.run_id.desc())
        .limit(window)
    ).all()[::-1]
    after = session.execute(
        runs.where(Result.started_at >= changed_at)
        .order_by(Result.started_at, Result.run_id)
        .limit(window)
    ).all()
    before_points = [_point(row) for row in before]
    after_points = [_point(row) for row in after]
    previous = before_points[-1] if before_points else None
    changed = next((p for p in after_points if p.run_id == regression.run_id), None)
    outliers = read_curation(session, [regression.series_id]).outliers.get(
        regression.series_id, set()
    )
    return RegressionContext(
        before=before_points,
        after=after_points,
        before_spread=level_spread(before_points, outliers),
        after_spread=level_spread(after_points, outliers),
        previous_run_id=previous.run_id if previous else None,
        commit_before=previous.commit if previous else None,
        commit_after=changed.commit if changed else None,
    )
