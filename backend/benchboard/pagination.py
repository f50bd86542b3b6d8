"""Opaque keyset cursors: `(sort key, id)` of the last item, base64-encoded."""

import base64
import binascii

import orjson

from benchboard.errors import FieldError, ValidationFailed


def encode_cursor(*key: object) -> str:
    return base64.urlsafe_b64encode(orjson.dumps(key, default=str)).decode()


def decode_cursor(cursor: str) -> list[object]:
    try:
        key = orjson.loads(base64.urlsafe_b64decode(cursor.encode()))
    except (binascii.Error, orjson.JSONDecodeError, ValueError):
        key = None
    if not isinstance(key, list):
        raise ValidationFailed(
            "the cursor is not one this service gave out",
            [FieldError(path="cursor", message="invalid cursor")],
        )
    return key
