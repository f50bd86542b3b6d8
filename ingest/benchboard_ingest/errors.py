"""The one error a parser raises: which file, where in it, and what was expected."""

from __future__ import annotations


class ParseError(Exception):
    """Input that is not the format it claims to be.

    `file` names the input, `location` the line (``line 12``) or JSON key
    (``jobs[0].read.iops``), `expected` says what should have been there.
    """

    def __init__(self, file: str, location: str, expected: str) -> None:
        self.file = file
        self.location = location
        self.expected = expected
        super().__init__(f"{file}: {location}: expected {expected}")


class MissingOption(ParseError):
    """Input that needs a value only the caller can give (a flag or query parameter).

    `option` names it (``direction``); the CLI reports this as a usage error.
    """

    def __init__(self, file: str, option: str, expected: str) -> None:
        self.option = option
        super().__init__(file, option, expected)
