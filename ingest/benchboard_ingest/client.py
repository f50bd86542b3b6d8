"""Sending runs to Benchboard (`POST /api/v1/runs`, `POST /api/v1/runs/batch`) with
retries that never duplicate.

Every run carries its `id`; every retry sends the same body under the same ids, so the
service stores each run once (an identical repeat is "existing", a clash is 409).
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
BATCH_PATH = "/api/v1/runs/batch"


class UploadError(Exception):
    """Base of upload failures."""


class UploadRejected(UploadError):
    """The service refused the run (4xx): retrying the same body cannot help."""

    def __init__(self, status: int, body: str) -> None:
        self.status = status
        self.body = body
        super().__init__(f"server rejected the upload: HTTP {status}: {body}")


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
    retry = _Retry(retries, backoff_s, timeout_s, sleep, on_retry)
    return _post(json.dumps(run).encode("utf-8"), RUNS_PATH, url=url, token=token, retry=retry)


def upload_batch(
    body: bytes,
    *,
    url: str,
    token: str | None,
    retries: int = 4,
    backoff_s: float = 0.5,
    timeout_s: float = 300.0,
    sleep: Callable[[float], None] = time.sleep,
    on_retry: Callable[[int, str], None] | None = None,
) -> UploadResponse:
    """POST a batch body (`{"runs": [...]}`, already serialized) to
    `{url}/api/v1/runs/batch`, retried as `upload_run` retries a run."""
    retry = _Retry(retries, backoff_s, timeout_s, sleep, on_retry)
    return _post(body, BATCH_PATH, url=url, token=token, retry=retry)


@dataclass(frozen=True)
class _Retry:
    retries: int
    backoff_s: float
    timeout_s: float
    sleep: Callable[[float], None]
    on_retry: Callable[[int, str], None] | None


def _post(body: bytes, path: str, *, url: str, token: str | None, retry: _Retry) -> UploadResponse:
    request = _request(body, path, url=url, token=token)
    problem = ""
    for attempt in range(retry.retries + 1):
        if attempt:
            if retry.on_retry:
                retry.on_retry(attempt, problem)
            retry.sleep(retry.backoff_s * 2 ** (attempt - 1))
        try:
            with urllib.request.urlopen(request, timeout=retry.timeout_s) as answer:  # noqa: S310 (http(s) checked)
                return UploadResponse(answer.status, _json_body(answer.read()))
        except urllib.error.HTTPError as error:
            answer_body = error.read().decode("utf-8", errors="replace")
            if error.code < 500:
                raise UploadRejected(error.code, answer_body) from None
            problem = f"HTTP {error.code}"
        except (urllib.error.URLError, OSError) as error:
            problem = str(getattr(error, "reason", error))
    raise ServiceUnavailable(
        f"{url}{path} unavailable after {retry.retries + 1} attempts: {problem}"
    )


def _request(body: bytes, path: str, *, url: str, token: str | None) -> urllib.request.Request:
    if not url.startswith(("http://", "https://")):
        raise ValueError(f"URL must start with http:// or https://: {url!r}")
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    endpoint = url.rstrip("/") + path  # scheme checked above: http(s) only
    return urllib.request.Request(  # noqa: S310
        endpoint, data=body, headers=headers, method="POST"
    )


def _json_body(raw: bytes) -> dict[str, Any]:
    try:
        value = json.loads(raw or b"{}")
    except json.JSONDecodeError:
        return {"raw": raw.decode("utf-8", errors="replace")}
    return value if isinstance(value, dict) else {"value": value}
