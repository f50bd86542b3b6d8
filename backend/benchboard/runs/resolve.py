"""Which series each result of an upload extends, creating the series that are new.

Set-based for any number of runs: the stored series of a whole batch are read with one
query and the new ones inserted with one `unnest` statement, sorted by their key (one
lock order between concurrent uploads, no deadlock).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import psycopg
from psycopg.types.json import Jsonb
from sqlalchemy.orm import Session

from benchboard.bulk import CopyLayout, driver_connection
from benchboard.errors import FieldError, ValidationFailed
from benchboard.models import Series
from benchboard.runs.schemas import ResultUpload, RunUpload
from benchboard.series.identity import series_fingerprint
from benchboard_ingest.vocabulary import canonical_params, normalize_unit, unit_info


class SeriesRow(NamedTuple):
    """One result of a run with what identifies its series and converts its value (a
    NamedTuple: a frozen dataclass took ~1 µs more to build, 0.07-0.1 s of a
    100,000-result upload)."""

    fingerprint: bytes
    result: ResultUpload
    unit: str
    base_unit: str
    factor: float
    direction: str


@dataclass(frozen=True)
class Placement:
    """Where a run's results go: its suite, branch and machine (series identity beyond
    the results' own fields)."""

    suite: str
    branch: str
    hardware_id: int


# branch -> fingerprint -> (series id, base unit): keyed by branch first, so that the
# 100,000 lookups of a big upload hash bytes, not tuples (0.35 s of 5 s).
Known = dict[str, dict[bytes, tuple[int, str]]]
# branch -> fingerprint -> the first run's placement and result of the series
_Wanted = dict[str, dict[bytes, tuple[Placement, SeriesRow]]]

# Up to this many series, an upload looks its series up by key; above, it reads every
# series of its suite on its branch and machine.
KEY_LOOKUP_LIMIT = 5_000


def series_rows(upload: RunUpload) -> list[SeriesRow]:
    """The run's results with their series fingerprints; two results of one series fail."""
    rows: list[SeriesRow] = []
    first_index: dict[bytes, int] = {}
    duplicates: list[FieldError] = []
    units: dict[tuple[str, str | None], tuple[str, str, float, str]] = {}
    for index, result in enumerate(upload.results):
        fingerprint = series_fingerprint(
            suite=upload.suite,
            benchmark=result.benchmark,
            params=result.params,
            language=result.language,
            implementation=result.implementation,
            mode=result.mode,
            variant=result.variant,
            hardware=upload.hardware.name,
            metric=result.metric,
        )
        if fingerprint in first_index:
            duplicates.append(
                FieldError(
                    path=f"results[{index}]",
                    message=f"same series as results[{first_index[fingerprint]}]: a run holds one "
                    "result per benchmark, params, language, implementation, mode, variant, metric",
                )
            )
            continue
        first_index[fingerprint] = index
        unit_key = (result.unit, result.direction)
        if (of_unit := units.get(unit_key)) is None:  # a few units, 100,000 results
            unit = normalize_unit(result.unit)
            info = unit_info(unit)
            direction = result.direction or info.default_direction
            of_unit = units[unit_key] = (unit, info.base_unit, info.factor, direction)
        rows.append(SeriesRow(fingerprint, result, *of_unit))
    if duplicates:
        raise ValidationFailed(f"{len(duplicates)} duplicate series in one run", duplicates)
    return rows


def resolve_series(
    session: Session, runs: Sequence[tuple[Placement, Sequence[SeriesRow]]]
) -> tuple[Known, list[tuple[Placement, SeriesRow]]]:
    """Every series the runs' results belong to, and the series created here, each with
    the first run's placement and result that defined it."""
    conn = driver_connection(session)
    wanted: _Wanted = {}
    for placement, rows in runs:
        of_branch = wanted.setdefault(placement.branch, {})
        for row in rows:
            if row.fingerprint not in of_branch:
                of_branch[row.fingerprint] = (placement, row)
    known = _known_series(conn, wanted)
    missing = sorted(  # one lock order
        (fingerprint, branch)
        for branch, of_branch in wanted.items()
        for fingerprint in of_branch
        if fingerprint not in known.get(branch, {})
    )
    created: list[tuple[Placement, SeriesRow]] = []
    if missing:
        inserted = _insert_series(conn, [wanted[branch][fp] for fp, branch in missing])
        created = [wanted[branch][fp] for fp, branch in missing if fp in inserted.get(branch, {})]
        _merge(known, inserted)
        raced = [(fp, branch) for fp, branch in missing if fp not in known.get(branch, {})]
        if raced:  # created by a concurrent upload first
            _merge(known, _series_by_key(conn, raced))
    return known, created


def unit_errors(rows: Sequence[SeriesRow], branch: str, known: Known) -> list[FieldError]:
    """Results whose unit measures something else than the series they extend."""
    errors = []
    of_branch = known[branch]
    for index, row in enumerate(rows):
        series_base = of_branch[row.fingerprint][1]
        if series_base != row.base_unit:
            errors.append(
                FieldError(
                    path=f"results[{index}].unit",
                    message=f"'{row.unit}' does not measure what this series measures "
                    f"(its unit converts to '{series_base}')",
                )
            )
    return errors


def _known_series(conn: psycopg.Connection[Any], wanted: _Wanted) -> Known:
    """The stored series among the wanted. A small upload looks its own up: a CI run of
    50 results must not read a suite of 100,000 series (that took ~1 s). A large one
    reads every series of its suites on their branches and machines, a superset of its
    own since all three are part of each series' identity: one scan is far cheaper than
    100,000 key lookups."""
    if sum(len(of_branch) for of_branch in wanted.values()) <= KEY_LOOKUP_LIMIT:
        keys = [(fp, branch) for branch, of_branch in wanted.items() for fp in of_branch]
        return _series_by_key(conn, keys)
    placements = {placement for of_branch in wanted.values() for placement, _ in of_branch.values()}
    known: Known = {}
    for placement in sorted(placements, key=repr):
        cursor = conn.execute(
            "SELECT fingerprint, branch, id, base_unit FROM series"
            " WHERE suite = %s AND branch = %s AND hardware_id = %s",
            (placement.suite, placement.branch, placement.hardware_id),
        )
        _merge(known, _known_rows(cursor))
    return known


def _series_by_key(conn: psycopg.Connection[Any], keys: Sequence[tuple[bytes, str]]) -> Known:
    cursor = conn.execute(
        "SELECT s.fingerprint, s.branch, s.id, s.base_unit FROM series AS s"
        " JOIN unnest(%b::bytea[], %b::text[]) AS k(f, b)"
        " ON s.fingerprint = k.f AND s.branch = k.b",
        ([fingerprint for fingerprint, _ in keys], [branch for _, branch in keys]),
    )
    return _known_rows(cursor)


def _known_rows(cursor: psycopg.Cursor[Any]) -> Known:
    known: Known = {}
    for fingerprint, branch, series_id, base_unit in cursor:
        of_branch = known.get(branch)
        if of_branch is None:
            of_branch = known[branch] = {}
        of_branch[bytes(fingerprint)] = (series_id, base_unit)
    return known


def _merge(known: Known, more: Known) -> None:
    for branch, of_branch in more.items():
        known.setdefault(branch, {}).update(of_branch)


# The columns an upload writes to `series`, in the order _insert_series sends them (the
# bench scripts COPY series with it).
SERIES_COPY = CopyLayout.of(
    Series.fingerprint,
    Series.suite,
    Series.branch,
    Series.benchmark,
    Series.params,
    Series.language,
    Series.implementation,
    Series.mode,
    Series.variant,
    Series.hardware_id,
    Series.metric,
    Series.unit,
    Series.base_unit,
    Series.direction,
)
_RETURNING = "RETURNING fingerprint, branch, id, base_unit"
_INSERT_SERIES = SERIES_COPY.unnest_insert(_RETURNING)
_INSERT_SERIES_BUT_RACED = SERIES_COPY.unnest_insert(
    f"ON CONFLICT (fingerprint, branch) DO NOTHING {_RETURNING}"
)


def _insert_series(
    conn: psycopg.Connection[Any], rows: Sequence[tuple[Placement, SeriesRow]]
) -> Known:
    """The new series, inserted; those a concurrent upload created first are left out.

    ON CONFLICT DO NOTHING checks the unique index once more for every row (2.5 us, 4 % of
    an upload of new series), to serve a rare race: the plain INSERT goes first, in a
    savepoint, and only a unique violation sends the rows again with ON CONFLICT."""
    columns = (
        [row.fingerprint for _, row in rows],
        [placement.suite for placement, _ in rows],
        [placement.branch for placement, _ in rows],
        [row.result.benchmark for _, row in rows],
        [Jsonb(canonical_params(row.result.params)) for _, row in rows],
        [row.result.language for _, row in rows],
        [row.result.implementation for _, row in rows],
        [row.result.mode for _, row in rows],
        [row.result.variant for _, row in rows],
        [placement.hardware_id for placement, _ in rows],
        [row.result.metric for _, row in rows],
        [row.unit for _, row in rows],
        [row.base_unit for _, row in rows],
        [row.direction for _, row in rows],
    )
    try:
        with conn.transaction():
            return _known_rows(conn.execute(_INSERT_SERIES, columns))
    except psycopg.errors.UniqueViolation:
        return _known_rows(conn.execute(_INSERT_SERIES_BUT_RACED, columns))
