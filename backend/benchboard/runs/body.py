"""Reading and validating an upload body: size limit, content type, JSON, contract v1."""

from fastapi import Request
from pydantic import ValidationError

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
        return RunUpload.model_validate_json(body)
    except ValidationError as error:
        raise _as_app_error(error) from None


def _as_app_error(error: ValidationError) -> MalformedBody | ValidationFailed:
    details = error.errors(include_url=False)
    if any(detail["type"] == "json_invalid" for detail in details):
        reason = details[0]["ctx"].get("error", "invalid JSON") if details[0].get("ctx") else ""
        field = FieldError(path="(body)", message=f"not valid JSON: {reason}")
        return MalformedBody(f"the body is not valid JSON: {reason}", [field])
    return validation_failed("the upload is not valid", field_errors(details))
