"""The CI gate: which regressions fail the build, and the Markdown summary of a baseline
comparison (`GET /api/v1/runs/{id}/baseline-comparison`). Pure functions, no I/O.

The verdicts come from the service; the gate only applies the caller's minimum size
(`--fail-on regression>5%`) on top, and formats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .vocabulary import UNITS, units_of

# Time units from the largest: a value is shown in the first it reaches 1 in.
_TIME_LADDER = sorted(units_of("time"), key=lambda name: UNITS[name].factor, reverse=True)
_FAIL_ON = re.compile(r"^regression(?:\s*>\s*(?P<size>\d+(?:\.\d+)?)\s*%)?$")


@dataclass(frozen=True)
class FailOn:
    """Fail on any regression whose relative change is larger than `min_change`."""

    min_change: float = 0.0

    @classmethod
    def parse(cls, text: str) -> FailOn:
        """`regression` or `regression>5%`; ValueError otherwise."""
        match = _FAIL_ON.match(text.strip())
        if match is None:
            raise ValueError(f"--fail-on takes 'regression' or 'regression>N%', not {text!r}")
        size = match.group("size")
        return cls(float(size) / 100 if size else 0.0)

    def describe(self) -> str:
        return f"regression>{self.min_change * 100:g}%" if self.min_change else "regression"

    def failing(self, comparison: dict[str, Any]) -> list[dict[str, Any]]:
        """The regressions that fail the build."""
        return [
            item
            for item in comparison["items"]
            if item["verdict"] == "regression"
            and abs(item["relative_change"] or 0.0) > self.min_change
        ]


def _percent(value: float) -> str:
    return f"{value:.4g}%"


def format_value(value: float, unit: str) -> str:
    """`2.531 ms` for 2530640 ns; large counts with separators (`12,870 req/s`)."""
    info = UNITS.get(unit)
    if info is not None and info.dimension == "time":
        seconds = value * info.factor
        for name in _TIME_LADDER:
            scaled = seconds / UNITS[name].factor
            if abs(scaled) >= 1 or name == _TIME_LADDER[-1]:
                return f"{scaled:.4g} {'µs' if name == 'us' else name}"
    suffix = "" if unit == "count" else f" {unit}"  # a count needs no unit
    if abs(value) >= 10_000:
        return f"{value:,.0f}{suffix}"
    return f"{value:.4g}{suffix}"


def series_label(item: dict[str, Any]) -> str:
    """`WriteFiles/sync (n=10) · go · goroutines, async`: what a reader needs to find it."""
    label = item["benchmark"]
    if item.get("params"):
        label += " (" + ", ".join(f"{k}={v}" for k, v in sorted(item["params"].items())) + ")"
    extras = [item.get(key) for key in ("implementation", "mode", "variant")]
    details = [item["language"], ", ".join(str(e) for e in extras if e)]
    return " · ".join([label, *(d for d in details if d)])


def _interval(item: dict[str, Any]) -> str:
    if not item.get("interval"):
        return "—"
    low, high = item["interval"]
    return f"{_signed_percent(low)} … {_signed_percent(high)}"


def _signed_percent(fraction: float) -> str:
    """`+23.6%`, `−0.8%`: the minus sign the service's change wording uses."""
    return f"{fraction * 100:+.1f}%".replace("-", "−")


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


@dataclass(frozen=True)
class SummaryContext:
    dashboard_url: str
    fail_on: FailOn | None


def render_summary(comparison: dict[str, Any], context: SummaryContext) -> str:
    """The Markdown summary: counts and the gate's decision, then a table per verdict."""
    base = context.dashboard_url.rstrip("/")
    contender, baseline = comparison["contender"], comparison["baseline"]
    lines = [f"### Benchmarks: {_run_label(contender)} against {_baseline_label(comparison)}", ""]
    counts = comparison["counts"]
    tally = (
        f"**{_plural(counts['regression'], 'regression')}** · "
        f"{_plural(counts['improvement'], 'improvement')} · {counts['unchanged']} unchanged · "
        f"{counts['new']} new"
    )
    if counts["missing"]:
        tally += f" · {counts['missing']} missing from this run"
    if comparison.get("compare_path"):
        tally += f" · [compare runs]({base}{comparison['compare_path']})"
    lines += [tally, ""]
    if context.fail_on is not None:
        failing = context.fail_on.failing(comparison)
        decision = f"**failed**: {_plural(len(failing), 'regression')}" if failing else "passed"
        lines += [f"Gate `--fail-on {context.fail_on.describe()}`: {decision}.", ""]
    if baseline is None:
        lines += [
            f"No run of branch `{comparison['branch']}` on machine "
            f"`{contender['hardware_name']}` before this one: nothing to compare with yet.",
            "",
        ]
    rule = comparison["rule"]
    by_verdict = {v: [i for i in comparison["items"] if i["verdict"] == v] for v in _VERDICTS}
    lines += _judged_table("Regressions", by_verdict["regression"], comparison, base)
    lines += _judged_table("Improvements", by_verdict["improvement"], comparison, base)
    lines += _new_table(comparison["new"], contender, base)
    if by_verdict["unchanged"]:
        lines += [
            f"<details><summary>{counts['unchanged']} unchanged</summary>",
            "",
            *_judged_table(None, by_verdict["unchanged"], comparison, base),
            "</details>",
            "",
        ]
    lines.append(
        "Each side shows the figure its verdict compares (a run's median of samples where it "
        "has three or more, else the median or mean its stats report, else its value), and "
        "the change is theirs. "
        f"A change is a regression or an improvement when it is significant (p < "
        f"{rule['significance']:g}) and at least {_percent(rule['min_relative_change'] * 100)}; "
        f"intervals are {_percent(rule['confidence'] * 100)} intervals of the change."
    )
    return "\n".join(lines) + "\n"


_VERDICTS = ("regression", "improvement", "unchanged")


def _judged_table(
    title: str | None, items: list[dict[str, Any]], comparison: dict[str, Any], base: str
) -> list[str]:
    if not items:
        return []
    before, after = comparison["branch"], comparison["contender"]["branch"]
    lines = [f"#### {title}", ""] if title else []
    lines += [
        f"| Benchmark | Metric | {_escape(before)} | {_escape(after)} | Change | Interval "
        "| Evidence | |",
        "|---|---|--:|--:|---|---|---|---|",
    ]
    lines += [
        f"| {_escape(series_label(i))} | {_escape(i['metric'])} "
        f"| {_compared(i, 'baseline')} | {_compared(i, 'contender')} "
        f"| {i['change']} | {_interval(i)} | {_escape(i['basis']['text'])} "
        f"| [history]({base}{i['history_path']}) |"
        for i in items
    ]
    return [*lines, ""]


def _compared(item: dict[str, Any], side: str) -> str:
    """The figure the verdict compared for one side, in the unit the run reported (the
    service gives it in the base unit), and which figure it is: `5.152 µs (median of 5)`."""
    level = item["basis"]["compared"][side]
    value, unit = level["value"], item["base_unit"]
    reported = UNITS.get(item[side]["unit"])
    if reported is not None and reported.base_unit == unit:
        value, unit = value / reported.factor, reported.name
    text = format_value(value, unit)
    return f"{text} ({_escape(level['label'])})" if level.get("label") else text


def _new_table(items: list[dict[str, Any]], contender: dict[str, Any], base: str) -> list[str]:
    if not items:
        return []
    lines = [
        "#### New series (not judged)",
        "",
        f"| Benchmark | Metric | {_escape(contender['branch'])} | |",
        "|---|---|--:|---|",
    ]
    lines += [
        f"| {_escape(series_label(i))} | {_escape(i['metric'])} "
        f"| {format_value(i['side']['value'], i['side']['unit'])} "
        f"| [history]({base}{i['history_path']}) |"
        for i in items
    ]
    return [*lines, ""]


def _run_label(run: dict[str, Any]) -> str:
    commit = f" @ `{run['commit'][:12]}`" if run.get("commit") else ""
    return f"`{run['branch']}`{commit}"


def _baseline_label(comparison: dict[str, Any]) -> str:
    baseline = comparison["baseline"]
    if baseline is None:
        return f"`{comparison['branch']}` (no baseline run)"
    return _run_label(baseline)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _named(item: dict[str, Any]) -> str:
    return f"{series_label(item)}, {item['metric']}"


def one_line(comparison: dict[str, Any], fail_on: FailOn | None) -> str:
    """For the log: `against main: 1 regression, 0 improvements, 5 unchanged, 1 new`."""
    counts = comparison["counts"]
    text = (
        f"against {comparison['branch']}: {_plural(counts['regression'], 'regression')}, "
        f"{_plural(counts['improvement'], 'improvement')}, {counts['unchanged']} unchanged, "
        f"{counts['new']} new"
    )
    if fail_on is not None:
        failing = fail_on.failing(comparison)
        text += f"; gate --fail-on {fail_on.describe()}: " + (
            f"failed ({'; '.join(_named(item) for item in failing)})" if failing else "passed"
        )
    return text
