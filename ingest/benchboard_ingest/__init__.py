"""Benchboard ingest: turn benchmark tools' native output into contract v1 results.

Stable API for the service (`POST /api/v1/ingest/{format}`):

- ``FORMATS``: every format name accepted.
- ``parse_file_content(raw, *, format, context, filename="<body>") -> list[dict]``:
  parse one file's text (format detected when ``format`` is None) into
  JSON-serializable contract v1 result dicts; raises ``ParseError``.
- ``parse_file(...)`` (same arguments) -> ``ParsedFile``: the results and the items the
  file holds that became none (failed benchmarks in another tracker's record), each
  with its reason.
- ``ParseContext``: defaults for what a tool does not say (language,
  implementation, mode, variant, benchmark).
- ``apply_overrides(results, context) -> list[dict]``: force the context's values
  onto every result, as the CLI flags do.
- ``ParseError(file, location, expected)``: unknown format or broken input;
  ``MissingOption`` (a ParseError) when the input needs a value only the caller can give
  (``direction`` for a github-action-benchmark custom file).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .detect import detect_format
from .errors import MissingOption, ParseError
from .formats import FORMATS, run_parser
from .model import ParseContext, ParsedFile, Result, Skipped
from .overrides import apply_overrides

__all__ = [
    "FORMATS",
    "MissingOption",
    "ParseContext",
    "ParseError",
    "ParsedFile",
    "Result",
    "Skipped",
    "apply_overrides",
    "detect_format",
    "parse_file",
    "parse_file_content",
]


def parse_file(
    raw: str, *, format: str | None, context: ParseContext, filename: str = "<body>"
) -> ParsedFile:
    """Parse one file's text into contract v1 results, and what it left out.

    `format` is one of ``FORMATS`` or None to detect it. The file name is used
    in error messages and, for criterion's estimates.json, to name the benchmark.
    Raises ParseError naming the file, the line or key, and what was expected.
    """
    if format is not None and format not in FORMATS:
        raise ParseError(filename, "format", f"one of {', '.join(FORMATS)}")
    name = format or detect_format(raw, filename)
    parsed = run_parser(name, raw, replace(context, source=filename))
    if not parsed.results:
        left_out = "; ".join(f"{s.item}: {s.reason}" for s in parsed.skipped[:3])
        why = f" (left out: {left_out})" if left_out else ""
        raise ParseError(filename, "end of input", f"at least one {name} result{why}")
    return parsed


def parse_file_content(
    raw: str, *, format: str | None, context: ParseContext, filename: str = "<body>"
) -> list[dict[str, Any]]:
    """`parse_file`'s results as plain JSON-serializable dicts."""
    parsed = parse_file(raw, format=format, context=context, filename=filename)
    return [dict(result) for result in parsed.results]
