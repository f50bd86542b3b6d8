"""Talking to Benchboard: runs sent (`POST /api/v1/runs`, `POST /api/v1/runs/batch`) with
retries that never duplicate, and the reads and settings the gate and `suite` use.

Every run carries its `id`; every retry sends the same body under the same ids, so the
service stores each run once (an identical repeat is "existing", a clash is 409).
"""

from __future__ import annotations

import argparse
import email.utils
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

DEFAULT_URL = "http://127.0.0.1:8000"
RUNS_PATH = "/api/v1/runs"
BATCH_PATH = "/api/v1/runs/batch"
# A batch of thousands of runs is one transaction on the service: give it time.
BATCH_TIMEOUT_S = 300.0
# Answers worth repeating: 5xx (an outage, a lost lock race) and 429 (too many requests).
TOO_MANY_REQUESTS = 429


class ServiceError(Exception):
    """Base of failures to get an answer from the service."""


class RequestRejected(ServiceError):
    """The service refused the request (4xx but 429): retrying it cannot help."""

    def __init__(self, status: int, body: str) -> None:
        self.status = status
        self.body = body
        super().__init__(f"server rejected the request: HTTP {status}: {body}")


class ServiceUnavailable(ServiceError):
    """Connection errors or 5xx answers, still failing after every retry."""


class InvalidServiceUrl(ValueError):
    """`--url` is not an http(s) URL: a usage error, reported before anything is sent."""


@dataclass(frozen=True)
class Response:
    status: int
    body: dict[str, Any]


@dataclass(frozen=True)
class Service:
    """Where the service is, and how hard to try: `retries` retries, waiting what the
    service's Retry-After asks (at most `max_wait_s`), else `backoff_s` and then twice
    as long each time; never past `deadline` (time.monotonic) if given."""

    url: str
    token: str | None = None
    retries: int = 4
    backoff_s: float = 0.5
    max_wait_s: float = 60.0
    timeout_s: float = 30.0
    deadline: float | None = None
    sleep: Callable[[float], None] | None = None  # default time.sleep
    on_retry: Callable[[int, str], None] | None = None

    def __post_init__(self) -> None:
        if not self.url.startswith(("http://", "https://")):
            raise InvalidServiceUrl(f"URL must start with http:// or https://: {self.url!r}")


def add_service_arguments(parser: argparse.ArgumentParser) -> None:
    """`--url`, `--token` and `--retries` of every command that talks to the service."""
    parser.add_argument("--url", default=os.environ.get("BENCHBOARD_URL", DEFAULT_URL))
    parser.add_argument("--token", default=os.environ.get("BENCHBOARD_TOKEN"))
    parser.add_argument("--retries", type=int, default=4)


def service_from_args(
    args: argparse.Namespace,
    *,
    on_retry: Callable[[int, str], None],
    deadline: float | None = None,
) -> Service:
    """The `Service` named by `add_service_arguments`' options."""
    return Service(
        args.url, token=args.token, retries=args.retries, deadline=deadline, on_retry=on_retry
    )


def upload_run(run: dict[str, Any], service: Service) -> Response:
    """POST `run` to `{url}/api/v1/runs`; retry connection errors and 5xx.

    Raises RequestRejected on 4xx and ServiceUnavailable when retries run out.
    """
    return request_json(service, "POST", RUNS_PATH, body=run)


def upload_batch(body: bytes, service: Service) -> Response:
    """POST a batch body (`{"runs": [...]}`, already serialized) to
    `{url}/api/v1/runs/batch`, retried as `upload_run` retries a run."""
    patient = replace(service, timeout_s=max(service.timeout_s, BATCH_TIMEOUT_S))
    return request_json(patient, "POST", BATCH_PATH, raw=body)


def request_json(
    service: Service,
    method: str,
    path: str,
    *,
    body: Mapping[str, Any] | None = None,
    raw: bytes | None = None,
    query: Mapping[str, str] | None = None,
) -> Response:
    """One JSON request (`body`, or `raw` JSON bytes), retried on connection errors, 5xx
    and 429 with the same body each time."""
    data = raw if raw is not None else json.dumps(body).encode() if body is not None else None
    request = _request(service, method, path, data=data, query=query)
    problem, attempts, asked = "", 0, None
    for attempt in range(service.retries + 1):
        if attempt:
            backoff = service.backoff_s * 2 ** (attempt - 1)
            pause = min(asked if asked is not None else backoff, service.max_wait_s)
            if service.deadline is not None and time.monotonic() + pause > service.deadline:
                break
            if service.on_retry:
                service.on_retry(attempt, problem)
            (service.sleep or time.sleep)(pause)
        attempts += 1
        try:
            timeout = _timeout(service)
            with urllib.request.urlopen(request, timeout=timeout) as answer:  # noqa: S310 (http(s) checked)
                return Response(answer.status, _json_body(answer.read()))
        except urllib.error.HTTPError as error:
            text = error.read().decode("utf-8", errors="replace")
            if error.code < 500 and error.code != TOO_MANY_REQUESTS:
                raise RequestRejected(error.code, text) from None
            asked = retry_after_s(error.headers.get("Retry-After"))
            problem = f"HTTP {error.code}{_code(text)}"
            if asked is not None:
                problem += f", Retry-After {asked:g} s"
        except (urllib.error.URLError, OSError) as error:
            problem, asked = str(getattr(error, "reason", error)), None
    raise ServiceUnavailable(f"{request.full_url} unavailable after {attempts} attempts: {problem}")


def retry_after_s(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds a Retry-After header asks for (delta-seconds or an HTTP date, RFC 9110
    10.2.3); None when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def _code(text: str) -> str:
    """` database_busy`: the error code of an error envelope, if the body is one."""
    code = _json_body(text.encode()).get("error")
    return f" {code}" if isinstance(code, str) else ""


def _timeout(service: Service) -> float:
    if service.deadline is None:
        return service.timeout_s
    return max(1.0, min(service.timeout_s, service.deadline - time.monotonic()))


def _request(
    service: Service,
    method: str,
    path: str,
    *,
    data: bytes | None,
    query: Mapping[str, str] | None,
) -> urllib.request.Request:
    headers = {"Accept": "application/json"}
    if data is not None:
        headers["Content-Type"] = "application/json"
    if service.token:
        headers["Authorization"] = f"Bearer {service.token}"
    endpoint = service.url.rstrip("/") + path
    if query:
        endpoint += "?" + urllib.parse.urlencode(query)
    return urllib.request.Request(  # noqa: S310 (scheme checked in Service)
        endpoint, data=data, headers=headers, method=method
    )


def _json_body(raw: bytes) -> dict[str, Any]:
    try:
        value = json.loads(raw or b"{}")
    except json.JSONDecodeError:
        return {"raw": raw.decode("utf-8", errors="replace")}
    return value if isinstance(value, dict) else {"value": value}
