"""benchmark.js cycle lines: `name x 81.73 ops/sec ±60.30% (8 runs sampled)`."""

from __future__ import annotations

import re

from ..errors import ParseError
from ..model import Measure, ParseContext, Result, ResultFactory
from ..textutil import TextInput
from ..units import parse_number

_CYCLE = re.compile(r"^(.+) x ([\d,]+(?:\.\d+)?) ops/sec ±([\d.]+)% \((\d+) runs? sampled\)")
THROUGHPUT = Measure("throughput", "ops/s", "higher")


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    text = TextInput(raw, context.source)
    text.reject_incomplete(
        re.compile(r" x [\d,.]+ ops/sec"),
        _CYCLE,
        "a complete 'name x <n> ops/sec ±<rme>% (<n> runs sampled)' line",
    )
    results: list[Result] = []
    for line, match in text.matches(_CYCLE):
        result = ResultFactory(context, benchmark=match.group(1), language="javascript")
        value = text.convert(line, match.group(2), parse_number, "ops/sec such as '1,234.5'")
        results.append(result(THROUGHPUT, value, {"n": float(match.group(4))}))
    if not results:
        raise ParseError(
            context.source,
            text.end(),
            "lines such as 'name x 81.73 ops/sec ±6.30% (8 runs sampled)'",
        )
    return results
