"""The worker's webhook thread: sends what the outbox (webhooks.py) has due, a round at a
time, until the worker stops; a stop ends the round after the POST in hand."""

import logging
import threading
from collections.abc import Callable
from datetime import timedelta

import httpx
from sqlalchemy.orm import Session, sessionmaker

from benchboard.pipeline.notifications import send_due_notifications
from benchboard.pipeline.webhooks import TIMEOUT_S, DeliveryReport, deliver_due

logger = logging.getLogger(__name__)


def start_deliveries(
    session_factory: sessionmaker[Session],
    stopping: threading.Event,
    *,
    url: str | None,
    retry_first: timedelta,
) -> threading.Thread | None:
    """The thread sending to `url` (None: no webhook set, no thread)."""
    if not url:
        return None
    thread = threading.Thread(
        target=_deliver,
        args=(session_factory, stopping, url, retry_first),
        name="webhooks",
        daemon=True,
    )
    thread.start()
    return thread


def join_deliveries(thread: threading.Thread | None) -> None:
    """Wait for the POST in hand (each phase of it times out after TIMEOUT_S) and its
    outcome's commit."""
    if thread is not None:
        thread.join(timeout=TIMEOUT_S + 1)


def _deliver(
    session_factory: sessionmaker[Session],
    stopping: threading.Event,
    url: str,
    retry_first: timedelta,
) -> None:
    """Send what is due, sleep a second when nothing was, until stopped."""
    with httpx.Client(timeout=TIMEOUT_S) as client:
        while not stopping.is_set():
            try:
                report = deliver_due(
                    session_factory, client, url=url, retry_first=retry_first, stopping=stopping
                )
            except Exception:
                logger.exception("webhook delivery round failed")
                report = None
            if report is None or report.delivered + report.failed == 0:
                stopping.wait(1.0)


def start_notifications(
    session_factory: sessionmaker[Session],
    stopping: threading.Event,
    *,
    public_url: str,
    retry_first: timedelta,
    settle: timedelta,
) -> threading.Thread:
    """The thread sending alert group messages (notifications.py): suites set their
    targets at any time, so it always runs."""

    def send_round() -> DeliveryReport:
        return send_due_notifications(
            session_factory, public_url=public_url, retry_first=retry_first, settle=settle
        )

    thread = threading.Thread(
        target=_rounds, args=(stopping, send_round), name="notifications", daemon=True
    )
    thread.start()
    return thread


def _rounds(stopping: threading.Event, send_round: Callable[[], DeliveryReport]) -> None:
    """Send what is due, sleep a second when nothing was, until stopped."""
    while not stopping.is_set():
        try:
            report: DeliveryReport | None = send_round()
        except Exception:
            logger.exception("notification round failed")
            report = None
        if report is None or report.delivered + report.failed == 0:
            stopping.wait(1.0)
