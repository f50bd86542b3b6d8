"""Conbench BenchmarkResult JSON: what benchadapt posts (`to_publishable_dict()`, one
object or a list) and what Conbench's API answers (`GET /api/benchmark-results/`, the
results wrapped in `{"data": …}`).

`tags.name` is the benchmark and the other tags are its params (Conbench's "case");
`stats.data` are the samples and their mean the value, as Conbench plots its history;
`stats.unit` is `s`, `i/s` (items per second) or `B/s`. A result with `error` and no
data failed in Conbench: it is reported as skipped, with its message, never stored as a
figure. Per run (`run_id`), `context` and `info` become the environment, `machine_info`
(or `cluster_info`) the hardware, `github` the git commit, `run_reason`/`run_tags` tags.
A Run object (`GET /api/runs/<id>/`) holds no result: its commit and hardware join the
results of the same run when both are imported.
"""

from __future__ import annotations

import json
import re
import statistics
from dataclasses import replace

from ..errors import ParseError
from ..jsonutil import JsonNode, load_json
from ..model import (
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
from ._peer import fold_repeats, measure_for_label, number_or_numeric_text, timestamp_to_rfc3339

_LANGUAGE = re.compile(r"^[a-z0-9][a-z0-9+#._-]{0,49}$")
_LANGUAGE_NAMES = {"c++": "cpp", "c#": "csharp"}
_STATS = {"min": "min", "max": "max", "median": "median", "stdev": "stddev", "q3": "p75"}
_RESERVED_TAGS = {"name", "id"}  # `id` is the case id Conbench's API adds
_GIB = 1024**3


def parse(raw: str, *, context: ParseContext) -> ParsedFile:
    runs = read_runs(raw, context=context)
    if not any(run.results or run.skipped for run in runs):
        raise ParseError(
            context.source,
            "$",
            "benchmark results: a Conbench run (GET /api/runs/…) holds none; "
            "pass its benchmark results",
        )
    results = [result for run in runs for result in run.results]
    skipped = [item for run in runs for item in run.skipped]
    # Results of several runs (run_id) uploaded as one name no single run's metadata.
    return ParsedFile(results, skipped, record=runs[0] if len(runs) == 1 else None)


def read_runs(raw: str, *, context: ParseContext) -> list[SourceRun]:
    """The runs a file holds: its results grouped by `run_id`, or a Run object alone."""
    document = _unwrapped(load_json(raw, context.source))
    if isinstance(document.value, dict) and not _is_result(document):
        if document.has("hardware") or document.has("commit"):
            return [_run_object(document)]
        raise document.fail("Conbench benchmark results (objects with 'tags' and 'stats')")
    nodes = document.as_list() if isinstance(document.value, list) else [document]
    groups: dict[str, list[JsonNode]] = {}
    for node in nodes:
        run_id = node.text("run_id") if node.has("run_id") else ""
        groups.setdefault(run_id, []).append(node)
    return [_results_run(run_id, group, context) for run_id, group in groups.items()]


def join_runs(runs: list[SourceRun]) -> list[SourceRun]:
    """Runs of the same id from several files (result pages, the Run object) as one; the
    Run object's commit, hardware and time win, since Conbench keeps them there."""
    joined: dict[tuple[str, ...], SourceRun] = {}
    for run in runs:
        seen = joined.get(run.key)
        if seen is None:
            joined[run.key] = run
            continue
        main, other = (run, seen) if not run.results else (seen, run)
        earliest = min(seen.started_at, run.started_at)
        results, repeats = fold_repeats(seen.results + run.results)
        joined[run.key] = replace(
            main,
            started_at=main.started_at if not main.results else earliest,
            results=results,
            skipped=seen.skipped + run.skipped + repeats,
            name=main.name or other.name,
            source_url=main.source_url or other.source_url,
            git=main.git or other.git,
            hardware=main.hardware or other.hardware,
            environment={**other.environment, **main.environment},
            tags={**other.tags, **main.tags},
        )
    return list(joined.values())


def _unwrapped(document: JsonNode) -> JsonNode:
    """The API's envelopes: `{"status_code", "data": {"data": [...]}}` or `{"data": […]}`."""
    for _ in range(2):
        if isinstance(document.value, dict) and not _is_result(document) and document.has("data"):
            document = document.key("data")
    return document


def _is_result(node: JsonNode) -> bool:
    return node.has("stats") or node.has("error")


def _results_run(run_id: str, nodes: list[JsonNode], context: ParseContext) -> SourceRun:
    first = nodes[0]
    language = _language(first)
    results: list[Result] = []
    skipped: list[Skipped] = []
    for node in nodes:
        found = _result(node, replace(context, language=context.language or language))
        if isinstance(found, Skipped):
            skipped.append(found)
        else:
            results.append(found)
    results, repeats = fold_repeats(results)
    times = [timestamp_to_rfc3339(n.text("timestamp")) for n in nodes if n.has("timestamp")]
    return SourceRun(
        key=(run_id or first.text("batch_id"),),
        started_at=min(times) if times else "",
        results=results,
        skipped=skipped + repeats,
        name=first.text("run_name") if first.has("run_name") else None,
        git=_git(first.get("github")),
        hardware=_hardware(first.get("machine_info") or first.get("cluster_info")),
        environment={**_strings(first.get("info")), **_strings(first.get("context"))},
        tags=_run_tags(first),
    )


def _result(node: JsonNode, context: ParseContext) -> Result | Skipped:
    tags = node.key("tags")
    name = tags.text("name")
    params = _params(tags)
    item = f"{name}({', '.join(f'{k}={v}' for k, v in params.items())})" if params else name
    stats = node.get("stats")
    data = stats.get("data") if stats else None
    if stats is None or data is None or not data.as_list():
        error = node.get("error")
        message = error.value.get("message") if error and isinstance(error.value, dict) else None
        reason = f"failed in Conbench: {message}" if message else "no figure (stats.data empty)"
        return Skipped(item, reason)
    figures = [_figure(value) for value in data.as_list()]
    measure, label = measure_for_label(stats.text("unit"))
    mean = stats.get("mean")
    value = number_or_numeric_text(mean) if mean else None
    summary: Stats = {"n": float(len(figures))}
    for key, stat in _STATS.items():
        figure = stats.get(key)
        number = number_or_numeric_text(figure) if figure else None
        if number is not None:
            set_stat(summary, stat, label.convert(number))
    result = ResultFactory(context, benchmark=name, params=params)
    converted = [label.convert(f) for f in figures]
    headline = label.convert(value) if value is not None else statistics.fmean(converted)
    return result(measure, headline, summary, converted)


def _figure(node: JsonNode) -> float:
    number = number_or_numeric_text(node)  # the API has sent figures as strings
    if number is None:
        raise node.fail("a number")
    return number


def _params(tags: JsonNode) -> dict[str, ParamValue]:
    params: dict[str, ParamValue] = {}
    for key, value in tags.items():
        if key in _RESERVED_TAGS or value.value is None or value.value == "":
            continue
        raw = value.value
        params[key] = raw if isinstance(raw, str | int | float | bool) else json.dumps(raw)
    return params


def _language(node: JsonNode) -> str | None:
    context = node.get("context")
    raw = context.as_dict().get("benchmark_language") if context else None
    if not isinstance(raw, str):
        return None
    name = raw.strip().lower()
    name = _LANGUAGE_NAMES.get(name, name)
    return name if _LANGUAGE.match(name) else None


def _git(github: JsonNode | None) -> dict[str, str]:
    fields = github.as_dict() if github else {}
    git = {
        "repo": fields.get("repository"),
        "commit": fields.get("commit"),
        "branch": fields.get("branch"),
    }
    return {key: value for key, value in git.items() if isinstance(value, str) and value}


def _hardware(machine: JsonNode | None) -> dict[str, str | int | float] | None:
    """benchadapt's `machine_info` (or a Run's `hardware`) as contract hardware."""
    if machine is None:
        return None
    fields = machine.as_dict()
    hardware: dict[str, str | int | float] = {"name": str(fields.get("name") or "unknown")}
    for key, value in fields.items():
        if key in {"name", "id", "type"}:
            continue
        if isinstance(value, str) and value.lstrip("-").isdigit():
            value = int(value)  # benchadapt sends its integers as strings
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            continue
        hardware[key] = value
    if isinstance(hardware.get("cpu_model_name"), str):
        hardware["cpu"] = hardware["cpu_model_name"]
    if isinstance(hardware.get("cpu_core_count"), int):
        hardware["cores"] = hardware["cpu_core_count"]
    memory = hardware.get("memory_bytes")
    if isinstance(memory, int | float):
        hardware["memory_gb"] = round(memory / _GIB, 1)
    os_name = " ".join(str(fields[k]) for k in ("os_name", "os_version") if fields.get(k))
    if os_name:
        hardware["os"] = os_name
    return hardware


def _strings(node: JsonNode | None) -> dict[str, str]:
    fields = node.as_dict() if node is not None and isinstance(node.value, dict) else {}
    return {
        key: value if isinstance(value, str) else json.dumps(value)
        for key, value in fields.items()
        if value is not None and value != ""
    }


def _run_tags(node: JsonNode) -> dict[str, str]:
    tags = {"imported_from": "conbench", **_strings(node.get("run_tags"))}
    if node.has("run_reason"):
        tags["run_reason"] = str(node.key("run_reason").value)
    return tags


def _run_object(run: JsonNode) -> SourceRun:
    commit = run.get("commit")
    fields = commit.as_dict() if commit else {}
    git = {
        "commit": fields.get("sha"),
        "repo": fields.get("repository"),
        "branch": fields.get("branch"),
    }
    tags = {"imported_from": "conbench", **_strings(run.get("tags"))}
    if run.has("reason"):
        tags["run_reason"] = str(run.key("reason").value)
    url = fields.get("url")
    return SourceRun(
        key=(run.text("id"),),
        started_at=timestamp_to_rfc3339(run.text("timestamp")),
        results=[],
        name=run.text("name") if run.has("name") else None,
        source_url=url if isinstance(url, str) else None,
        git={key: value for key, value in git.items() if isinstance(value, str) and value},
        hardware=_hardware(run.get("hardware")),
        tags=tags,
    )
