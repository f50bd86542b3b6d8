"""A run against its baseline: which run is the baseline, and a verdict per series.

The baseline is the newest run of the baseline branch on the contender's machine that
started before it (or a run the caller names). Results match by series fingerprint, the
identity without the branch, so the same benchmark on two branches pairs up. Each pair
is judged by compare.verdict against the baseline branch's recent history of the series.
"""

import uuid
from dataclasses import dataclass
from urllib.parse import urlencode

from sqlalchemy import select
from sqlalchemy.orm import Session

from benchboard.compare.schemas import (
    BaselineChoice,
    BaselineComparison,
    BaselineItem,
    BaselineRule,
    BaselineSide,
    ComparedLevel,
    ComparedLevels,
    UnjudgedSeries,
    VerdictBasis,
    VerdictCounts,
)
from benchboard.compare.verdict import Judgement, judge_against_baseline
from benchboard.detection.detect import Observation
from benchboard.detection.thresholds import MIN_RELATIVE_CHANGE, SIGNIFICANCE
from benchboard.errors import FieldError, NotFound, ValidationFailed
from benchboard.models import Result, Run, Series
from benchboard.runs.queries import get_run_summary
from benchboard.series.recent import Recent, as_observation, recent_results
from benchboard.series.schemas import ResultIdentity
from benchboard.stats.noise import RunLevel
from benchboard.suites.branches import default_branch
from benchboard.vocabulary import BASELINE_VERDICTS, CHANGE_WORDS, ChangeDirection, LevelSource
from benchboard_ingest.vocabulary import measures_speed

# Baseline-branch runs the noise estimate looks back over.
HISTORY_RUNS = 30
# Dimensions where a worse value means slower; elsewhere changes read worse/better.


@dataclass(frozen=True)
class _Measured:
    identity: ResultIdentity
    side: BaselineSide
    observation: Observation


def get_baseline_comparison(
    session: Session, run_id: uuid.UUID, *, branch: str | None, baseline_id: uuid.UUID | None
) -> BaselineComparison:
    contender = _run(session, run_id, what="run")
    baseline: Run | None
    choice: BaselineChoice
    if baseline_id is not None:
        baseline = _named_baseline(session, contender, baseline_id, branch=branch)
        branch, choice = baseline.branch, "named"
    else:
        branch = branch or default_branch(session, contender.suite)
        baseline = _nearest_earlier(session, contender, branch)
        choice = "nearest_earlier" if baseline else "none"
    contender_results = _results(session, contender.id)
    baseline_results = _results(session, baseline.id) if baseline else {}
    items = _judge(session, baseline, baseline_results, contender_results)
    new = [contender_results[k] for k in contender_results if k not in baseline_results]
    missing = [baseline_results[k] for k in baseline_results if k not in contender_results]
    counts = {
        verdict: sum(item.verdict == verdict for item in items) for verdict in BASELINE_VERDICTS
    }
    return BaselineComparison(
        contender=get_run_summary(session, contender.id),
        baseline=get_run_summary(session, baseline.id) if baseline else None,
        branch=branch,
        baseline_choice=choice,
        counts=VerdictCounts(**counts, new=len(new), missing=len(missing)),
        items=items,
        new=[_unjudged(m) for m in new],
        missing=[_unjudged(m) for m in missing],
        rule=BaselineRule(
            significance=SIGNIFICANCE,
            min_relative_change=MIN_RELATIVE_CHANGE,
            confidence=1 - SIGNIFICANCE,
        ),
        compare_path=_compare_path(baseline.id, contender.id) if baseline else None,
    )


def _run(session: Session, run_id: uuid.UUID, *, what: str) -> Run:
    run = session.get(Run, run_id)
    if run is None:
        raise NotFound(f"no {what} {run_id}")
    return run


def _named_baseline(
    session: Session, contender: Run, baseline_id: uuid.UUID, *, branch: str | None
) -> Run:
    baseline = _run(session, baseline_id, what="baseline run")
    problem = None
    if baseline.id == contender.id:
        problem = ("baseline", "a run is not its own baseline")
    elif baseline.hardware_id != contender.hardware_id:
        problem = (
            "baseline",
            "ran on another machine than the run; a baseline must share its machine "
            "(/api/v1/compare/runs sets machines side by side)",
        )
    elif branch is not None and branch != baseline.branch:
        problem = ("branch", f"the baseline run is on branch {baseline.branch!r}, not {branch!r}")
    if problem:
        path, message = problem
        raise ValidationFailed("no baseline comparison", [FieldError(path=path, message=message)])
    return baseline


def _nearest_earlier(session: Session, contender: Run, branch: str) -> Run | None:
    """The branch's newest run on the contender's machine that started before it."""
    return session.scalar(
        select(Run)
        .where(
            Run.suite == contender.suite,
            Run.branch == branch,
            Run.hardware_id == contender.hardware_id,
            Run.started_at <= contender.started_at,
            Run.id != contender.id,
        )
        .order_by(Run.started_at.desc(), Run.created_at.desc())
        .limit(1)
    )


def _results(session: Session, run_id: uuid.UUID) -> dict[bytes, _Measured]:
    rows = session.execute(
        select(Result, Series)
        .join(Series, Series.id == Result.series_id)
        .where(Result.run_id == run_id)
        .order_by(Result.id)
    ).all()
    return {
        bytes(series.fingerprint): _Measured(
            identity=ResultIdentity.model_validate(series),
            side=BaselineSide(
                run_id=run_id,
                series_id=series.id,
                value=result.value,
                unit=result.unit,
                value_base=result.value_base,
                sample_count=len(result.samples or ()),
            ),
            observation=as_observation(result),
        )
        for result, series in rows
    }


def _judge(
    session: Session,
    baseline: Run | None,
    baseline_results: dict[bytes, _Measured],
    contender_results: dict[bytes, _Measured],
) -> list[BaselineItem]:
    if baseline is None:
        return []
    shared = [key for key in contender_results if key in baseline_results]
    series_ids = [baseline_results[key].side.series_id for key in shared]
    histories = recent_results(session, series_ids, window=HISTORY_RUNS, until=baseline.started_at)
    items = []
    for key in shared:
        before, after = baseline_results[key], contender_results[key]
        history, note = baseline_history(
            histories.get(before.side.series_id, Recent([])), baseline.id, before.observation
        )
        judgement = judge_against_baseline(
            history, after.observation, higher_is_better=before.identity.direction == "higher"
        )
        items.append(_item(before, after, judgement, note=note))
    return sorted(
        items, key=lambda i: (BASELINE_VERDICTS.index(i.verdict), -abs(i.relative_change or 0.0))
    )


def baseline_history(
    recent: Recent, baseline_id: uuid.UUID, baseline: Observation
) -> tuple[list[Observation], str]:
    """The history a pair is judged over, oldest first and ending with the baseline's
    level, and a note for the basis. `recent` is curated as detection's history is
    (series.recent): outliers left out, and from a baseline reset on. When the baseline
    run's own result is marked an outlier, the newest result before it is the baseline,
    as detection would compare against it."""
    rows = recent.rows
    reset = f"; history from the baseline reset at run {recent.reset_at}" if recent.reset_at else ""
    earlier = [as_observation(row) for row in rows if row.run_id != baseline_id]
    if len(earlier) < len(rows):
        return [*earlier[-(HISTORY_RUNS - 1) :], baseline], reset
    if not earlier:
        return [baseline], "; the baseline result is marked an outlier, but no earlier one is"
    return earlier[-HISTORY_RUNS:], (
        "; the baseline run's result is marked an outlier, so the newest result before it"
        f" is the baseline{reset}"
    )


def _item(before: _Measured, after: _Measured, judgement: Judgement, *, note: str) -> BaselineItem:
    return BaselineItem(
        **before.identity.model_dump(),
        baseline=before.side,
        contender=after.side,
        relative_change=judgement.relative_change,
        change=word_change(judgement, base_unit=before.identity.base_unit),
        interval=judgement.interval,
        verdict=judgement.verdict,
        basis=verdict_basis(judgement, more=note),
        history_path=_history_path(before.side.series_id, after.side.series_id),
    )


def verdict_basis(judgement: Judgement, *, more: str = "") -> VerdictBasis:
    """The judgement's basis for readers; `more` is added to its text."""
    basis = judgement.basis
    return VerdictBasis(
        method=basis.method,
        compared=ComparedLevels(
            baseline=_compared_level(judgement.baseline),
            contender=_compared_level(judgement.contender),
        ),
        history_runs=basis.history_runs,
        baseline_samples=basis.baseline_samples,
        contender_samples=basis.contender_samples,
        run_to_run_cv=basis.run_to_run_cv,
        p_value=basis.p_value,
        text=f"{basis.text}{more}; {_compared_words(judgement)}",
    )


# Each figure a run's level may be, in the singular and the plural.
_LEVEL_WORDS: dict[LevelSource, tuple[str, str]] = {
    "samples_median": ("median of samples", "medians of samples"),
    "stats_median": ("reported median", "reported medians"),
    "stats_mean": ("reported mean", "reported means"),
    "value": ("value", "values"),
}


def _compared_level(level: RunLevel) -> ComparedLevel:
    """The figure a run's result is compared by, and its words: "median of 5"."""
    label = _LEVEL_WORDS[level.source][0]
    if level.source == "samples_median":
        label = f"median of {level.n}"
    elif level.source != "value" and level.n > 1:
        label = f"{label} of {level.n}"
    return ComparedLevel(value=level.level, of=level.source, label=label)


def _compared_words(judgement: Judgement) -> str:
    """ "compares medians of samples", "compares the baseline's value with the
    contender's median of samples"."""
    before, after = judgement.baseline.source, judgement.contender.source
    if before == after:
        return f"compares {_LEVEL_WORDS[before][1]}"
    return (
        f"compares the baseline's {_LEVEL_WORDS[before][0]}"
        f" with the contender's {_LEVEL_WORDS[after][0]}"
    )


def word_change(judgement: Judgement, *, base_unit: str) -> str:
    """ "+25.0% slower", "−8.0% slower" (a rate fell), "+3.1% worse", "+0.4% (unchanged)"."""
    if judgement.relative_change is None:
        return "n/a"
    if judgement.verdict == "unchanged":
        return f"{signed_percent(judgement.relative_change)} (unchanged)"
    return word_change_size(judgement.relative_change, judgement.verdict, base_unit=base_unit)


def signed_percent(fraction: float) -> str:
    """ "+25.0%", "−8.0%", "+250%": whole percents from 100 on."""
    percent = fraction * 100
    sign = "+" if percent > 0 else "−" if percent < 0 else ""
    return f"{sign}{abs(percent):.{0 if abs(percent) >= 100 else 1}f}%"


def word_change_size(fraction: float, direction: ChangeDirection, *, base_unit: str) -> str:
    """A relative change in the words of CHANGE_WORDS: "+25.0% slower", "+3.1% worse".
    The dashboard words a detected change the same way (wording.ts, tested against
    WORDING_EXAMPLES, which `benchboard vocabulary` writes from this function)."""
    words = CHANGE_WORDS["speed" if measures_speed(base_unit) else "other"]
    return f"{signed_percent(fraction)} {words[direction]}"


def _unjudged(measured: _Measured) -> UnjudgedSeries:
    return UnjudgedSeries(
        **measured.identity.model_dump(),
        side=measured.side,
        history_path=_history_path(measured.side.series_id),
    )


def _history_path(*series_ids: int) -> str:
    unique = list(dict.fromkeys(series_ids))
    return "/history?" + urlencode([("series", series_id) for series_id in unique])


def _compare_path(baseline_id: uuid.UUID, contender_id: uuid.UUID) -> str:
    return "/compare?" + urlencode({"baseline": baseline_id, "contender": contender_id})
