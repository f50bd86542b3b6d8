"""Storing uploads: whole or not at all, inside the request's transaction.

One run (POST /runs) and a batch of thousands (POST /runs/batch, history imports) take
the same path, set-based: a fixed number of statements per request whatever the number
of runs. Runs are inserted with one `unnest` statement, their series resolved with one
lookup and one insert (resolve.py), every result written with one binary COPY (bulk.py),
the totals updated with one statement per table (totals.py), and the change-detection
check of every touched series on a default branch queued with one statement, in the
same transaction (pipeline/queue.py): an acknowledged upload always gets its check,
and the request itself does no detection work. Stored run by run, a 5,000-run history
import took 77 s; in bulk, 4.5 s (bench/README.md, import_speed).

Everything else is SQLAlchemy, but for two measured costs. psycopg is used directly (the
session's connection, `bulk.driver_connection`, in its transaction) only for the binary
COPY of results and for statements with large array parameters, which it sends in binary
(`%b`; bulk.py): the runs' and series' `unnest` inserts, the totals, the detection queue
and the worker's history stream. Those are the allowed raw-psycopg uses, and their
column lists come from `models.py` (`bulk.CopyLayout`). The upserts every upload runs are
SQL text compiled once, not the dialect's `insert().on_conflict_do_…`: the PostgreSQL
Insert has no cache key, so SQLAlchemy rebuilds and compiles it on each call, ~3.6 ms of
a ~10 ms small upload for the detection queue (commit 53d079e). The dialect's upsert
stays where it runs rarely (`_upsert_hardware`: a new machine).
"""

import hashlib
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

import orjson
from fastapi import Response
from psycopg.types.json import Jsonb
from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from benchboard import exact_json
from benchboard.bulk import CopyLayout, driver_connection
from benchboard.errors import AppError, Conflict, ValidationFailed
from benchboard.metrics import RESULTS_STORED
from benchboard.models import Hardware, Result, Run
from benchboard.pipeline.queue import enqueue_series
from benchboard.runs.resolve import (
    Placement,
    SeriesRow,
    resolve_series,
    series_rows,
    unit_errors,
)
from benchboard.runs.schemas import HardwareIn, RunCreated, RunUpload
from benchboard.runs.totals import RunTotals, count_runs
from benchboard.suites.branches import resolve_branch
from benchboard.tokens.service import Principal

_P = ParamSpec("_P")
_T = TypeVar("_T")


@dataclass(frozen=True)
class StoredRun:
    id: uuid.UUID
    result_count: int
    created: bool


@dataclass(frozen=True)
class Incoming:
    """A validated run and its JSON as it is stored as its upload."""

    upload: RunUpload
    body: bytes


class RunRejected(Exception):
    """`error` refused the run at `index` of the request's runs."""

    def __init__(self, index: int, error: AppError) -> None:
        super().__init__(error.message)
        self.index = index
        self.error = error


@dataclass(frozen=True)
class _NewRun:
    """A run to insert, with everything resolved but its series."""

    index: int
    id: uuid.UUID
    incoming: Incoming
    digest: bytes
    placement: Placement
    on_default: bool
    rows: list[SeriesRow]


def store_run(
    session: Session, upload: RunUpload, *, raw_body: bytes, uploader: Principal | None
) -> StoredRun:
    """Store a validated upload; an existing run with the same id answers idempotently."""
    try:
        return store_runs(session, [Incoming(upload, raw_body)], uploader=uploader)[0]
    except RunRejected as rejected:
        raise rejected.error from None


def store_runs(
    session: Session, runs: Sequence[Incoming], *, uploader: Principal | None
) -> list[StoredRun]:
    """Store validated uploads, answered in their order. A run whose id is stored with
    the same body (or sent earlier in `runs`) answers as existing; an error raises
    RunRejected naming the run, and the caller's rollback keeps none of them. A token
    limited to suites is refused (403) for all of them if one run is outside."""
    if uploader is not None:
        for incoming in runs:
            uploader.require_suite(incoming.upload.suite)
    ids = [run.upload.id or uuid.uuid4() for run in runs]
    digests = [hashlib.sha256(run.body).digest() for run in runs]
    answers: dict[int, StoredRun] = _repeats(session, runs, ids, digests)
    candidates = [index for index in range(len(runs)) if index not in answers]
    new_runs = _new_runs(session, runs, ids, digests, candidates)
    inserted = _insert_runs(session, new_runs, uploader)
    for run in new_runs:
        if run.id not in inserted:  # stored before with other bytes, or by a concurrent twin
            answers[run.index] = _rejecting(run.index, _existing_run, session, run)
    new_runs = [run for run in new_runs if run.id in inserted]
    if new_runs:
        _store_results(session, new_runs)
    for run in new_runs:
        answers[run.index] = StoredRun(id=run.id, result_count=len(run.rows), created=True)
    return [answers[index] for index in range(len(runs))]


def repeated_run(session: Session, run_id: uuid.UUID) -> StoredRun:
    """A stored run, as an idempotent repeat of its upload answers it."""
    count = session.execute(select(Run.result_count).where(Run.id == run_id)).scalar_one()
    return StoredRun(id=run_id, result_count=count, created=False)


def answer_upload(stored: StoredRun, response: Response) -> RunCreated:
    """201 with where the run is for a new run; 200 for an idempotent repeat."""
    response.status_code = 201 if stored.created else 200
    if stored.created:
        RESULTS_STORED.inc(stored.result_count)
    return RunCreated(
        id=stored.id, url=f"/api/v1/runs/{stored.id}", result_count=stored.result_count
    )


def _repeats(
    session: Session, runs: Sequence[Incoming], ids: list[uuid.UUID], digests: list[bytes]
) -> dict[int, StoredRun]:
    """Runs stored before with these very bytes (a re-sent batch: one query, where a
    single run learns it from its INSERT), and runs sent twice in `runs` (the first one
    counts)."""
    sent: dict[uuid.UUID, int] = {}  # each id's first index
    for index, run in enumerate(runs):
        if run.upload.id:
            sent.setdefault(ids[index], index)
    stored: list[tuple[uuid.UUID, bytes, int]] = []
    if len(runs) > 1 and sent:
        query = select(Run.id, Run.upload_sha256, Run.result_count).where(Run.id.in_(sent))
        stored = list(session.execute(query).tuples())
    answers = {
        sent[run_id]: StoredRun(id=run_id, result_count=count, created=False)
        for run_id, digest, count in stored
        if digest == digests[sent[run_id]]
    }
    for index, run in enumerate(runs):
        first = sent.get(ids[index], index)
        if first != index and index not in answers:
            if digests[first] != digests[index] and not _same_json(runs[first].body, run.body):
                message = f"run {ids[index]} is sent again with a different body"
                raise RunRejected(index, Conflict(message))
            answers[index] = StoredRun(ids[index], len(run.upload.results), created=False)
    return answers


def _new_runs(
    session: Session,
    runs: Sequence[Incoming],
    ids: list[uuid.UUID],
    digests: list[bytes],
    indexes: list[int],
) -> list[_NewRun]:
    """Each run's machine, branch and results' series keys; a machine or suite branch
    shared by many runs is looked up once."""
    machines: dict[tuple[str, bytes], int] = {}
    branches: dict[tuple[str, str | None], tuple[str, bool]] = {}
    new_runs = []
    for index in indexes:
        upload = runs[index].upload
        rows = _rejecting(index, series_rows, upload)
        info = machine_description(upload.hardware)
        machine = (upload.hardware.name, exact_json.dumps(info, option=orjson.OPT_SORT_KEYS))
        if machine not in machines:
            machines[machine] = _upsert_hardware(session, upload.hardware.name, info)
        git_branch = upload.git.branch if upload.git else None
        if (upload.suite, git_branch) not in branches:
            branches[upload.suite, git_branch] = resolve_branch(session, upload.suite, git_branch)
        branch, on_default = branches[upload.suite, git_branch]
        placement = Placement(upload.suite, branch, machines[machine])
        new_runs.append(
            _NewRun(index, ids[index], runs[index], digests[index], placement, on_default, rows)
        )
    return new_runs


def _store_results(session: Session, runs: list[_NewRun]) -> None:
    """The runs' series, results, totals and detection checks."""
    known, created = resolve_series(session, [(run.placement, run.rows) for run in runs])
    for run in runs:
        if errors := unit_errors(run.rows, run.placement.branch, known):
            message = "units do not match the series they extend"
            raise RunRejected(run.index, ValidationFailed(message, errors))
    series_ids = []
    for run in runs:
        of_branch = known[run.placement.branch]
        series_ids.append([of_branch[row.fingerprint][0] for row in run.rows])
    RESULT_COPY.write(driver_connection(session), _result_rows(runs, series_ids))
    new_series: dict[tuple[str, str], list[str]] = {}
    for placement, row in created:
        new_series.setdefault((placement.suite, placement.branch), []).append(row.result.language)
    totals = [
        RunTotals(
            suite=run.incoming.upload.suite,
            branch=run.placement.branch,
            hardware=run.incoming.upload.hardware.name,
            name=run.incoming.upload.name,
            started_at=run.incoming.upload.started_at,
            series_ids=ids,
        )
        for run, ids in zip(runs, series_ids, strict=True)
    ]
    count_runs(session, totals, new_series)
    # Only default branches have regressions. Last: its queue-row locks are held only
    # until the commit.
    checked = [
        series_id
        for run, ids in zip(runs, series_ids, strict=True)
        if run.on_default
        for series_id in ids
    ]
    if checked:
        enqueue_series(session, checked)


def _rejecting(index: int, function: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """`function`'s answer; its error, as the error of the run at `index`."""
    try:
        return function(*args, **kwargs)
    except AppError as error:
        raise RunRejected(index, error) from None


def machine_description(hardware: HardwareIn) -> dict[str, Any]:
    return hardware.model_dump(exclude={"name"}, exclude_none=True)


def _upsert_hardware(session: Session, name: str, info: dict[str, Any]) -> int:
    """The machine's id. A new machine takes this description; a known one keeps its own,
    which only a maintainer changes (the run keeps the description it was sent)."""
    known = session.scalar(select(Hardware.id).where(Hardware.name == name))
    if known is not None:  # the usual case: a cached SELECT suffices
        return known
    insert = pg_insert(Hardware).values(name=name, info=info)
    statement = insert.on_conflict_do_nothing(index_elements=[Hardware.name])
    session.execute(statement)
    hardware_id = session.scalar(select(Hardware.id).where(Hardware.name == name))
    assert hardware_id is not None
    return hardware_id


# The columns an upload writes to `run`, in the order _insert_runs sends them (the bench
# scripts COPY runs with it). One statement for every run of the request; sorted by id,
# one lock order between concurrent uploads of the same runs.
RUN_COPY = CopyLayout.of(
    Run.id,
    Run.suite,
    Run.name,
    Run.started_at,
    Run.source_url,
    Run.git,
    Run.branch,
    Run.hardware_id,
    Run.hardware_info,
    Run.environment,
    Run.tags,
    Run.result_count,
    Run.upload_body,
    Run.upload_sha256,
    Run.uploaded_by,
)
_INSERT_RUNS = RUN_COPY.unnest_insert("ON CONFLICT (id) DO NOTHING RETURNING id")


def _insert_runs(
    session: Session, runs: list[_NewRun], uploader: Principal | None
) -> set[uuid.UUID]:
    """Insert the run rows; the ids inserted (not those a concurrent twin stored first)."""
    if not runs:
        return set()
    ordered = sorted(runs, key=lambda run: run.id)
    uploads = [run.incoming.upload for run in ordered]
    cursor = driver_connection(session).execute(
        _INSERT_RUNS,
        (
            [run.id for run in ordered],
            [upload.suite for upload in uploads],
            [upload.name for upload in uploads],
            [upload.started_at for upload in uploads],
            [upload.source_url for upload in uploads],
            [Jsonb(u.git.model_dump(exclude_none=True)) if u.git else None for u in uploads],
            [run.placement.branch for run in ordered],
            [run.placement.hardware_id for run in ordered],
            [Jsonb(machine_description(upload.hardware)) for upload in uploads],
            [Jsonb(upload.environment) for upload in uploads],
            [Jsonb(upload.tags) for upload in uploads],
            [len(upload.results) for upload in uploads],
            [run.incoming.body for run in ordered],
            [run.digest for run in ordered],
            [uploader.token_id if uploader else None] * len(ordered),
        ),
    )
    return {run_id for (run_id,) in cursor}


def _existing_run(session: Session, run: _NewRun) -> StoredRun:
    stored = session.execute(
        select(Run.upload_sha256, Run.result_count).where(Run.id == run.id)
    ).one()
    if stored.upload_sha256 != run.digest:
        body = session.scalar(select(Run.upload_body).where(Run.id == run.id))
        assert body is not None
        if not _same_json(body, run.incoming.body):
            raise Conflict(f"run {run.id} exists with a different body; send a new id")
    return StoredRun(id=run.id, result_count=stored.result_count, created=False)


def _same_json(first: bytes, second: bytes) -> bool:
    return bool(exact_json.loads(first) == exact_json.loads(second))


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


def _result_rows(runs: list[_NewRun], series_ids: list[list[int]]) -> Iterator[tuple[Any, ...]]:
    for run, ids in zip(runs, series_ids, strict=True):
        started_at = run.incoming.upload.started_at
        for row, series_id in zip(run.rows, ids, strict=True):
            result = row.result
            stats = result.stats.model_dump(exclude_none=True) if result.stats else None
            yield (
                run.id,
                series_id,
                started_at,
                result.value,
                row.unit,
                result.value * row.factor,
                Jsonb(stats) if stats else None,
                result.samples,
            )
