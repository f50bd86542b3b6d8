"""Benchboard's own contract v1 JSON: an array of results, or a whole run with `results`."""

from __future__ import annotations

from ..jsonutil import JsonNode, load_json
from ..model import STAT_KEYS, ParamValue, ParseContext, Result, Stats, set_stat
from ..vocabulary import DIRECTIONS, UNITS, Direction, normalize_unit

_OPTIONAL_TEXT = ("implementation", "mode", "variant")


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    document = load_json(raw, context.source)
    entries = document.key("results") if isinstance(document.value, dict) else document
    return [_result(entry, context) for entry in entries.as_list()]


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
