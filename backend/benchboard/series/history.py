"""One series' values in time order, downsampled in SQL when there are too many.

PostgreSQL writes the points' JSON itself (string_agg; json_agg of buckets): building
2,000 point objects in Python cost ~15 ms a request against ~1 ms for the index-only
scan. The document is still the SeriesHistory schema; the tests validate responses
against that model. A long series' whole history is written ahead by the workers
(snapshots.py) and served from there while no result of the series has changed.
"""

from dataclasses import dataclass
from datetime import datetime

import zstandard
from sqlalchemy import ScalarSelect, TextClause, func, null, select, text
from sqlalchemy.orm import Session

from benchboard import exact_json
from benchboard.errors import NotFound
from benchboard.models import HistorySnapshot, Result, Series
from benchboard.series.schemas import SeriesIdentity
from benchboard.series.service import series_identity, series_with_hardware
from benchboard_ingest.vocabulary import unit_info


@dataclass(frozen=True)
class SeriesSpan:
    """A series' identity and what its row keeps of its results (runs/totals.py)."""

    identity: SeriesIdentity
    result_count: int
    first_started_at: datetime | None
    last_started_at: datetime | None
    history_version: int
    # The points of a current snapshot, compressed, where one was asked for and is kept.
    snapshot: bytes | None


def get_series_history_json(
    session: Session,
    series_id: int,
    *,
    since: datetime | None,
    until: datetime | None,
    max_points: int,
) -> bytes:
    """A SeriesHistory document as JSON bytes."""
    whole = since is None and until is None
    span = get_series_span(session, series_id, snapshot_of=max_points if whole else None)
    total = span.result_count
    if not whole:
        total = session.scalar(_COUNT, _in_range(span, since=since, until=until)) or 0
    if span.snapshot is not None:
        points_json = zstandard.decompress(span.snapshot)
    else:
        points_json = write_points_json(
            session, span, since=since, until=until, total=total, max_points=max_points
        )
    head = exact_json.dumps(
        {
            "series": span.identity.model_dump(mode="json"),
            "downsampled": total > max_points,
            "total_points": total,
        }
    )
    return head[:-1] + b',"points":' + points_json + b"}"


def get_series_span(session: Session, series_id: int, *, snapshot_of: int | None) -> SeriesSpan:
    """The series' identity and totals, with its current snapshot of `snapshot_of`
    points when one is kept: one statement, which also sets this transaction's plans to
    generic (_GENERIC_PLANS)."""
    snapshot = null() if snapshot_of is None else _current_snapshot(snapshot_of)
    query = (
        series_with_hardware()
        .add_columns(_GENERIC_PLANS, snapshot.label("snapshot"))
        .where(Series.id == series_id)
    )
    row = session.execute(query).one_or_none()
    if row is None:
        raise NotFound(f"no series {series_id}")
    series: Series = row.Series
    return SeriesSpan(
        series_identity(series, row.hardware_name),
        series.result_count,
        series.first_started_at,
        series.last_started_at,
        series.history_version,
        row.snapshot,
    )


def _current_snapshot(max_points: int) -> ScalarSelect[bytes]:
    return (
        select(HistorySnapshot.points_zstd)
        .where(
            HistorySnapshot.series_id == Series.id,
            HistorySnapshot.max_points == max_points,
            HistorySnapshot.version == Series.history_version,
        )
        .scalar_subquery()
    )


def write_points_json(
    session: Session,
    span: SeriesSpan,
    *,
    since: datetime | None,
    until: datetime | None,
    total: int,
    max_points: int,
) -> bytes:
    """The points' JSON array of the window (the whole series without bounds), written
    by PostgreSQL: each point as stored, or `max_points` time buckets above that."""
    in_range = _in_range(span, since=since, until=until)
    if total > max_points:
        unit = span.identity.unit
        buckets = {
            "buckets": max_points,
            "factor": unit_info(unit).factor,
            "unit_json": exact_json.dumps(unit).decode(),
        }
        whole = since is None and until is None
        statement = _BUCKETS_OF_SERIES if whole else _BUCKETS_OF_WINDOW
        points_json = session.scalar(statement, {**in_range, **buckets})
    else:
        points_json = session.scalar(_POINTS, in_range)
    return (points_json or "[]").encode()


def _in_range(
    span: SeriesSpan, *, since: datetime | None, until: datetime | None
) -> dict[str, object]:
    return {
        "series_id": span.identity.id,
        "since": since,
        "until": until,
        "first": span.first_started_at,
        "last": span.last_started_at,
    }


# One plan per connection, pruned to the series' months when it runs: planning the monthly
# partitions of `result` anew for every history cost more than reading it. SET LOCAL as a
# function (set_config's is_local), evaluated with the series' lookup before the points
# query is planned: one round trip fewer than a statement of its own.
_GENERIC_PLANS = func.set_config("plan_cache_mode", "force_generic_plan", True)

# The series' results from `since` to `until`, within its own first and last run: the
# planner reads only those months' partitions of `result` (partitions.py). greatest() and
# least() skip a NULL bound; a series without results (first and last NULL) has none.
_IN_RANGE = text(
    "result.series_id = :series_id"
    " AND result.started_at >= greatest(CAST(:first AS timestamptz), CAST(:since AS timestamptz))"
    " AND result.started_at <= least(CAST(:last AS timestamptz), CAST(:until AS timestamptz))"
)
_COUNT = select(func.count()).select_from(Result).where(_IN_RANGE)

# Every point as stored, served by the covering index alone, in time order. SQL text,
# compiled once (runs/service.py's docstring): built from SQLAlchemy's constructs on each
# request, a 2,000-point history took 1.2 ms more (8.6 vs 7.4 ms p50 in process). A point
# of one run has no min_base/max_base (optional in HistoryPoint): two keys fewer for
# PostgreSQL to write and 12 % fewer bytes in a 2,000-point answer.
#
# Each point's object is joined from its columns' text, not written by json_agg of the
# rows: 5.05 vs 6.24 ms p50 for 2,000 points (the statements alone, interleaved). The text
# of each part is JSON: a uuid; the numbers' (uploads refuse NaN and infinities, and
# float8's shortest text is what json_agg writes); to_json() quotes the time and the unit;
# stats is jsonb's own text. (In text(), "\:" is a colon, not a bind parameter.)
_POINT_OBJECT = """'{"run_id":"' || run_id::text || '","started_at":' || to_json(started_at)::text
    || ',"value":' || value::text || ',"unit":' || to_json(unit)::text
    || ',"value_base":' || value_base::text || ',"stats":' || coalesce(stats::text, 'null')
    || ',"count"\\:1}'"""
_POINTS = text(
    f"SELECT '[' || string_agg({_POINT_OBJECT}, ',' ORDER BY started_at, run_id) || ']'"  # noqa: S608
    f" FROM result WHERE {_IN_RANGE.text}"
)


# Equal-width time buckets over the window's first and last point, each with its
# mean, extremes and newest run, so a 100,000-point history draws as `buckets` points
# with its spread as a band. Like the points, SQL text compiled once and joined from the
# columns' text: built from SQLAlchemy's constructs and written by json_agg of the rows,
# the statement cost ~2 ms more. min/max of the column itself: each is one probe at an
# end of the index (of epoch they read all the series' index entries). Times as float8
# seconds (date_part), not extract's numeric: 2.5 of 8.8 ms for 5,000 points in 2,000
# buckets; a float8 resolves these epochs to well under the microsecond stored. Buckets
# are in time order by number (each one's mean time lies within its own interval), as
# the aggregate already gives them: no second sort. The newest run is the last of its
# bucket in time order, the order the partitions' index scans already deliver, so the
# sort by bucket and time finds its input sorted (newest-first made it reorder every
# bucket). A bucket's object is one concat() of its parts, not a chain of ||, and its
# unit's JSON comes written. Both together, 2,000 buckets of 5,000 points at 100M, the
# statements alone alternated per series: 8.7 -> 8.1 and 7.9 -> 7.4 ms p50 (concat()
# alone 0.3 ms of it; for a point, whose parts are fewer, it was not faster).
_BUCKET_OBJECT = """concat('{"run_id":"', run_id, '","started_at":', to_json(started_at),
    ',"value":', value_base / CAST(:factor AS float8), ',"unit":', CAST(:unit_json AS text),
    ',"value_base":', value_base, ',"stats"\\:null,"count":', count,
    ',"min_base":', min_base, ',"max_base":', max_base, '}')"""


def _buckets(span: str) -> TextClause:
    """The buckets' statement over `span`, a row of `lo` and `hi` in epoch seconds."""
    return text(
        f"""WITH span AS ({span}), bucketed AS (
        SELECT run_id, started_at, value_base, date_part('epoch', started_at) AS epoch,
            width_bucket(date_part('epoch', started_at), span.lo, span.hi + 1e-6, :buckets)
                AS bucket
        FROM result JOIN span ON span.lo IS NOT NULL WHERE {_IN_RANGE.text}
    ), buckets AS (
        SELECT bucket, (array_agg(run_id ORDER BY started_at))[count(*)] AS run_id,
            to_timestamp(avg(epoch)) AS started_at, avg(value_base) AS value_base,
            count(*) AS count, min(value_base) AS min_base, max(value_base) AS max_base
        FROM bucketed GROUP BY bucket
    )
    SELECT '[' || string_agg({_BUCKET_OBJECT}, ',' ORDER BY bucket) || ']'
    FROM buckets"""  # noqa: S608
    )


# A window's span is its own first and last point, a probe at each end of the index. A
# whole series' is its first and last run, which uploads and deletes keep exact
# (runs/totals.py): the probes' two scans over every month of the series cost 1.8 of
# ~10 ms for 5,000 points in 2,000 buckets at 100M (the statements alone, alternated per
# series, the same documents), the start-up of each month's scan mostly.
_BUCKETS_OF_WINDOW = _buckets(
    "SELECT date_part('epoch', min(started_at)) AS lo,"  # noqa: S608
    " date_part('epoch', max(started_at)) AS hi"
    f" FROM result WHERE {_IN_RANGE.text}"
)
_BUCKETS_OF_SERIES = _buckets(
    "SELECT date_part('epoch', CAST(:first AS timestamptz)) AS lo,"
    " date_part('epoch', CAST(:last AS timestamptz)) AS hi"
)
