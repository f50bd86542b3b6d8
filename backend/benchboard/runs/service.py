"""Storing an upload: whole or not at all, inside the request's transaction.

A new run also queues the change-detection check of its series, in the same
transaction (regressions/queue.py): an acknowledged upload always gets its check, and
the request itself does no detection work.

The bulk parts talk to psycopg directly: new series are inserted with one `unnest`
statement and results are written with binary COPY (bulk.py), because one upload may
carry 100,000 results and row-by-row inserts are 3-5x slower. Everything else is
SQLAlchemy.
"""

import hashlib
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson
import psycopg
from fastapi import Response
from psycopg.types.json import Jsonb
from sqlalchemy import ColumnElement, bindparam, select, text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from benchboard.bulk import CopyLayout
from benchboard.errors import Conflict, FieldError, ValidationFailed
from benchboard.metrics import RESULTS_STORED
from benchboard.models import Hardware, Result, Run, Series
from benchboard.regressions.queue import enqueue_run
from benchboard.runs.schemas import ResultUpload, RunCreated, RunUpload
from benchboard.runs.totals import RunTotals, count_run
from benchboard.series.identity import canonical_params, series_fingerprint
from benchboard.suites.service import resolve_branch
from benchboard.tokens.service import Principal
from benchboard_ingest.vocabulary import normalize_unit, unit_info


@dataclass(frozen=True)
class StoredRun:
    id: uuid.UUID
    result_count: int
    created: bool


@dataclass(frozen=True)
class _Where:
    """Where a run's results go: its suite, branch and machine (series identity beyond
    the results' own fields)."""

    suite: str
    branch: str
    hardware_id: int


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
    branch, on_default = resolve_branch(
        session, upload.suite, upload.git.branch if upload.git else None
    )
    where = _Where(upload.suite, branch, hardware_id)
    if not _insert_run(session, upload, run_id, where, raw_body, uploader):
        return _existing_run(session, run_id, raw_body)
    series_ids, created = _resolve_series(session, where, rows)
    RESULT_COPY.write(_driver_connection(session), _result_rows(run_id, upload, rows, series_ids))
    count_run(
        session,
        RunTotals(
            suite=upload.suite,
            branch=branch,
            hardware=upload.hardware.name,
            name=upload.name,
            started_at=upload.started_at,
            series_ids=series_ids,
            new_series_languages=[row.result.language for row in created],
        ),
    )
    if on_default:  # only the default branch has regressions
        enqueue_run(session, run_id)  # last: its queue-row locks are held only until commit
    return StoredRun(id=run_id, result_count=len(rows), created=True)


def answer_upload(stored: StoredRun, response: Response) -> RunCreated:
    """201 with where the run is for a new run; 200 for an idempotent repeat."""
    response.status_code = 201 if stored.created else 200
    if stored.created:
        RESULTS_STORED.inc(stored.result_count)
    return RunCreated(
        id=stored.id, url=f"/api/v1/runs/{stored.id}", result_count=stored.result_count
    )


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
    """The machine's id; further keys of its description are merged into what is known."""
    info = upload.hardware.model_dump(exclude={"name"}, exclude_none=True)
    known = session.scalar(
        select(Hardware.id).where(
            Hardware.name == upload.hardware.name, Hardware.info.contains(info)
        )
    )
    if known is not None:  # as described before, the usual case: a cached SELECT suffices
        return known
    insert = pg_insert(Hardware).values(name=upload.hardware.name, info=info)
    statement = insert.on_conflict_do_update(
        index_elements=[Hardware.name],
        set_={Hardware.info: Hardware.info.concat(insert.excluded.info)},
        where=~Hardware.info.contains(insert.excluded.info),
    ).returning(Hardware.id)
    hardware_id = session.scalar(statement)
    if hardware_id is None:  # known already, with nothing new to add
        hardware_id = session.scalar(
            select(Hardware.id).where(Hardware.name == upload.hardware.name)
        )
    assert hardware_id is not None
    return hardware_id


# SQL text, not postgresql.insert(): SQLAlchemy never caches the dialect's INSERT … ON
# CONFLICT (inherit_cache = False), and compiling it cost 3 ms per run, 6.5 s of a
# 2,000-run batch. Text is compiled once.
_INSERT_RUN = text(
    "INSERT INTO run (id, suite, name, started_at, source_url, git, branch, hardware_id,"
    " environment, tags, result_count, upload_body, upload_sha256, uploaded_by) VALUES (:id,"
    " :suite, :name, :started_at, :source_url, :git, :branch, :hardware_id, :environment, :tags,"
    " :result_count, :upload_body, :upload_sha256, :uploaded_by)"
    " ON CONFLICT (id) DO NOTHING RETURNING id"
).bindparams(
    bindparam("git", type_=Run.git.type),
    bindparam("environment", type_=Run.environment.type),
    bindparam("tags", type_=Run.tags.type),
)


def _insert_run(
    session: Session,
    upload: RunUpload,
    run_id: uuid.UUID,
    where: _Where,
    raw_body: bytes,
    uploader: Principal | None,
) -> bool:
    """Insert the run row; False when the id exists (a concurrent twin waits for the first)."""
    values = {
        "id": run_id,
        "suite": upload.suite,
        "name": upload.name,
        "started_at": upload.started_at,
        "source_url": upload.source_url,
        "git": upload.git.model_dump(exclude_none=True) if upload.git else None,
        "branch": where.branch,
        "hardware_id": where.hardware_id,
        "environment": upload.environment,
        "tags": upload.tags,
        "result_count": len(upload.results),
        "upload_body": raw_body,
        "upload_sha256": hashlib.sha256(raw_body).digest(),
        "uploaded_by": uploader.token_id if uploader else None,
    }
    return session.scalar(_INSERT_RUN, values) is not None


def identical_repeats(
    session: Session, bodies: dict[uuid.UUID, bytes]
) -> dict[uuid.UUID, StoredRun]:
    """The runs among `bodies` stored before with these very bytes: one query answers a
    re-sent batch, where store_run would check each run on its own."""
    digests = {run_id: hashlib.sha256(body).digest() for run_id, body in bodies.items()}
    rows = session.execute(
        select(Run.id, Run.upload_sha256, Run.result_count).where(Run.id.in_(digests))
    ).tuples()
    return {
        run_id: StoredRun(
            id=run_id,
            result_count=count,
            created=False,
        )
        for run_id, digest, count in rows
        if digest == digests[run_id]
    }


def _existing_run(session: Session, run_id: uuid.UUID, raw_body: bytes) -> StoredRun:
    stored = session.execute(
        select(Run.upload_sha256, Run.upload_body, Run.result_count).where(Run.id == run_id)
    ).one()
    same_bytes = stored.upload_sha256 == hashlib.sha256(raw_body).digest()
    if not same_bytes and orjson.loads(stored.upload_body) != orjson.loads(raw_body):
        raise Conflict(f"run {run_id} exists with a different body; send a new id")
    return StoredRun(id=run_id, result_count=stored.result_count, created=False)


def _driver_connection(session: Session) -> psycopg.Connection[Any]:
    driver = session.connection().connection.driver_connection
    assert isinstance(driver, psycopg.Connection)
    return driver


def _resolve_series(
    session: Session, where: _Where, rows: list[_SeriesRow]
) -> tuple[list[int], list[_SeriesRow]]:
    """Series ids in the order of `rows`, creating the series that are new; and the rows
    whose series this upload created."""
    known = _known_series(session, where, rows)
    missing = sorted(
        (row for row in rows if row.fingerprint not in known), key=lambda row: row.fingerprint
    )  # one lock order against deadlocks
    created: list[_SeriesRow] = []
    if missing:
        inserted = _insert_series(_driver_connection(session), where, missing)
        created = [row for row in missing if row.fingerprint in inserted]
        known.update(inserted)
        # Series a concurrent upload created first: ON CONFLICT skipped them.
        raced = [row.fingerprint for row in missing if row.fingerprint not in known]
        if raced:
            known.update(
                _series_where(session, Series.fingerprint.in_(raced), Series.branch == where.branch)
            )
    _check_units_match(rows, known)
    return [known[row.fingerprint][0] for row in rows], created


_Known = dict[bytes, tuple[int, str]]


# Up to this many results, an upload looks its series up by fingerprint; above, it reads
# every series of its suite on its branch and machine.
KEY_LOOKUP_LIMIT = 5_000


def _known_series(session: Session, where: _Where, rows: list[_SeriesRow]) -> _Known:
    """The stored series among the run's. A small upload looks its own up: a CI run of 50
    results must not read a suite of 100,000 series (that took ~1 s). A large one reads
    every series of the suite on this branch and machine, a superset of the run's since
    all three are part of each series' identity: one scan is far cheaper than 100,000 key
    lookups."""
    if len(rows) <= KEY_LOOKUP_LIMIT:
        fingerprints = [row.fingerprint for row in rows]
        return _series_where(
            session, Series.fingerprint.in_(fingerprints), Series.branch == where.branch
        )
    return _series_where(
        session,
        Series.suite == where.suite,
        Series.branch == where.branch,
        Series.hardware_id == where.hardware_id,
    )


def _series_where(session: Session, *conditions: ColumnElement[bool]) -> _Known:
    rows = session.execute(
        select(Series.fingerprint, Series.id, Series.base_unit).where(*conditions)
    ).tuples()
    return {
        bytes(fingerprint): (series_id, base_unit) for fingerprint, series_id, base_unit in rows
    }


def _insert_series(conn: psycopg.Connection[Any], where: _Where, rows: list[_SeriesRow]) -> _Known:
    cursor = conn.execute(
        "INSERT INTO series (fingerprint, suite, branch, benchmark, params, language,"
        " implementation, mode, variant, hardware_id, metric, unit, base_unit, direction)"
        " SELECT f, %s, %s, b, p, l, i, m, v, %s, me, u, bu, d FROM unnest("
        " %s::bytea[], %s::text[], %s::jsonb[], %s::text[], %s::text[], %s::text[], %s::text[],"
        " %s::text[], %s::text[], %s::text[], %s::text[]) AS t(f, b, p, l, i, m, v, me, u, bu, d)"
        " ON CONFLICT (fingerprint, branch) DO NOTHING RETURNING fingerprint, id, base_unit",
        (
            where.suite,
            where.branch,
            where.hardware_id,
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


def _check_units_match(rows: list[_SeriesRow], known: _Known) -> None:
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


# The columns an upload writes to `result`, in the order _result_rows yields them.
RESULT_COPY = CopyLayout.of(
    Result.run_id,
    Result.series_id,
    Result.started_at,
    Result.value,
    Result.unit,
    Result.value_base,
    Result.stats,
    Result.samples,
)


def _result_rows(
    run_id: uuid.UUID, upload: RunUpload, rows: list[_SeriesRow], series_ids: list[int]
) -> Iterator[tuple[Any, ...]]:
    for row, series_id in zip(rows, series_ids, strict=True):
        result = row.result
        stats = result.stats.model_dump(exclude_none=True) if result.stats else None
        yield (
            run_id,
            series_id,
            upload.started_at,
            result.value,
            row.unit,
            result.value * row.factor,
            Jsonb(stats) if stats else None,
            result.samples,
        )
