"""Helpers shared by the parser tests: load a fixture, parse it, pick one result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchboard_ingest import ParseContext, parse_file_content

FIXTURES = Path(__file__).parent / "fixtures"
# The peers' real files (github-action-benchmark, Bencher, asv, Conbench, LNT) live beside
# the repository, in ../shared, byte for byte as their repositories hold them: read there,
# never copied in. CI has ../shared; a checkout without it skips these tests, saying why.
INTEROP = Path(__file__).resolve().parents[2].parent / "shared" / "tool-outputs" / "interop"
needs_interop = pytest.mark.skipif(
    not INTEROP.is_dir(),
    reason=f"{INTEROP} is absent: the peers' real files are read from ../shared, never copied",
)


def fixture_text(relative: str) -> str:
    return (FIXTURES / relative).read_text(encoding="utf-8")


def parse_fixture(relative: str, fmt: str | None = None, **context: str) -> list[dict[str, Any]]:
    """Parse a fixture by its path under fixtures/ (also the name errors use)."""
    return parse_file_content(
        fixture_text(relative),
        format=fmt,
        context=ParseContext(**context),
        filename=f"fixtures/{relative}",
    )


def pick(
    results: list[dict[str, Any]], metric: str, benchmark: str | None = None, **params: Any
) -> dict[str, Any]:
    """The single result with this metric, benchmark and these params."""
    found = [
        r
        for r in results
        if r["metric"] == metric
        and (benchmark is None or r["benchmark"] == benchmark)
        and all(r.get("params", {}).get(k) == v for k, v in params.items())
    ]
    assert len(found) == 1, f"{len(found)} results for {metric} {benchmark} {params}"
    return found[0]


def interop_text(relative: str) -> str:
    return (INTEROP / relative).read_text(encoding="utf-8")


def parse_interop(relative: str, fmt: str | None = None, **context: Any) -> list[dict[str, Any]]:
    """Parse a file of ../shared/tool-outputs/interop by its path there."""
    return parse_file_content(
        interop_text(relative),
        format=fmt,
        context=ParseContext(**context),
        filename=f"interop/{relative}",
    )
