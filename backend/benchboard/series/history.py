"""One series' values in time order, downsampled in SQL when there are too many.

A history answer is the SeriesHistory document (schemas.py) as JSON bytes, in two pieces:

- the envelope (`series`, `downsampled`, `total_points`), written by orjson (`_document`);
- the `points` array, one text value written by PostgreSQL: each point's object joined
  from its columns' text (`_POINTS`), or above `max_points` one object per time bucket
  (`_BUCKETS_OF_SERIES`, `_BUCKETS_OF_WINDOW`). For a long series' whole history the
  same array is read from a snapshot the workers wrote ahead (snapshots.py), and a
  window of it is sliced from the snapshot of every point (every_point.py).

The array's bytes are spliced into the envelope as its last key, `,"points":[...]}` in
place of the closing brace: nothing per point is parsed or built in Python. Building
2,000 point objects in Python cost ~15 ms of a 16 ms request (commit 60d3665), where
PostgreSQL writes them in a few ms from an index-only scan. Each object is joined from
its columns' text rather than written by json_agg of the rows: 5.05 vs 6.24 ms p50 for
2,000 points (5a16f12).

The statements are SQL text, compiled once at import: built from SQLAlchemy's constructs
on each request they cost 1.2 ms of a 2,000-point history (984d13c) and ~2.7 ms of a
downsampled one (d5c8a0a), on a p95 target of 15-20 ms (bench/README.md). The comments
at each statement say what its shape saves; the commits have the figures.

Fields. The keys of a point and of a bucket are declared once, in `_FIELDS`: a key's
name and the SQL whose text is its JSON value, in a point of one run and in a bucket.
The objects' SQL is built from that table at import. To add or change a field, change
HistoryPoint (schemas.py) and its row in `_FIELDS`; every statement follows, and so do
new snapshots (the same statements write them). A point read from a new column of
`result` must find it in ix_result_series_started_at's INCLUDE (models.py), or the read
leaves the index for the table's pages (3555c4d). Snapshots already stored keep the old
points until their series changes: delete them in the same change (a migration's
`DELETE FROM history_snapshot`) and idle workers write them anew.
tests/series/test_history_document.py checks that each shape of the document (points,
buckets, a window, a snapshot) has exactly the schema's keys and types: a key added on
one side only fails it. The envelope's keys are `_document`'s.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import zstandard
from sqlalchemy import ScalarSelect, TextClause, func, null, select, text
from sqlalchemy.orm import InstrumentedAttribute, Session

from benchboard import exact_json
from benchboard.errors import NotFound
from benchboard.models import HistorySnapshot, Result, Series
from benchboard.series import every_point
from benchboard.series.schemas import SeriesIdentity
from benchboard.series.service import series_identity, series_with_hardware
from benchboard_ingest.vocabulary import unit_info


@dataclass(frozen=True)
class _Json:
    """A constant value: its JSON is written into the statement."""

    text: str


@dataclass(frozen=True)
class _Quoted:
    """SQL whose text is a JSON string's content, written between quotes (a uuid)."""

    sql: str


# SQL whose text is the value's JSON, or one of the two above.
_Value = str | _Json | _Quoted


@dataclass(frozen=True)
class _Field:
    """A key of HistoryPoint and its value's SQL. A point's is over `result`'s columns,
    text, and never NULL: `||` of a NULL is NULL, and string_agg would drop the point. A
    bucket's is over the `buckets` CTE's columns and :factor, :unit_json; concat() takes
    any type (a number's text as json_agg would write it) but writes NULL as nothing."""

    name: str
    point: _Value | None  # None: left out of a point of one run
    bucket: _Value


# Text is JSON for these types: a float8's shortest text is what json_agg writes (uploads
# refuse NaN and infinities), to_json() quotes times and strings, stats is jsonb's text.
_FIELDS = (
    _Field("run_id", _Quoted("run_id::text"), _Quoted("run_id")),
    _Field("started_at", "to_json(started_at)::text", "to_json(started_at)"),
    _Field("value", "value::text", "value_base / CAST(:factor AS float8)"),
    _Field("unit", "to_json(unit)::text", "CAST(:unit_json AS text)"),
    _Field("value_base", "value_base::text", "value_base"),
    _Field("stats", "coalesce(stats::text, 'null')", _Json("null")),
    _Field("count", _Json("1"), "count"),
    # A point of one run leaves out the extremes (optional in HistoryPoint): two keys
    # fewer for PostgreSQL to write and 12 % fewer bytes in a 2,000-point answer.
    _Field("min_base", None, "min_base"),
    _Field("max_base", None, "max_base"),
)


def _object_operands(values: Sequence[tuple[str, _Value]]) -> list[str]:
    """SQL operands whose texts, joined in order, are one JSON object of these keys. The
    constant text between two values is one literal, as one would write it by hand."""
    operands: list[str] = []
    literal = "{"
    for index, (name, value) in enumerate(values):
        literal += f'{"," if index else ""}"{name}":'
        if isinstance(value, _Json):
            literal += value.text
        elif isinstance(value, _Quoted):
            operands += [_sql_literal(literal + '"'), value.sql]
            literal = '"'
        else:
            operands += [_sql_literal(literal), value]
            literal = ""
    return [*operands, _sql_literal(literal + "}")]


def _sql_literal(value: str) -> str:
    # In text(), "\:" is a colon, not the start of a bind parameter (`"count":1`).
    return "'" + value.replace("'", "''").replace(":", "\\:") + "'"


_POINT_OBJECT = " || ".join(
    _object_operands([(f.name, f.point) for f in _FIELDS if f.point is not None])
)
# One concat() of the parts rather than a chain of ||: 0.3 ms of 8 for 2,000 buckets
# (512435b); for a point, whose parts are fewer, it was not faster.
_BUCKET_OBJECT = f"concat({', '.join(_object_operands([(f.name, f.bucket) for f in _FIELDS]))})"


@dataclass(frozen=True)
class SeriesSpan:
    """A series' identity and what its row keeps of its results (runs/totals.py)."""

    identity: SeriesIdentity
    result_count: int
    first_started_at: datetime | None
    last_started_at: datetime | None
    history_version: int
    # The points of a current snapshot, compressed, where one was asked for and is kept;
    # of the snapshot of every point, its index too (every_point.py).
    snapshot: bytes | None
    point_index: bytes | None


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
    if whole:
        snapshot_of: int | None = max_points
    else:
        snapshot_of = every_point.EVERY_POINT if every_point.sliceable(since, until) else None
    span = get_series_span(session, series_id, snapshot_of=snapshot_of)
    points_json: bytes | None = None
    if whole:
        total = span.result_count
        if span.snapshot is not None:
            points_json = zstandard.decompress(span.snapshot)
    elif span.snapshot is not None and span.point_index is not None:
        window = every_point.window(span.point_index, since=since, until=until)
        total = window.count
        if total <= max_points:
            points_json = window.points_json(span.snapshot)
    else:
        total = session.scalar(_COUNT, _in_range(span, since=since, until=until)) or 0
    if points_json is None:
        points_json = write_points_json(
            session, span, since=since, until=until, total=total, max_points=max_points
        )
    return _document(span.identity, total=total, max_points=max_points, points_json=points_json)


def _document(
    identity: SeriesIdentity, *, total: int, max_points: int, points_json: bytes
) -> bytes:
    """The envelope by orjson, and the points' array (PostgreSQL's bytes) spliced in as
    its last key: `{...}` becomes `{...,"points":[...]}`."""
    head = exact_json.dumps(
        {
            "series": identity.model_dump(mode="json"),
            "downsampled": total > max_points,
            "total_points": total,
        }
    )
    return head[:-1] + b',"points":' + points_json + b"}"


def get_series_span(session: Session, series_id: int, *, snapshot_of: int | None) -> SeriesSpan:
    """The series' identity and totals, with its current snapshot of `snapshot_of`
    points when one is kept: one statement, which also sets this transaction's plans to
    generic (_GENERIC_PLANS)."""
    snapshot = (
        null()
        if snapshot_of is None
        else _current_snapshot(snapshot_of, HistorySnapshot.points_zstd)
    )
    point_index = (
        _current_snapshot(snapshot_of, HistorySnapshot.point_index)
        if snapshot_of == every_point.EVERY_POINT
        else null()
    )
    query = (
        series_with_hardware()
        .add_columns(_GENERIC_PLANS, snapshot.label("snapshot"), point_index.label("point_index"))
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
        row.point_index,
    )


def _current_snapshot(
    max_points: int, column: InstrumentedAttribute[bytes] | InstrumentedAttribute[bytes | None]
) -> ScalarSelect[bytes | None]:
    return (
        select(column)
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


def write_every_point(session: Session, span: SeriesSpan) -> tuple[bytes, bytes]:
    """Every point of the series as `_POINTS` writes them, and their index
    (every_point.py): the points come as rows, each with its start, and are joined here
    as string_agg joins them."""
    rows = session.execute(_POINT_ROWS, _in_range(span, since=None, until=None)).all()
    return every_point.encode([row[0] for row in rows], [row[1].encode() for row in rows])


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

# Every point as stored, served by the covering index alone, in time order, each one's
# object joined from its columns' text (_POINT_OBJECT).
_POINTS = text(
    f"SELECT '[' || string_agg({_POINT_OBJECT}, ',' ORDER BY started_at, run_id) || ']'"  # noqa: S608
    f" FROM result WHERE {_IN_RANGE.text}"
)
# The same objects one per row, in the same order, each with its start in microseconds
# since the epoch (numeric, so exact), for the snapshot of every point.
_POINT_ROWS = text(
    "SELECT CAST(extract(epoch FROM started_at) * 1000000 AS int8), "  # noqa: S608
    f"{_POINT_OBJECT} FROM result WHERE {_IN_RANGE.text} ORDER BY started_at, run_id"
)


# Equal-width time buckets over the window's first and last point, each with its
# mean, extremes and newest run, so a 100,000-point history draws as `buckets` points
# with its spread as a band, each bucket's object joined from its columns' text
# (_FIELDS) like a point's. min/max of the column itself: each is one probe at an end
# of the index (of epoch they read all the series' index entries). Times as float8
# seconds (date_part), not extract's numeric: 2.5 of 8.8 ms for 5,000 points in 2,000
# buckets; a float8 resolves these epochs to well under the microsecond stored. Buckets
# are in time order by number (each one's mean time lies within its own interval), as
# the aggregate already gives them: no second sort. The newest run is the last of its
# bucket in time order, the order the partitions' index scans already deliver, so the
# sort by bucket and time finds its input sorted (newest-first made it reorder every
# bucket). The unit's JSON comes written (:unit_json).
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
