"""JSON with orjson's speed and every integer exact.

A param is any JSON number (contract v1), and PostgreSQL's jsonb keeps an integer of any
size exactly, but orjson stops at 64 bits: it refuses to write a larger int and reads one
as a float (2**70 + 1 came back as 1.1805916207174113e+21). These helpers stay on orjson
and leave it only for a document that holds such an integer.
"""

import json
import re
from typing import Any

import orjson

# orjson reads integers from -2**63 to 2**64 - 1 exactly; anything outside has at least 19 digits.
_LONG_DIGITS = re.compile(rb"\d{19}")


def loads(document: bytes | bytearray | memoryview | str) -> Any:
    raw = document.encode() if isinstance(document, str) else bytes(document)
    if _LONG_DIGITS.search(raw) is None:
        return orjson.loads(raw)
    return json.loads(raw)


def dumps(value: Any, *, option: int = 0) -> bytes:
    """orjson's bytes, integers past 64 bits written out in full."""
    try:
        return orjson.dumps(value, option=option)
    except orjson.JSONEncodeError:
        return orjson.dumps(_long_ints_as_fragments(value), option=option)


def _long_ints_as_fragments(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return value if -(2**63) <= value < 2**64 else orjson.Fragment(str(value))
    if isinstance(value, dict):
        return {key: _long_ints_as_fragments(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_long_ints_as_fragments(item) for item in value]
    return value
