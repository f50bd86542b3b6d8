"""Comparisons: sync against async within a group, and one run against another."""

import uuid
from dataclasses import dataclass
from typing import Any, NamedTuple, cast

import orjson
from sqlalchemy import Select, Text, literal_column, select
from sqlalchemy.orm import Session

from benchboard import exact_json
from benchboard.compare.baseline import HISTORY_RUNS, verdict_basis
from benchboard.compare.pairing import Candidate, pair_modes
from benchboard.compare.schemas import (
    MatchedResult,
    RunComparison,
    RunSide,
    UnmatchedResult,
    Verdict,
)
from benchboard.compare.verdict import judge_against_baseline
from benchboard.detection.detect import Observation
from benchboard.models import Hardware, Result, Series
from benchboard.runs.queries import get_run_summary
from benchboard.series.filters import SeriesFilter
from benchboard.series.recent import as_observation, recent_results
from benchboard.series.schemas import ResultIdentity, SeriesValue
from benchboard.series.service import json_object, latest_result
from benchboard.stats.values import ReportedValue, value_ratio_interval
from benchboard.vocabulary import BaselineVerdict
from benchboard_ingest.vocabulary import MODES

# Without any noise estimate (no replicates, too little history) a change this small is
# not called better or worse.
NOISE_THRESHOLD = 0.05


def compare_modes(session: Session, series_filter: SeriesFilter) -> bytes:
    """Every sync/async pair of series that differ only in mode (see pairing.py), as a
    ModeComparison document in JSON bytes (the tests validate it against the model).

    One statement reads the series with their latest values, each side's JSON written
    by PostgreSQL; Python pairs them and adds the ratio and its interval. Building
    ORM objects and models for 600 sides cost 30 of the 40 ms of a 300-pair answer.
    """
    result = session.execute(series_filter.without("mode").apply(_MODE_SIDES))
    rows = [_ModeSide._make(row) for row in result.tuples()]
    series = {row.id: row for row in rows}
    pairs = pair_modes([Candidate._make(row[:_CANDIDATE_FIELDS]) for row in rows])
    items = [
        pair
        for sync, async_ in pairs
        if (pair := _mode_pair(series[sync.series_id], series[async_.series_id])) is not None
    ]
    return exact_json.dumps({"items": items})


class _ModeSide(NamedTuple):
    """A row of _MODE_SIDES: first a Candidate's fields in its order, then what the
    ratio's interval reads, then the side's JSON. A tuple's attribute costs a tenth of a
    SQLAlchemy Row's (0.4 us on the 2-core machine; thirty a pair)."""

    id: int
    suite: str
    benchmark: str
    language: str
    hardware: str
    metric: str
    mode: str
    implementation: str | None
    params: dict[str, Any]
    variant: str | None
    base_unit: str
    direction: str
    value: float | None
    unit: str | None
    value_base: float | None
    stats: dict[str, float] | None
    samples: list[float] | None
    side: str


def _mode_sides() -> Select[Any]:
    """Each series of a mode with its latest value, in _ModeSide's columns."""
    latest = latest_result(Series.id, Series.last_started_at, Result.samples)
    side = json_object(
        **{column: latest.c[column] for column in SeriesValue.model_fields},
        series_id=Series.id,
        implementation=Series.implementation,
        variant=Series.variant,
        params=Series.params,
    )
    columns = {
        "id": Series.id,
        "suite": Series.suite,
        "benchmark": Series.benchmark,
        "language": Series.language,
        "hardware": Hardware.name,
        "metric": Series.metric,
        "mode": Series.mode,
        "implementation": Series.implementation,
        "params": Series.params,
        "variant": Series.variant,
        "base_unit": Series.base_unit,
        "direction": Series.direction,
        "value": latest.c.value,
        "unit": latest.c.unit,
        "value_base": latest.c.value_base,
        "stats": latest.c.stats,
        "samples": latest.c.samples,
        "side": side.cast(Text),
    }
    if tuple(columns) != _ModeSide._fields:
        raise AssertionError("_mode_sides() selects _ModeSide's fields, in its order")
    return (
        select(*(column.label(name) for name, column in columns.items()))
        .join_from(Series, Hardware, Hardware.id == Series.hardware_id)
        .outerjoin(latest, literal_column("true"))
        .where(Series.mode.in_(MODES))
        .order_by(Series.suite, Series.benchmark, Series.language, Series.id)
    )


# Built once: constructing it anew cost 1.2 ms of a 300-pair answer. A filter adds its
# conditions per request.
_MODE_SIDES = _mode_sides()
_CANDIDATE_FIELDS = len(Candidate._fields)


def _mode_pair(sync: _ModeSide, async_: _ModeSide) -> dict[str, Any] | None:
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


def compare_runs(
    session: Session, baseline_id: uuid.UUID, contender_id: uuid.UUID
) -> RunComparison:
    """Results the two runs share (identity apart from hardware), and those only in one.

    Each shared result is judged as a baseline comparison judges it (compare.verdict: the
    two-level noise model over the baseline series' history up to the baseline run)."""
    baseline_summary = get_run_summary(session, baseline_id)
    baseline = _results_by_identity(session, baseline_id)
    contender = _results_by_identity(session, contender_id)
    shared = [key for key in baseline if key in contender]
    histories = recent_results(
        session,
        [baseline[key].series_id for key in shared],
        window=HISTORY_RUNS,
        until=baseline_summary.started_at,
    )
    matched = []
    for key in shared:
        earlier = [
            as_observation(row)
            for row in histories.get(baseline[key].series_id, [])
            if row.run_id != baseline_id
        ]
        matched.append(_matched(baseline[key], contender[key], earlier[-(HISTORY_RUNS - 1) :]))
    return RunComparison(
        baseline=baseline_summary,
        contender=get_run_summary(session, contender_id),
        matched=matched,
        only_in_baseline=[
            UnmatchedResult(**side.identity.model_dump(), side=side.side)
            for key, side in baseline.items()
            if key not in contender
        ],
        only_in_contender=[
            UnmatchedResult(**side.identity.model_dump(), side=side.side)
            for key, side in contender.items()
            if key not in baseline
        ],
        noise_threshold=NOISE_THRESHOLD,
    )


@dataclass(frozen=True)
class _Side:
    identity: ResultIdentity
    side: RunSide
    series_id: int
    observation: Observation


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
        sides[key] = _Side(identity, side, series.id, as_observation(result))
    return sides


_VERDICT_WORDS: dict[BaselineVerdict, Verdict] = {
    "regression": "worse",
    "improvement": "better",
    "unchanged": "noise",
}


def _matched(baseline: _Side, contender: _Side, earlier: list[Observation]) -> MatchedResult:
    """The pair judged as a baseline comparison judges it; its change is that of the
    levels the verdict compared, so the two never rest on different figures."""
    judgement = judge_against_baseline(
        [*earlier, baseline.observation],
        contender.observation,
        higher_is_better=baseline.identity.direction == "higher",
    )
    verdict = _VERDICT_WORDS[judgement.verdict]
    more = ""
    if judgement.basis.method == "none":
        verdict = _band(baseline.identity, judgement.relative_change)
        more = f"; the {NOISE_THRESHOLD:.0%} noise band decides"
    return MatchedResult(
        **baseline.identity.model_dump(),
        baseline=baseline.side,
        contender=contender.side,
        relative_change=judgement.relative_change,
        verdict=verdict,
        p_value=judgement.basis.p_value,
        basis=verdict_basis(judgement, more=more),
    )


def _band(identity: ResultIdentity, change: float | None) -> Verdict:
    """Without any noise estimate: a change beyond the 5 % band is called, else noise."""
    if change is None or abs(change) < NOISE_THRESHOLD:
        return "noise"
    rose = change > 0
    return "better" if rose == (identity.direction == "higher") else "worse"
