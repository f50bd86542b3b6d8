"""Parsing of query parameters shared by several routes."""

from benchboard.errors import FieldError, ValidationFailed


def key_values(pairs: list[str], name: str) -> dict[str, str]:
    """`["k=v", …]` from a repeatable query parameter."""
    parsed: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValidationFailed(
                f"{name}: expected key=value, got {pair!r}",
                [FieldError(path=name, message="expected key=value")],
            )
        parsed[key] = value
    return parsed
