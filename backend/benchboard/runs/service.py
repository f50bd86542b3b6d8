"""Reading runs: the list, one run with its results, the raw upload."""

import os
import uuid
from datetime import datetime

from sqlalchemy import Select, func, literal, select, tuple_
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.orm import Session

from benchboard.errors import NotFound
from benchboard.models import Hardware, Result, Run, Series
from benchboard.pagination import decode_cursor, encode_cursor
from benchboard.runs.schemas import (
    HardwareOut,
    ResultOut,
    RunDetail,
    RunPage,
    RunSummary,
    SuiteList,
    SuiteOut,
)
from benchboard.series.schemas import ResultIdentity

MIN_TITLE = 12


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
    tags: dict[str, str],
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
    if tags:
        query = query.where(Run.tags.contains(tags))  # served by the GIN index on tags
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
    return row._tuple()


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
        **ResultIdentity.model_validate(series).model_dump(),
        id=result.id,
        series_id=series.id,
        unit=result.unit,
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


def suite_title(names: list[str | None], *, newest: str | None) -> str | None:
    """What the suite's runs are called in common ("Study X (8 cores)", "Study X (40 cores)"
    → "Study X"), else the newest run's name."""
    named = [name for name in names if name]
    # Character by character on purpose: these are titles, not paths.
    common = os.path.commonprefix(named).rstrip(" ([-–—:,") if len(named) > 1 else ""  # noqa: RUF071
    return common if len(common) >= MIN_TITLE else newest


def list_suites(session: Session) -> SuiteList:
    """Every suite; its title is its newest run's name, its description a `description` tag."""
    newest = (
        select(Run.suite, Run.name, Run.tags["description"].astext.label("description"))
        .distinct(Run.suite)
        .order_by(Run.suite, Run.started_at.desc())
        .subquery()
    )
    runs = (
        select(
            Run.suite,
            func.count().label("run_count"),
            func.sum(Run.result_count).label("result_count"),
            func.min(Run.started_at).label("first_started_at"),
            func.max(Run.started_at).label("last_started_at"),
            func.array_agg(Run.name.distinct()).label("names"),
        )
        .group_by(Run.suite)
        .subquery()
    )
    series = (
        select(
            Series.suite,
            func.count().label("series_count"),
            func.array_agg(aggregate_order_by(Series.language.distinct(), Series.language)).label(
                "languages"
            ),
            func.array_agg(aggregate_order_by(Hardware.name.distinct(), Hardware.name)).label(
                "hardware"
            ),
        )
        .join(Hardware, Hardware.id == Series.hardware_id)
        .group_by(Series.suite)
        .subquery()
    )
    rows = session.execute(
        select(
            runs,
            newest.c.name,
            newest.c.description,
            series.c.series_count,
            series.c.languages,
            series.c.hardware,
        )
        .join(newest, newest.c.suite == runs.c.suite)
        .join(series, series.c.suite == runs.c.suite)
        .order_by(runs.c.last_started_at.desc())
    ).all()
    return SuiteList(
        items=[
            SuiteOut(
                suite=r.suite,
                title=suite_title(r.names, newest=r.name),
                description=r.description,
                run_count=r.run_count,
                result_count=r.result_count,
                series_count=r.series_count,
                first_started_at=r.first_started_at,
                last_started_at=r.last_started_at,
                languages=r.languages,
                hardware=r.hardware,
            )
            for r in rows
        ]
    )
