"""hyperfine `--export-json`: one benchmark per command, times in seconds."""

from __future__ import annotations

from ..jsonutil import JsonNode, load_json
from ..model import Measure, ParamValue, ParseContext, Result, ResultFactory, Stats

WALL_TIME = Measure("wall_time", "s", "lower")
USER_TIME = Measure("user_time", "s", "lower")
SYSTEM_TIME = Measure("system_time", "s", "lower")


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    document = load_json(raw, context.source)
    commands = document.key("results").as_list()
    if not commands:
        raise document.fail("at least one command", "$.results")
    results: list[Result] = []
    for command in commands:
        results.extend(_command_results(command, context))
    return results


def _command_results(command: JsonNode, context: ParseContext) -> list[Result]:
    params: dict[str, ParamValue] = {}
    parameters = command.get("parameters")
    if parameters is not None:
        params = {name: value.as_str() for name, value in parameters.items()}
    result = ResultFactory(context, benchmark=command.text("command"), params=params)
    times = [node.as_number() for node in command.key("times").as_list()]
    stats: Stats = {
        "n": float(len(times)),
        "mean": command.number("mean"),
        "median": command.number("median"),
        "min": command.number("min"),
        "max": command.number("max"),
    }
    stddev = command.optional_number("stddev")  # null when there was a single run
    if stddev is not None:
        stats["stddev"] = stddev
    return [
        result(WALL_TIME, command.number("mean"), stats, times),
        result(USER_TIME, command.number("user")),
        result(SYSTEM_TIME, command.number("system")),
    ]
