"""Line-oriented helpers for text outputs: find a line, or say which one is missing."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from .errors import ParseError

T = TypeVar("T")


class TextInput:
    """The lines of a text output plus its name, for errors that point at a line."""

    def __init__(self, raw: str, source: str) -> None:
        self.lines = raw.splitlines()
        self.source = source

    def end(self) -> str:
        return f"line {len(self.lines)} (end of input)"

    def search(self, pattern: re.Pattern[str]) -> tuple[int, re.Match[str]] | None:
        """First line matching `pattern`, as (1-based line number, match)."""
        for number, line in enumerate(self.lines, start=1):
            match = pattern.search(line)
            if match:
                return number, match
        return None

    def require(self, pattern: re.Pattern[str], expected: str) -> tuple[int, re.Match[str]]:
        found = self.search(pattern)
        if found is None:
            raise ParseError(self.source, self.end(), expected)
        return found

    def matches(self, pattern: re.Pattern[str]) -> list[tuple[int, re.Match[str]]]:
        return [(n, m) for n, line in enumerate(self.lines, start=1) if (m := pattern.search(line))]

    def convert(self, line: int, text: str, convert: Callable[[str], T], expected: str) -> T:
        """Apply `convert` to a piece of line `line`; failure names the line."""
        try:
            return convert(text)
        except (ValueError, KeyError):
            raise ParseError(self.source, f"line {line}", expected) from None

    def reject_incomplete(
        self, marker: re.Pattern[str], complete: re.Pattern[str], expected: str
    ) -> None:
        """A line that starts a result (`marker`) but is cut short is an error, not skipped."""
        for number, line in enumerate(self.lines, start=1):
            if marker.search(line) and not complete.search(line):
                raise ParseError(self.source, f"line {number}", expected)
