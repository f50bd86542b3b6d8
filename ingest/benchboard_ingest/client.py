"""Sending a run to Benchboard (`POST /api/v1/runs`) with retries that never duplicate.

The run carries its `id`; every retry sends the same body under the same id,
so the service stores it once (200 on an identical repeat, 409 on a clash).
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

RUNS_PATH = "/api/v1/runs"


class UploadError(Exception):
    """Base of upload failures."""


class UploadRejected(UploadError):
    """The service refused the run (4xx): retrying the same body cannot help."""

    def __init__(self, status: int, body: str) -> None:
        self.status = status
        self.body = body
        super().__init__(f"server rejected the run: HTTP {status}: {body}")


class ServiceUnavailable(UploadError):
    """Connection errors or 5xx answers, still failing after every retry."""


@dataclass(frozen=True)
class UploadResponse:
    status: int
    body: dict[str, Any]


def upload_run(
    run: dict[str, Any],
    *,
    url: str,
    token: str | None,
    retries: int = 4,
    backoff_s: float = 0.5,
    timeout_s: float = 30.0,
    sleep: Callable[[float], None] = time.sleep,
    on_retry: Callable[[int, str], None] | None = None,
) -> UploadResponse:
    """POST `run` to `{url}/api/v1/runs`; retry connection errors and 5xx.

    Waits `backoff_s`, then twice as long each time, for up to `retries` retries.
    Raises UploadRejected on 4xx and ServiceUnavailable when retries run out.
    """
    request = _request(run, url=url, token=token)
    problem = ""
    for attempt in range(retries + 1):
        if attempt:
            if on_retry:
                on_retry(attempt, problem)
            sleep(backoff_s * 2 ** (attempt - 1))
        try:
            with urllib.request.urlopen(request, timeout=timeout_s) as answer:  # noqa: S310 (http(s) checked)
                return UploadResponse(answer.status, _json_body(answer.read()))
        except urllib.error.HTTPError as error:
            body = error.read().decode("utf-8", errors="replace")
            if error.code < 500:
                raise UploadRejected(error.code, body) from None
            problem = f"HTTP {error.code}"
        except (urllib.error.URLError, OSError) as error:
            problem = str(getattr(error, "reason", error))
    raise ServiceUnavailable(
        f"{url}{RUNS_PATH} unavailable after {retries + 1} attempts: {problem}"
    )


def _request(run: dict[str, Any], *, url: str, token: str | None) -> urllib.request.Request:
    if not url.startswith(("http://", "https://")):
        raise ValueError(f"URL must start with http:// or https://: {url!r}")
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    body = json.dumps(run).encode("utf-8")
    endpoint = url.rstrip("/") + RUNS_PATH  # scheme checked above: http(s) only
    return urllib.request.Request(  # noqa: S310
        endpoint, data=body, headers=headers, method="POST"
    )


def _json_body(raw: bytes) -> dict[str, Any]:
    try:
        value = json.loads(raw or b"{}")
    except json.JSONDecodeError:
        return {"raw": raw.decode("utf-8", errors="replace")}
    return value if isinstance(value, dict) else {"value": value}
