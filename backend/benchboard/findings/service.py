"""Findings: a study's headline ratios, each side pinned to one run's result.

A maintainer replaces a study's findings as a whole (PUT); readers get them computed
from the pinned results, worded by the metric's direction (see wording.py).
"""

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Row, delete, func, select, tuple_, union
from sqlalchemy.orm import Session

from benchboard.errors import FieldError, NotFound, validation_failed
from benchboard.findings.schemas import (
    FindingIn,
    FindingList,
    FindingOut,
    FindingSide,
    FindingSideIn,
    FindingsUpdate,
)
from benchboard.findings.wording import word_ratio
from benchboard.models import Finding, Hardware, Result, Run, Series, Suite
from benchboard.series.schemas import RatioIntervalOut, SeriesValue
from benchboard.stats.values import value_ratio_interval

Pin = tuple[uuid.UUID, int]  # (run_id, series_id): one result


def _pinned_results(session: Session, pins: Iterable[Pin]) -> dict[Pin, Row[Any]]:
    """The results at the pins, with their series' identity and their run's suite/name."""
    wanted = list(set(pins))
    if not wanted:
        return {}
    rows = session.execute(
        select(
            Result.run_id,
            Result.series_id,
            Result.value,
            Result.unit,
            Result.value_base,
            Result.stats,
            Result.samples,
            Result.started_at,
            Run.suite.label("run_suite"),
            Run.name.label("run_name"),
            Series.benchmark,
            Series.params,
            Series.language,
            Series.implementation,
            Series.mode,
            Series.variant,
            Series.metric,
            Series.base_unit,
            Series.direction,
            Hardware.name.label("hardware"),
        )
        .join(Run, Run.id == Result.run_id)
        .join(Series, Series.id == Result.series_id)
        .join(Hardware, Hardware.id == Series.hardware_id)
        .where(tuple_(Result.run_id, Result.series_id).in_(wanted))
    ).all()
    return {(row.run_id, row.series_id): row for row in rows}


def _side(label: str, row: Row[Any]) -> FindingSide:
    return FindingSide(
        label=label,
        run_id=row.run_id,
        run_name=row.run_name,
        series_id=row.series_id,
        benchmark=row.benchmark,
        params=row.params,
        language=row.language,
        implementation=row.implementation,
        mode=row.mode,
        variant=row.variant,
        hardware=row.hardware,
        metric=row.metric,
        value=row.value,
        unit=row.unit,
        value_base=row.value_base,
        stats=row.stats,
    )


def _value(row: Row[Any]) -> SeriesValue:
    return SeriesValue(
        run_id=row.run_id,
        started_at=row.started_at,
        value=row.value,
        unit=row.unit,
        value_base=row.value_base,
        stats=row.stats,
    )


def _finding_out(finding: Finding, numerator: Row[Any], denominator: Row[Any]) -> FindingOut:
    ratio = numerator.value_base / denominator.value_base
    interval = value_ratio_interval(
        _value(denominator), _value(numerator), (denominator.samples, numerator.samples)
    )
    holds_one = interval.method if interval and interval.low <= 1 <= interval.high else None
    text, verdict, factor = word_ratio(
        ratio,
        numerator=finding.numerator_label,
        denominator=finding.denominator_label,
        metric=numerator.metric,
        base_unit=numerator.base_unit,
        direction=numerator.direction,
        context=finding.context,
        interval_holds_one=holds_one,
    )
    return FindingOut(
        id=finding.id,
        suite=finding.suite,
        text=text,
        ratio=ratio,
        factor=factor,
        verdict=verdict,
        interval=RatioIntervalOut(**vars(interval)) if interval else None,
        difference_base=numerator.value_base - denominator.value_base,
        base_unit=numerator.base_unit,
        direction=numerator.direction,
        context=finding.context,
        note=finding.note,
        numerator=_side(finding.numerator_label, numerator),
        denominator=_side(finding.denominator_label, denominator),
    )


def list_suite_findings(session: Session, suite: str) -> list[FindingOut]:
    """One suite's findings; 404 for a suite that does not exist, as for a private one
    (tokens/visibility.py), so that the answer does not tell them apart."""
    settings = session.get(Suite, suite)
    if settings is None:
        raise NotFound(f"no suite {suite!r}")
    return list_findings(session, [suite])


def list_findings(
    session: Session, suites: Sequence[str] | None = None, *, first_only: bool = False
) -> list[FindingOut]:
    """Findings of the suites (all when None) in each suite's order; `first_only`: each
    suite's first. A finding whose result is gone is left out (results are not deleted
    while pinned: the run foreign keys forbid it)."""
    query = select(Finding).order_by(Finding.suite, Finding.position)
    if suites is not None:
        query = query.where(Finding.suite.in_(suites))
    if first_only:
        query = query.distinct(Finding.suite)
    findings = session.scalars(query).all()
    results = _pinned_results(
        session,
        [pin for f in findings for pin in (_numerator_pin(f), _denominator_pin(f))],
    )
    return [
        _finding_out(f, results[_numerator_pin(f)], results[_denominator_pin(f)])
        for f in findings
        if _numerator_pin(f) in results and _denominator_pin(f) in results
    ]


def _numerator_pin(finding: Finding) -> Pin:
    return (finding.numerator_run_id, finding.numerator_series_id)


def _denominator_pin(finding: Finding) -> Pin:
    return (finding.denominator_run_id, finding.denominator_series_id)


@dataclass(frozen=True)
class _Checked:
    path: str
    side: FindingSideIn


def _side_errors(
    suite: str, checked: _Checked, results: dict[Pin, Row[Any]], runs: dict[uuid.UUID, str]
) -> list[FieldError]:
    side = checked.side
    if runs.get(side.run_id) != suite:
        return [FieldError(path=f"{checked.path}.run_id", message=f"no run of suite {suite!r}")]
    if (side.run_id, side.series_id) not in results:
        message = f"run {side.run_id} has no result of series {side.series_id}"
        return [FieldError(path=f"{checked.path}.series_id", message=message)]
    return []


def _finding_errors(
    suite: str,
    index: int,
    finding: FindingIn,
    results: dict[Pin, Row[Any]],
    runs: dict[uuid.UUID, str],
) -> list[FieldError]:
    path = f"findings[{index}]"
    sides = (
        _Checked(f"{path}.numerator", finding.numerator),
        _Checked(f"{path}.denominator", finding.denominator),
    )
    errors = [error for side in sides for error in _side_errors(suite, side, results, runs)]
    if errors:
        return errors
    numerator = results[(finding.numerator.run_id, finding.numerator.series_id)]
    denominator = results[(finding.denominator.run_id, finding.denominator.series_id)]
    if numerator is denominator:
        return [FieldError(path=f"{path}.denominator", message="is the numerator's result")]
    if numerator.base_unit != denominator.base_unit:
        message = (
            f"measures {denominator.base_unit}, the numerator {numerator.base_unit}: "
            "a ratio needs one kind of unit"
        )
        return [FieldError(path=f"{path}.denominator.series_id", message=message)]
    if denominator.value_base == 0:
        return [FieldError(path=f"{path}.denominator", message="is 0: no ratio")]
    return []


def replace_findings(
    session: Session, suite: str, update: FindingsUpdate, *, actor: str, token_id: int | None
) -> FindingList:
    """Check every finding, then replace the suite's findings with them (all or none)."""
    settings = session.get(Suite, suite)
    if settings is None:
        raise NotFound(f"no suite {suite!r}")
    sides = [side for f in update.findings for side in (f.numerator, f.denominator)]
    results = _pinned_results(session, [(side.run_id, side.series_id) for side in sides])
    runs = {
        row.id: row.suite
        for row in session.execute(
            select(Run.id, Run.suite).where(Run.id.in_({side.run_id for side in sides}))
        )
    }
    errors = [
        error
        for index, finding in enumerate(update.findings)
        for error in _finding_errors(suite, index, finding, results, runs)
    ]
    if errors:
        raise validation_failed("the findings are not valid", errors)
    session.execute(delete(Finding).where(Finding.suite == suite))
    # The findings are the study's settings too: who last set them is on record even when
    # they were all removed.
    settings.updated_at = func.now()
    settings.token_id = token_id
    session.add_all(
        Finding(
            suite=suite,
            position=position,
            numerator_run_id=f.numerator.run_id,
            numerator_series_id=f.numerator.series_id,
            numerator_label=f.numerator.label,
            denominator_run_id=f.denominator.run_id,
            denominator_series_id=f.denominator.series_id,
            denominator_label=f.denominator.label,
            context=f.context,
            note=f.note,
            created_by=actor,
            token_id=token_id,
        )
        for position, f in enumerate(update.findings)
    )
    session.flush()
    return FindingList(items=list_findings(session, [suite]))


def pinned_run_ids(session: Session) -> set[uuid.UUID]:
    """Every run a finding pins: retention must keep them (and their results)."""
    query = union(select(Finding.numerator_run_id), select(Finding.denominator_run_id))
    return set(session.scalars(select(query.subquery().c[0])).all())
