"""`benchboard worker`: claims queued series in batches and checks them (checks.py); with
nothing to check, it keeps partitions and history snapshots up (upkeep.py); a thread
sends webhooks (deliveries.py).

It runs at a lower CPU priority than the API (BENCHBOARD_DETECT_NICE), and after a batch
smaller than a full one it pauses (BENCHBOARD_DETECT_SETTLE_S) before claiming again:
under a stream of small uploads the queue coalesces each series' requests meanwhile, so
the stream is checked once per pause instead of once per upload (README.md, "Settling").

Any number run side by side, on one machine or many sharing the database. Each holds a
lease on its claims (presence.py) on a connection that also LISTENs for new work.
SIGTERM or SIGINT stops it cleanly: the batch in hand is finished and committed; a second
signal abandons it (rolled back and given back).
"""

import logging
import math
import os
import signal
import threading
import time
from dataclasses import dataclass
from datetime import timedelta
from types import FrameType

import psycopg
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from benchboard.config import Settings
from benchboard.db import make_session_factory
from benchboard.pipeline import queue
from benchboard.pipeline.checks import BatchChecker, merged
from benchboard.pipeline.deliveries import (
    join_deliveries,
    start_deliveries,
    start_notifications,
)
from benchboard.pipeline.presence import Presence
from benchboard.pipeline.queue import Claimed, Retries
from benchboard.pipeline.runner import CheckReport
from benchboard.pipeline.upkeep import PartitionUpkeep, SnapshotUpkeep

logger = logging.getLogger(__name__)

RECONNECT_WAIT_S = 2.0
WAKE_CHECK_S = 0.5  # how often a sleeping worker looks at its stop flag


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
        self.partial_claim_at = -math.inf  # time.monotonic() of the last partial batch
        self.partitions = PartitionUpkeep(self.session_factory)
        self.snapshots = SnapshotUpkeep(
            self.session_factory, min_points=self.settings.snapshot_min_points
        )
        self.retries = Retries(
            first=timedelta(seconds=self.settings.detect_retry_s),
            max_attempts=self.settings.detect_max_attempts,
        )

    def connect(self) -> None:
        self.presence = Presence(self.database_url)
        self.worker_id = self.presence.worker_id
        logger.info("detection worker %d ready (pid %d)", self.worker_id, os.getpid())

    def drain(self) -> CheckReport:
        """Check batches until nothing is due; everything they did, merged."""
        reports = []
        while (report := self.run_once()) is not None:
            reports.append(report)
        return merged(reports)

    def run(self) -> None:
        """Check batches until SIGTERM/SIGINT (or the parent process is gone)."""
        self._handle_signals()
        deliveries = start_deliveries(
            self.session_factory,
            self.stopping,
            url=self.settings.webhook_url,
            retry_first=timedelta(seconds=self.settings.webhook_retry_s),
        )
        notifications = start_notifications(
            self.session_factory,
            self.stopping,
            public_url=self.settings.public_url,
            retry_first=timedelta(seconds=self.settings.webhook_retry_s),
            settle=timedelta(seconds=self.settings.notification_settle_s),
        )
        try:
            while not self._should_stop():
                try:
                    if self.presence is None:
                        self.connect()
                    self.partitions.maintain()
                    self._settle()
                    if self.run_once() is None and not self.snapshots.refresh():
                        self._sleep()
                except (OperationalError, psycopg.OperationalError):
                    logger.exception("database unreachable; retrying")
                    self._disconnect()
                    self.stopping.wait(RECONNECT_WAIT_S)
        finally:
            self.stopping.set()
            join_deliveries(deliveries)
            join_deliveries(notifications)
            self._disconnect()
            logger.info("detection worker stopped (pid %d)", os.getpid())

    def run_once(self) -> CheckReport | None:
        """Claim one batch and check it; None when nothing was due."""
        with self.session_factory() as session, session.begin():
            self.claimed = queue.claim_batch(
                session,
                worker=self.worker_id,
                limit=self.settings.detect_batch_size,
                claim_timeout=timedelta(seconds=self.settings.detect_claim_timeout_s),
                retries=self.retries,
            )
        if not self.claimed:
            return None
        if len(self.claimed) < self.settings.detect_batch_size:
            self.partial_claim_at = time.monotonic()
        checker = BatchChecker(
            self.session_factory,
            self.worker_id,
            notify_webhook=bool(self.settings.webhook_url),
            snapshot_min_points=self.settings.snapshot_min_points,
            retries=self.retries,
        )
        try:
            report, long_series = checker.check(self.claimed)
        finally:
            self.claimed = []
        self.snapshots.checked(long_series)
        return report

    def _settle(self) -> None:
        """Wait out the pause after a partial batch (a full one means a backlog: no pause)."""
        wait = self.partial_claim_at + self.settings.detect_settle_s - time.monotonic()
        if wait > 0:
            self.stopping.wait(wait)

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


def run_worker(
    settings: Settings, database_url: str, engine: Engine, *, parent_pid: int | None = None
) -> None:
    """The `benchboard worker` process body; with `parent_pid`, it ends with that parent."""
    os.nice(settings.detect_nice)
    worker = Worker(settings, make_session_factory(engine), database_url)
    worker.parent_pid = parent_pid
    worker.run()
