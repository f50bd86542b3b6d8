"""`benchboard worker`: claims queued series in batches, checks them, sends webhooks;
with nothing to check, it builds history snapshots (series/snapshots.py).

Any number run side by side, on one machine or many sharing the database. Each holds a
presence lock (a session advisory lock on its id) on a connection that also LISTENs for
new work; its claims count only while that lock is held, so a worker killed mid-batch
(SIGKILL, a lost machine) gives its batch back the moment PostgreSQL drops its
connection. SIGTERM or SIGINT stops it cleanly: the batch in hand is finished and
committed; a second signal abandons it (rolled back and given back).
"""

import itertools
import logging
import os
import random
import signal
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from types import FrameType

import httpx
import psycopg
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from benchboard import metrics
from benchboard.config import Settings
from benchboard.database_server import libpq_url
from benchboard.db import make_session_factory
from benchboard.migrate import keep_partitions
from benchboard.regressions import queue
from benchboard.regressions.queue import Claimed, ClaimLost
from benchboard.regressions.runner import CheckReport, check_series
from benchboard.regressions.webhooks import TIMEOUT_S, deliver_due
from benchboard.series import snapshots

logger = logging.getLogger(__name__)

RECONNECT_WAIT_S = 2.0
WAKE_CHECK_S = 0.5  # how often a sleeping worker looks at its stop flag
PARTITIONS_EVERY_S = 3600.0
SNAPSHOT_BATCH = 10  # series; ~34 ms each for 5,000 points at 100,000,000 results
# How often a worker looks for stale snapshots of series it did not check itself.
SNAPSHOT_SCAN_EVERY_S = 600.0


class Presence:
    """The worker's own connection: its advisory lock (its claims' validity) and LISTEN."""

    def __init__(self, database_url: str) -> None:
        self.connection = psycopg.connect(
            libpq_url(database_url), autocommit=True, application_name="benchboard-worker"
        )
        self.connection.execute(f"LISTEN {queue.CHANNEL}")
        self.worker_id = self._take_an_id()

    def _take_an_id(self) -> int:
        while True:
            candidate = random.randint(1, 2**31 - 1)
            taken = self.connection.execute(
                "SELECT pg_try_advisory_lock(%s, %s)", (queue.WORKER_LOCK_CLASS, candidate)
            ).fetchone()
            if taken and taken[0]:
                return candidate

    def wait(self, seconds: float) -> bool:
        """Until a NOTIFY arrives (True) or `seconds` pass (False)."""
        return any(True for _ in self.connection.notifies(timeout=seconds, stop_after=1))

    def close(self) -> None:
        self.connection.close()


@dataclass
class Worker:
    """One detection worker: `run()` until stopped; `drain()` checks what is queued now.

    `drain()` needs no presence connection: it is how tests and benchmarks check the
    queue inside their own transaction (`worker_id` is then any number).
    """

    settings: Settings
    session_factory: sessionmaker[Session]
    database_url: str = ""
    worker_id: int = 0

    def __post_init__(self) -> None:
        self.stopping = threading.Event()
        self.presence: Presence | None = None
        self.claimed: list[Claimed] = []
        self.parent_pid: int | None = None
        # Every process migrates, and so keeps the partitions, when it starts.
        self.partitions_due = time.monotonic() + PARTITIONS_EVERY_S
        # Series whose snapshots may be stale, in order (a dict as an ordered set): those
        # this worker checked, then a scan's finds; the first scan when it starts.
        self.snapshots_due: dict[int, None] = {}
        self.snapshot_scan_due = time.monotonic()

    def connect(self) -> None:
        self.presence = Presence(self.database_url)
        self.worker_id = self.presence.worker_id
        logger.info("detection worker %d ready (pid %d)", self.worker_id, os.getpid())

    def drain(self) -> CheckReport:
        """Check batches until nothing is due; everything they did, merged."""
        reports = []
        while (report := self.run_once()) is not None:
            reports.append(report)
        return _merged(reports)

    def run(self) -> None:
        """Check batches until SIGTERM/SIGINT (or the parent process is gone)."""
        self._handle_signals()
        deliveries = self._start_deliveries()
        try:
            while not self._should_stop():
                try:
                    if self.presence is None:
                        self.connect()
                    self._maintain_partitions()
                    if self.run_once() is None and not self.refresh_snapshots():
                        self._sleep()
                except (OperationalError, psycopg.OperationalError):
                    logger.exception("database unreachable; retrying")
                    self._disconnect()
                    self.stopping.wait(RECONNECT_WAIT_S)
        finally:
            self.stopping.set()
            if deliveries is not None:
                deliveries.join(timeout=TIMEOUT_S + 1)
            self._disconnect()
            logger.info("detection worker stopped (pid %d)", os.getpid())

    def _maintain_partitions(self) -> None:
        """Hourly: the coming months' partitions of `result` (a long-running service
        needs no restart as time moves on)."""
        if time.monotonic() < self.partitions_due:
            return
        self.partitions_due = time.monotonic() + PARTITIONS_EVERY_S
        with self.session_factory() as session, session.begin():
            keep_partitions(session.connection())

    def refresh_snapshots(self) -> bool:
        """With no detection due: build the history snapshots (series/snapshots.py) of a
        few series it checked or a scan found stale; whether any were due. A batch is
        short, so a new upload's check waits at most ~0.35 s for it. A batch that fails
        is dropped: the next scan finds its series again."""
        try:
            if time.monotonic() >= self.snapshot_scan_due:
                self.snapshot_scan_due = time.monotonic() + SNAPSHOT_SCAN_EVERY_S
                with self.session_factory() as session:
                    stale = snapshots.stale_series(
                        session, min_points=self.settings.snapshot_min_points
                    )
                self.snapshots_due.update(dict.fromkeys(stale))
            batch = list(itertools.islice(self.snapshots_due, SNAPSHOT_BATCH))
            for series_id in batch:
                del self.snapshots_due[series_id]
            if not batch:
                return False
            built = snapshots.refresh_snapshots(
                self.session_factory, batch, min_points=self.settings.snapshot_min_points
            )
        except (OperationalError, psycopg.OperationalError):
            raise
        except Exception:
            logger.exception("building history snapshots failed")
            return False
        metrics.HISTORY_SNAPSHOTS_BUILT.inc(built)
        return True

    def run_once(self) -> CheckReport | None:
        """Claim one batch and check it; None when nothing was due."""
        with self.session_factory() as session, session.begin():
            self.claimed = queue.claim_batch(
                session,
                worker=self.worker_id,
                limit=self.settings.detect_batch_size,
                claim_timeout=timedelta(seconds=self.settings.detect_claim_timeout_s),
            )
        if not self.claimed:
            return None
        try:
            return self._check(self.claimed)
        finally:
            self.claimed = []

    def _check(self, claimed: list[Claimed]) -> CheckReport:
        """Check and finish in one transaction; a failing batch is retried series by
        series, so one bad series fails alone (and backs off) instead of the batch."""
        started = time.perf_counter()
        try:
            series_ids = [c.series_id for c in claimed]
            with self.session_factory() as session, session.begin():
                report = check_series(
                    session, series_ids, notify_webhook=bool(self.settings.webhook_url)
                )
                # Before finish_batch, which locks the batch's queue rows until the commit:
                # an upload re-queueing them waits that long.
                long_series = snapshots.long_series(
                    session, series_ids, min_points=self.settings.snapshot_min_points
                )
                queue.finish_batch(session, worker=self.worker_id, claimed=claimed)
        except ClaimLost as lost:
            logger.warning("batch dropped: %s", lost)
            return CheckReport()
        except (OperationalError, psycopg.OperationalError, KeyboardInterrupt, SystemExit):
            raise
        except Exception as error:
            if len(claimed) > 1:
                logger.warning("batch of %d failed (%s); checking one by one", len(claimed), error)
                return _merged([self._check([c]) for c in claimed])
            logger.exception("checking series %d failed", claimed[0].series_id)
            self._release(claimed, error=f"{type(error).__name__}: {error}")
            return CheckReport()
        self._record(report, claimed, time.perf_counter() - started)
        self.snapshots_due.update(dict.fromkeys(long_series))
        return report

    def _record(self, report: CheckReport, claimed: list[Claimed], elapsed: float) -> None:
        for phase in ("read", "build", "detect", "write"):
            metrics.DETECTION_SECONDS.labels(phase).inc(getattr(report, f"{phase}_s"))
        metrics.DETECTION_SERIES.inc(len(claimed))
        metrics.DETECTION_SECONDS_PER_SERIES.observe(elapsed / len(claimed))
        metrics.REGRESSIONS_DETECTED.inc(len(report.new_regressions))
        now = datetime.now(UTC)
        for c in claimed:
            metrics.DETECTION_LAG.observe(max(0.0, (now - c.queued_at).total_seconds()))
        level = logging.INFO if len(claimed) >= 100 or report.new_regressions else logging.DEBUG
        logger.log(
            level,
            "checked %d series in %.2f s (read %.2f, build %.2f, detect %.2f, write %.2f);"
            " %d new changes",
            len(claimed),
            elapsed,
            report.read_s,
            report.build_s,
            report.detect_s,
            report.write_s,
            len(report.new_regressions),
        )

    def _release(self, claimed: list[Claimed], *, error: str | None) -> None:
        with self.session_factory() as session, session.begin():
            queue.release(
                session,
                worker=self.worker_id,
                series_ids=[c.series_id for c in claimed],
                error=error,
            )

    def _sleep(self) -> None:
        assert self.presence is not None
        deadline = time.monotonic() + self.settings.detect_poll_s
        while not self._should_stop() and time.monotonic() < deadline:
            if self.presence.wait(min(WAKE_CHECK_S, deadline - time.monotonic())):
                return

    def _should_stop(self) -> bool:
        if self.parent_pid is not None and os.getppid() != self.parent_pid:
            logger.warning("the process that started this worker is gone; stopping")
            self.stopping.set()
        return self.stopping.is_set()

    def _disconnect(self) -> None:
        if self.presence is not None:
            try:
                self.presence.close()
            finally:
                self.presence = None

    def _handle_signals(self) -> None:
        def stop(signum: int, _frame: FrameType | None) -> None:
            if self.stopping.is_set() and self.claimed:
                # Second signal: give the batch back now (the transaction rolls back).
                raise SystemExit(128 + signum)
            logger.info("stopping after the current batch (signal %d)", signum)
            self.stopping.set()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)

    def _start_deliveries(self) -> threading.Thread | None:
        url = self.settings.webhook_url
        if not url:
            return None
        thread = threading.Thread(target=self._deliver, args=(url,), name="webhooks", daemon=True)
        thread.start()
        return thread

    def _deliver(self, url: str) -> None:
        """The webhook thread: send what is due, sleep a second, until stopped."""
        retry_first = timedelta(seconds=self.settings.webhook_retry_s)
        with httpx.Client(timeout=TIMEOUT_S) as client:
            while not self.stopping.is_set():
                try:
                    report = deliver_due(
                        self.session_factory, client, url=url, retry_first=retry_first
                    )
                except Exception:
                    logger.exception("webhook delivery round failed")
                    report = None
                if report is None or report.delivered + report.failed == 0:
                    self.stopping.wait(1.0)


def _merged(reports: list[CheckReport]) -> CheckReport:
    merged = CheckReport()
    for report in reports:
        merged.series += report.series
        merged.new_regressions += report.new_regressions
        for phase in ("read_s", "build_s", "detect_s", "write_s"):
            setattr(merged, phase, getattr(merged, phase) + getattr(report, phase))
    return merged


def run_worker(
    settings: Settings, database_url: str, engine: Engine, *, parent_pid: int | None = None
) -> None:
    """The `benchboard worker` process body; with `parent_pid`, it ends with that parent."""
    worker = Worker(settings, make_session_factory(engine), database_url)
    worker.parent_pid = parent_pid
    worker.run()
