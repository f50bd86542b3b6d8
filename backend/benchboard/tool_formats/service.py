"""A benchmark tool's native output, parsed by the ingest package's own parsers, as a run.

The run is then stored exactly like a contract v1 upload (same validation, same
storage), so `curl --data-binary @fio.json …/api/v1/ingest/fio?…` and
`benchboard-ingest upload fio.json …` give the same result. Another tracker's record of one
run (asv, Conbench, LNT) gives the run its date, commit, machine and environment where the
query does not.

A run sent without an id (in the query or the run document) gets one derived from the
request: the same format, query and body give the same id, so a retried request finds the
run its first try stored and answers it (200) instead of storing a second one.
"""

import hashlib
import json
import uuid
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from benchboard import exact_json
from benchboard.bounds import refuse_deep_json
from benchboard.errors import FieldError, MalformedBody, ValidationFailed
from benchboard.runs.body import parse_upload
from benchboard.runs.schemas import RunUpload
from benchboard.tool_formats.schemas import SkippedItem
from benchboard_ingest import MissingOption, ParseContext, ParseError, apply_overrides, parse_file
from benchboard_ingest.run import RunOptions, build_run, with_record
from benchboard_ingest.vocabulary import UNKNOWN_LANGUAGE


@dataclass(frozen=True)
class RunFromTool:
    """What the query string says about the run the tool's output belongs to."""

    suite: str
    hardware: str | None
    context: ParseContext
    params: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)
    run_id: str | None = None
    started_at: str | None = None
    name: str | None = None
    source_url: str | None = None
    git: dict[str, str] = field(default_factory=dict)


# The namespace of derived run ids (UUIDv5). Fixed for good: another one would give a
# request retried across an upgrade a new id, and its run would be stored twice.
DERIVED_RUN_IDS = uuid.UUID("5d0b1c7e-8f43-4a29-9e61-2c3b7a14d0f8")


@dataclass(frozen=True)
class RunFromOutput:
    """The validated run, the contract JSON it was built as (stored as its upload), what
    the output held that became no result, and its id when derived from the request
    (None: the request named it)."""

    upload: RunUpload
    body: bytes
    skipped: list[SkippedItem]
    derived_id: uuid.UUID | None


def derived_run_id(raw: bytes, tool_format: str | None, given: RunFromTool) -> uuid.UUID:
    """The id of a run whose request names none: a UUIDv5 of the format, everything the
    query says and the body's SHA-256."""
    request = json.dumps([tool_format, asdict(given)], sort_keys=True)
    digest = hashlib.sha256(raw).hexdigest()
    return uuid.uuid5(DERIVED_RUN_IDS, f"{request}\n{digest}")


def tool_output_as_run(raw: bytes, tool_format: str | None, given: RunFromTool) -> RunFromOutput:
    """The tool's output parsed and built into a contract run, validated. JSON formats
    are read by the standard library's recursive parser: too deep a body is refused first."""
    refuse_deep_json(raw, "the body is not valid tool output")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise MalformedBody(
            f"the body is not UTF-8 text: {error}", [FieldError(path="(body)", message="not UTF-8")]
        ) from None
    try:
        parsed = parse_file(text, format=tool_format, context=given.context)
    except MissingOption as error:
        message = f"add ?{error.option}=: {error.expected}"
        raise ValidationFailed(message, [FieldError(path=error.option, message=message)]) from None
    except ParseError as error:
        message = f"{error.location}: expected {error.expected}"
        raise ValidationFailed(
            f"the body is not valid {tool_format or 'tool'} output: {message}",
            [FieldError(path="(body)", message=message)],
        ) from None
    found = [dict(result) for result in parsed.results]
    results = apply_overrides(found, given.context, params=dict(given.params) or None)
    _require_language(results)
    options = RunOptions(
        suite=given.suite,
        hardware={"name": given.hardware} if given.hardware else {},
        git=given.git,
        run_id=given.run_id,
        name=given.name,
        started_at=given.started_at,
        source_url=given.source_url,
        tags=given.tags,
    )
    options = with_record(options, parsed.record)
    _require_hardware(options.hardware)
    derived_id = None if options.run_id else derived_run_id(raw, tool_format, given)
    if derived_id is not None:
        options = replace(options, run_id=str(derived_id))
    run: dict[str, Any] = build_run(results, options)
    body = exact_json.dumps(run)
    skipped = [SkippedItem(item=s.item, reason=s.reason) for s in parsed.skipped]
    return RunFromOutput(parse_upload(body), body, skipped, derived_id)


def _require_hardware(hardware: dict[str, Any]) -> None:
    if "name" not in hardware:
        message = "this input does not name the machine it ran on: add ?hardware="
        raise ValidationFailed(message, [FieldError(path="hardware", message=message)])


def _require_language(results: list[dict[str, Any]]) -> None:
    if any(result["language"] == UNKNOWN_LANGUAGE for result in results):
        message = "this tool's output does not say which language was measured: add ?language="
        raise ValidationFailed(message, [FieldError(path="language", message=message)])
