"""The filters every series view shares, read from repeatable query parameters."""

from dataclasses import dataclass, fields, replace
from datetime import datetime
from typing import Annotated, Any

from fastapi import Depends, Query
from sqlalchemy import ColumnElement, Select, and_, exists, select

from benchboard.deps import ViewerDep
from benchboard.models import Hardware, Result, Series
from benchboard.suites.branches import on_default_branch

DIMENSIONS = (
    "suite",
    "benchmark",
    "language",
    "implementation",
    "mode",
    "variant",
    "hardware",
    "metric",
)


@dataclass(frozen=True)
class SeriesFilter:
    """Values within a dimension are alternatives (OR); dimensions combine (AND).

    `branch` names one branch; without it each series counts on its suite's default
    branch (`every_branch` drops the condition: the branch facet counts all of them).
    """

    suite: tuple[str, ...] = ()
    benchmark: tuple[str, ...] = ()
    language: tuple[str, ...] = ()
    implementation: tuple[str, ...] = ()
    mode: tuple[str, ...] = ()
    variant: tuple[str, ...] = ()
    hardware: tuple[str, ...] = ()
    metric: tuple[str, ...] = ()
    branch: str | None = None
    every_branch: bool = False
    since: datetime | None = None
    until: datetime | None = None
    # Private suites the reader's token does not cover (tokens/visibility.py): never
    # dropped, unlike a dimension, so no facet counts them.
    hidden: frozenset[str] = frozenset()

    def without(self, dimension: str) -> "SeriesFilter":
        if dimension == "branch":
            return replace(self, branch=None, every_branch=True)
        cleared: dict[str, tuple[str, ...]] = {dimension: ()}
        return replace(self, **cleared)  # type: ignore[arg-type]

    def conditions(self, table: Any = Series) -> list[ColumnElement[bool]]:
        return list(self.conditions_by_dimension(table).values())

    @property
    def has_time(self) -> bool:
        """Whether since/until select series by their results: only `series` rows can say."""
        return self.since is not None or self.until is not None

    def conditions_by_dimension(self, table: Any = Series) -> dict[str, ColumnElement[bool]]:
        """The conditions, each under the dimension it filters (`branch` for the branch,
        `time` for since/until): a facet drops its own. `table` is `Series`, an alias of
        it, or `SeriesGroup` (no time filter: a group has no results); `hardware` is
        Hardware's name, joined by the caller."""
        conditions: dict[str, ColumnElement[bool]] = {}
        if self.branch is not None:
            conditions["branch"] = table.branch == self.branch
        elif not self.every_branch:
            conditions["branch"] = on_default_branch(table.suite, table.branch)
        for field in fields(self):
            values = getattr(self, field.name)
            if field.name in DIMENSIONS and values:
                conditions[field.name] = dimension_column(field.name, table).in_(values)
        if self.has_time:
            conditions["time"] = self._has_result_in_range(table)
        if self.hidden:
            conditions["visible"] = table.suite.not_in(sorted(self.hidden))
        return conditions

    def apply(self, query: Select[Any]) -> Select[Any]:
        return query.where(*self.conditions())

    def _has_result_in_range(self, table: Any) -> ColumnElement[bool]:
        bounds = [Result.series_id == table.id]
        if self.since is not None:
            bounds.append(Result.started_at >= self.since)
        if self.until is not None:
            bounds.append(Result.started_at <= self.until)
        return exists(select(Result.id).where(and_(*bounds)))


def dimension_column(dimension: str, table: Any = Series) -> Any:
    """The column of a dimension; `hardware` is the machine's name (join Hardware)."""
    return Hardware.name if dimension == "hardware" else getattr(table, dimension)


Values = Annotated[list[str] | None, Query()]


async def series_filter(
    suite: Values = None,
    benchmark: Values = None,
    language: Values = None,
    implementation: Values = None,
    mode: Values = None,
    variant: Values = None,
    hardware: Values = None,
    metric: Values = None,
    branch: Annotated[
        str | None, Query(description="one branch; default: each suite's default branch")
    ] = None,
    since: datetime | None = None,
    until: datetime | None = None,
    *,
    viewer: ViewerDep,
) -> SeriesFilter:
    def values(given: list[str] | None) -> tuple[str, ...]:
        return tuple(given or ())

    return SeriesFilter(
        suite=values(suite),
        benchmark=values(benchmark),
        language=values(language),
        implementation=values(implementation),
        mode=values(mode),
        variant=values(variant),
        hardware=values(hardware),
        metric=values(metric),
        branch=branch,
        since=since,
        until=until,
        hidden=viewer.hidden,
    )


SeriesFilterDep = Annotated[SeriesFilter, Depends(series_filter)]
