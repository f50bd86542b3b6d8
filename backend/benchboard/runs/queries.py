"""Reading runs: the suites, the run list, one run with its results, the raw upload."""

import os
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import ColumnElement, Select, func, select
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.orm import Session

from benchboard.errors import NotFound
from benchboard.models import Hardware, Result, Run, Series
from benchboard.pagination import Keyset, keyset_page
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
        result_count=run.result_count,
        source_url=run.source_url,
        tags=run.tags,
        created_at=run.created_at,
    )


@dataclass(frozen=True)
class RunFilter:
    """Runs of a suite and machine, between two times, carrying every given tag."""

    suite: str | None = None
    hardware: str | None = None
    tags: Mapping[str, str] = field(default_factory=dict)
    since: datetime | None = None
    until: datetime | None = None

    def conditions(self) -> list[ColumnElement[bool]]:
        conditions: list[ColumnElement[bool]] = []
        if self.suite is not None:
            conditions.append(Run.suite == self.suite)
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
    """Every suite, newest first: its title is what its runs' names share (else the newest
    run's name), its description the newest run's `description` tag."""
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
