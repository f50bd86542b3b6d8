"""The data each published figure shows, fetched by the services that serve the same data
as JSON: an image answers to the same read rules as its data (ReadAccess on the route,
and whatever those services filter), and shows what the dashboard shows.

Each function returns a figure of history_chart.py, bar_chart.py, badge.py or card.py;
nothing here draws.
"""

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from benchboard.annotations.service import list_annotations
from benchboard.compare import modes
from benchboard.compare.baseline import get_baseline_comparison
from benchboard.compare.schemas import ModeComparison, ModePair, ModeSide
from benchboard.errors import FieldError, NotFound, validation_failed
from benchboard.findings.schemas import FindingOut, FindingSide
from benchboard.findings.service import list_findings
from benchboard.findings.wording import format_factor
from benchboard.models import Finding
from benchboard.publication.badge import Badge
from benchboard.publication.bar_chart import Bar, BarsFigure
from benchboard.publication.canvas import plain_number
from benchboard.publication.card import CardFigure
from benchboard.publication.history_chart import HistoryFigure, Marker
from benchboard.regressions.service import RegressionFilter, list_regressions
from benchboard.series import history, service
from benchboard.series.filters import SeriesFilter
from benchboard.series.schemas import ResultIdentity, SeriesHistory, SeriesPage, SeriesValue
from benchboard.studies.service import get_study
from benchboard.tokens.visibility import Viewer
from benchboard_ingest.vocabulary import unit_info

HISTORY_POINTS = 2000  # the dashboard's own max_points: the snapshots workers keep ahead
BOARD_BARS = 30  # a leaderboard or a page of pairs beyond this is unreadable as one image
_MARKERS = 50


def identity_words(identity: ResultIdentity) -> str:
    """ "file-write-tiny writes=10000 · dart dart:io async" """
    params = " ".join(f"{key}={value}" for key, value in sorted(identity.params.items()))
    who = " ".join(
        part
        for part in (identity.language, identity.implementation, identity.mode, identity.variant)
        if part
    )
    return " · ".join(part for part in (f"{identity.benchmark} {params}".strip(), who) if part)


def format_value(value: float, unit: str) -> str:
    """Four significant digits and the unit: "119.9 µs", "12,340 req/s"."""
    return f"{plain_number(value)} {unit}"


def history_figure(
    session: Session,
    viewer: Viewer,
    series_id: int,
    *,
    since: datetime | None,
    until: datetime | None,
) -> HistoryFigure:
    body = history.get_series_history_json(
        session, series_id, since=since, until=until, max_points=HISTORY_POINTS
    )
    found = SeriesHistory.model_validate_json(body)
    series = found.series
    viewer.require(series.suite, f"series {series_id}")
    shown = (since, until)
    return HistoryFigure(
        title=f"{series.suite}: {series.metric.replace('_', ' ')}",
        caption=f"{identity_words(series)} · machine {series.hardware} · branch {series.branch}"
        + (
            f" · {found.total_points} runs in {len(found.points)} buckets"
            if found.downsampled
            else ""
        ),
        value_label=f"{series.metric} ({series.unit})",
        times=tuple(point.started_at for point in found.points),
        values=tuple(point.value for point in found.points),
        markers=(*_changes(session, series_id, shown), *_notes(session, viewer, series_id, shown)),
    )


def _within(at: datetime, shown: tuple[datetime | None, datetime | None]) -> bool:
    since, until = shown
    return (since is None or at >= since) and (until is None or at <= until)


def _changes(
    session: Session, series_id: int, shown: tuple[datetime | None, datetime | None]
) -> list[Marker]:
    page = list_regressions(
        session, RegressionFilter(series_id=series_id), limit=_MARKERS, cursor=None
    )
    return [
        Marker(at=change.started_at, kind=change.direction, label=f"{change.relative_change:+.1%}")
        for change in page.items
        if change.status != "invalid" and _within(change.started_at, shown)
    ]


def _notes(
    session: Session,
    viewer: Viewer,
    series_id: int,
    shown: tuple[datetime | None, datetime | None],
) -> list[Marker]:
    notes = list_annotations(session, viewer, series_id=series_id, suite=None, hardware=None).items
    return [
        Marker(at=note.at, kind="annotation", label=note.text)
        for note in notes[:_MARKERS]
        if _within(note.at, shown)
    ]


def series_badge(session: Session, series_id: int) -> Badge:
    """The latest value and its change against the latest run's baseline, by verdict."""
    found = SeriesHistory.model_validate_json(
        history.get_series_history_json(
            session, series_id, since=None, until=None, max_points=HISTORY_POINTS
        )
    )
    label = found.series.benchmark
    if not found.points:
        return Badge(label=label, value="no runs", verdict=None)
    latest = found.points[-1]
    value = format_value(latest.value, latest.unit)
    comparison = get_baseline_comparison(session, latest.run_id, branch=None, baseline_id=None)
    for item in comparison.items:
        if item.contender.series_id == series_id:
            return Badge(label=label, value=f"{value} {item.change}", verdict=item.verdict)
    return Badge(label=label, value=value, verdict=None)


def get_finding(session: Session, viewer: Viewer, finding_id: int) -> FindingOut:
    suite = session.scalar(select(Finding.suite).where(Finding.id == finding_id))
    if suite is not None:
        viewer.require(suite, f"finding {finding_id}")
    found = [f for f in list_findings(session, [suite]) if f.id == finding_id] if suite else []
    if not found:
        raise NotFound(f"no finding {finding_id}")
    return found[0]


def finding_figure(finding: FindingOut) -> BarsFigure:
    """The two sides in their unit, each with the min-max range its run reported."""
    sides = (finding.numerator, finding.denominator)
    interval = finding.interval
    notes = (
        f"ratio {format_factor(finding.ratio)}, "
        + (
            f"95% interval {interval.low:.3g}–{interval.high:.3g}"
            if interval.level
            else f"reported ranges allow {interval.low:.3g}–{interval.high:.3g}"
        )
        if interval
        else f"ratio {format_factor(finding.ratio)}, no interval (no replicates reported)"
    )
    return BarsFigure(
        title=finding.text,
        # The ratio and its interval first: a clipped caption loses the identity's tail.
        caption=f"{notes} · {finding.suite}"
        f" · {identity_words(_identity(finding.numerator, finding))}"
        f" · machine {finding.numerator.hardware}",
        value_label=f"{finding.numerator.metric} ({finding.numerator.unit})",
        bars=tuple(_bar((side.label,), side, finding.numerator.unit) for side in sides),
        colours_by_bar=True,
    )


def _identity(side: FindingSide, finding: FindingOut) -> ResultIdentity:
    return ResultIdentity(
        suite=finding.suite,
        benchmark=side.benchmark,
        params=side.params,
        language=side.language,
        implementation=side.implementation,
        mode=side.mode,
        variant=side.variant,
        metric=side.metric,
        base_unit=finding.base_unit,
        direction=finding.direction,
    )


def _bar(label: tuple[str, ...], value: SeriesValue | FindingSide, unit: str) -> Bar:
    """A result's value and its reported min-max range in `unit` (one axis for results
    measured in different units of one kind; stats are in the result's own unit)."""
    to_shown = (value.value_base / value.value if value.value else 1.0) / unit_info(unit).factor
    low, high = _reported_range(value.stats)
    return Bar(
        label=label,
        value=value.value_base / unit_info(unit).factor,
        low=low * to_shown if low is not None else None,
        high=high * to_shown if high is not None else None,
    )


def _reported_range(stats: dict[str, float] | None) -> tuple[float | None, float | None]:
    if stats and "min" in stats and "max" in stats:
        return stats["min"], stats["max"]
    return None, None


def leaderboard_figure(session: Session, series_filter: SeriesFilter) -> BarsFigure:
    """Each matching series' latest value, best first by the metric's direction."""
    page = SeriesPage.model_validate_json(
        service.list_series(session, series_filter, limit=BOARD_BARS * 10, cursor=None)
    )
    measured = [s for s in page.items if s.latest is not None]
    if len({(s.metric, s.base_unit, s.direction) for s in measured}) > 1:
        raise _one_metric_needed()
    measured.sort(
        key=lambda s: s.latest.value_base if s.latest else 0.0,
        reverse=bool(measured) and measured[0].direction == "higher",
    )
    shown = measured[:BOARD_BARS]
    unit = shown[0].latest.unit if shown and shown[0].latest else ""
    # Every part of each series' identity: the parts all share are said once (bar_chart.py).
    bars = [_bar(_identity_parts(s, s.hardware), s.latest, unit) for s in shown if s.latest]
    first = shown[0] if shown else None
    suites = ", ".join(sorted({s.suite for s in shown}))
    return BarsFigure(
        title=f"{suites}: {first.metric.replace('_', ' ')}" if first else "no series match",
        caption=_shown_of(len(shown), len(measured), "series")
        + (f" · {'higher' if first.direction == 'higher' else 'lower'} is better" if first else ""),
        value_label=f"{first.metric} ({unit})" if first else "",
        bars=tuple(bars),
    )


def _identity_parts(identity: ResultIdentity, hardware: str) -> tuple[str, ...]:
    params = (f"{key}={value}" for key, value in sorted(identity.params.items()))
    who = (identity.language, identity.implementation, identity.mode, identity.variant)
    return (identity.benchmark, *params, *(part for part in who if part), hardware)


def _one_metric_needed() -> Exception:
    return validation_failed(
        "a leaderboard draws one metric: these series measure several",
        [FieldError(path="metric", message="name one metric")],
    )


def _shown_of(shown: int, total: int, what: str) -> str:
    return f"{total} {what}" if shown == total else f"the first {shown} of {total} {what}"


def modes_figure(session: Session, series_filter: SeriesFilter) -> BarsFigure:
    """async / sync of each pair on a log axis around 1, with its interval."""
    page = ModeComparison.model_validate_json(
        modes.compare_modes(session, series_filter, limit=BOARD_BARS, cursor=None)
    )
    # A ratio of 0 or below (a value of 0, a negative metric) has no place on a log axis.
    pairs = [pair for pair in page.items if (pair.async_over_sync or 0) > 0]
    suites = sorted({pair.suite for pair in pairs})
    return BarsFigure(
        title=f"async / sync: {', '.join(suites)}" if suites else "async / sync: no pairs match",
        caption=f"{len(pairs)} pairs"
        + (" (more on the next page of /compare/modes)" if page.next_cursor else "")
        + " · below 1: async is lower · bars from 1, whiskers the 95% interval or reported range",
        value_label="async / sync (ratio of values)",
        bars=tuple(_pair_bar(pair) for pair in pairs),
        reference=1.0,
        log_scale=True,
    )


def _pair_bar(pair: ModePair) -> Bar:
    ratio = pair.async_over_sync or 1.0
    params = (f"{key}={value}" for key, value in sorted(pair.params.items()))
    label = (
        pair.benchmark,
        *params,
        pair.metric,
        pair.language,
        *_sides(pair.async_, pair.sync, pair.params),
        pair.hardware,
    )
    interval = pair.interval
    return Bar(
        label=label,
        value=ratio,
        low=interval.low if interval else None,
        high=interval.high if interval else None,
    )


def _sides(async_: ModeSide, sync: ModeSide, shared: dict[str, object]) -> list[str]:
    """What the two sides run, as the dashboard says it (features/modes ratioRows.ts): one
    word where they agree ("dart:io"), "async future-wait-3 vs sync sequential" where they
    do not, and each side's own params ("async iodepth=32")."""
    parts = []
    for a, s in ((async_.implementation, sync.implementation), (async_.variant, sync.variant)):
        if a == s:
            parts += [a] if a else []
        else:
            parts.append(f"async {a or '(default)'} vs sync {s or '(default)'}")
    for mode, side in (("async", async_), ("sync", sync)):
        own = " ".join(
            f"{key}={value}"
            for key, value in sorted(side.params.items())
            if shared.get(key) != value
        )
        parts += [f"{mode} {own}"] if own else []
    return parts


def study_card(session: Session, suite: str) -> CardFigure:
    """A study's sharing card: its title, its first finding in words, that finding's chart."""
    study = get_study(session, suite)
    title = study.title or suite
    if study.findings:
        first = study.findings[0]
        return CardFigure(title=title, sentence=first.text, chart=finding_figure(first))
    return CardFigure(
        title=title,
        sentence=study.description or f"the study {suite}",
        chart=BarsFigure(title=title, caption=suite, value_label="", bars=()),
    )
