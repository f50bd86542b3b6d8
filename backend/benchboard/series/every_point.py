"""The snapshot of every point of a long series, and the index that slices windows from it.

A window of a history (`since`/`until`) written per request costs a count and 2,000 points'
JSON in PostgreSQL: 24-31 ms p95 at 100,000,000 results, against a target of 20
(bench/README.md, stops 37-39). The snapshot of every point (history_snapshot's row of
max_points `EVERY_POINT`) is the points' array exactly as history.py's `_POINTS` writes
it for the whole series, and its index says where each point starts in time and in the
bytes. A window is then two binary searches: their difference is its count and the bytes
between are its points, with nothing written per request. It is served under the same
rule as the other snapshots: only while its version is the series' `history_version`.

The index, zstd-compressed: n little-endian int64, each point's start in microseconds
since the epoch as its difference from the previous point's (the first's from 0), then n
int32, each point's JSON length in bytes. As differences, runs at a steady pace compress
to almost nothing: the index is ~1 % of the snapshot.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import numpy as np
import zstandard

# history_snapshot.max_points of the snapshot of every point: no bound.
EVERY_POINT = 0

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
_STARTS = np.dtype("<i8")
_LENGTHS = np.dtype("<i4")


def encode(starts_us: Sequence[int], points: Sequence[bytes]) -> tuple[bytes, bytes]:
    """The points' JSON array and its index, both uncompressed, from each point's start
    (microseconds since the epoch) and JSON object, in the history's order."""
    starts = np.asarray(starts_us, dtype=_STARTS)
    lengths = np.fromiter(map(len, points), dtype=_LENGTHS, count=len(points))
    index = np.diff(starts, prepend=0).astype(_STARTS).tobytes() + lengths.tobytes()
    return b"[" + b",".join(points) + b"]", index


@dataclass(frozen=True)
class Window:
    """The points of a window, `first` to `end` (exclusive) in the history's order."""

    first: int
    end: int
    # Where the window's points begin and end in the snapshot's JSON, separators excluded.
    begin_byte: int
    end_byte: int

    @property
    def count(self) -> int:
        return self.end - self.first

    def points_json(self, snapshot_zstd: bytes) -> bytes:
        """The window's points as a JSON array, sliced from the snapshot."""
        if self.count == 0:
            return b"[]"
        points = zstandard.decompress(snapshot_zstd)
        return b"[" + points[self.begin_byte : self.end_byte] + b"]"


def sliceable(since: datetime | None, until: datetime | None) -> bool:
    """Whether a window of these bounds can be cut from the index. A bound without a time
    zone is read by PostgreSQL in its session's zone, so it is left to the live query."""
    return all(bound is None or bound.tzinfo is not None for bound in (since, until))


def window(index_zstd: bytes, *, since: datetime | None, until: datetime | None) -> Window:
    """The points from `since` to `until`, both included, as the live query selects them
    (history.py's `_IN_RANGE`); bounds with a time zone (`sliceable`)."""
    index = zstandard.decompress(index_zstd)
    count = len(index) // (_STARTS.itemsize + _LENGTHS.itemsize)
    starts = np.cumsum(np.frombuffer(index, dtype=_STARTS, count=count))
    lengths = np.frombuffer(index, dtype=_LENGTHS, offset=count * _STARTS.itemsize)
    first = 0 if since is None else int(np.searchsorted(starts, _microseconds(since), "left"))
    end = count if until is None else int(np.searchsorted(starts, _microseconds(until), "right"))
    end = max(end, first)
    # Point i begins after "[" and i earlier points, each followed by its ",".
    before = int(lengths[:first].sum(dtype=np.int64)) + first
    inside = int(lengths[first:end].sum(dtype=np.int64)) + max(end - first - 1, 0)
    return Window(first, end, 1 + before, 1 + before + inside)


def _microseconds(moment: datetime) -> int:
    return (moment - _EPOCH) // _MICROSECOND
