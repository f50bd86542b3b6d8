"""Storing an upload: whole or not at all, inside the request's transaction.

The bulk parts talk to psycopg directly: series are upserted with one `unnest`
statement and results are written with binary COPY, because one upload may carry
100,000 results and row-by-row inserts are 3-5x slower.
"""

import hashlib
import uuid
from dataclasses import dataclass
from typing import Any

import orjson
import psycopg
from psycopg.types.json import Jsonb
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from benchboard.errors import Conflict, FieldError, ValidationFailed
from benchboard.models import Run
from benchboard.runs.schemas import ResultUpload, RunUpload
from benchboard.series.identity import canonical_params, series_fingerprint
from benchboard.tokens.service import Principal
from benchboard_ingest.vocabulary import normalize_unit, unit_info


@dataclass(frozen=True)
class StoredRun:
    id: uuid.UUID
    result_count: int
    created: bool
    series_ids: list[int]


@dataclass(frozen=True)
class _SeriesRow:
    fingerprint: bytes
    result: ResultUpload
    unit: str
    base_unit: str
    factor: float
    direction: str


def store_run(
    session: Session, upload: RunUpload, *, raw_body: bytes, uploader: Principal | None
) -> StoredRun:
    """Store a validated upload; an existing run with the same id answers idempotently."""
    run_id = upload.id or uuid.uuid4()
    rows = _series_rows(upload)
    hardware_id = _upsert_hardware(session, upload)
    if not _insert_run(session, upload, run_id, hardware_id, raw_body, uploader):
        return _existing_run(session, run_id, raw_body)
    conn = _driver_connection(session)
    series_ids = _resolve_series(conn, upload.suite, hardware_id, rows)
    _copy_results(conn, run_id, upload, rows, series_ids)
    return StoredRun(id=run_id, result_count=len(rows), created=True, series_ids=series_ids)


def _series_rows(upload: RunUpload) -> list[_SeriesRow]:
    rows: list[_SeriesRow] = []
    first_index: dict[bytes, int] = {}
    duplicates: list[FieldError] = []
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
        unit = normalize_unit(result.unit)
        info = unit_info(unit)
        direction = result.direction or info.default_direction
        rows.append(_SeriesRow(fingerprint, result, unit, info.base_unit, info.factor, direction))
    if duplicates:
        raise ValidationFailed(f"{len(duplicates)} duplicate series in one run", duplicates)
    return rows


def _upsert_hardware(session: Session, upload: RunUpload) -> int:
    info = upload.hardware.model_dump(exclude={"name"}, exclude_none=True)
    statement = text(
        "INSERT INTO hardware (name, info) VALUES (:name, CAST(:info AS jsonb)) "
        "ON CONFLICT (name) DO UPDATE SET info = hardware.info || EXCLUDED.info "
        "WHERE NOT hardware.info @> EXCLUDED.info RETURNING id"
    )
    params = {"name": upload.hardware.name, "info": orjson.dumps(info).decode()}
    hardware_id = session.execute(statement, params).scalar()
    if hardware_id is None:
        hardware_id = session.execute(
            text("SELECT id FROM hardware WHERE name = :name"), {"name": upload.hardware.name}
        ).scalar_one()
    return int(hardware_id)


def _insert_run(
    session: Session,
    upload: RunUpload,
    run_id: uuid.UUID,
    hardware_id: int,
    raw_body: bytes,
    uploader: Principal | None,
) -> bool:
    """Insert the run row; False when the id exists (a concurrent twin waits for the first)."""
    statement = text(
        "INSERT INTO run (id, suite, name, started_at, source_url, git, hardware_id, environment,"
        " tags, result_count, upload_body, upload_sha256, uploaded_by) VALUES (:id, :suite, :name,"
        " :started_at, :source_url, CAST(:git AS jsonb), :hardware_id, CAST(:environment AS jsonb),"
        " CAST(:tags AS jsonb), :result_count, :body, :sha, :uploaded_by)"
        " ON CONFLICT (id) DO NOTHING RETURNING id"
    )
    inserted = session.execute(
        statement,
        {
            "id": run_id,
            "suite": upload.suite,
            "name": upload.name,
            "started_at": upload.started_at,
            "source_url": upload.source_url,
            "git": orjson.dumps(upload.git.model_dump(exclude_none=True)).decode()
            if upload.git
            else None,
            "hardware_id": hardware_id,
            "environment": orjson.dumps(upload.environment).decode(),
            "tags": orjson.dumps(upload.tags).decode(),
            "result_count": len(upload.results),
            "body": raw_body,
            "sha": hashlib.sha256(raw_body).digest(),
            "uploaded_by": uploader.token_id if uploader else None,
        },
    ).scalar()
    return inserted is not None


def _existing_run(session: Session, run_id: uuid.UUID, raw_body: bytes) -> StoredRun:
    stored = session.execute(
        select(Run.upload_sha256, Run.upload_body, Run.result_count).where(Run.id == run_id)
    ).one()
    same_bytes = stored.upload_sha256 == hashlib.sha256(raw_body).digest()
    if not same_bytes and orjson.loads(stored.upload_body) != orjson.loads(raw_body):
        raise Conflict(f"run {run_id} exists with a different body; send a new id")
    return StoredRun(id=run_id, result_count=stored.result_count, created=False, series_ids=[])


def _driver_connection(session: Session) -> psycopg.Connection[Any]:
    driver = session.connection().connection.driver_connection
    assert isinstance(driver, psycopg.Connection)
    return driver


def _resolve_series(
    conn: psycopg.Connection[Any], suite: str, hardware_id: int, rows: list[_SeriesRow]
) -> list[int]:
    """Series ids in the order of `rows`, creating the series that are new."""
    known = _suite_series(conn, suite, hardware_id)
    missing = sorted(
        (row for row in rows if row.fingerprint not in known), key=lambda row: row.fingerprint
    )  # one lock order against deadlocks
    if missing:
        known.update(_insert_series(conn, suite, hardware_id, missing))
        # Series a concurrent upload created first: ON CONFLICT skipped them.
        raced = [row.fingerprint for row in missing if row.fingerprint not in known]
        if raced:
            known.update(_series_by_fingerprint(conn, raced))
    _check_units_match(rows, known)
    return [known[row.fingerprint][0] for row in rows]


_Known = dict[bytes, tuple[int, str]]


def _suite_series(conn: psycopg.Connection[Any], suite: str, hardware_id: int) -> _Known:
    """Every series of the suite on this machine: a superset of the run's, since both are
    part of each series' identity; one scan is far cheaper than 100,000 key lookups."""
    cursor = conn.execute(
        "SELECT fingerprint, id, base_unit FROM series WHERE suite = %s AND hardware_id = %s",
        (suite, hardware_id),
    )
    return {bytes(fp): (series_id, base_unit) for fp, series_id, base_unit in cursor}


def _series_by_fingerprint(conn: psycopg.Connection[Any], fingerprints: list[bytes]) -> _Known:
    cursor = conn.execute(
        "SELECT fingerprint, id, base_unit FROM series WHERE fingerprint = ANY(%s)",
        (fingerprints,),
    )
    return {bytes(fp): (series_id, base_unit) for fp, series_id, base_unit in cursor}


def _insert_series(
    conn: psycopg.Connection[Any], suite: str, hardware_id: int, rows: list[_SeriesRow]
) -> _Known:
    cursor = conn.execute(
        "INSERT INTO series (fingerprint, suite, benchmark, params, language, implementation,"
        " mode, variant, hardware_id, metric, unit, base_unit, direction)"
        " SELECT f, %s, b, p, l, i, m, v, %s, me, u, bu, d FROM unnest("
        " %s::bytea[], %s::text[], %s::jsonb[], %s::text[], %s::text[], %s::text[], %s::text[],"
        " %s::text[], %s::text[], %s::text[], %s::text[]) AS t(f, b, p, l, i, m, v, me, u, bu, d)"
        " ON CONFLICT (fingerprint) DO NOTHING RETURNING fingerprint, id, base_unit",
        (
            suite,
            hardware_id,
            [row.fingerprint for row in rows],
            [row.result.benchmark for row in rows],
            [Jsonb(canonical_params(row.result.params)) for row in rows],
            [row.result.language for row in rows],
            [row.result.implementation for row in rows],
            [row.result.mode for row in rows],
            [row.result.variant for row in rows],
            [row.result.metric for row in rows],
            [row.unit for row in rows],
            [row.base_unit for row in rows],
            [row.direction for row in rows],
        ),
    )
    return {bytes(fp): (series_id, base_unit) for fp, series_id, base_unit in cursor}


def _check_units_match(rows: list[_SeriesRow], known: dict[bytes, tuple[int, str]]) -> None:
    errors = [
        FieldError(
            path=f"results[{index}].unit",
            message=f"'{row.unit}' does not measure what this series measures "
            f"(its unit converts to '{known[row.fingerprint][1]}')",
        )
        for index, row in enumerate(rows)
        if known[row.fingerprint][1] != row.base_unit
    ]
    if errors:
        raise ValidationFailed("units do not match the series they extend", errors)


def _copy_results(
    conn: psycopg.Connection[Any],
    run_id: uuid.UUID,
    upload: RunUpload,
    rows: list[_SeriesRow],
    series_ids: list[int],
) -> None:
    started_at = upload.started_at
    with (
        conn.cursor() as cursor,
        cursor.copy(
            "COPY result (run_id, series_id, started_at, value, unit, value_base, stats, samples)"
            " FROM STDIN (FORMAT BINARY)"
        ) as copy,
    ):
        copy.set_types(
            ["uuid", "int8", "timestamptz", "float8", "text", "float8", "jsonb", "float8[]"]
        )
        for row, series_id in zip(rows, series_ids, strict=True):
            result = row.result
            stats = result.stats.model_dump(exclude_none=True) if result.stats else None
            copy.write_row(
                (
                    run_id,
                    series_id,
                    started_at,
                    result.value,
                    row.unit,
                    result.value * row.factor,
                    Jsonb(stats) if stats else None,
                    result.samples,
                )
            )
