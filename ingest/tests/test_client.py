from __future__ import annotations

import time
from dataclasses import replace

import pytest
from retry_server import RecordingServer

from benchboard_ingest.client import (
    RequestRejected,
    Service,
    ServiceUnavailable,
    retry_after_s,
    upload_run,
)

RUN = {"id": "0b6f1c2e-4a59-4e0e-9a53-3c1f1d2a7b10", "suite": "s", "results": []}


def no_sleep(_: float) -> None:
    pass


def test_503_then_201_retries_with_the_same_run_id() -> None:
    with RecordingServer([503, 201]) as server:
        response = upload_run(RUN, Service(server.url, token="t0k", sleep=no_sleep))
    assert response.status == 201
    assert [body["id"] for body in server.bodies] == [RUN["id"], RUN["id"]]
    assert server.bodies[0] == server.bodies[1]
    assert server.paths == ["/api/v1/runs", "/api/v1/runs"]
    assert server.headers[0]["Authorization"] == "Bearer t0k"


def test_backoff_doubles_between_attempts() -> None:
    waits: list[float] = []
    with RecordingServer([500, 502, 503, 200]) as server:
        upload_run(RUN, Service(server.url, backoff_s=0.25, sleep=waits.append))
    assert waits == [0.25, 0.5, 1.0]


def test_4xx_is_not_retried() -> None:
    with RecordingServer([409]) as server, pytest.raises(RequestRejected) as caught:
        upload_run(RUN, Service(server.url, token="t", sleep=no_sleep))
    assert caught.value.status == 409
    assert len(server.bodies) == 1


def test_5xx_after_all_retries_is_unavailable() -> None:
    with RecordingServer([503] * 3) as server, pytest.raises(ServiceUnavailable):
        upload_run(RUN, Service(server.url, token="t", retries=2, sleep=no_sleep))
    assert len(server.bodies) == 3


def test_connection_refused_is_unavailable() -> None:
    with RecordingServer([]) as server:
        url = server.url
    with pytest.raises(ServiceUnavailable):
        upload_run(RUN, Service(url, token="t", retries=1, sleep=no_sleep))


def test_retries_stop_at_the_deadline() -> None:
    waits: list[float] = []
    deadline = time.monotonic() + 1.0
    service = Service("http://127.0.0.1:9", backoff_s=0.4, deadline=deadline, sleep=waits.append)
    with RecordingServer([503] * 10) as server, pytest.raises(ServiceUnavailable) as caught:
        upload_run(RUN, replace(service, url=server.url))
    # The recorded sleeps do not move the clock: a wait of 1.6 s is the first past it.
    assert waits == [0.4, 0.8]
    assert "3 attempts" in str(caught.value)


def test_a_503_waits_what_its_retry_after_asks() -> None:
    waits: list[float] = []
    with RecordingServer([(503, {"Retry-After": "3"}), 503, 201]) as server:
        upload_run(RUN, Service(server.url, backoff_s=0.25, sleep=waits.append))
    assert waits == [3.0, 0.5]  # the second 503 asks nothing: the backoff's second step


def test_a_429_is_retried_after_its_retry_after() -> None:
    waits: list[float] = []
    with RecordingServer([(429, {"Retry-After": "2"}), 201]) as server:
        response = upload_run(RUN, Service(server.url, sleep=waits.append))
    assert response.status == 201
    assert waits == [2.0]
    assert len(server.bodies) == 2


def test_retry_after_is_capped() -> None:
    waits: list[float] = []
    with RecordingServer([(503, {"Retry-After": "86400"}), 201]) as server:
        upload_run(RUN, Service(server.url, max_wait_s=10.0, sleep=waits.append))
    assert waits == [10.0]


def test_retry_after_past_the_deadline_gives_up_at_once() -> None:
    waits: list[float] = []
    deadline = time.monotonic() + 5.0
    with RecordingServer([(503, {"Retry-After": "30"})]) as server:
        service = Service(server.url, deadline=deadline, sleep=waits.append)
        with pytest.raises(ServiceUnavailable) as caught:
            upload_run(RUN, service)
    assert waits == []
    assert "Retry-After 30 s" in str(caught.value)


def test_the_client_really_waits_before_sending_again() -> None:
    with RecordingServer([(503, {"Retry-After": "1"}), 201]) as server:
        upload_run(RUN, Service(server.url, backoff_s=0.01))
    first, second = server.arrivals
    assert 1.0 <= second - first < 3.0


def test_retry_after_reads_seconds_and_http_dates() -> None:
    assert retry_after_s("120") == 120.0
    assert retry_after_s(" 0 ") == 0.0
    now = 1_445_412_480.0  # Wed, 21 Oct 2015 07:28:00 GMT
    assert retry_after_s("Wed, 21 Oct 2015 07:28:30 GMT", now=now) == 30.0
    assert retry_after_s("Wed, 21 Oct 2015 07:27:00 GMT", now=now) == 0.0
    assert retry_after_s("soon") is None
    assert retry_after_s("-5") is None
    assert retry_after_s(None) is None
