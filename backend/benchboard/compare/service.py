"""Comparisons: sync against async within a group, and one run against another."""

import uuid
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from benchboard.compare.baseline import HISTORY_RUNS, baseline_history, verdict_basis
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
from benchboard.series.recent import Recent, as_observation, recent_results
from benchboard.series.schemas import ResultIdentity
from benchboard.vocabulary import BaselineVerdict

# Without any noise estimate (no replicates, too little history) a change this small is
# not called better or worse.
NOISE_THRESHOLD = 0.05


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
        history, note = baseline_history(
            histories.get(baseline[key].series_id, Recent([])),
            baseline_id,
            baseline[key].observation,
        )
        matched.append(_matched(baseline[key], contender[key], history, note=note))
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


def _matched(
    baseline: _Side, contender: _Side, history: list[Observation], *, note: str
) -> MatchedResult:
    """The pair judged as a baseline comparison judges it (over baseline_history); its
    change is that of the levels the verdict compared, so the two never rest on
    different figures."""
    judgement = judge_against_baseline(
        history,
        contender.observation,
        higher_is_better=baseline.identity.direction == "higher",
    )
    verdict = _VERDICT_WORDS[judgement.verdict]
    more = note
    if judgement.basis.method == "none":
        verdict = _band(baseline.identity, judgement.relative_change)
        more += f"; the {NOISE_THRESHOLD:.0%} noise band decides"
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
