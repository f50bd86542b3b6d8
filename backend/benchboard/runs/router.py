"""HTTP for runs: the upload of contract v1, the run list, one run, its raw upload."""

import uuid
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session

from benchboard.caching import code_read
from benchboard.collector import collector_paused
from benchboard.deps import (
    AdminToken,
    ReadAccess,
    SessionDep,
    SettingsDep,
    UploadToken,
    ViewerDep,
)
from benchboard.errors import ErrorOut
from benchboard.pagination import PAGE_DEFAULT
from benchboard.query_params import key_values
from benchboard.runs import batch, deletion, queries, store
from benchboard.runs.body import parse_upload, read_body, require_json
from benchboard.runs.queries import RunFilter
from benchboard.runs.schemas import (
    RunBatchCreated,
    RunCreated,
    RunDeleted,
    RunDetail,
    RunPage,
    RunUpload,
)
from benchboard.runs.store import StoredRun
from benchboard.tokens.service import Principal

router = APIRouter(prefix="/api/v1", tags=["runs"])


async def run_filter(
    suite: str | None = None,
    branch: str | None = None,
    hardware: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    tag: Annotated[list[str] | None, Query(description="k=v, repeatable")] = None,
    *,
    viewer: ViewerDep,
) -> RunFilter:
    return RunFilter(
        suite=suite,
        branch=branch,
        hardware=hardware,
        tags=key_values(tag or [], "tag"),
        since=since,
        until=until,
        hidden=viewer.hidden,
    )


_UPLOAD_ERRORS: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorOut} for code in (400, 401, 403, 409, 413, 415, 422)
}


@router.post(
    "/runs",
    status_code=201,
    responses={200: {"model": RunCreated, "description": "idempotent repeat"}, **_UPLOAD_ERRORS},
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RunUpload"}}},
        }
    },
)
async def create_run(
    request: Request,
    response: Response,
    session: SessionDep,
    settings: SettingsDep,
    token: UploadToken,
) -> RunCreated:
    """Upload one run (contract v1). Stored whole or not at all."""
    require_json(request)
    body = await read_body(request, limit=settings.max_body_bytes)
    # Validating and storing 100,000 results is CPU and database work: off the event loop.
    stored = await run_in_threadpool(_parse_and_store, session, body, token)
    return store.answer_upload(stored, response)


def _parse_and_store(session: Session, body: bytes, token: Principal) -> StoredRun:
    with collector_paused():
        return store.store_run(session, parse_upload(body), raw_body=body, uploader=token)


@router.post(
    "/runs/batch",
    status_code=201,
    responses={
        200: {"model": RunBatchCreated, "description": "every run was stored before"},
        **_UPLOAD_ERRORS,
    },
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/RunBatchUpload"}}
            },
        }
    },
)
async def create_run_batch(
    request: Request,
    response: Response,
    session: SessionDep,
    settings: SettingsDep,
    token: UploadToken,
) -> RunBatchCreated:
    """Upload many runs (`{"runs": [contract v1 run, …]}`), stored in one transaction:
    all or none. Each run is validated and stored as POST /runs does it, idempotent by
    its `id`; each series of the batch is queued once for change detection."""
    require_json(request)
    body = await read_body(request, limit=settings.max_body_bytes)
    stored = await run_in_threadpool(_parse_and_store_batch, session, body, token)
    return batch.answer_batch(stored, response)


def _parse_and_store_batch(session: Session, body: bytes, token: Principal) -> list[StoredRun]:
    with collector_paused():
        return batch.store_batch(session, batch.parse_batch(body), uploader=token)


@router.get("/runs", dependencies=[ReadAccess])
def list_runs(
    session: SessionDep,
    run_filter: Annotated[RunFilter, Depends(run_filter)],
    limit: Annotated[int, Query(ge=1, le=500)] = PAGE_DEFAULT,
    cursor: str | None = None,
) -> RunPage:
    """Runs of every branch, newest first, filtered by suite, branch, hardware, time and
    tags (`tag=k=v`)."""
    return queries.list_runs(session, run_filter, limit=limit, cursor=cursor)


@router.get("/runs/{run_id}", dependencies=[ReadAccess], responses={404: {"model": ErrorOut}})
def get_run(run_id: uuid.UUID, session: SessionDep) -> RunDetail:
    """One run with its metadata and every result."""
    return queries.get_run(session, run_id)


@router.delete(
    "/runs/{run_id}",
    responses={code: {"model": ErrorOut} for code in (401, 403, 404, 409)},
)
def delete_run(run_id: uuid.UUID, session: SessionDep, token: AdminToken) -> RunDeleted:
    """Undo an upload (admin tokens): the run and its results go in one transaction, the
    series they touched are checked for changes again, and the audit log keeps it."""
    return deletion.delete_run(session, run_id, deleted_by=token.name, deleter=token)


@router.get(
    "/runs/{run_id}/upload",
    dependencies=[ReadAccess],
    response_class=JSONResponse,
    responses={200: {"content": {"application/json": {}}}, 404: {"model": ErrorOut}},
)
def get_run_upload(run_id: uuid.UUID, session: SessionDep) -> Response:
    """The run's upload exactly as it was sent."""
    body = queries.get_upload_body(session, run_id)
    return Response(
        body,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="run-{run_id}.json"'},
    )


@router.get("/schema/upload", tags=["schema"], dependencies=[Depends(code_read)])
def get_upload_schema() -> dict[str, object]:
    """The upload contract v1 as JSON Schema."""
    return RunUpload.model_json_schema()
