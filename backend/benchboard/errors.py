"""One error tree and one error envelope for every failure the API reports.

Envelope: {"error": code, "message": text, "fields": [{"path": "results[3].value",
"message": "must be a finite number"}]}.
"""

import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

import psycopg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import DataError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

logger = logging.getLogger(__name__)


NUL_MESSAGE = "must not contain a NUL character (\\u0000)"
# JSON Schema pattern for text PostgreSQL stores: anything but NUL.
NO_NUL = "^[^\x00]*$"


class FieldError(BaseModel):
    path: str
    message: str


class ErrorOut(BaseModel):
    error: str
    message: str
    fields: list[FieldError] = []


class AppError(Exception):
    status_code = 400
    code = "bad_request"

    def __init__(self, message: str, fields: Sequence[FieldError] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.fields = list(fields)


class ValidationFailed(AppError):
    status_code = 422
    code = "validation_error"


class InvalidValue(ValidationFailed):
    """A value the database refused that no bound of the request caught."""

    code = "invalid_value"


class MalformedBody(AppError):
    status_code = 400
    code = "malformed_body"


class UnsupportedMediaType(AppError):
    status_code = 415
    code = "unsupported_media_type"


class BodyTooLarge(AppError):
    status_code = 413
    code = "body_too_large"


class Unauthorized(AppError):
    status_code = 401
    code = "unauthorized"


class Forbidden(AppError):
    status_code = 403
    code = "forbidden"


class NotFound(AppError):
    status_code = 404
    code = "not_found"


class Conflict(AppError):
    status_code = 409
    code = "conflict"


class RetryLater(AppError):
    """A 503 whose request may succeed if sent again: Retry-After says when."""

    status_code = 503
    retry_after_s: int


class DatabaseUnavailable(RetryLater):
    """The database cannot be reached (restarting, failing over, out of connections)."""

    code = "database_unavailable"
    retry_after_s = 5  # about a PostgreSQL restart


class DatabaseBusy(RetryLater):
    """The database is up, but this request lost a race for its locks (a deadlock, a lock
    timeout, a serialization failure) and was rolled back: sent again, it very likely
    succeeds, so clients should retry at once rather than wait out an outage."""

    code = "database_busy"
    retry_after_s = 1


class Overloaded(RetryLater):
    """More requests than this process's database connections serve in time: the excess
    is turned away within a second (admission.py) instead of queueing for the pool."""

    code = "overloaded"
    retry_after_s = 2


def json_path(location: Sequence[int | str]) -> str:
    """('results', 3, 'value') -> 'results[3].value'."""
    path = ""
    for part in location:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return path or "(body)"


# Where FastAPI says a request value came from; the reader needs only the field's path.
_REQUEST_PARTS = {"query", "path", "body", "header"}
# pydantic names the member of a union that failed ('int', 'constrained-str'…); those tags
# are folded so that each path gets one message.
_UNION_TAGS = {"bool", "int", "float", "str", "constrained-str", "list[float]", "none"}


def _is_nul_mismatch(detail: Mapping[str, Any]) -> bool:
    """The failure of the NO_NUL pattern, whose own message shows a NUL."""
    pattern: object = detail.get("ctx", {}).get("pattern")
    return bool(detail["type"] == "string_pattern_mismatch" and pattern == NO_NUL)


def field_errors(details: Sequence[Mapping[str, Any]]) -> list[FieldError]:
    """pydantic's error details as one FieldError per JSON path, in the order first met."""
    merged: dict[str, list[str]] = {}
    for detail in details:
        location = list(detail["loc"])
        if location and location[0] in _REQUEST_PARTS:
            location.pop(0)
        while location and isinstance(location[-1], str) and location[-1] in _UNION_TAGS:
            location.pop()
        message = NUL_MESSAGE if _is_nul_mismatch(detail) else str(detail["msg"])
        if location[-1:] == ["[key]"]:
            # A bad key is reported on its map: the key itself may not even be printable.
            location.pop()
            message = f"key {location.pop()!r}: {message}"
        messages = merged.setdefault(json_path(location), [])
        if message not in messages:
            messages.append(message)
    return [FieldError(path=path, message=" or ".join(msgs)) for path, msgs in merged.items()]


def validation_failed(subject: str, fields: Sequence[FieldError]) -> ValidationFailed:
    """A 422 whose message names the first few fields, e.g. 'the upload is not valid: …'."""
    summary = "; ".join(f"{field.path}: {field.message}" for field in fields[:5])
    more = f" (and {len(fields) - 5} more)" if len(fields) > 5 else ""
    return ValidationFailed(f"{subject}: {summary}{more}", fields)


class _AsciiJSONResponse(JSONResponse):
    """Errors may quote the input, lone surrogates included: escaped, they stay valid JSON."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, allow_nan=False, separators=(",", ":")).encode("ascii")


def error_response(error: AppError) -> JSONResponse:
    body = ErrorOut(error=error.code, message=error.message, fields=error.fields)
    headers: dict[str, str] | None = None
    if isinstance(error, Unauthorized):
        headers = {"WWW-Authenticate": "Bearer"}
    elif isinstance(error, RetryLater):
        headers = {"Retry-After": str(error.retry_after_s)}
    return _AsciiJSONResponse(body.model_dump(), status_code=error.status_code, headers=headers)


def _request_validation_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return error_response(validation_failed("invalid request", field_errors(exc.errors())))


def _http_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    codes = {404: "not_found", 405: "method_not_allowed"}
    error = AppError(str(exc.detail))
    error.status_code = exc.status_code
    error.code = codes.get(exc.status_code, "http_error")
    return error_response(error)


def _app_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, AppError)
    return error_response(exc)


# PostgreSQL's answers to contention, by SQLSTATE: class 40, transaction rollback
# (deadlock 40P01, serialization failure 40001), and lock_timeout or NOWAIT (55P03). The
# transaction was rolled back; the database is fine.
_CONTENTION_CLASS = "40"
_LOCK_NOT_AVAILABLE = "55P03"


def database_failure(exc: Exception) -> RetryLater:
    """What a database error means to the client: contention, else an outage (lost or
    refused connections, a pool with none to spare)."""
    cause = getattr(exc, "orig", None) or exc  # SQLAlchemy wraps psycopg's errors
    state = cause.sqlstate if isinstance(cause, psycopg.Error) else None
    if state and (state.startswith(_CONTENTION_CLASS) or state == _LOCK_NOT_AVAILABLE):
        return DatabaseBusy("the database is busy (lock contention); send the request again")
    return DatabaseUnavailable("the database is unavailable; try again shortly")


def _database_error(_: Request, exc: Exception) -> JSONResponse:
    error = database_failure(exc)
    logger.warning("%s: %s", error.code, exc)
    return error_response(error)


def _data_error(_: Request, exc: Exception) -> JSONResponse:
    """A value PostgreSQL refused (SQLSTATE class 22: out of range, not a valid number or
    date). Each route bounds its inputs and names the field; this is the backstop for a
    value no bound foresaw, so that it is still the client's 422 and never a 500."""
    cause = getattr(exc, "orig", None) or exc
    detail = cause.diag.message_primary if isinstance(cause, psycopg.Error) else None
    logger.warning("invalid value reached the database: %s", exc)
    reason = detail or "refused by the database"
    return error_response(InvalidValue(f"a value is not valid: {reason}"))


def document_error_envelope(schema: dict[str, Any]) -> None:
    """Document the 422 every route really answers: FastAPI lists its own
    HTTPValidationError for requests it rejects, but `_request_validation_error` answers
    them with the error envelope, as the services' ValidationFailed does."""
    envelope = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}
    for operations in schema.get("paths", {}).values():
        for operation in operations.values():
            answer = operation.get("responses", {}).get("422")
            if answer is not None:
                answer["content"] = envelope
                answer["description"] = "Invalid input: the error envelope names each bad field"
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        components.pop(name, None)
    for model in (ErrorOut, FieldError):
        document = model.model_json_schema(ref_template="#/components/schemas/{model}")
        document.pop("$defs", None)
        components.setdefault(model.__name__, document)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(AppError, _app_error)
    # The binary COPY of results speaks to psycopg directly: its errors arrive unwrapped.
    for error in (
        OperationalError,
        InterfaceError,
        PoolTimeout,
        psycopg.OperationalError,
        psycopg.InterfaceError,
    ):
        app.add_exception_handler(error, _database_error)
    app.add_exception_handler(DataError, _data_error)
    app.add_exception_handler(psycopg.DataError, _data_error)
    app.add_exception_handler(RequestValidationError, _request_validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
