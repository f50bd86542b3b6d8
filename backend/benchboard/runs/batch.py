"""Many runs in one request: POST /api/v1/runs/batch, for history imports.

Each run is validated as POST /runs validates it (errors name `runs[3].results[0].value`)
and stored by the same `store_run`, all inside the request's one transaction: the whole
batch is stored or none of it. Each run stays idempotent by its `id`: an identical repeat
counts as existing, a different body under a stored id fails the batch with 409.
"""

from dataclasses import dataclass

import orjson
from fastapi import Response
from pydantic import ValidationError
from sqlalchemy.orm import Session

from benchboard.errors import (
    AppError,
    FieldError,
    ValidationFailed,
)
from benchboard.runs.body import invalid_body
from benchboard.runs.schemas import (
    RunBatchCreated,
    RunBatchItem,
    RunBatchUpload,
    RunUpload,
)
from benchboard.runs.service import StoredRun, identical_repeats, store_run
from benchboard.tokens.service import Principal
from benchboard_ingest.imports.batches import MAX_BATCH_RESULTS


@dataclass(frozen=True)
class ParsedBatch:
    """The validated runs, and each run's JSON as it is stored as its upload."""

    runs: list[RunUpload]
    bodies: list[bytes]


def parse_batch(body: bytes) -> ParsedBatch:
    try:
        batch = RunBatchUpload.model_validate_json(body)
    except ValidationError as error:
        raise invalid_body(error, body, "the batch is not valid") from None
    total = sum(len(run.results) for run in batch.runs)
    if total > MAX_BATCH_RESULTS:
        message = f"at most {MAX_BATCH_RESULTS:,} results in one batch, not {total:,}"
        raise ValidationFailed(message, [FieldError(path="runs", message=message)])
    bodies = [orjson.dumps(run) for run in orjson.loads(body)["runs"]]
    return ParsedBatch(batch.runs, bodies)


def store_batch(session: Session, batch: ParsedBatch, *, uploader: Principal) -> list[StoredRun]:
    """Store every run through `store_run`; an error names the run it came from. Runs
    stored before with the same bytes (a re-run import) are answered in one query."""
    with_ids = {run.id: raw for run, raw in zip(batch.runs, batch.bodies, strict=True) if run.id}
    repeats = identical_repeats(session, with_ids)
    stored = []
    for index, (upload, raw) in enumerate(zip(batch.runs, batch.bodies, strict=True)):
        if upload.id in repeats:
            stored.append(repeats[upload.id])
            continue
        try:
            stored.append(store_run(session, upload, raw_body=raw, uploader=uploader))
        except AppError as error:
            raise _in_run(error, index) from None
    return stored


def answer_batch(stored: list[StoredRun], response: Response) -> RunBatchCreated:
    """201 when any run is new; 200 when the whole batch was stored before."""
    created = sum(run.created for run in stored)
    response.status_code = 201 if created else 200
    return RunBatchCreated(
        runs=[
            RunBatchItem(
                id=run.id,
                url=f"/api/v1/runs/{run.id}",
                result_count=run.result_count,
                created=run.created,
            )
            for run in stored
        ],
        created=created,
        existing=len(stored) - created,
    )


def _in_run(error: AppError, index: int) -> AppError:
    """The same error, its paths inside `runs[index]` (a conflict names the run's id)."""
    prefix = f"runs[{index}]"
    fields = [
        FieldError(path=f"{prefix}.{field.path}", message=field.message) for field in error.fields
    ] or [FieldError(path=f"{prefix}.id", message=error.message)]
    moved = type(error)(f"{prefix}: {error.message}", fields)
    moved.status_code, moved.code = error.status_code, error.code
    return moved
