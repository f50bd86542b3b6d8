"""Reading runs: the suites, the run list, one run with its results, the raw upload."""

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import ColumnElement, Select, func, select
from sqlalchemy.orm import Session

from benchboard.errors import NotFound
from benchboard.models import Hardware, Result, Run, Series
from benchboard.pagination import Keyset, keyset_page
from benchboard.pipeline.queue import pending_in_run
from benchboard.runs.schemas import (
    HardwareOut,
    ResultOut,
    RunDetail,
    RunPage,
    RunSummary,
)
from benchboard.series.schemas import ResultIdentity


def _summary_query() -> Select[tuple[Run, str]]:
    return select(Run, Hardware.name.label("hardware_name")).join(
        Hardware, Hardware.id == Run.hardware_id
    )


def _summary(run: Run, hardware_name: str) -> RunSummary:
    return RunSummary(
        id=run.id,
        suite=run.suite,
        name=run.name,
        started_at=run.started_at,
        hardware_name=hardware_name,
        branch=run.branch,
        commit=(run.git or {}).get("commit"),
        result_count=run.result_count,
        source_url=run.source_url,
        tags=run.tags,
        created_at=run.created_at,
    )


@dataclass(frozen=True)
class RunFilter:
    """Runs of a suite, branch and machine, between two times, carrying every given tag."""

    suite: str | None = None
    branch: str | None = None
    hardware: str | None = None
    tags: Mapping[str, str] = field(default_factory=dict)
    since: datetime | None = None
    until: datetime | None = None
    hidden: frozenset[str] = frozenset()  # private suites the reader may not see

    def conditions(self) -> list[ColumnElement[bool]]:
        conditions: list[ColumnElement[bool]] = []
        if self.hidden:
            conditions.append(Run.suite.not_in(sorted(self.hidden)))
        if self.suite is not None:
            conditions.append(Run.suite == self.suite)
        if self.branch is not None:
            conditions.append(Run.branch == self.branch)
        if self.hardware is not None:
            conditions.append(Hardware.name == self.hardware)
        if self.tags:
            conditions.append(Run.tags.contains(dict(self.tags)))  # the GIN index on tags
        if self.since is not None:
            conditions.append(Run.started_at >= self.since)
        if self.until is not None:
            conditions.append(Run.started_at <= self.until)
        return conditions


NEWEST_FIRST = Keyset((Run.started_at, Run.id), descending=True)


def list_runs(
    session: Session, run_filter: RunFilter, *, limit: int, cursor: str | None
) -> RunPage:
    query = _summary_query().where(*run_filter.conditions())
    page = keyset_page(session, query, NEWEST_FIRST, limit=limit, cursor=cursor)
    return RunPage(
        items=[_summary(row.Run, row.hardware_name) for row in page.rows],
        next_cursor=page.next_cursor,
    )


def _run_row(session: Session, run_id: uuid.UUID) -> tuple[Run, str]:
    row = session.execute(_summary_query().where(Run.id == run_id)).one_or_none()
    if row is None:
        raise NotFound(f"no run {run_id}")
    return row._tuple()


def get_run_summary(session: Session, run_id: uuid.UUID) -> RunSummary:
    return _summary(*_run_row(session, run_id))


def get_run(session: Session, run_id: uuid.UUID) -> RunDetail:
    run, hardware_name = _run_row(session, run_id)
    hardware_info = run.hardware_info
    if hardware_info is None:  # a row written directly (bench scripts): the machine's
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
        detection_pending_series=pending_in_run(session, run_id),
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
