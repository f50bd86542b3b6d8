"""The recent results of series, as change detection and baseline verdicts read them,
and the one rule both follow for a maintainer's curation: a result marked an outlier is
left out of what they read, and a baseline reset starts it (baseline_start)."""

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, any_, literal_column, select, type_coerce
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from benchboard.detection.detect import Observation
from benchboard.models import Result, SeriesCuration
from benchboard.series.service import series_id_table
from benchboard_ingest.vocabulary import unit_info


@dataclass(frozen=True)
class Recent:
    """A series' recent results, oldest first (result rows), as verdicts read them."""

    rows: list[Any]
    # The run a maintainer reset the series' baseline at, when the rows start there.
    reset_at: str | None = None


def recent_results(
    session: Session, series_ids: list[int], *, window: int, until: datetime | None = None
) -> dict[int, Recent]:
    """The newest `window` results of each series (up to `until`), oldest first, curated
    as detection's window is (read_curation): less those a maintainer marked outliers, and
    from the series' baseline reset on (baseline_start).

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
    curation = read_curation(session, series_ids)
    histories: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        if str(row.run_id) not in curation.outliers.get(row.series_id, ()):
            histories[row.series_id].append(row)
    found = {}
    for series_id, history in histories.items():
        history.reverse()  # newest first from the index; readers want oldest first
        keys = [str(row.run_id) for row in history]
        resets = curation.resets.get(series_id, [])
        start = baseline_start(keys, resets)
        found[series_id] = Recent(history[start:], keys[start] if keys[start] in resets else None)
    return found


def baseline_start(keys: Sequence[str], starts: Iterable[str]) -> int:
    """Where a series' history is read from, by detection and verdicts alike: the newest
    of `starts` (runs its baseline was reset at) among `keys` (run ids, oldest first). A
    start not among them (older than the window read, or after it) moves nothing. Most
    series have no start: then nothing is built (a map of every key cost ~2 % of a
    100,000-series check)."""
    wanted = set(starts)
    if not wanted:
        return 0
    return max((index for index, key in enumerate(keys) if key in wanted), default=0)


@dataclass(frozen=True)
class Curation:
    """Series' active curation marks (series_curation), by series id, as run ids."""

    outliers: dict[int, set[str]]
    resets: dict[int, list[str]]


def read_curation(session: Session, series_ids: Sequence[int]) -> Curation:
    """The active outlier marks and baseline resets of these series: one statement, on a
    table of a few rows per curated series. Detection (regressions/histories.py) and
    baseline verdicts (recent_results) both leave the outliers out and start at the
    newest reset (baseline_start)."""
    curation = Curation(outliers=defaultdict(set), resets=defaultdict(list))
    rows = session.execute(
        select(SeriesCuration.series_id, SeriesCuration.run_id, SeriesCuration.kind).where(
            SeriesCuration.series_id == any_(type_coerce(list(series_ids), ARRAY(BigInteger))),
            SeriesCuration.removed_at.is_(None),
        )
    )
    for series_id, run_id, kind in rows:
        if kind == "outlier":
            curation.outliers[series_id].add(str(run_id))
        else:
            curation.resets[series_id].append(str(run_id))
    return curation


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
