"""LLVM LNT reports, `format_version` 2: `{machine, run, tests: [{name, <metric>: figure}]}`.

Each test's fields are the metrics of its schema (`nts`: `compile_time`, `execution_time`,
`score`, `mem_bytes`, `code_size`…; `compile`: `user_time`, `sys_time`, `wall_time`,
`size_bytes`, `mem_bytes`): times in seconds, sizes in bytes, `score` higher-is-better.
A figure may be a list of samples; its value is then the best of them, as LNT's own
reports aggregate (the minimum where lower is better). `hash` is not a figure and
`<prefix>_status` not either: a non-zero status marks the `<prefix>_…` figures of that
test as failed, and they are reported as skipped. The machine becomes the hardware, the
run's `llvm_project_revision` the commit, and its other fields the environment.
"""

from __future__ import annotations

from ..errors import ParseError
from ..jsonutil import JsonNode, load_json
from ..model import Measure, ParseContext, ParsedFile, Result, ResultFactory, Skipped, SourceRun
from ._peer import slug, timestamp_to_rfc3339
from ._stats import summarize

_TIME_FIELDS = {"compile_time", "execution_time", "user_time", "sys_time", "wall_time"}
_SIZE_FIELDS = {"mem_bytes", "size_bytes", "code_size"}
_HIGHER_IS_BETTER = {"score"}
_NOT_FIGURES = {"name", "hash"}


def parse(raw: str, *, context: ParseContext) -> ParsedFile:
    run = read_report(raw, context=context)
    return ParsedFile(run.results, run.skipped, record=run)


def read_report(raw: str, *, context: ParseContext) -> SourceRun:
    document = load_json(raw, context.source)
    version = document.key("format_version").value
    if str(version) != "2":
        raise document.fail("format_version 2", f"{document.path}.format_version")
    machine = document.key("machine")
    run = document.key("run")
    results: list[Result] = []
    skipped: list[Skipped] = []
    for test in document.key("tests").as_list():
        found, failed = _test_results(test, context)
        results += found
        skipped += failed
    revision = run.as_dict().get("llvm_project_revision")
    machine_name = machine.text("name")
    start = run.text("start_time")
    return SourceRun(
        key=(machine_name, start, str(revision or "")),
        started_at=timestamp_to_rfc3339(start),
        results=results,
        skipped=skipped,
        name=f"{machine_name} r{revision}" if revision else machine_name,
        git={"commit": str(revision)} if revision else {},
        hardware=_scalars(machine),
        environment={
            key: str(value).lower() if isinstance(value, bool) else str(value)
            for key, value in _scalars(run).items()
            if key not in {"start_time", "llvm_project_revision"}
        },
        tags={"imported_from": "lnt", "lnt_schema": _schema(document)},
    )


def _schema(document: JsonNode) -> str:
    return document.text("schema") if document.has("schema") else "nts"


def _test_results(test: JsonNode, context: ParseContext) -> tuple[list[Result], list[Skipped]]:
    name = test.text("name")
    result = ResultFactory(context, benchmark=name)
    failed = _failed_prefixes(test)
    results: list[Result] = []
    skipped: list[Skipped] = []
    for field, node in test.items():
        if field in _NOT_FIGURES or field.endswith("_status") or isinstance(node.value, str):
            continue
        if isinstance(node.value, list) and any(isinstance(v, str) for v in node.value):
            continue  # a list of hashes
        prefix = field.split("_", 1)[0]
        if prefix in failed:
            skipped.append(Skipped(f"{name} {field}", f"LNT status {failed[prefix]} (failed)"))
            continue
        results.append(_figure(result, _measure(field), node))
    if not results and not skipped:
        raise test.fail("at least one metric figure")
    return results, skipped


def _failed_prefixes(test: JsonNode) -> dict[str, int]:
    failed: dict[str, int] = {}
    for field, node in test.items():
        if not field.endswith("_status"):
            continue
        statuses = node.as_list() if isinstance(node.value, list) else [node]
        codes = [int(status.as_number()) for status in statuses]
        if any(codes):
            failed[field.removesuffix("_status")] = next(code for code in codes if code)
    return failed


def _measure(field: str) -> Measure:
    if field in _TIME_FIELDS:
        return Measure(field, "s", "lower")
    if field in _SIZE_FIELDS:
        return Measure(field, "B", "lower")
    return Measure(slug(field), "count", "higher" if field in _HIGHER_IS_BETTER else "lower")


def _figure(result: ResultFactory, measure: Measure, node: JsonNode) -> Result:
    if not isinstance(node.value, list):
        return result(measure, node.as_number())
    samples = [value.as_number() for value in node.as_list()]
    if not samples:
        raise node.fail("at least one sample")
    best = max(samples) if measure.direction == "higher" else min(samples)
    return result(measure, best, summarize(samples), samples)


def _scalars(node: JsonNode) -> dict[str, str | int | float]:
    fields: dict[str, str | int | float] = {}
    for key, value in node.as_dict().items():
        if isinstance(value, str | int | float):
            fields[key] = value
    if "name" in fields and not isinstance(fields["name"], str):
        raise ParseError(node.source, f"{node.path}.name", "a string")
    return fields
