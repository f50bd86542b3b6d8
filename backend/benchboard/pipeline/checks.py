"""One claimed batch, checked and finished in one transaction, with its metrics.

A failing batch is retried series by series, so one bad series fails alone (and backs
off, queue.release) instead of the batch. What a failure means (failures.py) decides
what follows: an outage is the worker's to handle (it reconnects), a failed statement
backs off, and a series whose data no check can get through is marked failing.
"""

import logging
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy.orm import Session, sessionmaker

from benchboard import metrics
from benchboard.pipeline import queue
from benchboard.pipeline.failures import Failure, classify
from benchboard.pipeline.queue import Claimed, ClaimLost, Retries
from benchboard.pipeline.runner import CheckReport, check_series
from benchboard.series import snapshots

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class BatchChecker:
    session_factory: sessionmaker[Session]
    worker_id: int
    notify_webhook: bool
    snapshot_min_points: int
    retries: Retries = field(default_factory=Retries)

    def check(self, claimed: list[Claimed]) -> tuple[CheckReport, list[int]]:
        """Check and finish the batch; what it did, and its series long enough for
        history snapshots (their snapshots are now due)."""
        started = time.perf_counter()
        try:
            series_ids = [c.series_id for c in claimed]
            with self.session_factory() as session, session.begin():
                report = check_series(session, series_ids, notify_webhook=self.notify_webhook)
                # Before finish_batch, which locks the batch's queue rows until the commit:
                # an upload re-queueing them waits that long.
                long_series = snapshots.long_series(
                    session, series_ids, min_points=self.snapshot_min_points
                )
                queue.finish_batch(session, worker=self.worker_id, claimed=claimed)
        except ClaimLost as lost:
            logger.warning("batch dropped: %s", lost)
            return CheckReport(), []
        except Exception as error:
            failure = classify(error)
            metrics.DETECTION_FAILURES.labels(failure.value).inc()
            if failure is Failure.OUTAGE:
                raise
            if len(claimed) > 1:
                logger.warning("batch of %d failed (%s); checking one by one", len(claimed), error)
                singles = [self.check([c]) for c in claimed]
                return merged([r for r, _ in singles]), [s for _, long in singles for s in long]
            logger.exception("checking series %d failed", claimed[0].series_id)
            self._release(
                claimed,
                error=f"{type(error).__name__}: {error}",
                give_up=failure is Failure.GIVE_UP,
            )
            return CheckReport(), []
        _record(report, claimed, time.perf_counter() - started)
        return report, long_series

    def _release(self, claimed: list[Claimed], *, error: str, give_up: bool) -> None:
        with self.session_factory() as session, session.begin():
            queue.release(
                session,
                worker=self.worker_id,
                series_ids=[c.series_id for c in claimed],
                error=error,
                retries=self.retries,
                give_up=give_up,
            )


def _record(report: CheckReport, claimed: list[Claimed], elapsed: float) -> None:
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


def merged(reports: list[CheckReport]) -> CheckReport:
    """Several batches' reports as one."""
    total = CheckReport()
    for report in reports:
        total.series += report.series
        total.new_regressions += report.new_regressions
        for phase in ("read_s", "build_s", "detect_s", "write_s"):
            setattr(total, phase, getattr(total, phase) + getattr(report, phase))
    return total
