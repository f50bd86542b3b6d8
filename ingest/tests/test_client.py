from __future__ import annotations

import time
from dataclasses import replace

import pytest
from retry_server import RecordingServer

from benchboard_ingest.client import RequestRejected, Service, ServiceUnavailable, upload_run

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
