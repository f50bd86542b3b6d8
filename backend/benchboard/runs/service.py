"""Reading runs: the list, one run with its results, the raw upload."""

import uuid
from datetime import datetime

from sqlalchemy import Select, func, literal, select, tuple_
from sqlalchemy.orm import Session

from benchboard.errors import NotFound
from benchboard.models import Hardware, Result, Run, Series
from benchboard.pagination import decode_cursor, encode_cursor
from benchboard.runs.schemas import HardwareOut, ResultOut, RunDetail, RunPage, RunSummary


def _summary_query() -> Select[tuple[Run, str]]:
    return select(Run, Hardware.name).join(Hardware, Hardware.id == Run.hardware_id)


def _summary(run: Run, hardware_name: str) -> RunSummary:
    return RunSummary(
        id=run.id,
        suite=run.suite,
        name=run.name,
        started_at=run.started_at,
        hardware_name=hardware_name,
        result_count=run.result_count,
        source_url=run.source_url,
        tags=run.tags,
        created_at=run.created_at,
    )


def list_runs(
    session: Session,
    *,
    suite: str | None,
    hardware: str | None,
    since: datetime | None,
    until: datetime | None,
    limit: int,
    cursor: str | None,
) -> RunPage:
    query = _summary_query().order_by(Run.started_at.desc(), Run.id.desc()).limit(limit + 1)
    if suite is not None:
        query = query.where(Run.suite == suite)
    if hardware is not None:
        query = query.where(Hardware.name == hardware)
    if since is not None:
        query = query.where(Run.started_at >= since)
    if until is not None:
        query = query.where(Run.started_at <= until)
    if cursor is not None:
        started_at, run_id = decode_cursor(cursor)
        after = (datetime.fromisoformat(str(started_at)), uuid.UUID(str(run_id)))
        query = query.where(tuple_(Run.started_at, Run.id) < tuple_(*map(literal, after)))
    rows = session.execute(query).all()
    items = [_summary(run, name) for run, name in rows[:limit]]
    next_cursor = encode_cursor(items[-1].started_at, items[-1].id) if len(rows) > limit else None
    return RunPage(items=items, next_cursor=next_cursor)


def _run_row(session: Session, run_id: uuid.UUID) -> tuple[Run, str]:
    row = session.execute(_summary_query().where(Run.id == run_id)).one_or_none()
    if row is None:
        raise NotFound(f"no run {run_id}")
    return row.tuple()


def get_run_summary(session: Session, run_id: uuid.UUID) -> RunSummary:
    return _summary(*_run_row(session, run_id))


def get_run(session: Session, run_id: uuid.UUID) -> RunDetail:
    run, hardware_name = _run_row(session, run_id)
    hardware_info = session.scalar(select(Hardware.info).where(Hardware.id == run.hardware_id))
    results = session.execute(
        select(Result, Series, func.coalesce(func.cardinality(Result.samples), 0))
        .join(Series, Series.id == Result.series_id)
        .where(Result.run_id == run_id)
        .order_by(Result.id)
    ).all()
    return RunDetail(
        **_summary(run, hardware_name).model_dump(),
        git=run.git,
        environment=run.environment,
        hardware=HardwareOut(name=hardware_name, info=hardware_info or {}),
        results=[_result_out(result, series, count) for result, series, count in results],
    )


def _result_out(result: Result, series: Series, sample_count: int) -> ResultOut:
    return ResultOut(
        id=result.id,
        series_id=series.id,
        benchmark=series.benchmark,
        params=series.params,
        language=series.language,
        implementation=series.implementation,
        mode=series.mode,
        variant=series.variant,
        metric=series.metric,
        unit=result.unit,
        base_unit=series.base_unit,
        direction=series.direction,
        value=result.value,
        value_base=result.value_base,
        stats=result.stats,
        sample_count=sample_count,
    )


def get_upload_body(session: Session, run_id: uuid.UUID) -> bytes:
    body = session.scalar(select(Run.upload_body).where(Run.id == run_id))
    if body is None:
        raise NotFound(f"no run {run_id}")
    return body
