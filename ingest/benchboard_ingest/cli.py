"""`benchboard-ingest parse|upload|import`: parse tool outputs, send them as one run, or
send a whole history from another tracker.

Exit codes: 0 ok, 2 usage error, 3 parse error, 4 rejected by the server (4xx),
5 server or network unavailable after retries.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import uuid
from typing import Any

from . import FORMATS, MissingOption, ParseContext, ParseError, apply_overrides, parse_file
from .client import ServiceUnavailable, UploadRejected, upload_run
from .gitinfo import capture_git
from .hardware import capture_hardware
from .imports.command import add_import_parser, run_import
from .imports.runs import ImportUsageError
from .imports.sources import SourceNotFound
from .run import SUITE_SLUG, RunOptions, build_run
from .vocabulary import DIRECTIONS, UNITS, UNKNOWN_LANGUAGE

EXIT_OK, EXIT_USAGE, EXIT_PARSE, EXIT_REJECTED, EXIT_UNAVAILABLE = 0, 2, 3, 4, 5
DEFAULT_URL = "http://127.0.0.1:8000"


class UsageError(Exception):
    """Bad command line: reported with exit code 2."""


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "parse":
            return _parse_command(args)
        if args.command == "import":
            return run_import(args, params=_pairs(args.param, "--param", typed=True))
        return _upload_command(args)
    except (UsageError, ImportUsageError, SourceNotFound, MissingOption) as error:
        print(f"benchboard-ingest: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except ParseError as error:
        print(f"benchboard-ingest: parse error: {error}", file=sys.stderr)
        return EXIT_PARSE
    except UploadRejected as error:
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
    add_import_parser(commands, default_url=DEFAULT_URL)
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
    upload.add_argument("--started-at", help="RFC 3339 with offset; default now (UTC)")
    upload.add_argument("--source-url")
    upload.add_argument("--hardware-name")
    upload.add_argument("--cpu")
    upload.add_argument("--cores", type=int)
    upload.add_argument("--memory-gb", type=float)
    upload.add_argument("--storage")
    upload.add_argument("--os")
    upload.add_argument("--git-repo")
    upload.add_argument("--git-commit")
    upload.add_argument("--git-branch")
    upload.add_argument("--no-git", action="store_true", help="do not read git of the cwd")
    upload.add_argument("--url", default=os.environ.get("BENCHBOARD_URL", DEFAULT_URL))
    upload.add_argument("--token", default=os.environ.get("BENCHBOARD_TOKEN"))
    upload.add_argument("--retries", type=int, default=4)
    upload.add_argument("--dry-run", action="store_true", help="print the run, send nothing")


def _parse_command(args: argparse.Namespace) -> int:
    results = _parse_files(args)
    json.dump(results, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return EXIT_OK


def _upload_command(args: argparse.Namespace) -> int:
    if not SUITE_SLUG.match(args.suite):
        raise UsageError(f"--suite must be a slug like 'sync-vs-async-io': {args.suite!r}")
    results = _parse_files(args)
    unknown = sorted({r["benchmark"] for r in results if r["language"] == UNKNOWN_LANGUAGE})
    if unknown:
        raise UsageError(
            f"the output does not say which language was measured for "
            f"{', '.join(unknown)}; pass --language"
        )
    _warn_duplicates(args, results)
    run = build_run(results, _run_options(args))
    if args.dry_run:
        json.dump(run, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return EXIT_OK
    response = upload_run(
        run,
        url=args.url,
        token=args.token,
        retries=args.retries,
        on_retry=lambda n, why: _progress(args, f"retry {n}: {why}"),
    )
    print(json.dumps({"status": response.status, "id": run["id"], **response.body}))
    return EXIT_OK


def _parse_files(args: argparse.Namespace) -> list[dict[str, Any]]:
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
    for index, path in enumerate(args.files, start=1):
        parsed = parse_file(_read(path), format=args.format, context=context, filename=path)
        found = [dict(result) for result in parsed.results]
        results.extend(apply_overrides(found, context, params=params))
        for skipped in parsed.skipped:
            _progress(args, f"{path}: skipped {skipped.item}: {skipped.reason}")
        if len(args.files) > 1:
            _progress(args, f"[{index}/{len(args.files)}] {path}: {len(found)} results")
    return results


def _warn_duplicates(args: argparse.Namespace, results: list[dict[str, Any]]) -> None:
    """Two results of one series in one run usually mean files that need --variant."""
    seen: set[str] = set()
    for result in results:
        identity = json.dumps(
            [
                result.get(k)
                for k in (
                    "benchmark",
                    "params",
                    "language",
                    "implementation",
                    "mode",
                    "variant",
                    "metric",
                )
            ],
            sort_keys=True,
        )
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


def _run_options(args: argparse.Namespace) -> RunOptions:
    if args.run_id:
        try:
            uuid.UUID(args.run_id)
        except ValueError:
            raise UsageError(f"--run-id must be a UUID: {args.run_id!r}") from None
    return RunOptions(
        suite=args.suite,
        hardware=_hardware(args),
        git=_git(args),
        run_id=args.run_id,
        name=args.name,
        started_at=args.started_at,
        source_url=args.source_url,
        tags=_pairs(args.tag, "--tag"),
        environment=_pairs(args.env, "--env"),
    )


def _hardware(args: argparse.Namespace) -> dict[str, Any]:
    hardware: dict[str, Any] = capture_hardware()
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


def _git(args: argparse.Namespace) -> dict[str, str]:
    git = {} if args.no_git else capture_git()
    flags = {"repo": args.git_repo, "commit": args.git_commit, "branch": args.git_branch}
    git.update({key: value for key, value in flags.items() if value})
    return git
