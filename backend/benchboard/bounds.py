"""What the database can store, as types and checks shared by request bodies, path and
query parameters.

PostgreSQL text and JSONB cannot hold a NUL character, a lone UTF-16 surrogate cannot be
encoded as UTF-8 at all, and integer columns are 32 or 64 bits wide. A request that
breaks one of these gets a 422 naming the field here, before it reaches the database.
"""

import re
from collections.abc import Callable, Coroutine, Iterator, Mapping
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

import annotated_types
import numpy as np
from fastapi import Path, Request, Response
from fastapi.routing import APIRoute
from pydantic import Field

from benchboard.errors import NO_NUL, NUL_MESSAGE, FieldError, json_path, validation_failed

INT4_MAX = 2**31 - 1
INT8_MAX = 2**63 - 1
# Stored values are squared for variances and t statistics; past this, a square overflows.
FINITE_MAX = 1e150
# Integer params are kept exactly (jsonb numeric) within the same bound as every number.
PARAM_INT_MAX = 10**150
# A run dated further ahead than this came from a runner with a wrong clock.
FUTURE_SLACK = timedelta(hours=24)
EARLIEST_START = datetime(1900, 1, 1, tzinfo=UTC)
# Arrays and objects nested deeper than this are refused before any parser recurses into
# them: no contract document nests past 6, and Python's own JSON parser (FastAPI's, the
# ingest parsers') raises RecursionError near 1,000.
MAX_JSON_DEPTH = 64
# A suite's slug: URLs and file names use it as it is.
SLUG_PATTERN = r"^[a-z0-9][a-z0-9._-]{0,99}$"

# Row ids: `integer` (Integer columns) and `bigint` (BigInteger columns).
Id32 = Annotated[int, annotated_types.Interval(ge=1, le=INT4_MAX)]
Id64 = Annotated[int, annotated_types.Interval(ge=1, le=INT8_MAX)]
StoredNumber = Annotated[
    float, Field(allow_inf_nan=False, strict=True, ge=-FINITE_MAX, le=FINITE_MAX)
]
# A string of any length PostgreSQL can store (lone surrogates fail pydantic's own check).
StoredStr = Annotated[str, Field(pattern=NO_NUL)]
# A suite named in a URL path.
SuiteName = Annotated[str, Path(pattern=SLUG_PATTERN, description="the suite's slug")]


def storable_text(value: str) -> str | None:
    """Why PostgreSQL cannot store `value` as text, or None if it can."""
    if "\x00" in value:
        return NUL_MESSAGE
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "must not contain an unpaired UTF-16 surrogate"
    return None


def unstorable_strings(value: Any, location: tuple[int | str, ...] = ()) -> Iterator[FieldError]:
    """Every string (keys included) of a decoded JSON document that text columns cannot
    hold, with its JSON path."""
    if isinstance(value, str):
        problem = storable_text(value)
        if problem is not None:
            yield FieldError(path=json_path(location), message=problem)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            key_problem = storable_text(key)
            if key_problem is not None:
                message = f"key {key!r}: {key_problem}"
                yield FieldError(path=json_path(location), message=message)
            yield from unstorable_strings(item, (*location, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from unstorable_strings(item, (*location, index))


def stored_int(value: int) -> bool:
    return -INT8_MAX - 1 <= value <= INT8_MAX


def plausible_start(started_at: datetime) -> datetime:
    """A pydantic after-validator for when a run started: not before EARLIEST_START (older
    times in far-off zones do not read back into Python), not over FUTURE_SLACK ahead."""
    if started_at < EARLIEST_START:
        raise ValueError(f"lies before {EARLIEST_START:%Y-%m-%d}")
    if started_at - datetime.now(UTC) > FUTURE_SLACK:
        hours = FUTURE_SLACK.total_seconds() / 3600
        raise ValueError(f"lies more than {hours:.0f} h in the future")
    return started_at


async def reject_unstorable_parameters(request: Request) -> None:
    """An app-wide dependency: no query or path parameter may carry what text columns
    cannot store (URL decoding already turns broken UTF-8 into U+FFFD)."""
    pairs = [*request.path_params.items(), *request.query_params.multi_items()]
    fields = [
        FieldError(path=name, message=problem)
        for name, value in pairs
        if isinstance(value, str) and (problem := storable_text(value)) is not None
    ]
    if fields:
        raise validation_failed("invalid request", fields)


# A JSON string with its escapes: brackets inside one do not nest.
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
# Every byte but a bracket is dropped; '[' and '{' become +1, ']' and '}' -1 (a signed byte).
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = bytes(1 if b in b"[{" else 255 if b in b"]}" else b for b in range(256))


def json_depth(body: bytes) -> int:
    """How deeply `body` nests arrays and objects, read off the bytes without parsing them,
    in C and NumPy (~20 ms a MB). Unbalanced text (tool output that is not JSON) is never
    counted deeper than it opens."""
    steps = _JSON_STRING.sub(b"", body).translate(_STEP, _NOT_BRACKET)
    if not steps:
        return 0
    return int(np.cumsum(np.frombuffer(steps, dtype=np.int8), dtype=np.int64).max(initial=0))


def refuse_deep_json(body: bytes, subject: str) -> None:
    """A 422 naming the body when it nests deeper than MAX_JSON_DEPTH."""
    if body.count(b"[") + body.count(b"{") > MAX_JSON_DEPTH and json_depth(body) > MAX_JSON_DEPTH:
        message = f"nests arrays and objects deeper than {MAX_JSON_DEPTH} levels"
        raise validation_failed(subject, [FieldError(path="(body)", message=message)])


class BoundedJsonRoute(APIRoute):
    """A route whose JSON body FastAPI parses, refused by `refuse_deep_json` first: FastAPI
    parses with the standard library, whose RecursionError it would answer with a bare 400.
    Every router with such a route uses this class (a test walks the app's routes)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        if self.body_field is None:
            return handler

        async def bounded(request: Request) -> Response:
            refuse_deep_json(await request.body(), "invalid request")  # the body is cached
            return await handler(request)

        return bounded
