"""`benchboard-ingest parse|upload|import|suite`: parse tool outputs, send them as one run
(and gate a CI job on the comparison with its baseline), send a whole history from another
tracker, or read and set a suite's settings.

Exit codes: 0 ok, 2 usage error, 3 parse error, 4 rejected by the server (4xx),
5 server or network unavailable after retries, 6 regressions found (`upload --fail-on`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import uuid
from dataclasses import replace
from typing import Any

from . import FORMATS, MissingOption, ParseContext, ParseError, apply_overrides, parse_file
from .client import (
    InvalidServiceUrl,
    RequestRejected,
    Service,
    ServiceUnavailable,
    add_service_arguments,
    request_json,
    service_from_args,
    upload_run,
)
from .gate import FailOn, SummaryContext, one_line, render_summary
from .gitinfo import capture_git, ci_git, without_user_info
from .hardware import capture_hardware
from .imports.command import add_import_parser, run_import
from .imports.runs import ImportUsageError
from .imports.sources import SourceNotFound
from .model import SourceRun
from .run import SUITE_SLUG, RunOptions, build_run, with_record
from .vocabulary import DIRECTIONS, UNITS, UNKNOWN_LANGUAGE, result_identity

EXIT_OK, EXIT_USAGE, EXIT_PARSE, EXIT_REJECTED, EXIT_UNAVAILABLE = 0, 2, 3, 4, 5
EXIT_REGRESSION = 6


class UsageError(Exception):
    """Bad command line: reported with exit code 2."""


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "parse":
            return _parse_command(args)
        if args.command == "import":
            return run_import(args, params=_pairs(args.param, "--param", typed=True))
        if args.command == "suite":
            return _suite_command(args)
        return _upload_command(args)
    except (
        UsageError,
        ImportUsageError,
        SourceNotFound,
        MissingOption,
        InvalidServiceUrl,
    ) as error:
        print(f"benchboard-ingest: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except ParseError as error:
        print(f"benchboard-ingest: parse error: {error}", file=sys.stderr)
        return EXIT_PARSE
    except RequestRejected as error:
        print(f"benchboard-ingest: {error}", file=sys.stderr)
        return EXIT_REJECTED
    except ServiceUnavailable as error:
        print(f"benchboard-ingest: {error}", file=sys.stderr)
        return EXIT_UNAVAILABLE


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("files", nargs="+", metavar="FILE")
    common.add_argument("--format", choices=FORMATS, help="skip detection")
    common.add_argument("--language")
    common.add_argument("--implementation")
    common.add_argument("--mode", choices=["sync", "async"])
    common.add_argument("--variant")
    common.add_argument("--benchmark", help="names the benchmark (prefix when a file has many)")
    common.add_argument("--param", action="append", default=[], metavar="K=V")
    common.add_argument(
        "--unit", choices=list(UNITS), help="unit of figures the file leaves open (BMF)"
    )
    common.add_argument(
        "--direction",
        choices=DIRECTIONS,
        help="which way is better where the file does not say (gab-custom, BMF)",
    )
    common.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser = argparse.ArgumentParser(
        prog="benchboard-ingest",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("parse", parents=[common], help="print results as a JSON array")
    _add_upload_arguments(
        commands.add_parser("upload", parents=[common], help="send all files as one run")
    )
    add_import_parser(commands)
    suite = commands.add_parser("suite", help="show a suite's settings, or change them")
    suite.add_argument("suite", metavar="SUITE")
    suite.add_argument("--default-branch", help="set it (needs a token with the maintain scope)")
    add_service_arguments(suite)
    return parser


def _add_upload_arguments(upload: argparse.ArgumentParser) -> None:
    upload.add_argument("--suite", required=True)
    upload.add_argument("--name", help="human label of the run")
    upload.add_argument("--tag", action="append", default=[], metavar="K=V")
    upload.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="K=V",
        help="environment entry, e.g. dart=3.3.0",
    )
    upload.add_argument("--run-id", help="UUID; default a new one")
    upload.add_argument(
        "--started-at", help="RFC 3339 with offset; default the record's date (asv…), else now"
    )
    upload.add_argument("--source-url")
    upload.add_argument(
        "--hardware-name", help="default: the machine the record names (asv…), else this one's"
    )
    upload.add_argument("--cpu")
    upload.add_argument("--cores", type=int)
    upload.add_argument("--memory-gb", type=float)
    upload.add_argument("--storage")
    upload.add_argument("--os")
    upload.add_argument("--git-repo")
    upload.add_argument(
        "--commit",
        "--git-commit",
        dest="git_commit",
        help="default: the record's (asv, Conbench, LNT), else git, else CI variables",
    )
    upload.add_argument(
        "--branch",
        "--git-branch",
        dest="git_branch",
        help="default: the record's (Conbench), else git, else CI variables; "
        "a record with a commit and no branch (asv, LNT) needs it",
    )
    upload.add_argument(
        "--no-git", action="store_true", help="read neither git of the cwd nor CI variables"
    )
    add_service_arguments(upload)
    upload.add_argument("--dry-run", action="store_true", help="print the run, send nothing")
    gate = upload.add_argument_group("baseline comparison and CI gate")
    gate.add_argument(
        "--baseline-branch", help="compare with this branch (default: the suite's default)"
    )
    gate.add_argument(
        "--fail-on",
        metavar="RULE",
        help="'regression' or 'regression>5%%': exit 6 when the comparison finds one",
    )
    gate.add_argument(
        "--summary-file",
        metavar="OUT.md",
        help="write the Markdown summary here (default in GitHub Actions: $GITHUB_STEP_SUMMARY)",
    )
    gate.add_argument(
        "--wait-seconds",
        type=float,
        default=60.0,
        help="how long to wait for the comparison (default 60)",
    )
    gate.add_argument("--dashboard-url", help="links in the summary (default: --url)")


def _parse_command(args: argparse.Namespace) -> int:
    results, _ = _parse_files(args)
    json.dump(results, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return EXIT_OK


def _service(args: argparse.Namespace, *, deadline: float | None = None) -> Service:
    return service_from_args(
        args, deadline=deadline, on_retry=lambda n, why: _progress(args, f"retry {n}: {why}")
    )


def _check_suite(suite: str) -> None:
    if not SUITE_SLUG.match(suite):
        raise UsageError(f"the suite must be a slug like 'sync-vs-async-io': {suite!r}")


def _suite_command(args: argparse.Namespace) -> int:
    _check_suite(args.suite)
    path = f"/api/v1/suites/{args.suite}"
    if args.default_branch is None:
        response = request_json(_service(args), "GET", path)
    else:
        body = {"default_branch": args.default_branch}
        response = request_json(_service(args), "PUT", path, body=body)
    print(json.dumps(response.body, indent=2))
    return EXIT_OK


def _upload_command(args: argparse.Namespace) -> int:
    _check_suite(args.suite)
    fail_on = _fail_on(args)
    results, record = _parse_files(args)
    unknown = sorted({r["benchmark"] for r in results if r["language"] == UNKNOWN_LANGUAGE})
    if unknown:
        raise UsageError(
            f"the output does not say which language was measured for "
            f"{', '.join(unknown)}; pass --language"
        )
    _warn_duplicates(args, results)
    run = build_run(results, _run_options(args, record))
    if args.dry_run:
        json.dump(run, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return EXIT_OK
    response = upload_run(run, _service(args))
    print(json.dumps({"status": response.status, "id": run["id"], **response.body}))
    summary_file = args.summary_file or os.environ.get("GITHUB_STEP_SUMMARY")
    if not (fail_on or summary_file or args.baseline_branch):
        return EXIT_OK
    return _gate(args, run["id"], fail_on=fail_on, summary_file=summary_file)


def _fail_on(args: argparse.Namespace) -> FailOn | None:
    if args.fail_on is None:
        return None
    try:
        return FailOn.parse(args.fail_on)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _gate(
    args: argparse.Namespace, run_id: str, *, fail_on: FailOn | None, summary_file: str | None
) -> int:
    """Fetch the baseline comparison (retrying for up to --wait-seconds), write the summary,
    and say whether the build fails."""
    service = _service(args, deadline=time.monotonic() + args.wait_seconds)
    query = {"branch": args.baseline_branch} if args.baseline_branch else None
    path = f"/api/v1/runs/{run_id}/baseline-comparison"
    comparison = request_json(replace(service, retries=1_000), "GET", path, query=query).body
    if summary_file:
        context = SummaryContext(args.dashboard_url or args.url, fail_on)
        # Appended: GitHub's step summary collects every step's, and reruns add, not erase.
        with open(summary_file, "a", encoding="utf-8") as handle:
            handle.write(render_summary(comparison, context))
    print(f"benchboard-ingest: {one_line(comparison, fail_on)}", file=sys.stderr)
    if fail_on is not None and fail_on.failing(comparison):
        return EXIT_REGRESSION
    return EXIT_OK


def _parse_files(args: argparse.Namespace) -> tuple[list[dict[str, Any]], SourceRun | None]:
    """Every file's results, and the first record of a run among them (asv, Conbench, LNT)."""
    context = ParseContext(
        language=args.language,
        implementation=args.implementation,
        mode=args.mode,
        variant=args.variant,
        benchmark=args.benchmark,
        unit=args.unit,
        direction=args.direction,
    )
    params = _pairs(args.param, "--param", typed=True)
    results: list[dict[str, Any]] = []
    record: SourceRun | None = None
    for index, path in enumerate(args.files, start=1):
        parsed = parse_file(_read(path), format=args.format, context=context, filename=path)
        record = _first_record(args, record, parsed.record, path)
        found = [dict(result) for result in parsed.results]
        results.extend(apply_overrides(found, context, params=params))
        for skipped in parsed.skipped:
            _progress(args, f"{path}: skipped {skipped.item}: {skipped.reason}")
        if len(args.files) > 1:
            _progress(args, f"[{index}/{len(args.files)}] {path}: {len(found)} results")
    return results, record


def _first_record(
    args: argparse.Namespace, first: SourceRun | None, record: SourceRun | None, path: str
) -> SourceRun | None:
    """The run's date, commit and machine come from the first file that records them."""
    if first is None:
        return record
    if record is not None and (record.git, record.hardware) != (first.git, first.hardware):
        _progress(args, f"warning: {path} records another commit or machine; the first is used")
    return first


def _warn_duplicates(args: argparse.Namespace, results: list[dict[str, Any]]) -> None:
    """Two results of one series in one run usually mean files that need --variant."""
    seen: set[str] = set()
    for result in results:
        identity = result_identity(result)
        if identity in seen:
            _progress(
                args,
                f"warning: several results for {result['benchmark']} "
                f"{result['metric']}; upload such files separately or with --variant",
            )
            return
        seen.add(identity)


def _progress(args: argparse.Namespace, message: str) -> None:
    if not args.quiet:
        print(message, file=sys.stderr)


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except UnicodeDecodeError as error:
        raise ParseError(path, f"byte {error.start}", "UTF-8 text") from None
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None


def _pairs(items: list[str], flag: str, *, typed: bool = False) -> dict[str, Any]:
    pairs: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"{flag} expects KEY=VALUE, got {item!r}")
        pairs[key] = _typed(value) if typed else value
    return pairs


def _typed(value: str) -> str | int | float | bool:
    """Param values keep their JSON type: 10 -> 10, 0.5 -> 0.5, true -> True."""
    if value in {"true", "false"}:
        return value == "true"
    for convert in (int, float):
        try:
            return convert(value)
        except ValueError:
            continue
    return value


def _run_options(args: argparse.Namespace, record: SourceRun | None) -> RunOptions:
    """Flags first, then what the files record of their run, then this machine and its git
    (which a record's machine or git replaces whole, never mixed into)."""
    if args.run_id:
        try:
            uuid.UUID(args.run_id)
        except ValueError:
            raise UsageError(f"--run-id must be a UUID: {args.run_id!r}") from None
    options = RunOptions(
        suite=args.suite,
        hardware=_hardware(args, local=record is None or record.hardware is None),
        git=_git(args, local=record is None or not record.git),
        run_id=args.run_id,
        name=args.name,
        started_at=args.started_at,
        source_url=args.source_url,
        tags=_pairs(args.tag, "--tag"),
        environment=_pairs(args.env, "--env"),
    )
    return with_record(options, record)


def _hardware(args: argparse.Namespace, *, local: bool) -> dict[str, Any]:
    hardware: dict[str, Any] = capture_hardware() if local else {}
    flags = {
        "name": args.hardware_name,
        "cpu": args.cpu,
        "cores": args.cores,
        "memory_gb": args.memory_gb,
        "storage": args.storage,
        "os": args.os,
    }
    hardware.update({key: value for key, value in flags.items() if value is not None})
    return hardware


def _git(args: argparse.Namespace, *, local: bool) -> dict[str, str]:
    """Flags, else what git says in the working directory, else the CI's variables; but
    the CI's repository URL wins over the checkout's origin, which may hold the job's
    token (GitLab: `https://gitlab-ci-token:<token>@…`). No URL keeps its user info."""
    git: dict[str, str] = {}
    if local and not args.no_git:
        ci = ci_git(os.environ)
        git = {**ci, **capture_git()}
        if "repo" in ci:
            git["repo"] = ci["repo"]
    flags = {"repo": args.git_repo, "commit": args.git_commit, "branch": args.git_branch}
    git.update({key: value for key, value in flags.items() if value})
    if "repo" in git:
        git["repo"] = without_user_info(git["repo"])
    return git
