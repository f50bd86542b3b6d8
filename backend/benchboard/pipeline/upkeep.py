"""What an idle worker keeps up: the coming months' partitions of `result`, and the history
snapshots (series/snapshots.py) of the long series it checked or a scan found stale."""

import itertools
import logging
import time
from collections.abc import Iterable

import psycopg
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from benchboard import metrics
from benchboard.migrate import keep_partitions
from benchboard.series import snapshots

logger = logging.getLogger(__name__)

PARTITIONS_EVERY_S = 3600.0
SNAPSHOT_BATCH = 10  # series; ~34 ms each for 5,000 points at 100,000,000 results
# How often a worker looks for stale snapshots of series it did not check itself.
SNAPSHOT_SCAN_EVERY_S = 600.0


class PartitionUpkeep:
    """Hourly: the coming months' partitions (a long-running service needs no restart as
    time moves on). Every process migrates, and so keeps them, when it starts."""

    def __init__(self, session_factory: sessionmaker[Session]) -> None:
        self.session_factory = session_factory
        self.due = time.monotonic() + PARTITIONS_EVERY_S

    def maintain(self) -> None:
        if time.monotonic() < self.due:
            return
        self.due = time.monotonic() + PARTITIONS_EVERY_S
        with self.session_factory() as session, session.begin():
            keep_partitions(session.connection())


class SnapshotUpkeep:
    """The series whose snapshots may be stale, in order (a dict as an ordered set): those
    the worker checked, then a scan's finds; the first scan when the worker starts."""

    def __init__(self, session_factory: sessionmaker[Session], *, min_points: int) -> None:
        self.session_factory = session_factory
        self.min_points = min_points
        self.due: dict[int, None] = {}
        self.scan_due = time.monotonic()

    def checked(self, long_series: Iterable[int]) -> None:
        """Series a check just saw change: their snapshots are due."""
        self.due.update(dict.fromkeys(long_series))

    def refresh(self) -> bool:
        """Build the snapshots of a few due series; whether any were due. A batch is
        short, so a new upload's check waits at most ~0.35 s for it. A batch that fails
        is dropped: the next scan finds its series again."""
        try:
            if time.monotonic() >= self.scan_due:
                self.scan_due = time.monotonic() + SNAPSHOT_SCAN_EVERY_S
                with self.session_factory() as session:
                    stale = snapshots.stale_series(session, min_points=self.min_points)
                self.due.update(dict.fromkeys(stale))
            batch = list(itertools.islice(self.due, SNAPSHOT_BATCH))
            for series_id in batch:
                del self.due[series_id]
            if not batch:
                return False
            built = snapshots.refresh_snapshots(
                self.session_factory, batch, min_points=self.min_points
            )
        except (OperationalError, psycopg.OperationalError):
            raise
        except Exception:
            logger.exception("building history snapshots failed")
            return False
        metrics.HISTORY_SNAPSHOTS_BUILT.inc(built)
        return True
