"""Values the caller states (CLI flags, query parameters) win over what a parser inferred."""

from __future__ import annotations

from typing import Any

from .model import ParseContext

_FORCED = ("language", "implementation", "mode", "variant")


def apply_overrides(
    results: list[dict[str, Any]], context: ParseContext, *, params: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Return copies of `results` with the context's values forced onto them.

    `benchmark` replaces the name when all results share one benchmark; when
    the file holds several (go test, JMH…) it becomes a prefix, ``NAME/orig``,
    so distinct benchmarks stay distinct. `params` are merged into each result.
    """
    names = {result["benchmark"] for result in results}
    updated = []
    for result in results:
        copy = dict(result)
        for key in _FORCED:
            value = getattr(context, key)
            if value:
                copy[key] = value
        if context.benchmark:
            copy["benchmark"] = (
                context.benchmark
                if len(names) == 1
                else f"{context.benchmark}/{result['benchmark']}"
            )
        if params:
            copy["params"] = {**result.get("params", {}), **params}
        updated.append(copy)
    return updated
