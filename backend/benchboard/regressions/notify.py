"""Webhook notifications: one JSON POST per new regression, retried, never blocking."""

import logging
import time

import httpx
from sqlalchemy.orm import Session, sessionmaker

from benchboard.regressions.service import get_regression

logger = logging.getLogger(__name__)

ATTEMPTS = 4
FIRST_BACKOFF_S = 0.5
TIMEOUT_S = 5.0


def notify_new_regressions(
    session_factory: sessionmaker[Session], regression_ids: list[int], url: str
) -> None:
    with session_factory() as session:
        payloads = [get_regression(session, rid).model_dump(mode="json") for rid in regression_ids]
    with httpx.Client(timeout=TIMEOUT_S) as client:
        for payload in payloads:
            _post_with_retries(client, url, {"event": "regression.detected", "regression": payload})


def _post_with_retries(client: httpx.Client, url: str, body: dict[str, object]) -> bool:
    for attempt in range(ATTEMPTS):
        try:
            response = client.post(url, json=body)
            if response.status_code < 500:
                return response.is_success
        except httpx.HTTPError as error:
            logger.warning("webhook %s failed (attempt %d): %s", url, attempt + 1, error)
        time.sleep(FIRST_BACKOFF_S * 2**attempt)
    logger.error("webhook %s gave up after %d attempts", url, ATTEMPTS)
    return False
