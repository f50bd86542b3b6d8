"""HTTP for raw tool output: POST /api/v1/ingest/{format} (or `auto` to detect it)."""

import uuid
from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from sqlalchemy.orm import Session

from benchboard.bounds import SLUG_PATTERN
from benchboard.deps import SessionDep, SettingsDep, UploadToken
from benchboard.errors import Conflict, ErrorOut
from benchboard.query_params import key_values
from benchboard.runs import store
from benchboard.runs.body import read_body
from benchboard.runs.store import StoredRun
from benchboard.tokens.service import Principal
from benchboard.tool_formats.schemas import SkippedItem, ToolRunCreated
from benchboard.tool_formats.service import RunFromTool, tool_output_as_run
from benchboard_ingest import FORMATS, ParseContext
from benchboard_ingest.vocabulary import Direction, Mode, UnitName

router = APIRouter(prefix="/api/v1", tags=["ingest"])

ToolFormat = Literal["auto", *FORMATS]  # type: ignore[valid-type]
Many = Annotated[list[str] | None, Query()]


@router.post(
    "/ingest/{tool_format}",
    status_code=201,
    responses={
        200: {"model": ToolRunCreated, "description": "idempotent repeat"},
        **{code: {"model": ErrorOut} for code in (400, 401, 403, 409, 413, 422)},
    },
    openapi_extra={
        "requestBody": {"required": True, "content": {"text/plain": {"schema": {"type": "string"}}}}
    },
)
async def ingest_tool_output(
    tool_format: ToolFormat,
    request: Request,
    response: Response,
    session: SessionDep,
    settings: SettingsDep,
    token: UploadToken,
    suite: Annotated[str, Query(pattern=SLUG_PATTERN)],
    hardware: Annotated[
        str | None,
        Query(
            min_length=1,
            max_length=200,
            description="the machine's name; optional where the input names it (asv, "
            "Conbench, LNT records)",
        ),
    ] = None,
    language: str | None = None,
    implementation: str | None = None,
    mode: Mode | None = None,
    variant: str | None = None,
    benchmark: str | None = None,
    unit: Annotated[
        UnitName | None, Query(description="unit of figures the input leaves open (BMF)")
    ] = None,
    direction: Annotated[
        Direction | None,
        Query(description="which way is better where the input does not say (gab-custom)"),
    ] = None,
    run_id: Annotated[
        uuid.UUID | None,
        Query(
            description="the run's id; default the run document's own `id`, else one derived"
            " from the request (format, query, body): sent again, the request answers 200 with"
            " the run it stored"
        ),
    ] = None,
    started_at: datetime | None = None,
    name: str | None = None,
    source_url: str | None = None,
    branch: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    commit: Annotated[str | None, Query(min_length=1, max_length=100)] = None,
    param: Many = None,
    tag: Many = None,
) -> ToolRunCreated:
    """A benchmark tool's native output (wrk, fio, hyperfine…), or another tracker's
    record of one run (Bencher BMF, github-action-benchmark custom JSON, asv, Conbench,
    LNT), stored as one run. A record's date, commit, machine and environment are the
    run's where the query does not give them."""
    body = await read_body(request, limit=settings.max_body_bytes)
    given = RunFromTool(
        suite=suite,
        hardware=hardware,
        context=ParseContext(
            language=language,
            implementation=implementation,
            mode=mode,
            variant=variant,
            benchmark=benchmark,
            unit=unit,
            direction=direction,
        ),
        params=key_values(param or [], "param"),
        tags=key_values(tag or [], "tag"),
        run_id=str(run_id) if run_id else None,
        started_at=started_at.isoformat() if started_at else None,
        name=name,
        source_url=source_url,
        git={key: value for key, value in (("branch", branch), ("commit", commit)) if value},
    )
    chosen = None if tool_format == "auto" else tool_format
    stored, skipped = await run_in_threadpool(_parse_and_store, session, body, chosen, given, token)
    created = store.answer_upload(stored, response)
    return ToolRunCreated(**created.model_dump(), skipped=skipped)


def _parse_and_store(
    session: Session, body: bytes, tool_format: str | None, given: RunFromTool, token: Principal
) -> tuple[StoredRun, list[SkippedItem]]:
    run = tool_output_as_run(body, tool_format, given)
    try:
        stored = store.store_run(session, run.upload, raw_body=run.body, uploader=token)
    except Conflict:
        if run.derived_id is None:
            raise
        # The same request stored its run before: a retry. Their bodies differ only where
        # the run's date defaults to the time it was sent.
        stored = store.repeated_run(session, run.derived_id)
    return stored, run.skipped
