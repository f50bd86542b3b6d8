"""Series reads: facets, the series list with latest values, one series' history."""

from typing import Any

from sqlalchemy import BigInteger, Row, Select, func, literal_column, select, type_coerce
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from benchboard.errors import NotFound
from benchboard.models import Hardware, Result, Series
from benchboard.pagination import Keyset, keyset_page
from benchboard.series.filters import DIMENSIONS, SeriesFilter, dimension_column
from benchboard.series.schemas import (
    Facets,
    FacetValue,
    ResultIdentity,
    SeriesIdentity,
    SeriesOut,
    SeriesPage,
    SeriesValue,
)


def series_with_hardware() -> Select[Any]:
    return select(Series, Hardware.name.label("hardware_name")).join(
        Hardware, Hardware.id == Series.hardware_id
    )


# The branch facet lists every branch (its own filter is ignored, as for any dimension).
FACET_DIMENSIONS = (*DIMENSIONS, "branch")


def get_facets(session: Session, series_filter: SeriesFilter) -> Facets:
    dimensions: dict[str, list[FacetValue]] = {}
    for dimension in FACET_DIMENSIONS:
        column = dimension_column(dimension)
        query = (
            select(column.label("value"), func.count().label("count"))
            .select_from(Series)
            .join(Hardware, Hardware.id == Series.hardware_id)
            .where(column.is_not(None))
            .group_by(column)
            .order_by(func.count().desc(), column)
        )
        rows = session.execute(series_filter.without(dimension).apply(query)).all()
        dimensions[dimension] = [FacetValue(value=row.value, count=row.count) for row in rows]
    return Facets(dimensions=dimensions)


def series_id_table(series_ids: list[int]) -> Any:
    """`unnest(:ids) AS ids(id)`: a table of ids to drive one LATERAL lookup per series."""
    id_array = type_coerce(series_ids, ARRAY(BigInteger))
    return func.unnest(id_array).table_valued("id").render_derived("ids")


def latest_result(series_id: Any) -> Any:
    """The newest result of a series, one index lookup (LATERAL), not a DISTINCT ON scan."""
    return (
        select(
            Result.run_id,
            Result.started_at,
            Result.value,
            Result.unit,
            Result.value_base,
            Result.stats,
        )
        .where(Result.series_id == series_id)
        .order_by(Result.started_at.desc(), Result.id.desc())
        .limit(1)
        .lateral("latest")
    )


BY_ID = Keyset((Series.id,))


def list_series(
    session: Session, series_filter: SeriesFilter, *, limit: int, cursor: str | None
) -> SeriesPage:
    latest = latest_result(Series.id)
    run_count = select(func.count()).where(Result.series_id == Series.id).scalar_subquery()
    query = (
        series_filter.apply(series_with_hardware())
        .add_columns(run_count.label("run_count"), *latest.c)
        .outerjoin(latest, literal_column("true"))
    )
    page = keyset_page(session, query, BY_ID, limit=limit, cursor=cursor)
    return SeriesPage(items=[_series_out(row) for row in page.rows], next_cursor=page.next_cursor)


def series_identity(series: Series, hardware_name: str) -> SeriesIdentity:
    return SeriesIdentity(
        **ResultIdentity.model_validate(series).model_dump(),
        id=series.id,
        hardware=hardware_name,
        branch=series.branch,
        unit=series.unit,
    )


def series_value(row: Row[Any]) -> SeriesValue | None:
    if row.run_id is None:
        return None
    return SeriesValue(
        run_id=row.run_id,
        started_at=row.started_at,
        value=row.value,
        unit=row.unit,
        value_base=row.value_base,
        stats=row.stats,
    )


def _series_out(row: Row[Any]) -> SeriesOut:
    identity = series_identity(row.Series, row.hardware_name)
    return SeriesOut(**identity.model_dump(), run_count=row.run_count, latest=series_value(row))


def get_series_identity(session: Session, series_id: int) -> SeriesIdentity:
    row = session.execute(series_with_hardware().where(Series.id == series_id)).one_or_none()
    if row is None:
        raise NotFound(f"no series {series_id}")
    return series_identity(row.Series, row.hardware_name)
