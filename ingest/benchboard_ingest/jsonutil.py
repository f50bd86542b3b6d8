"""Walking parsed JSON with the path kept, so every error names the key that was wrong."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator

from .errors import ParseError


def load_json(raw: str, source: str) -> JsonNode:
    """Parse JSON text; a syntax error names its line and column."""
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as error:
        location = f"line {error.lineno} column {error.colno}"
        raise ParseError(source, location, f"valid JSON ({error.msg})") from None
    return JsonNode(value, "$", source)


class JsonNode:
    """A JSON value plus its path (``$.jobs[0].read``) and the file it came from."""

    def __init__(self, value: object, path: str, source: str) -> None:
        self.value = value
        self.path = path
        self.source = source

    def fail(self, expected: str, path: str | None = None) -> ParseError:
        return ParseError(self.source, path or self.path, expected)

    def has(self, key: str) -> bool:
        return isinstance(self.value, dict) and self.value.get(key) is not None

    def key(self, key: str) -> JsonNode:
        """The child `key`; missing or null is an error."""
        mapping = self.as_dict()
        if mapping.get(key) is None:
            raise self.fail(f"key '{key}'", f"{self.path}.{key}")
        return JsonNode(mapping[key], f"{self.path}.{key}", self.source)

    def get(self, key: str) -> JsonNode | None:
        """The child `key`, or None when missing or null."""
        return self.key(key) if self.has(key) else None

    def as_dict(self) -> dict[str, object]:
        if not isinstance(self.value, dict):
            raise self.fail("an object")
        return self.value

    def items(self) -> Iterator[tuple[str, JsonNode]]:
        for key, value in self.as_dict().items():
            yield key, JsonNode(value, f"{self.path}.{key}", self.source)

    def as_list(self) -> list[JsonNode]:
        if not isinstance(self.value, list):
            raise self.fail("an array")
        return [JsonNode(v, f"{self.path}[{i}]", self.source) for i, v in enumerate(self.value)]

    def as_number(self) -> float:
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail("a number")
        if not math.isfinite(value):
            raise self.fail("a finite number")
        return float(value)

    def as_optional_number(self) -> float | None:
        """A number, or None for the strings tools write when there is none ("NaN")."""
        if isinstance(self.value, str) and self.value.strip().lower() in {
            "nan",
            "infinity",
            "-infinity",
        }:
            return None
        if isinstance(self.value, float) and not math.isfinite(self.value):
            return None
        return self.as_number()

    def as_str(self) -> str:
        if not isinstance(self.value, str):
            raise self.fail("a string")
        return self.value

    def number(self, key: str) -> float:
        return self.key(key).as_number()

    def text(self, key: str) -> str:
        return self.key(key).as_str()

    def optional_number(self, key: str) -> float | None:
        node = self.get(key)
        return None if node is None else node.as_optional_number()
