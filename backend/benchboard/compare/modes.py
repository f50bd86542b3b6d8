"""GET /compare/modes: sync/async pairs, one page at a time, paired by PostgreSQL.

The rule is pairing.py's (its docstring says it; a test checks this SQL against it): the
same suite, branch, benchmark, language, machine and metric (the pairing key), params
that agree on every key both have (`params_compatible()`, a SQL function), and an async
series of the same implementation preferred to the others. Reading every series of a
filter to pair them in Python took 9.6 s for a language of 300,000 series with no pair:

- which pairing keys have both modes under the filter is read from the series groups
  (series/groups.py), so a filter with no such key answers at once;
- a page is `limit` sync series in id order, within those keys; only then are their
  async partners found, on `ix_series_pairing` (params hashed: one descent each).
"""

from collections.abc import Callable
from typing import Any, NamedTuple, cast

import orjson
from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Select,
    Text,
    and_,
    any_,
    false,
    func,
    literal_column,
    or_,
    select,
    tuple_,
    type_coerce,
    union_all,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session, aliased

from benchboard import exact_json
from benchboard.models import Hardware, Result, Series, SeriesGroup
from benchboard.pagination import keyset_page
from benchboard.series.filters import SeriesFilter
from benchboard.series.schemas import SeriesValue
from benchboard.series.service import BY_ID, json_object, latest_result
from benchboard.stats.values import ReportedValue, value_ratio_interval

_PAIRING_KEY = ("suite", "branch", "benchmark", "language", "hardware_id", "metric")


class ModeSide(NamedTuple):
    """One side of a pair as the page query selects it (a tuple's attribute costs a tenth
    of a SQLAlchemy Row's): identity, what the ratio's interval reads, the side's JSON."""

    id: int
    suite: str
    benchmark: str
    language: str
    hardware: str
    metric: str
    implementation: str | None
    params: dict[str, Any]
    base_unit: str
    direction: str
    value: float | None
    unit: str | None
    value_base: float | None
    stats: dict[str, float] | None
    samples: list[float] | None
    side: str


_SIDE_FIELDS = len(ModeSide._fields)


def _side_columns(series: Any, name: str) -> tuple[list[Any], Any]:
    """A series' ModeSide columns, in order, and the LATERAL of its latest value."""
    latest = latest_result(series.id, series.last_started_at, Result.samples, name=name)
    side = json_object(
        **{column: latest.c[column] for column in SeriesValue.model_fields},
        series_id=series.id,
        implementation=series.implementation,
        variant=series.variant,
        params=series.params,
    )
    columns = [
        series.id,
        series.suite,
        series.benchmark,
        series.language,
        Hardware.name,  # both sides run on the one machine
        series.metric,
        series.implementation,
        series.params,
        series.base_unit,
        series.direction,
        latest.c.value,
        latest.c.unit,
        latest.c.value_base,
        latest.c.stats,
        latest.c.samples,
        side.cast(Text),
    ]
    return columns, latest


# Aliases cost a mapper each: built once (0.05 s a request at load 8).
_CANDIDATES = tuple(aliased(Series, name=f"candidate_{n}") for n in range(3))
_PARTNER = aliased(Series, name="partner")
# `ix_series_pairing` holds async series only: a literal, so that a generic plan of a
# prepared statement can read it too (a bound mode would not imply its predicate).
_ASYNC = literal_column("'async'", Text)


def _partners(sync: Any, series_filter: SeriesFilter) -> Any:
    """The LATERAL of a sync series' async partners with compatible params (pairing.py's
    rule), each with whether it shares the sync side's implementation (`same`) and
    whether any does (`any_same`): the page keeps `same OR NOT any_same`.

    Params with the same keys are compatible only when equal: one descent of
    `ix_series_pairing` on their hash. Params with other keys (fio's async `iodepth`) are
    read from the two ranges of the index around the sync side's keys, empty unless some
    series of the key has other keys."""
    keys = func.param_keys_hash(sync.params)

    def candidates(partner: Any, condition: Callable[[Any], ColumnElement[bool]]) -> Select[Any]:
        return (
            select(partner.id.label("id"), partner.implementation.label("implementation"))
            .where(
                _pairing_key_hash(partner) == _pairing_key_hash(sync),
                partner.mode == _ASYNC,
                *(getattr(partner, c) == getattr(sync, c) for c in _PAIRING_KEY),
                condition(partner),
                # The machine is the sync side's, which the filter's `hardware` checks.
                *series_filter.without("hardware").conditions(partner),
            )
            .correlate(sync)
        )

    def params_hash(series: Any) -> Any:
        return func.jsonb_hash_extended(series.params, literal_column("0"))

    same_keys, fewer_keys, more_keys = _CANDIDATES
    found = union_all(
        candidates(
            same_keys,
            lambda p: and_(
                func.param_keys_hash(p.params) == keys,
                params_hash(p) == params_hash(sync),
                p.params == sync.params,
            ),
        ),
        candidates(
            fewer_keys,
            lambda p: and_(
                func.param_keys_hash(p.params) < keys, func.params_compatible(sync.params, p.params)
            ),
        ),
        candidates(
            more_keys,
            lambda p: and_(
                func.param_keys_hash(p.params) > keys, func.params_compatible(sync.params, p.params)
            ),
        ),
    ).subquery("found")
    same = found.c.implementation.is_not_distinct_from(sync.implementation)
    return (
        select(found.c.id, same.label("same"))
        .add_columns(func.bool_or(same).over().label("any_same"))
        .correlate(sync)
        .lateral("partners")
    )


def _pairing_key_hash(series: Any) -> Any:
    """The leading column of `ix_series_pairing` (a SQL function, migration 5c8e2a7d9f14);
    the key's columns are compared too, so a collision never pairs."""
    return func.pairing_key_hash(*(getattr(series, c) for c in _PAIRING_KEY))


def _pairable_keys(series_filter: SeriesFilter) -> Select[Any]:
    """Pairing keys with both modes among the filter's series groups (since/until apart:
    a group has no results, so this is a superset then), each with a lower bound of its
    sync series' ids (`first_sync`)."""
    conditions = series_filter.conditions_by_dimension(SeriesGroup)
    conditions.pop("time", None)
    first_sync = func.min(SeriesGroup.first_series_id).filter(SeriesGroup.mode == "sync")
    return (
        select(*(getattr(SeriesGroup, c) for c in _PAIRING_KEY), first_sync.label("first_sync"))
        .join(Hardware, Hardware.id == SeriesGroup.hardware_id)
        .where(*conditions.values(), SeriesGroup.mode.in_(("sync", "async")))
        .group_by(*(getattr(SeriesGroup, c) for c in _PAIRING_KEY))
        .having(func.count(SeriesGroup.mode.distinct()) == 2)
        .correlate(None)  # its own Hardware, not the page's
    )


def compare_modes(
    session: Session, series_filter: SeriesFilter, *, limit: int, cursor: str | None
) -> bytes:
    """A page of `limit` sync series (by id) with their pairs, by sync then async series
    id, as a ModeComparison document in JSON bytes (the tests validate it against the
    model). The page's sync series are found first and paired after: pairing every sync
    series of a benchmark before taking the page's first took 0.7 s for 9,000."""
    series_filter = series_filter.without("mode")
    pairable = _pairable_keys(series_filter).subquery("pairable")
    first_id = session.scalar(select(func.min(pairable.c.first_sync)))
    # COALESCE keeps the IN a hashed filter of a walk of the primary key from the first
    # sync series: as a join the planner misjudged how many keys pair (1 of 500) and
    # sorted a language's 100,000 sync series (0.44 s).
    paired = func.coalesce(
        tuple_(*(getattr(Series, c) for c in _PAIRING_KEY)).in_(
            select(*(pairable.c[c] for c in _PAIRING_KEY))
        ),
        false(),
    )
    syncs = (
        select(Series.id)
        .join(Hardware, Hardware.id == Series.hardware_id)
        .where(Series.mode == "sync", *series_filter.conditions(), paired)
    )
    # No pair: no series is read, and the cursor is still checked.
    syncs = syncs.where(false() if first_id is None else Series.id >= first_id)
    page = keyset_page(session, syncs, BY_ID, limit=limit, cursor=cursor)
    sync_ids = [row[0] for row in page.rows]
    items = []
    for row in session.execute(_pairs(series_filter, sync_ids)):
        sync = ModeSide._make(row[:_SIDE_FIELDS])
        async_ = ModeSide._make(row[_SIDE_FIELDS : 2 * _SIDE_FIELDS])
        if (pair := _mode_pair(sync, async_)) is not None:
            items.append(pair)
    return exact_json.dumps({"items": items, "next_cursor": page.next_cursor})


def _pairs(series_filter: SeriesFilter, sync_ids: list[int]) -> Select[Any]:
    """Both sides of every pair of these sync series, in ModeSide's columns each."""
    partner = _PARTNER
    sync_columns, sync_latest = _side_columns(Series, "sync_latest")
    async_columns, async_latest = _side_columns(partner, "async_latest")
    partners = _partners(Series, series_filter)
    return (
        select(*sync_columns, *async_columns)
        .select_from(Series)
        .join(Hardware, Hardware.id == Series.hardware_id)
        .join(partners, literal_column("true"))
        .join(partner, partner.id == partners.c.id)
        .outerjoin(sync_latest, literal_column("true"))
        .outerjoin(async_latest, literal_column("true"))
        .where(
            Series.id == any_(type_coerce(sync_ids, ARRAY(BigInteger))),
            or_(partners.c.same, ~partners.c.any_same),
        )
        .order_by(Series.id, partner.id)
    )


def _mode_pair(sync: ModeSide, async_: ModeSide) -> dict[str, Any] | None:
    """A ModePair; its identity fields are the sync side's. None unless both sides have
    a latest value (then each is a ReportedValue)."""
    if sync.value_base is None or async_.value_base is None:
        return None
    ratio = async_.value_base / sync.value_base if sync.value_base else None
    interval = (
        value_ratio_interval(
            cast(ReportedValue, sync),
            cast(ReportedValue, async_),
            (sync.samples, async_.samples),
        )
        if ratio and ratio > 0
        else None
    )
    return {
        "suite": sync.suite,
        "benchmark": sync.benchmark,
        "params": sync.params,
        "language": sync.language,
        "implementation": sync.implementation,
        "hardware": sync.hardware,
        "metric": sync.metric,
        "base_unit": sync.base_unit,
        "direction": sync.direction,
        "sync": orjson.Fragment(sync.side),
        "async": orjson.Fragment(async_.side),
        "async_over_sync": ratio,
        "interval": vars(interval) if interval else None,
    }
