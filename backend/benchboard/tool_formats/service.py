"""A benchmark tool's native output, parsed by the ingest package's own parsers, as a run.

The run is then stored exactly like a contract v1 upload (same validation, same
storage), so `curl --data-binary @fio.json …/api/v1/ingest/fio?…` and
`benchboard-ingest upload fio.json …` give the same result. Another tracker's record of one
run (asv, Conbench, LNT) gives the run its date, commit, machine and environment where the
query does not.
"""

from dataclasses import dataclass, field
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


@dataclass(frozen=True)
class RunFromOutput:
    """The validated run, the contract JSON it was built as (stored as its upload), and
    what the output held that became no result."""

    upload: RunUpload
    body: bytes
    skipped: list[SkippedItem]


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
    run: dict[str, Any] = build_run(results, options)
    body = exact_json.dumps(run)
    skipped = [SkippedItem(item=s.item, reason=s.reason) for s in parsed.skipped]
    return RunFromOutput(parse_upload(body), body, skipped)


def _require_hardware(hardware: dict[str, Any]) -> None:
    if "name" not in hardware:
        message = "this input does not name the machine it ran on: add ?hardware="
        raise ValidationFailed(message, [FieldError(path="hardware", message=message)])


def _require_language(results: list[dict[str, Any]]) -> None:
    if any(result["language"] == UNKNOWN_LANGUAGE for result in results):
        message = "this tool's output does not say which language was measured: add ?language="
        raise ValidationFailed(message, [FieldError(path="language", message=message)])
