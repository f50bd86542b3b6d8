"""Series reads: facets, the series list with latest values."""

from typing import Any

import orjson
from sqlalchemy import (
    BigInteger,
    Select,
    Text,
    and_,
    any_,
    bindparam,
    case,
    false,
    func,
    literal_column,
    null,
    select,
    true,
    type_coerce,
)
from sqlalchemy.dialects.postgresql import ARRAY, aggregate_order_by
from sqlalchemy.orm import Session

from benchboard.models import Hardware, Result, Series, SeriesGroup
from benchboard.pagination import Keyset, KeysetPage, keyset_page
from benchboard.series.filters import DIMENSIONS, SeriesFilter, dimension_column
from benchboard.series.schemas import (
    Facets,
    FacetValue,
    ResultIdentity,
    SeriesIdentity,
)


def series_with_hardware() -> Select[Any]:
    return select(Series, Hardware.name.label("hardware_name")).join(
        Hardware, Hardware.id == Series.hardware_id
    )


# The branch facet lists every branch (its own filter is ignored, as for any dimension).
FACET_DIMENSIONS = (*DIMENSIONS, "branch")


def get_facets(session: Session, series_filter: SeriesFilter) -> Facets:
    """One statement, one pass: the rows under any filter are read once with a flag per
    filter, and GROUPING SETS sums each dimension's values' series where every other flag
    holds (a union of one aggregate per dimension scanned the rows nine times, twice as
    long; nine statements, twice as long again). The rows are the series groups
    (series/groups.py: a hundredth of the series in a parameter sweep), or the series
    themselves when since/until select series by their results."""
    table, weight = (
        (Series, literal_column("1"))
        if series_filter.has_time
        else (SeriesGroup, SeriesGroup.series_count)
    )
    conditions = series_filter.conditions_by_dimension(table)
    every_facet = [conditions.pop("time")] if "time" in conditions else []
    flagged = (
        select(
            *(dimension_column(d, table).label(d) for d in FACET_DIMENSIONS),
            weight.label("weight"),
            *(condition.label(f"ok_{d}") for d, condition in conditions.items()),
        )
        .select_from(table)
        .join(Hardware, Hardware.id == table.hardware_id)
        .where(*every_facet)
        .subquery("flagged")
    )
    values = [flagged.c[d] for d in FACET_DIMENSIONS]
    sums = [
        func.sum(flagged.c.weight).filter(
            and_(true(), *(flagged.c[f"ok_{other}"] for other in conditions if other != d))
        )
        for d in FACET_DIMENSIONS
    ]
    rows = session.execute(
        select(func.grouping(*values), *values, *sums).group_by(func.grouping_sets(*values))
    )
    # GROUPING() has a bit per dimension, first dimension highest, set where the row does
    # not group by it: each row groups by one.
    every = (1 << len(FACET_DIMENSIONS)) - 1
    grouped_by = {
        every ^ (1 << (len(FACET_DIMENSIONS) - 1 - index)): index
        for index in range(len(FACET_DIMENSIONS))
    }
    found: dict[str, list[tuple[int, str]]] = {d: [] for d in FACET_DIMENSIONS}
    for row in rows.tuples():
        index = grouped_by[row[0]]
        value, count = row[1 + index], row[1 + len(FACET_DIMENSIONS) + index]
        if value is not None and count:
            found[FACET_DIMENSIONS[index]].append((-count, value))
    return Facets(
        dimensions={
            d: [FacetValue(value=value, count=-count) for count, value in sorted(pairs)]
            for d, pairs in found.items()
        }
    )


def series_id_table(series_ids: list[int]) -> Any:
    """`unnest(:ids) AS ids(id)`: a table of ids to drive one LATERAL lookup per series."""
    id_array = type_coerce(series_ids, ARRAY(BigInteger))
    return func.unnest(id_array).table_valued("id").render_derived("ids")


def latest_result(series_id: Any, last_started_at: Any, *extra: Any, name: str = "latest") -> Any:
    """The newest result of a series (LATERAL): the row at the series' kept
    `last_started_at`, one index lookup, newest upload first if two runs share it."""
    return (
        select(
            Result.run_id,
            Result.started_at,
            Result.value,
            Result.unit,
            Result.value_base,
            Result.stats,
            *extra,
        )
        .where(Result.series_id == series_id, Result.started_at == last_started_at)
        .order_by(Result.id.desc())
        .limit(1)
        .lateral(name)
    )


BY_ID = Keyset((Series.id,))


def _series_json(latest: Any) -> Any:
    """A SeriesOut object, written by PostgreSQL: building 1,000 of them in Python
    (ORM rows, then three models each) cost ~30 ms of a 100 ms page."""
    value = json_object(
        run_id=latest.c.run_id,
        started_at=latest.c.started_at,
        value=latest.c.value,
        unit=latest.c.unit,
        value_base=latest.c.value_base,
        stats=latest.c.stats,
    )
    return json_object(
        id=Series.id,
        suite=Series.suite,
        benchmark=Series.benchmark,
        params=Series.params,
        language=Series.language,
        implementation=Series.implementation,
        mode=Series.mode,
        variant=Series.variant,
        hardware=Hardware.name,
        branch=Series.branch,
        metric=Series.metric,
        unit=Series.unit,
        base_unit=Series.base_unit,
        direction=Series.direction,
        run_count=Series.result_count,
        latest=case((latest.c.run_id.is_(None), null()), else_=value),
    ).cast(Text)


def json_object(**columns: Any) -> Any:
    """A JSON object of these columns under these keys, built by PostgreSQL."""
    pairs: list[Any] = []
    for key, column in columns.items():
        pairs += [literal_column(f"'{key}'"), column]  # keys: constants of our code
    return func.json_build_object(*pairs)


# A filter matching this many series or fewer has their ids read first (its own indexes);
# more, and a page walks the primary key from the first of them.
FEW_MATCHING = 10_000
# Before reading a few thousand ids, a page first walks this many pages' worth of ids from
# the first match: series made together (one upload's parameter sweep) have neighbouring
# ids, so the walk usually fills the page.
WALK_WINDOW_PAGES = 10


def list_series(
    session: Session, series_filter: SeriesFilter, *, limit: int, cursor: str | None
) -> bytes:
    """A SeriesPage document as JSON bytes (the tests validate it against the model).

    A page walks the primary key, quick where the filter's series are; but a walk from the
    first series passes every other one before them: 314 ms to find no
    `language=c&mode=async` in 1,000,000 series, 66 ms for the first page of the fourth
    of ten suites. The series groups say how many series match and where the first one
    is: none, no query; many, the walk starts there; a few, a short walk from there,
    and if it does not fill the page their ids are read first (for 6,000 series of a
    benchmark on one machine, 9 ms; the walk, 1 ms).

    The page's ids are found first and its items written after, for those ids alone:
    a plan that sorts what it found (the short walk's, often) would otherwise write an
    item and look up the newest result for every series found, 1,010 for 101 kept."""
    ids = series_filter.apply(select(Series.id)).join(Hardware, Hardware.id == Series.hardware_id)
    if not series_filter.has_time:
        matching, first_id = _matching_series(session, series_filter)
        if matching == 0:
            ids = ids.where(false())  # the cursor is still checked
        elif matching <= FEW_MATCHING:
            window = first_id + (limit + 1) * WALK_WINDOW_PAGES
            walked = ids.where(Series.id >= first_id, Series.id < window)
            page = keyset_page(session, walked, BY_ID, limit=limit, cursor=cursor)
            if page.next_cursor is not None or (cursor is None and len(page.rows) == matching):
                return _series_page(session, page)
            matched = (
                select(func.array_agg(Series.id))
                .join(Hardware, Hardware.id == Series.hardware_id)
                .where(*series_filter.conditions())
                .correlate(None)
            )
            ids = ids.where(Series.id == any_(matched.scalar_subquery().cast(ARRAY(BigInteger))))
        else:
            ids = ids.where(Series.id >= first_id)
    return _series_page(session, keyset_page(session, ids, BY_ID, limit=limit, cursor=cursor))


def _page_items() -> Select[tuple[str | None]]:
    """The page's items joined in id order, one text: a row per item cost ~1 ms more in
    process for 200 items (4.0-5.4 against 4.8-6.4 ms p50, alternated)."""
    latest = latest_result(Series.id, Series.last_started_at)
    in_id_order: aggregate_order_by[str] = aggregate_order_by(literal_column("','"), Series.id)
    return (
        select(func.string_agg(_series_json(latest), in_id_order))
        .select_from(Series)
        .join(Hardware, Hardware.id == Series.hardware_id)
        .outerjoin(latest, literal_column("true"))
        .where(Series.id == any_(bindparam("page_ids", type_=ARRAY(BigInteger))))
    )


# Built once: the statement's cache key is then computed once, not on every page.
PAGE_ITEMS = _page_items()


def _series_page(session: Session, page: KeysetPage) -> bytes:
    """The page's items, written by PostgreSQL in id order, and its cursor."""
    page_ids = [row.id for row in page.rows]
    items = session.scalar(PAGE_ITEMS, {"page_ids": page_ids}) if page_ids else None
    body = (items or "").encode()
    return b'{"items":[' + body + b'],"next_cursor":' + orjson.dumps(page.next_cursor) + b"}"


def _matching_series(session: Session, series_filter: SeriesFilter) -> tuple[int, int]:
    """How many series the filter matches, and a lower bound of their ids, from the
    groups."""
    row = session.execute(
        select(
            func.coalesce(func.sum(SeriesGroup.series_count), 0),
            func.min(SeriesGroup.first_series_id),
        )
        .join(Hardware, Hardware.id == SeriesGroup.hardware_id)
        .where(*series_filter.conditions(SeriesGroup))
    ).one()
    return int(row[0]), int(row[1] or 0)


def series_identity(series: Series, hardware_name: str) -> SeriesIdentity:
    return SeriesIdentity(
        **ResultIdentity.model_validate(series).model_dump(),
        id=series.id,
        hardware=hardware_name,
        branch=series.branch,
        unit=series.unit,
    )
