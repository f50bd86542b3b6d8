"""airspeed velocity (asv) results files, `results/<machine>/<commit>-<env>.json`, v1 and v2.

One file is one run: one commit (`commit_hash`; `date` is the commit's date, asv's time
axis), one machine, one environment (`env_name`, which becomes `implementation`, so each
environment is its own series as in asv's graphs). Per benchmark, `result` holds one
figure per combination of its params (their product, in order); `null` means the
benchmark failed and `NaN` that it was skipped, and both are reported, not stored.

v1 keeps `{result, stats, params, samples?}` per benchmark (and may write bare `NaN`,
which Python's json reads); v2 keeps rows named by `result_columns`, which end early when
the benchmark failed. Units and param names live in `benchmarks.json`; without it asv's
own rules apply: the name's prefix gives the type (`time_` seconds, `mem_`/`peakmem_`
bytes) and params are named `param1`, `param2`…
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field
from typing import cast

from ..errors import ParseError
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
    set_stat,
)
from ..units import UnitLabel
from ._peer import epoch_ms_to_rfc3339, literal_param, measure_for_label

_PREFIX_TYPE = {
    "time_": "time",
    "timeraw_": "time",
    "mem_": "memory",
    "peakmem_": "peakmemory",
    "track_": "track",
}
_TYPE_UNIT = {"time": "seconds", "memory": "bytes", "peakmemory": "bytes"}
_TYPE_METRIC = {"time": "time_per_op", "memory": "memory", "peakmemory": "peak_memory"}
_V1_STATS = {"min": "min", "max": "max", "mean": "mean", "std": "stddev", "q_75": "p75"}
_HARDWARE_KEYS = ("machine", "cpu", "num_cpu", "ram", "os", "arch")
_RAM = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B)?\s*$", re.I)
_GIB = 1024**3


@dataclass(frozen=True)
class AsvBenchmark:
    """What `benchmarks.json` says of one benchmark."""

    type: str
    unit: str
    param_names: list[str] = field(default_factory=list)


@dataclass
class _Figures:
    """One benchmark's figures, one per param combination, whichever version wrote them."""

    values: list[JsonNode]
    params: list[list[str]]
    stats: list[Stats]
    samples: list[list[float] | None]


def read_benchmarks(raw: str, *, source: str) -> dict[str, AsvBenchmark]:
    """`benchmarks.json`: each benchmark's type, unit and param names."""
    benchmarks: dict[str, AsvBenchmark] = {}
    for name, entry in load_json(raw, source).items():
        if name == "version":
            continue
        names = entry.get("param_names")
        benchmarks[name] = AsvBenchmark(
            type=entry.text("type"),
            unit=entry.text("unit") if entry.has("unit") else "",
            param_names=[n.as_str() for n in names.as_list()] if names else [],
        )
    return benchmarks


def read_machine(raw: str, *, source: str) -> dict[str, str | int | float]:
    """`machine.json` as contract hardware."""
    document = load_json(raw, source)
    document.text("machine")
    return _hardware({k: str(v.value) for k, v in document.items() if k != "version"})


def parse(raw: str, *, context: ParseContext) -> ParsedFile:
    """A results file on its own: units and param names by asv's rules."""
    run = read_results(raw, context=context)
    return ParsedFile(run.results, run.skipped, record=run)


def read_results(
    raw: str,
    *,
    context: ParseContext,
    benchmarks: dict[str, AsvBenchmark] | None = None,
    hardware: dict[str, str | int | float] | None = None,
) -> SourceRun:
    """One results file as one run; `benchmarks` and `hardware` come from the files asv
    writes beside it (benchmarks.json, machine.json) when the caller has read them."""
    document = load_json(raw, context.source)
    version = int(document.number("version")) if document.has("version") else 1
    if version not in (1, 2):
        raise document.fail("results format version 1 or 2", f"{document.path}.version")
    commit = document.text("commit_hash")
    env = document.text("env_name")
    results: list[Result] = []
    skipped: list[Skipped] = []
    columns = _columns(document) if version == 2 else []
    for name, entry in document.key("results").items():
        figures = _figures_v2(entry, columns) if version == 2 else _figures_v1(entry)
        if figures is None:
            skipped.append(Skipped(name, _missing_reason(entry.value)))
            continue
        info = (benchmarks or {}).get(name) or _inferred(name)
        found, missing = _benchmark_results(name, info, figures, env, context)
        results += found
        skipped += missing
    params = document.key("params").as_dict() if document.has("params") else {}
    machine = hardware or _hardware({k: str(params[k]) for k in _HARDWARE_KEYS if k in params})
    return SourceRun(
        key=(str(machine["name"]), commit, env),
        started_at=epoch_ms_to_rfc3339(document.number("date")),
        results=results,
        skipped=skipped,
        name=f"{commit[:8]} {env}",
        git={"commit": commit},
        hardware=machine,
        environment=_environment(document),
        tags=_tags(document),
    )


def _columns(document: JsonNode) -> list[str]:
    return [column.as_str() for column in document.key("result_columns").as_list()]


def _missing_reason(value: object) -> str:
    if isinstance(value, float) and math.isnan(value):
        return "asv stored NaN: the benchmark was skipped"
    return "asv stored no result: the benchmark failed"


def _figures_v1(entry: JsonNode) -> _Figures | None:
    if not isinstance(entry.value, dict):
        if entry.value is None or isinstance(entry.value, float):
            return None  # null (failed) or NaN (skipped) for the whole benchmark
        raise entry.fail("an object, null or NaN")
    result = entry.get("result")
    if result is None:
        return None
    values = result.as_list() if isinstance(result.value, list) else [result]
    params = entry.get("params")
    stats = entry.get("stats")
    samples = entry.get("samples")
    return _Figures(
        values=values,
        params=_param_lists(params) if params else [],
        stats=[_v1_stats(s) for s in stats.as_list()] if stats else [],
        samples=[_numbers(s) for s in samples.as_list()] if samples else [],
    )


def _figures_v2(entry: JsonNode, columns: list[str]) -> _Figures | None:
    row = dict(zip(columns, entry.as_list(), strict=False))  # failed rows end early
    result = row.get("result")
    if result is None or result.value is None:
        return None
    count = len(result.as_list())

    def column(name: str) -> list[JsonNode | None]:
        node = row.get(name)
        cells = node.as_list() if node is not None and node.value is not None else []
        return [*cells, *([None] * (count - len(cells)))]

    stats: list[Stats] = []
    for q75, repeat in zip(column("stats_q_75"), column("stats_repeat"), strict=True):
        figure: Stats = {}
        if q75 is not None and q75.value is not None:
            figure["p75"] = q75.as_number()
        if repeat is not None and repeat.value is not None:
            figure["n"] = repeat.as_number()
        stats.append(figure)
    return _Figures(
        values=result.as_list(),
        params=_param_lists(row["params"]) if "params" in row else [],
        stats=stats,
        samples=[_numbers(s) for s in column("samples")],
    )


def _param_lists(node: JsonNode) -> list[list[str]]:
    return [[str(value.value) for value in axis.as_list()] for axis in node.as_list()]


def _v1_stats(node: JsonNode) -> Stats:
    stats: Stats = {}
    if not isinstance(node.value, dict):
        return stats
    for key, stat in _V1_STATS.items():
        value = node.optional_number(key)
        if value is not None:
            set_stat(stats, stat, value)
    repeat = node.optional_number("repeat")
    if repeat is not None:
        stats["n"] = repeat
    return stats


def _numbers(node: JsonNode | None) -> list[float] | None:
    if node is None or node.value is None:
        return None
    numbers = [v.as_optional_number() for v in node.as_list()]
    return [n for n in numbers if n is not None] or None


def _inferred(name: str) -> AsvBenchmark:
    """asv's own rule: a benchmark's type is its name's prefix."""
    method = name.rsplit(".", 1)[-1]
    kind = next((t for p, t in _PREFIX_TYPE.items() if method.startswith(p)), "track")
    return AsvBenchmark(type=kind, unit=_TYPE_UNIT.get(kind, ""))


def _benchmark_results(
    name: str, info: AsvBenchmark, figures: _Figures, env: str, context: ParseContext
) -> tuple[list[Result], list[Skipped]]:
    if info.type in _TYPE_METRIC:
        measure, label = measure_for_label(info.unit or _TYPE_UNIT[info.type])
        measure = Measure(_TYPE_METRIC[info.type], measure.unit, measure.direction)
    else:
        measure, label = measure_for_label(info.unit)
    names = info.param_names or [f"param{i + 1}" for i in range(len(figures.params))]
    combinations = list(itertools.product(*figures.params))
    if len(combinations) != len(figures.values) or len(names) != len(figures.params):
        raise ParseError(
            context.source, f"$.results.{name}", "one result per combination of its params"
        )
    results: list[Result] = []
    skipped: list[Skipped] = []
    for index, (combination, node) in enumerate(zip(combinations, figures.values, strict=True)):
        params: dict[str, ParamValue] = {
            key: literal_param(text) for key, text in zip(names, combination, strict=True)
        }
        item = f"{name}({', '.join(f'{k}={v}' for k, v in params.items())})" if params else name
        value = node.as_optional_number() if node.value is not None else None
        if value is None:
            skipped.append(Skipped(item, _missing_reason(node.value)))
            continue
        stats = figures.stats[index] if index < len(figures.stats) else {}
        samples = figures.samples[index] if index < len(figures.samples) else None
        result = ResultFactory(
            context, benchmark=name, params=params, language="python", implementation=env
        )
        results.append(
            result(
                measure,
                label.convert(value),
                _converted(stats, label),
                [label.convert(s) for s in samples] if samples else None,
            )
        )
    return results, skipped


def _converted(stats: Stats, label: UnitLabel) -> Stats:
    """Stats in the result's unit (`n` is a count and stays as it is)."""
    figures = cast(dict[str, float], stats)
    return cast(Stats, {k: v if k == "n" else label.convert(v) for k, v in figures.items()})


def _hardware(machine: dict[str, str]) -> dict[str, str | int | float]:
    """asv's machine fields as contract hardware; `ram` is kept as written too."""
    hardware: dict[str, str | int | float] = {"name": machine.get("machine") or "unknown"}
    for key in ("cpu", "os", "arch", "ram"):
        if machine.get(key):
            hardware[key] = machine[key]
    if machine.get("num_cpu", "").isdigit():
        hardware["cores"] = int(machine["num_cpu"])
    memory = _memory_gb(machine.get("ram", ""))
    if memory is not None:
        hardware["memory_gb"] = memory
    return hardware


def _memory_gb(ram: str) -> float | None:
    """asv writes bytes since 0.5 (MemTotal x 1024), kB before; people write "32GB".
    A bare figure under 1 GiB cannot be a benchmark machine's bytes, so it is kB."""
    match = _RAM.match(ram)
    if match is None:
        return None
    amount = float(match.group(1))
    suffix = (match.group(2) or "").upper()
    if suffix:
        scale = {"K": 2**-20, "M": 2**-10, "G": 1, "T": 2**10}[suffix[0]]
        return round(amount * scale, 1)
    return round(amount / _GIB if amount >= _GIB else amount / 2**20, 1)


def _environment(document: JsonNode) -> dict[str, str]:
    environment = {"asv_env": document.text("env_name")}
    if document.has("python"):
        environment["python"] = str(document.key("python").value)
    requirements = document.get("requirements")
    for name, version in requirements.items() if requirements else []:
        if isinstance(version.value, str) and version.value:
            environment[name] = version.value
    return environment


def _tags(document: JsonNode) -> dict[str, str]:
    """`measured_at` is when asv ran (its `date` is the commit's): the earliest start."""
    tags = {"imported_from": "asv"}
    started = document.get("started_at")
    if started is not None and isinstance(started.value, dict) and started.value:
        times = [v.as_number() for _, v in started.items() if isinstance(v.value, int | float)]
        if times:
            tags["measured_at"] = epoch_ms_to_rfc3339(min(times))
    return tags
