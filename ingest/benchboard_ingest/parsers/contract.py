"""Benchboard's own contract v1 JSON: an array of results, or a whole run with `results`,
whose own metadata (id, date, machine, git, name, tags, environment) is its record."""

from __future__ import annotations

from ..jsonutil import JsonNode, load_json
from ..model import (
    STAT_KEYS,
    ParamValue,
    ParseContext,
    ParsedFile,
    Result,
    SourceRun,
    Stats,
    set_stat,
)
from ..vocabulary import DIRECTIONS, UNITS, Direction, normalize_unit

_OPTIONAL_TEXT = ("implementation", "mode", "variant")


def parse(raw: str, *, context: ParseContext) -> ParsedFile:
    document = load_json(raw, context.source)
    if not isinstance(document.value, dict):
        return ParsedFile([_result(entry, context) for entry in document.as_list()])
    results = [_result(entry, context) for entry in document.key("results").as_list()]
    return ParsedFile(results, record=_record(document, results))


def _record(document: JsonNode, results: list[Result]) -> SourceRun:
    """The run document's own metadata. Its values are checked where the whole run is
    (the service validates the upload); here only their JSON types."""
    run_id = _optional_text(document, "id")
    hardware = document.get("hardware")
    return SourceRun(
        key=(run_id or "",),
        run_id=run_id,
        started_at=_optional_text(document, "started_at") or "",
        results=results,
        name=_optional_text(document, "name"),
        source_url=_optional_text(document, "source_url"),
        git=_text_map(document, "git"),
        hardware=None if hardware is None else {k: _param(v) for k, v in hardware.items()},
        environment=_text_map(document, "environment"),
        tags=_text_map(document, "tags"),
    )


def _optional_text(document: JsonNode, key: str) -> str | None:
    node = document.get(key)
    return None if node is None else node.as_str()


def _text_map(document: JsonNode, key: str) -> dict[str, str]:
    node = document.get(key)
    return {} if node is None else {k: v.as_str() for k, v in node.items()}


def _result(entry: JsonNode, context: ParseContext) -> Result:
    unit = normalize_unit(entry.text("unit"))
    if unit not in UNITS:
        raise entry.fail(
            f"one of the contract units ({', '.join(sorted(UNITS))})", f"{entry.path}.unit"
        )
    language = entry.text("language") if entry.has("language") else context.language
    if not language:
        raise entry.fail("key 'language'", f"{entry.path}.language")
    result: Result = {
        "benchmark": entry.text("benchmark"),
        "language": language,
        "metric": entry.text("metric"),
        "unit": unit,
        "value": entry.number("value"),
    }
    for key in _OPTIONAL_TEXT:
        value = entry.text(key) if entry.has(key) else getattr(context, key)
        if value:
            result[key] = value  # type: ignore[literal-required]
    if entry.has("direction"):
        result["direction"] = _direction(entry.key("direction"))
    if entry.has("params"):
        result["params"] = {k: _param(v) for k, v in entry.key("params").items()}
    if entry.has("stats"):
        result["stats"] = _stats(entry.key("stats"))
    if entry.has("samples"):
        result["samples"] = [v.as_number() for v in entry.key("samples").as_list()]
    return result


def _direction(node: JsonNode) -> Direction:
    value = node.as_str()
    for direction in DIRECTIONS:
        if value == direction:
            return direction
    raise node.fail(" or ".join(repr(d) for d in DIRECTIONS))


def _param(node: JsonNode) -> ParamValue:
    if isinstance(node.value, bool | str):
        return node.value
    return node.as_number() if isinstance(node.value, float) else int(node.as_number())


def _stats(node: JsonNode) -> Stats:
    stats: Stats = {}
    for key, value in node.items():
        if key not in STAT_KEYS:
            raise value.fail(f"a stats key ({', '.join(STAT_KEYS)})")
        set_stat(stats, key, value.as_number())
    return stats
