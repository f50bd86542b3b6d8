"""Guessing a file's format from its content (and, for criterion, its name).

Kept apart from the parsers: each rule looks only for a tool's signature,
never parses figures. JSON documents are recognised by their keys.
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
    ("contract", _is_object_with("suite", "results")),
    ("contract", _first_item_has("benchmark", "metric", "value")),
]
_GO_JSON_EVENT = re.compile(r'\A\s*\{"Time":"[^"]*","Action":')


def detect_format(raw: str, filename: str = "<input>") -> str:
    """The format name of `raw`; ParseError when no known tool wrote it."""
    if _GO_JSON_EVENT.match(raw):
        return "go-json"
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
    raise ParseError(filename, "$", "a JSON document of a known tool (pass --format)")
