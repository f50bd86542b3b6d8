"""Many runs in one request: POST /api/v1/runs/batch, for history imports.

Each run is validated as POST /runs validates it (errors name `runs[3].results[0].value`)
and stored by the same set-based `store_runs`, all inside the request's one transaction:
the whole batch is stored or none of it. Each run stays idempotent by its `id`: an
identical repeat counts as existing, a different body under a stored id fails the batch
with 409.
"""

from fastapi import Response
from pydantic import ValidationError
from sqlalchemy.orm import Session

from benchboard import exact_json
from benchboard.errors import AppError, FieldError, ValidationFailed
from benchboard.metrics import RESULTS_STORED
from benchboard.runs.body import invalid_body, refuse_nul_in_results
from benchboard.runs.schemas import (
    RunBatchCreated,
    RunBatchItem,
    RunBatchUpload,
)
from benchboard.runs.store import Incoming, RunRejected, StoredRun, store_runs
from benchboard.tokens.service import Principal
from benchboard_ingest.imports.batches import MAX_BATCH_RESULTS


def parse_batch(body: bytes) -> list[Incoming]:
    try:
        batch = RunBatchUpload.model_validate_json(body)
    except ValidationError as error:
        raise invalid_body(error, body, "the batch is not valid") from None
    refuse_nul_in_results(body, "the batch is not valid")
    total = sum(len(run.results) for run in batch.runs)
    if total > MAX_BATCH_RESULTS:
        message = f"at most {MAX_BATCH_RESULTS:,} results in one batch, not {total:,}"
        raise ValidationFailed(message, [FieldError(path="runs", message=message)])
    bodies = [exact_json.dumps(run) for run in exact_json.loads(body)["runs"]]
    return [Incoming(run, raw) for run, raw in zip(batch.runs, bodies, strict=True)]


def store_batch(session: Session, runs: list[Incoming], *, uploader: Principal) -> list[StoredRun]:
    """Store the runs; an error names the run it came from."""
    try:
        return store_runs(session, runs, uploader=uploader)
    except RunRejected as rejected:
        raise _in_run(rejected.error, rejected.index) from None


def answer_batch(stored: list[StoredRun], response: Response) -> RunBatchCreated:
    """201 when any run is new; 200 when the whole batch was stored before."""
    created = sum(run.created for run in stored)
    response.status_code = 201 if created else 200
    RESULTS_STORED.inc(sum(run.result_count for run in stored if run.created))
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
