"""Comparisons: sync against async within a group, and one run against another."""

import uuid
from collections.abc import Sequence

from sqlalchemy import literal_column, select, tuple_
from sqlalchemy.orm import Session

from benchboard.compare.pairing import Candidate, pair_modes
from benchboard.compare.schemas import (
    MatchedResult,
    ModeComparison,
    ModePair,
    ModeSide,
    RatioIntervalOut,
    RunComparison,
    RunSide,
    UnmatchedResult,
    Verdict,
)
from benchboard.models import Hardware, Result, Series
from benchboard.runs.queries import get_run_summary
from benchboard.series.filters import SeriesFilter
from benchboard.series.schemas import ResultIdentity, SeriesValue
from benchboard.series.service import (
    latest_result,
    series_id_table,
    series_identity,
    series_value,
    series_with_hardware,
)
from benchboard.stats.intervals import summarize, welch_p_value
from benchboard.stats.values import value_ratio_interval
from benchboard_ingest.vocabulary import MODES

# Without replicates a change this small is not called better or worse.
NOISE_THRESHOLD = 0.05
SIGNIFICANCE_LEVEL = 0.05
MIN_CHANGE = 0.01


def compare_modes(session: Session, series_filter: SeriesFilter) -> ModeComparison:
    """Every sync/async pair of series that differ only in mode (see pairing.py)."""
    rows = session.execute(
        series_filter.without("mode")
        .apply(series_with_hardware())
        .where(Series.mode.in_(MODES))
        .order_by(Series.suite, Series.benchmark, Series.language, Series.id)
    ).all()
    series = {row.Series.id: (row.Series, row.hardware_name) for row in rows}
    pairs = pair_modes([_candidate(s, hardware) for s, hardware in series.values()])
    involved = {side.series_id for pair in pairs for side in pair}
    latest = _latest_values(session, sorted(involved))
    samples = _latest_samples(session, latest)
    items = [
        _mode_pair(
            series[sync.series_id],
            latest[sync.series_id],
            latest[async_.series_id],
            series[async_.series_id][0],
            (samples.get(sync.series_id), samples.get(async_.series_id)),
        )
        for sync, async_ in pairs
        if sync.series_id in latest and async_.series_id in latest
    ]
    return ModeComparison(items=items)


_GROUP_FIELDS = {"suite", "benchmark", "language", "hardware", "metric", "implementation", "params"}


def _candidate(series: Series, hardware: str) -> Candidate:
    identity = series_identity(series, hardware).model_dump(include=_GROUP_FIELDS)
    return Candidate(**identity, series_id=series.id, mode=series.mode or "")


def _latest_values(session: Session, series_ids: list[int]) -> dict[int, SeriesValue]:
    ids = series_id_table(series_ids)
    latest = latest_result(ids.c.id)
    rows = session.execute(select(ids.c.id, *latest.c).join(latest, literal_column("true")))
    return {row.id: value for row in rows if (value := series_value(row)) is not None}


def _latest_samples(session: Session, latest: dict[int, SeriesValue]) -> dict[int, list[float]]:
    """The replicates of the latest results that carry any, by series."""
    if not latest:
        return {}
    keys = [(series_id, value.run_id) for series_id, value in latest.items()]
    rows = session.execute(
        select(Result.series_id, Result.samples).where(
            tuple_(Result.series_id, Result.run_id).in_(keys), Result.samples.is_not(None)
        )
    )
    return {series_id: samples for series_id, samples in rows}


def _mode_pair(
    sync_series: tuple[Series, str],
    sync: SeriesValue,
    async_value: SeriesValue,
    async_series: Series,
    samples: tuple[Sequence[float] | None, Sequence[float] | None],
) -> ModePair:
    series, hardware = sync_series
    identity = series_identity(series, hardware).model_dump(
        include=_GROUP_FIELDS | {"base_unit", "direction"}
    )
    ratio = async_value.value_base / sync.value_base if sync.value_base else None
    interval = value_ratio_interval(sync, async_value, samples) if ratio and ratio > 0 else None
    return ModePair(
        **identity,
        sync=_mode_side(sync, series),
        async_=_mode_side(async_value, async_series),
        async_over_sync=ratio,
        interval=RatioIntervalOut(**vars(interval)) if interval else None,
    )


def _mode_side(value: SeriesValue, series: Series) -> ModeSide:
    return ModeSide(
        **value.model_dump(),
        series_id=series.id,
        variant=series.variant,
        implementation=series.implementation,
        params=series.params,
    )


def compare_runs(
    session: Session, baseline_id: uuid.UUID, contender_id: uuid.UUID
) -> RunComparison:
    """Results the two runs share (identity apart from hardware), and those only in one."""
    baseline = _results_by_identity(session, baseline_id)
    contender = _results_by_identity(session, contender_id)
    matched = [
        _matched(side[0], side, contender[key])
        for key, side in baseline.items()
        if key in contender
    ]
    return RunComparison(
        baseline=get_run_summary(session, baseline_id),
        contender=get_run_summary(session, contender_id),
        matched=matched,
        only_in_baseline=[
            UnmatchedResult(**baseline[key][0].model_dump(), side=baseline[key][1])
            for key in baseline
            if key not in contender
        ],
        only_in_contender=[
            UnmatchedResult(**contender[key][0].model_dump(), side=contender[key][1])
            for key in contender
            if key not in baseline
        ],
        noise_threshold=NOISE_THRESHOLD,
    )


_Side = tuple[ResultIdentity, RunSide, list[float] | None]


def _results_by_identity(session: Session, run_id: uuid.UUID) -> dict[str, _Side]:
    rows = session.execute(
        select(Result, Series, Hardware.name)
        .join(Series, Series.id == Result.series_id)
        .join(Hardware, Hardware.id == Series.hardware_id)
        .where(Result.run_id == run_id)
        .order_by(Result.id)
    ).all()
    sides: dict[str, _Side] = {}
    for result, series, hardware_name in rows:
        identity = ResultIdentity.model_validate(series)
        side = RunSide(
            result_id=result.id,
            hardware=hardware_name,
            value=result.value,
            unit=result.unit,
            value_base=result.value_base,
            stats=result.stats,
            sample_count=len(result.samples or ()),
        )
        key = identity.model_dump_json(exclude={"base_unit", "direction"})
        sides[key] = (identity, side, result.samples)
    return sides


def _matched(identity: ResultIdentity, baseline: _Side, contender: _Side) -> MatchedResult:
    before, after = baseline[1], contender[1]
    change = (
        (after.value_base - before.value_base) / abs(before.value_base)
        if before.value_base
        else None
    )
    before_summary = summarize(before.stats, baseline[2])
    after_summary = summarize(after.stats, contender[2])
    p_value = (
        welch_p_value(before_summary, after_summary) if before_summary and after_summary else None
    )
    return MatchedResult(
        **identity.model_dump(),
        baseline=before,
        contender=after,
        relative_change=change,
        verdict=_verdict(identity, change, p_value),
        p_value=p_value,
    )


def _verdict(identity: ResultIdentity, change: float | None, p_value: float | None) -> Verdict:
    """With replicates: significant and at least 1 %; without: beyond the 5 % noise band."""
    if change is None:
        return "noise"
    if p_value is None and abs(change) < NOISE_THRESHOLD:
        return "noise"
    if p_value is not None and (p_value >= SIGNIFICANCE_LEVEL or abs(change) < MIN_CHANGE):
        return "noise"
    rose = change > 0
    return "better" if rose == (identity.direction == "higher") else "worse"
