"""Reading and validating an upload body: size limit, content type, JSON, contract v1."""

import json

from fastapi import Request
from pydantic import ValidationError

from benchboard.bounds import refuse_deep_json, unstorable_strings
from benchboard.errors import (
    BodyTooLarge,
    FieldError,
    MalformedBody,
    UnsupportedMediaType,
    ValidationFailed,
    field_errors,
    validation_failed,
)
from benchboard.runs.schemas import RunUpload


async def read_body(request: Request, *, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge(f"the body is over the limit of {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(f"the body is over the limit of {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def require_json(request: Request) -> None:
    content_type = request.headers.get("content-type", "")
    if content_type.split(";")[0].strip().lower() != "application/json":
        raise UnsupportedMediaType(
            f"Content-Type must be application/json, not {content_type or 'missing'!r}"
        )


def parse_upload(body: bytes) -> RunUpload:
    try:
        upload = RunUpload.model_validate_json(body)
    except ValidationError as error:
        raise invalid_body(error, body, "the upload is not valid") from None
    refuse_nul_in_results(body, "the upload is not valid")
    return upload


def refuse_nul_in_results(body: bytes, subject: str) -> None:
    """After the model accepted `body`: a NUL in a result's strings (schemas.ResultName),
    named by its path. Every other string was checked by the model's own patterns."""
    if b"\\u0000" in body and (unstorable := _unstorable_strings(body)):
        raise validation_failed(subject, unstorable)


def invalid_body(
    error: ValidationError, body: bytes, subject: str
) -> MalformedBody | ValidationFailed:
    """The error for a body pydantic refused: 422 if it nests too deep, 400 if it is not
    JSON, else 422 per field. The depth is read only here, on the way out: a body the
    contract's models accept nests a few levels at most, and below pydantic's own limit the
    standard library's parser (`_unstorable_strings`) must not meet a deeper one."""
    refuse_deep_json(body, subject)
    details = error.errors(include_url=False)
    if any(detail["type"] == "json_invalid" for detail in details):
        unstorable = _unstorable_strings(body)
        if unstorable:
            return validation_failed(subject, unstorable)
        reason = details[0]["ctx"].get("error", "invalid JSON") if details[0].get("ctx") else ""
        field = FieldError(path="(body)", message=f"not valid JSON: {reason}")
        return MalformedBody(f"the body is not valid JSON: {reason}", [field])
    return validation_failed(subject, field_errors(details))


def _unstorable_strings(body: bytes) -> list[FieldError]:
    """pydantic's parser refuses a lone surrogate escape (`"\\ud800"`) as invalid JSON;
    Python's reads it, so the field that holds it can be named."""
    try:
        document = json.loads(body)
    except ValueError:
        return []
    return list(unstorable_strings(document))
