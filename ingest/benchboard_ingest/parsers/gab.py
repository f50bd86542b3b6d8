"""github-action-benchmark: its custom-tool input, and its history file (`data.js`).

The action keeps, per suite, one entry per CI run (commit, date, tool) holding the
benches its extractor made: `{name, value, unit, range?, extra?}`. Each bench is mapped
back onto the series our own parser of that tool makes, where we have one, so a team's
imported history continues with `benchboard-ingest upload` of the same tool's output:
Go's `ns/op` is `time_per_op` with `gomaxprocs` from "8 procs" and `B/op`/`allocs/op`
(folded into `unit` by older action versions) their own metrics; googlecpp's cpu time
and pytest's mean time come from `extra`; JMH's params from the name.

`range` is each tool's spread: libtest's max-min (cargo), benchmark.js's relative
margin ("±0.42%"), Catch2's std dev in a unit the action drops, pytest's stddev of the
time ("stddev: 0.0005", seconds). Only pytest's and the custom tools' numeric ranges
become `stats.stddev`; the others have no contract field and are left out.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ..errors import MissingOption, ParseError
from ..jsonutil import JsonNode, load_json
from ..model import (
    Measure,
    ParamValue,
    ParseContext,
    ParsedFile,
    Result,
    ResultFactory,
    Skipped,
    SourceRun,
    Stats,
)
from ..units import convert_time, read_unit_label
from ..vocabulary import Direction, units_of
from . import gotest, jmh
from ._peer import (
    epoch_ms_to_rfc3339,
    fold_repeats,
    measure_for_label,
    number_or_numeric_text,
    numeric_range,
)

HISTORY_PREFIX = "window.BENCHMARK_DATA"
TOOL_LANGUAGE = {
    "cargo": "rust",
    "go": "go",
    "benchmarkjs": "javascript",
    "benchmarkluau": "luau",
    "pytest": "python",
    "googlecpp": "cpp",
    "catch2": "cpp",
    "julia": "julia",
    "jmh": "java",
    "benchmarkdotnet": "csharp",
}
CUSTOM_DIRECTION: dict[str, Direction] = {
    "customBiggerIsBetter": "higher",
    "customSmallerIsBetter": "lower",
}
_SAMPLES = re.compile(r"(\d+) (?:samples|runs sampled)")
_EXTRA_FIELD = re.compile(r"^(\w+): (\S+)(?: (\S+))?$", re.M)
_PROCS = re.compile(r"^(\d+) procs$", re.M)
_JMH_PARAMS = re.compile(r"^(.*) \( (\{.*\}) \)$")
_SPLIT_COPY = re.compile(r"^(.*) - (\S+)$")


@dataclass(frozen=True)
class _Bench:
    name: str
    value: float
    unit: str
    range: object
    extra: str


def parse_custom(raw: str, *, context: ParseContext) -> ParsedFile:
    """The JSON array `customSmallerIsBetter`/`customBiggerIsBetter` read; the caller says
    which of the two, since only the tool name carries the direction."""
    items = load_json(raw, context.source).as_list()
    if not items:
        raise ParseError(context.source, "$", "at least one {name, unit, value} item")
    benches, skipped = _read_benches(items, "")
    if context.direction is None:
        raise MissingOption(
            context.source,
            "direction",
            "--direction lower or higher: a github-action-benchmark custom file does not "
            "say which way is better (the action takes it from the tool's name)",
        )
    results = [r for b in benches for r in _plain(b, context, direction=context.direction)]
    folded, repeats = fold_repeats(results)
    return ParsedFile(folded, skipped + repeats)


def read_history(raw: str, *, context: ParseContext) -> list[SourceRun]:
    """Every entry of every suite of a `data.js` (or `data.json`) as one run."""
    document = load_json(_without_prefix(raw, context.source), context.source)
    repo = document.key("repoUrl").as_str() if document.has("repoUrl") else None
    return [
        _entry_run(suite, entry, repo, context)
        for suite, entries in document.key("entries").items()
        for entry in entries.as_list()
    ]


def _without_prefix(raw: str, source: str) -> str:
    """The JSON after `window.BENCHMARK_DATA = `, padded so columns in errors stay true."""
    start = raw.lstrip()
    if not start.startswith(HISTORY_PREFIX):
        return raw
    head, sep, _ = raw.partition("=")
    if not sep:
        raise ParseError(source, "line 1", "'window.BENCHMARK_DATA = {…}'")
    return " " * (len(head) + 1) + raw[len(head) + 1 :]


def _entry_run(suite: str, entry: JsonNode, repo: str | None, context: ParseContext) -> SourceRun:
    commit = entry.key("commit")
    commit_id = commit.text("id")
    date = entry.number("date")
    tool = entry.text("tool")
    where = f"{suite} @ {commit_id[:12]}"
    benches, skipped = _read_benches(entry.key("benches").as_list(), f"{where}: ")
    if tool == "go":
        benches, copies = _without_go_copies(benches, f"{where}: ")
        skipped += copies
    results = [r for bench in benches for r in _bench_results(bench, tool, context)]
    results, repeats = fold_repeats(results)
    tags = {"imported_from": "github-action-benchmark", "gab_tool": tool}
    if commit.has("timestamp"):
        tags["commit_timestamp"] = str(commit.key("timestamp").value)
    message = commit.value.get("message") if isinstance(commit.value, dict) else None
    url = commit.value.get("url") if isinstance(commit.value, dict) else None
    return SourceRun(
        key=(suite, commit_id, str(int(date))),
        started_at=epoch_ms_to_rfc3339(date),
        results=results,
        skipped=skipped + repeats,
        group=suite,
        name=_first_line(message) if isinstance(message, str) else None,
        source_url=url if isinstance(url, str) else None,
        git={"commit": commit_id, **({"repo": repo} if repo else {})},
        tags=tags,
    )


def _first_line(message: str) -> str | None:
    line = message.strip().splitlines()[0].strip() if message.strip() else ""
    return line[:200] or None


def _read_benches(nodes: list[JsonNode], where: str) -> tuple[list[_Bench], list[Skipped]]:
    benches: list[_Bench] = []
    skipped: list[Skipped] = []
    for node in nodes:
        name = node.text("name")
        raw = node.as_dict().get("value")
        value = number_or_numeric_text(node.key("value")) if raw is not None else None
        if value is None:
            skipped.append(Skipped(f"{where}{name}", f"value {raw!r} is not a number"))
            continue
        fields = node.as_dict()
        unit = fields.get("unit")
        extra = fields.get("extra")
        benches.append(
            _Bench(
                name=name,
                value=value,
                unit=unit if isinstance(unit, str) else "",
                range=fields.get("range"),
                extra=extra if isinstance(extra, str) else "",
            )
        )
    return benches, skipped


def _without_go_copies(benches: list[_Bench], where: str) -> tuple[list[_Bench], list[Skipped]]:
    """Newer action versions add `X - B/op` beside `X` for each figure of a `-benchmem`
    line; the figures are read from `X` itself, so the copies would count twice."""
    names = {bench.name for bench in benches}
    kept: list[_Bench] = []
    copies: list[Skipped] = []
    for bench in benches:
        split = _SPLIT_COPY.match(bench.name)
        if split and split.group(2) == bench.unit and split.group(1) in names:
            reason = "the action's per-metric copy of a Go line; its figure is read from that line"
            copies.append(Skipped(f"{where}{bench.name}", reason))
        else:
            kept.append(bench)
    return kept, copies


def _bench_results(bench: _Bench, tool: str, context: ParseContext) -> list[Result]:
    if tool == "go":
        return _go(bench, context)
    if tool == "googlecpp":
        return _googlecpp(bench, context)
    if tool == "pytest":
        return _pytest(bench, context)
    if tool == "jmh":
        return _jmh(bench, context)
    if tool in CUSTOM_DIRECTION:
        return _plain(bench, context, direction=CUSTOM_DIRECTION[tool])
    return _plain(bench, context, language=TOOL_LANGUAGE.get(tool))


def _plain(
    bench: _Bench,
    context: ParseContext,
    *,
    direction: Direction | None = None,
    language: str | None = None,
) -> list[Result]:
    """A bench that is one figure in one unit: custom tools, and tools whose figure our own
    parser reads the same way (cargo, Catch2, Julia, BenchmarkDotNet, Luau, benchmark.js)."""
    # A benchmark tool's time is per iteration (`time_per_op`, as our own parsers name
    # it); a custom figure's time is whatever the user measured.
    time_metric = "time_per_op" if language is not None else "time"
    measure, label = measure_for_label(bench.unit, direction=direction, time_metric=time_metric)
    stats: Stats = {}
    spread = numeric_range(bench.range) if direction is not None else None
    if spread is not None and label.unit != "percent" and "%" not in str(bench.range):
        stats["stddev"] = label.convert(spread)
    samples = _SAMPLES.search(bench.extra)
    if samples:
        stats["n"] = float(samples.group(1))
    result = ResultFactory(context, benchmark=bench.name, language=language)
    return [result(measure, label.convert(bench.value), stats)]


def _go(bench: _Bench, context: ParseContext) -> list[Result]:
    tokens = bench.unit.split()
    value_unit = tokens[0] if tokens else ""
    name = bench.name
    split = _SPLIT_COPY.match(name)
    if split and split.group(2) == value_unit and len(tokens) == 1:
        name = split.group(1)  # a per-metric bench without its combined line
    procs = _PROCS.search(bench.extra)
    benchmark, params = gotest.name_and_params(name, int(procs.group(1)) if procs else None)
    result = ResultFactory(context, benchmark=benchmark, params=params, language="go")
    results = [result(gotest.measure_for_unit(value_unit), bench.value)]
    for figure, unit in gotest.PAIR.findall(" ".join(tokens[1:])):
        results.append(result(gotest.measure_for_unit(unit), float(figure)))
    return results


def _googlecpp(bench: _Bench, context: ParseContext) -> list[Result]:
    """Value is `real_time` in `<time_unit>/iter`; `extra` holds "cpu: 213.6 ns" and
    "threads: 1", as in our gbench parser's `cpu_time` and `threads`."""
    fields = _extra_fields(bench.extra)
    params: dict[str, ParamValue] = {}
    threads = fields.get("threads")
    if threads and threads[0].isdigit() and int(threads[0]) > 1:
        params["threads"] = int(threads[0])
    result = ResultFactory(context, benchmark=bench.name, params=params, language="cpp")
    unit = read_unit_label(bench.unit)
    if unit is None:
        return _plain(bench, context, language="cpp")
    results = [result(Measure("real_time", unit.unit, "lower"), bench.value)]
    cpu = fields.get("cpu")
    cpu_unit = read_unit_label(cpu[1]) if cpu and cpu[1] else None
    if cpu and cpu_unit is not None and cpu_unit.unit == unit.unit:
        results.append(result(Measure("cpu_time", unit.unit, "lower"), float(cpu[0])))
    return results


def _pytest(bench: _Bench, context: ParseContext) -> list[Result]:
    """Value is pytest-benchmark's `ops` (iter/sec); the mean time is in `extra`
    ("mean: 24.08 usec"), the stddev of the time in `range` (seconds). The action names a
    bench by its `fullname` (`tests/test_x.py::test_y`); our parser by its `name`, the
    last part, and so does the import, for the series to continue."""
    name = bench.name.rsplit("::", 1)[-1]
    result = ResultFactory(context, benchmark=name, language="python")
    throughput = Measure("throughput", "ops/s", "higher")
    results = [result(throughput, bench.value)]
    fields = _extra_fields(bench.extra)
    mean = fields.get("mean")
    mean_unit = read_unit_label(mean[1]) if mean and mean[1] else None
    if mean is None or mean_unit is None or mean_unit.unit not in units_of("time"):
        return results
    seconds = convert_time(mean_unit.convert(float(mean[0])), mean_unit.unit, "s")
    stats: Stats = {"mean": seconds}
    spread = numeric_range(bench.range)
    if spread is not None:
        stats["stddev"] = spread
    rounds = fields.get("rounds")
    if rounds and rounds[0].isdigit():
        stats["n"] = float(rounds[0])
    results.append(result(Measure("time_per_op", "s", "lower"), seconds, stats))
    return results


def _jmh(bench: _Bench, context: ParseContext) -> list[Result]:
    """Params come back out of the name the action gives them: `X ( {"size":"10"} )`."""
    name, params = bench.name, dict[str, ParamValue]()
    found = _JMH_PARAMS.match(bench.name)
    if found:
        try:
            raw_params = json.loads(found.group(2))
        except json.JSONDecodeError:
            raw_params = None
        if isinstance(raw_params, dict):
            name = found.group(1)
            params = {k: jmh.param_from_text(str(v)) for k, v in raw_params.items()}
    measure = jmh.measure_for_score_unit(bench.unit)
    if measure is None:
        return _plain(bench, context, language="java")
    result = ResultFactory(context, benchmark=name, params=params, language="java")
    return [result(measure[0], measure[1](bench.value))]


def _extra_fields(extra: str) -> dict[str, tuple[str, str]]:
    """ "cpu: 213.6 ns\\nthreads: 1" -> {"cpu": ("213.6", "ns"), "threads": ("1", "")}."""
    return {
        match.group(1): (match.group(2), match.group(3) or "")
        for match in _EXTRA_FIELD.finditer(extra)
    }
