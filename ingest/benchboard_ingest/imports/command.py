"""`benchboard-ingest import FORMAT PATH…`: a whole history from another tracker, one run
per source run, sent in batches through `POST /api/v1/runs/batch`.

Everything is read and checked before the first request, so a broken file or a missing
flag sends nothing. Re-running the same command sends the same run ids: runs already
stored answer "existing", so an interrupted import resumes and a finished one adds nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

from ..client import Service, add_service_arguments, service_from_args, upload_batch
from ..model import ParseContext, Skipped
from .batches import (
    DEFAULT_BATCH_BYTES,
    DEFAULT_BATCH_RESULTS,
    MAX_BATCH_RESULTS,
    Batch,
    pack,
)
from .progress import ImportProgress
from .runs import ContractRuns, ImportOptions, ImportUsageError, contract_runs
from .sources import IMPORT_FORMATS, read_history

EXAMPLES = 3


def add_import_parser(commands: Any) -> None:
    """The `import` sub-command's arguments."""
    parser = commands.add_parser(
        "import",
        help="send a whole history from another tracker, one run per source run",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("format", choices=IMPORT_FORMATS)
    parser.add_argument("paths", nargs="+", metavar="PATH")
    parser.add_argument("--suite", required=True, help="the Benchboard suite (a slug)")
    parser.add_argument("--source-suite", help="gab: import only this suite of the history")
    parser.add_argument(
        "--hardware-name",
        help="the machine's name: needed where the history records none (gab), "
        "and replaces the one it records",
    )
    parser.add_argument(
        "--language",
        help="the language measured: needed where the history does not say (custom "
        "tools, LNT), and replaces what it says",
    )
    parser.add_argument("--implementation")
    parser.add_argument("--mode", choices=["sync", "async"])
    parser.add_argument("--variant")
    parser.add_argument("--param", action="append", default=[], metavar="K=V")
    parser.add_argument("--git-repo", help="the repository URL (replaces the history's)")
    parser.add_argument("--git-branch", help="the branch the history was measured on")
    add_service_arguments(parser)
    parser.add_argument("--batch-results", type=int, default=DEFAULT_BATCH_RESULTS)
    parser.add_argument("--batch-bytes", type=int, default=DEFAULT_BATCH_BYTES)
    parser.add_argument("--skip-broken", action="store_true", help="report unreadable files")
    parser.add_argument("--list-skipped", action="store_true", help="every skipped item")
    parser.add_argument("--dry-run", action="store_true", help="print the runs, send nothing")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def run_import(args: argparse.Namespace, *, params: dict[str, Any]) -> int:
    started = time.monotonic()
    if not 1 <= args.batch_results <= MAX_BATCH_RESULTS:
        raise ImportUsageError(f"--batch-results must be 1 to {MAX_BATCH_RESULTS:,}")
    context = ParseContext(
        language=args.language,
        implementation=args.implementation,
        mode=args.mode,
        variant=args.variant,
    )
    with ImportProgress(stream=sys.stderr, quiet=args.quiet) as progress:
        # Built first, so that a bad --url is a usage error before any file is read.
        service = service_from_args(
            args, on_retry=lambda n, why: progress.note(f"retry {n}: {why}")
        )
        history = read_history(
            args.format,
            args.paths,
            context=context,
            skip_broken=args.skip_broken,
            on_file=progress.files_read,
        )
        prepared = contract_runs(
            history.runs,
            ImportOptions(
                format=args.format,
                suite=args.suite,
                context=context,
                params=params,
                source_suite=args.source_suite,
                hardware_name=args.hardware_name,
                git_repo=args.git_repo,
                git_branch=args.git_branch,
            ),
        )
        prepared.skipped[:0] = history.skipped
        if args.dry_run:
            json.dump(prepared.runs, sys.stdout, indent=2, ensure_ascii=False)
            sys.stdout.write("\n")
            sent = _Sent()
            sent.batches = sum(1 for _ in _batches(args, prepared))
        else:
            sent = _send(service, args, prepared, progress)
    _report(args, prepared, sent, history.files, started)
    return 0


class _Sent:
    """What the service answered, batch by batch."""

    def __init__(self) -> None:
        self.batches = 0
        self.created = 0
        self.existing = 0


def _send(
    service: Service, args: argparse.Namespace, prepared: ContractRuns, progress: ImportProgress
) -> _Sent:
    sent = _Sent()
    done = 0
    progress.runs_sent(done, len(prepared.runs))  # the bar shows while the first batch goes
    for batch in _batches(args, prepared):
        answer = upload_batch(batch.body, service).body
        sent.batches += 1
        sent.created += int(answer.get("created", 0))
        sent.existing += int(answer.get("existing", 0))
        done += len(batch.run_ids)
        progress.runs_sent(done, len(prepared.runs))
    return sent


def _batches(args: argparse.Namespace, prepared: ContractRuns) -> Iterator[Batch]:
    return pack(prepared.runs, max_results=args.batch_results, max_bytes=args.batch_bytes)


def _report(
    args: argparse.Namespace, prepared: ContractRuns, sent: _Sent, files: int, started: float
) -> None:
    """Counts on stdout as one JSON line; skipped items by reason on stderr."""
    reasons = Counter(skip.reason for skip in prepared.skipped)
    seconds = round(time.monotonic() - started, 2)
    summary = {
        "files": files,
        "runs": len(prepared.runs),
        "results": prepared.result_count,
        "created": sent.created,
        "existing": sent.existing,
        "batches": sent.batches,
        "skipped": len(prepared.skipped),
        "skipped_reasons": dict(reasons.most_common()),
        "seconds": seconds,
    }
    print(json.dumps(summary, ensure_ascii=False))
    if args.quiet:
        return
    counts = f"{len(prepared.runs):,} runs, {prepared.result_count:,} results"
    if args.dry_run:
        line = f"dry run: {counts} would go in {sent.batches} batches; nothing sent"
    else:
        stored = f"{sent.created:,} new, {sent.existing:,} already there"
        line = f"{counts} ({stored}) in {sent.batches} batches, {seconds} s"
    print(line, file=sys.stderr)
    for reason, count in reasons.most_common():
        print(f"skipped {count:,}: {reason}", file=sys.stderr)
        for line in _examples(prepared.skipped, reason, everything=args.list_skipped):
            print(f"  {line}", file=sys.stderr)


def _examples(skipped: list[Skipped], reason: str, *, everything: bool) -> list[str]:
    """The items skipped for `reason`: a few, or all of them with --list-skipped."""
    items = [skip.item for skip in skipped if skip.reason == reason]
    if everything or len(items) <= EXAMPLES:
        return items
    return [*items[:EXAMPLES], f"… and {len(items) - EXAMPLES:,} more (--list-skipped)"]
