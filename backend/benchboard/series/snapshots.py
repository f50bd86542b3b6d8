"""History snapshots: a long series' whole history, written once per change, not per read.

Writing 2,000 points' JSON is most of a history request: ~3 of ~5 ms in PostgreSQL at
10,000,000 results, and a cold read of a 5,000-point series at 100,000,000 reads 45-76
index pages for it. A snapshot is that JSON for the whole series, built by the same
statements (history.write_points_json), zstd-compressed (~100 KB for 2,000 points,
13 pages), and served while its version is the series' `history_version`, which every
change to the series' results moves (runs/totals.py, `recount_totals()`). A read never
waits for one: without a current snapshot it writes the points itself, as before.
A snapshot is the points' array only, in history.py's `_FIELDS` layout; the envelope
is written per read. A change to those fields leaves stored snapshots in the old
layout until they are deleted (history.py's docstring says how).

Only series of `snapshot_min_points` results or more (config.py), and only for the
`max_points` readers ask for, and every point as stored, from which windows are sliced
(every_point.py). The workers build them when no detection is due
(worker.py): the series they have just checked, and what a scan for stale series finds
when a worker starts and every ten minutes (retention, bulk loads, uploads to branches
without detection).
"""

from collections.abc import Iterable

import zstandard
from sqlalchemy import BigInteger, bindparam, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.types import Integer

from benchboard.errors import NotFound
from benchboard.series import every_point, history

# The dashboard's history (frontend/src/features/history/api.ts: MAX_POINTS) and the
# API's default (series/router.py); a test checks both are here.
MAX_POINTS = (1000, 2000)
# A long series' snapshots: those, and every point.
_KINDS = [*MAX_POINTS, every_point.EVERY_POINT]
# zstd 1: 0.9 ms for 440 KB of points, and no larger than levels 3-12 on this JSON.
_COMPRESSOR_LEVEL = 1

# Series with results enough and a snapshot missing or older than their results, the
# most recently run first (those are the histories readers open). A probe of the primary
# key per series: 45 ms for 20,000 series, so workers run it seldom (worker.py).
_STALE = text(
    "SELECT s.id FROM series AS s WHERE s.result_count >= :min_points"
    " AND (SELECT count(*) FROM history_snapshot AS h WHERE h.series_id = s.id"
    " AND h.version = s.history_version AND h.max_points = ANY(:max_points))"
    " < cardinality(:max_points)"
    " ORDER BY s.last_started_at DESC"
).bindparams(bindparam("max_points", type_=ARRAY(Integer)))

_CURRENT = text(
    "SELECT max_points FROM history_snapshot WHERE series_id = :series_id"
    " AND version = :version AND max_points = ANY(:max_points)"
).bindparams(bindparam("max_points", type_=ARRAY(Integer)))

_LONG = text(
    "SELECT id FROM series WHERE id = ANY(:ids) AND result_count >= :min_points"
).bindparams(bindparam("ids", type_=ARRAY(BigInteger)))

# A snapshot only ever replaces an older one: two workers may build the same series.
_STORE = text(
    "INSERT INTO history_snapshot (series_id, max_points, version, points_zstd, point_index)"
    " VALUES (:series_id, :max_points, :version, :points_zstd, :point_index)"
    " ON CONFLICT (series_id, max_points) DO UPDATE SET version = excluded.version,"
    " points_zstd = excluded.points_zstd, point_index = excluded.point_index,"
    " built_at = now()"
    " WHERE history_snapshot.version < excluded.version"
)


def stale_series(session: Session, *, min_points: int) -> list[int]:
    """The series whose snapshots are missing or out of date."""
    rows = session.execute(_STALE, {"min_points": min_points, "max_points": _KINDS})
    return list(rows.scalars())


def long_series(session: Session, series_ids: list[int], *, min_points: int) -> list[int]:
    """Those of these series long enough for snapshots: one statement, so a worker that
    checked 100,000 short series does not look at each again."""
    rows = session.execute(_LONG, {"ids": series_ids, "min_points": min_points})
    return list(rows.scalars())


def build_snapshots(session: Session, series_id: int, *, min_points: int) -> bool:
    """Write those of the series' snapshots that are not of its current history, unless
    it is too short; whether it wrote any (a new kind of snapshot, after an upgrade, is
    written alone).

    The version is read before the points (two statements, READ COMMITTED): if an upload
    commits in between, the points are newer than the version they are stored under,
    which no read will match, and the series stays stale until built again.
    """
    span = history.get_series_span(session, series_id, snapshot_of=None)
    if span.result_count < min_points:
        return False
    current = session.scalars(
        _CURRENT,
        {"series_id": series_id, "version": span.history_version, "max_points": _KINDS},
    )
    missing = set(_KINDS) - set(current)
    if not missing:
        return False
    compressor = zstandard.ZstdCompressor(level=_COMPRESSOR_LEVEL)

    def store(max_points: int, points_json: bytes, point_index: bytes | None) -> None:
        session.execute(
            _STORE,
            {
                "series_id": series_id,
                "max_points": max_points,
                "version": span.history_version,
                "points_zstd": compressor.compress(points_json),
                "point_index": None if point_index is None else compressor.compress(point_index),
            },
        )

    for max_points in sorted(missing - {every_point.EVERY_POINT}):
        points_json = history.write_points_json(
            session,
            span,
            since=None,
            until=None,
            total=span.result_count,
            max_points=max_points,
        )
        store(max_points, points_json, None)
    if every_point.EVERY_POINT in missing:
        store(every_point.EVERY_POINT, *history.write_every_point(session, span))
    return True


def refresh_snapshots(
    session_factory: sessionmaker[Session], series_ids: Iterable[int], *, min_points: int
) -> int:
    """Build what is missing or stale of these series' snapshots, each series in its own
    transaction; how many series were built."""
    built = 0
    for series_id in series_ids:
        with session_factory() as session, session.begin():
            try:
                built += build_snapshots(session, series_id, min_points=min_points)
            except NotFound:  # deleted meanwhile
                continue
    return built
