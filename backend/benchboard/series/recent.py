"""The recent results of series, as change detection and baseline verdicts read them."""

from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import literal_column, select
from sqlalchemy.orm import Session

from benchboard.detection.detect import Observation
from benchboard.models import Result
from benchboard.series.service import series_id_table
from benchboard_ingest.vocabulary import unit_info


def recent_results(
    session: Session, series_ids: list[int], *, window: int, until: datetime | None = None
) -> dict[int, list[Any]]:
    """The newest `window` results of each series (up to `until`), oldest first.

    One LATERAL index scan per series (LIMIT on the series' own index), so the cost
    follows the window, not the length of the whole history.
    """
    ids = series_id_table(series_ids)
    recent = select(
        Result.run_id,
        Result.started_at,
        Result.value_base,
        Result.unit,
        Result.samples,
        Result.stats,
    ).where(Result.series_id == ids.c.id)
    if until is not None:
        recent = recent.where(Result.started_at <= until)
    # Ties in time broken by run id, as detection's reader breaks them (regressions/
    # histories.py): a verdict and a detected change see the same runs in the same order.
    lateral = (
        recent.order_by(Result.started_at.desc(), Result.run_id.desc())
        .limit(window)
        .lateral("recent")
    )
    rows = session.execute(
        select(ids.c.id.label("series_id"), *lateral.c).join(lateral, literal_column("true"))
    )
    histories: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        histories[row.series_id].append(row)
    for history in histories.values():
        history.reverse()  # newest first from the index; readers want oldest first
    return histories


def as_observation(row: Any) -> Observation:
    """A result row (run_id, value_base, unit, samples, stats) as detection reads it."""
    samples, stats = in_base_units(row.unit, row.samples, row.stats)
    return Observation(key=str(row.run_id), value=row.value_base, samples=samples, stats=stats)


def in_base_units(
    unit: str, samples: Sequence[float] | None, stats: Mapping[str, float] | None
) -> tuple[tuple[float, ...], dict[str, float] | None]:
    """A stored result's samples and stats in base units, as its value_base (``n`` is a
    count): the one conversion detection, baseline verdicts and compare runs read."""
    factor = unit_info(unit).factor
    scaled = {k: v * factor if k != "n" else v for k, v in stats.items()} if stats else None
    return tuple(sample * factor for sample in samples or ()), scaled
