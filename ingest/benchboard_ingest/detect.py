"""Guessing a file's format from its content (and, for criterion, its name).

Kept apart from the parsers: each rule looks only for a tool's signature,
never parses figures. JSON documents are recognised by their keys. A
github-action-benchmark history (`data.js`) is many runs, not one: it is
recognised only to point at `benchboard-ingest import`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from .errors import ParseError

_TEXT_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("ab", re.compile(r"^This is ApacheBench", re.M)),
    ("ab-csv", re.compile(r"\APercentage served,Time in ms")),
    ("wrk", re.compile(r"^Running \S+ test @ .*\n(?:.*\n)*?Requests/sec:", re.M)),
    ("hey", re.compile(r"^Summary:\n(?:.*\n)*?\s+Requests/sec:", re.M)),
    ("pgbench", re.compile(r"^pgbench \(.*\n(?:.*\n)*?tps = ", re.M)),
    ("sysbench", re.compile(r"^sysbench \d.*\n(?:.*\n)*?File operations:", re.M)),
    ("go", re.compile(r"^Benchmark\S*\s+\d+\s+[\d.]+ ns/op", re.M)),
    ("criterion-stdout", re.compile(r"time:\s+\[\S+ \S+ \S+ \S+ \S+ \S+\]")),
    ("dart", re.compile(r"^.+\(RunTime\): \S+ us\.", re.M)),
    ("dart", re.compile(r"^.+: avg=\S+ \S+ · median=", re.M)),
    ("benchmarkjs", re.compile(r"^.+ x [\d,.]+ ops/sec ±", re.M)),
    ("tinybench", re.compile(r"Task name\s*│\s*Latency avg")),
]


def _is_object_with(*keys: str) -> Callable[[object], bool]:
    return lambda doc: isinstance(doc, dict) and all(k in doc for k in keys)


def _first_item_has(*keys: str) -> Callable[[object], bool]:
    return lambda doc: (
        isinstance(doc, list)
        and bool(doc)
        and isinstance(doc[0], dict)
        and all(k in doc[0] for k in keys)
    )


def _results_items_have(*keys: str) -> Callable[[object], bool]:
    return lambda doc: isinstance(doc, dict) and _first_item_has(*keys)(doc.get("results"))


def _is_conbench(doc: object) -> bool:
    """A BenchmarkResult, a list of them, or the API's `{"data": …}` around either (or
    around a Run, so that its error can say what to pass instead)."""
    for _ in range(3):
        if isinstance(doc, dict) and "data" in doc and "stats" not in doc:
            doc = doc["data"]
    if isinstance(doc, list):
        doc = doc[0] if doc else None
    if not isinstance(doc, dict):
        return False
    is_result = "tags" in doc and ("stats" in doc or "error" in doc)
    return is_result or ("commit" in doc and "hardware" in doc)


def _is_bmf(doc: object) -> bool:
    """`{benchmark: {measure: {"value": …}}}` and nothing else."""
    return (
        isinstance(doc, dict)
        and bool(doc)
        and all(
            isinstance(measures, dict)
            and bool(measures)
            and all(isinstance(m, dict) and "value" in m for m in measures.values())
            for measures in doc.values()
        )
    )


_JSON_RULES: list[tuple[str, Callable[[object], bool]]] = [
    ("fio", _is_object_with("fio version", "jobs")),
    ("pytest-benchmark", _is_object_with("machine_info", "benchmarks")),
    ("google-benchmark", _is_object_with("context", "benchmarks")),
    ("pyperf", _is_object_with("benchmarks", "version")),
    ("jmh", _first_item_has("benchmark", "primaryMetric")),
    ("hyperfine", _results_items_have("command", "mean", "times")),
    ("tinybench-json", _results_items_have("name", "result")),
    ("criterion", _is_object_with("mean", "median", "std_dev")),
    ("criterion-benchmark", _is_object_with("group_id", "full_id")),
    ("benchmarkdotnet", _is_object_with("HostEnvironmentInfo", "Benchmarks")),
    ("autocannon", _is_object_with("requests", "latency", "throughput", "connections")),
    ("asv", _is_object_with("commit_hash", "env_name", "results")),
    ("lnt", _is_object_with("format_version", "machine", "run", "tests")),
    ("conbench", _is_conbench),
    ("contract", _is_object_with("suite", "results")),
    ("contract", _first_item_has("benchmark", "metric", "value")),
    ("gab-custom", _first_item_has("name", "value")),
    ("bmf", _is_bmf),
]
_GAB_HISTORY = re.compile(r"\A\s*window\.BENCHMARK_DATA\s*=")
_GO_JSON_EVENT = re.compile(r'\A\s*\{"Time":"[^"]*","Action":')


def detect_format(raw: str, filename: str = "<input>") -> str:
    """The format name of `raw`; ParseError when no known tool wrote it."""
    if _GO_JSON_EVENT.match(raw):
        return "go-json"
    if _GAB_HISTORY.match(raw):
        raise _history_is_imported(filename)
    stripped = raw.lstrip()
    if stripped.startswith(("{", "[")):
        return _detect_json(raw, filename)
    for name, pattern in _TEXT_RULES:
        if pattern.search(raw):
            return name
    raise ParseError(
        filename,
        "line 1",
        "the output of a known tool (pass --format; known formats are listed by --help)",
    )


def _detect_json(raw: str, filename: str) -> str:
    try:
        document = json.loads(raw)
    except json.JSONDecodeError as error:
        raise ParseError(
            filename, f"line {error.lineno} column {error.colno}", f"valid JSON ({error.msg})"
        ) from None
    for name, matches in _JSON_RULES:
        if matches(document):
            return name
    if isinstance(document, dict) and {"entries", "lastUpdate"} <= document.keys():
        raise _history_is_imported(filename)
    raise ParseError(filename, "$", "a JSON document of a known tool (pass --format)")


def _history_is_imported(filename: str) -> ParseError:
    return ParseError(
        filename,
        "line 1",
        "one run's output; this is a github-action-benchmark history, which "
        "`benchboard-ingest import gab FILE` reads (one run per entry)",
    )
