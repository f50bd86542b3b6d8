"""The webhook outbox: written with the regression, retried, visible, and sent by a
worker started after the one that failed."""

import json
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select, text, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from benchboard.models import Regression, Series, WebhookDelivery
from benchboard.pipeline.webhooks import deliver_due
from benchboard.pipeline.worker import Worker
from tests.history_builder import STEPPED, TEST_WORKER_ID, upload_history
from tests.pipeline.conftest import Committing
from tests.processes import free_port, processes, service_env, wait_for


class Receiver:
    """A webhook endpoint on 127.0.0.1 answering the given statuses in turn, then 204.
    Before it answers, it calls `on_post` with the body, then waits `delay_s`."""

    def __init__(
        self,
        port: int = 0,
        statuses: tuple[int, ...] = (),
        on_post: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.bodies: list[dict[str, Any]] = []
        self.statuses = list(statuses)
        self.delay_s = 0.0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                status = receiver.statuses.pop(0) if receiver.statuses else 204
                if on_post is not None:
                    on_post(body)
                time.sleep(receiver.delay_s)
                if status < 300:
                    receiver.bodies.append(body)
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", port), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver(statuses=(503,))
    yield found
    found.close()


def _deliveries(client: TestClient, token: str) -> list[dict[str, Any]]:
    response = client.get(
        "/api/v1/webhooks/deliveries", headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


def _send_due(client: TestClient, url: str) -> None:
    factory = client.app.state.session_factory  # type: ignore[attr-defined]
    with httpx.Client() as http:
        deliver_due(
            factory, http, url=url, retry_first=timedelta(minutes=5), stopping=threading.Event()
        )


def _attempts(client: TestClient, outcome: str) -> float:
    """benchboard_webhook_attempts_total{outcome} in /metrics (0 before the first)."""
    name = f'benchboard_webhook_attempts_total{{outcome="{outcome}"}}'
    found = re.search(rf"^{re.escape(name)} (\S+)$", client.get("/metrics").text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def test_a_failed_delivery_is_retried_and_every_attempt_shows(
    client: TestClient,
    auth: dict[str, str],
    maintain_token: str,
    receiver: Receiver,
    session: Session,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(client.app.state.settings, "webhook_url", receiver.url)  # type: ignore[attr-defined]
    upload_history(client, auth, STEPPED)
    (queued,) = _deliveries(client, maintain_token)
    assert (queued["state"], queued["attempts"]) == ("pending", 0)
    failed_before, delivered_before = _attempts(client, "failed"), _attempts(client, "delivered")
    _send_due(client, receiver.url)  # the receiver answers 503
    assert _attempts(client, "failed") == failed_before + 1
    (failed,) = _deliveries(client, maintain_token)
    assert (failed["state"], failed["attempts"], failed["last_status"]) == ("pending", 1, 503)
    assert failed["last_error"] == "HTTP 503"
    _send_due(client, receiver.url)  # not due yet: the backoff holds it
    assert receiver.bodies == []
    session.execute(update(WebhookDelivery).values(next_attempt_at=WebhookDelivery.created_at))
    _send_due(client, receiver.url)
    assert (_attempts(client, "failed"), _attempts(client, "delivered")) == (
        failed_before + 1,
        delivered_before + 1,
    )
    (delivered,) = _deliveries(client, maintain_token)
    assert (delivered["state"], delivered["attempts"], delivered["last_status"]) == (
        "delivered",
        2,
        204,
    )
    assert delivered["last_error"] is None  # the failure before no longer counts
    (body,) = receiver.bodies
    assert body["event"] == "regression.detected"
    assert body["regression"]["id"] == delivered["regression_id"]
    assert body["regression"]["direction"] == "regression"


def test_a_refusing_endpoint_is_not_retried(
    client: TestClient, auth: dict[str, str], maintain_token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    gone = Receiver(statuses=(410,))
    monkeypatch.setattr(client.app.state.settings, "webhook_url", gone.url)  # type: ignore[attr-defined]
    upload_history(client, auth, STEPPED)
    _send_due(client, gone.url)
    gone.close()
    (given_up,) = _deliveries(client, maintain_token)
    assert (given_up["state"], given_up["attempts"], given_up["last_status"]) == ("gave_up", 1, 410)
    failing = client.get(
        "/api/v1/webhooks/deliveries",
        params={"failing": "true"},
        headers={"Authorization": f"Bearer {maintain_token}"},
    ).json()["items"]
    assert [d["id"] for d in failing] == [given_up["id"]]


def test_deliveries_need_a_maintain_token(client: TestClient, upload_token: str) -> None:
    assert client.get("/api/v1/webhooks/deliveries").status_code == 401
    headers = {"Authorization": f"Bearer {upload_token}"}
    assert client.get("/api/v1/webhooks/deliveries", headers=headers).status_code == 403


def _suite_deliveries(engine: Engine, suite: str) -> list[WebhookDelivery]:
    with Session(engine) as session:
        return list(
            session.scalars(
                select(WebhookDelivery)
                .join(Regression, Regression.id == WebhookDelivery.regression_id)
                .join(Series, Series.id == Regression.series_id)
                .where(Series.suite == suite)
            )
        )


def test_a_delivery_that_failed_is_sent_by_the_next_worker_after_a_crash(
    committing: Committing, engine: Engine, tmp_path: Path
) -> None:
    for day, value in enumerate(STEPPED):
        committing.upload(committing.run_body(day, value, ["hooked"]))
    port = free_port()  # nothing listens there yet: every attempt fails
    env = service_env(engine, webhook_url=f"http://127.0.0.1:{port}/hook", webhook_retry_s="0.2")
    with processes(tmp_path) as start:
        crashing = start(["worker"], env)
        wait_for(
            "a failed attempt",
            lambda: [d for d in _suite_deliveries(engine, committing.suite) if d.attempts],
        )
        crashing.kill()
        receiver = Receiver(port)
        try:
            after = start(["worker"], env)
            wait_for(
                "the delivery",
                lambda: all(d.delivered_at for d in _suite_deliveries(engine, committing.suite)),
            )
            assert after.stop() == 0
        finally:
            receiver.close()
    (delivery,) = _suite_deliveries(engine, committing.suite)
    assert delivery.attempts >= 2
    (body,) = receiver.bodies
    assert body["regression"]["id"] == delivery.regression_id


def _stepped(committing: Committing, benchmarks: list[str]) -> None:
    """A step in each benchmark, committed: a regression, and its delivery, each once the
    series are checked."""
    for day, value in enumerate(STEPPED):
        committing.upload(committing.run_body(day, value, benchmarks))


def _ours(engine: Engine, suite: str, bodies: list[dict[str, Any]]) -> list[int]:
    """The regression ids of the bodies that announce the suite's changes (other tests'
    deliveries may be due too)."""
    ids = {d.regression_id for d in _suite_deliveries(engine, suite)}
    return [body["regression"]["id"] for body in bodies if body["regression"]["id"] in ids]


def test_each_delivery_is_committed_before_the_next_post_and_no_post_holds_a_lock(
    committing: Committing, engine: Engine
) -> None:
    """While the receiver holds a POST, another connection sees what the round sent
    before as delivered, and can lock every delivery row at once (NOWAIT)."""
    _stepped(committing, ["first", "second", "third"])
    seen: list[tuple[int, int, str]] = []  # (regression, delivered before it, lock)

    def probe(body: dict[str, Any]) -> None:
        deliveries = _suite_deliveries(engine, committing.suite)
        if body["regression"]["id"] not in {d.regression_id for d in deliveries}:
            return
        lock = "free"
        with engine.connect() as other, other.begin():
            try:
                other.execute(
                    text("SELECT id FROM webhook_delivery WHERE id = ANY(:ids) FOR UPDATE NOWAIT"),
                    {"ids": [d.id for d in deliveries]},
                )
            except OperationalError:
                lock = "held"
        delivered = sum(d.delivered_at is not None for d in deliveries)
        seen.append((body["regression"]["id"], delivered, lock))

    receiver = Receiver(on_post=probe)
    state = committing.client.app.state  # type: ignore[attr-defined]
    hooked = state.settings.model_copy(update={"webhook_url": receiver.url})
    Worker(hooked, state.session_factory, worker_id=TEST_WORKER_ID).drain()
    try:
        with httpx.Client() as http:
            report = deliver_due(
                state.session_factory,
                http,
                url=receiver.url,
                retry_first=timedelta(minutes=5),
                stopping=threading.Event(),
            )
    finally:
        receiver.close()
    assert report.delivered >= 3
    assert [(delivered, lock) for _, delivered, lock in seen] == [
        (0, "free"),
        (1, "free"),
        (2, "free"),
    ]
    deliveries = _suite_deliveries(engine, committing.suite)
    assert all(d.delivered_at and d.last_error is None for d in deliveries)
    assert sorted(r for r, _, _ in seen) == sorted(d.regression_id for d in deliveries)


def test_a_stop_mid_round_sends_nothing_twice(
    committing: Committing, engine: Engine, tmp_path: Path
) -> None:
    """A worker stopped while a slow receiver holds its first POST, then a new worker:
    each regression is announced once. (A round in one transaction outlasted the 6 s a
    stop waits for it; rolled back, it was sent again whole.)"""
    _stepped(committing, ["one", "two", "three", "four"])
    receiver = Receiver()
    receiver.delay_s = 3.0  # four POSTs: 12 s, twice what a stop waits for the thread
    env = service_env(engine, webhook_url=receiver.url)
    try:
        with processes(tmp_path) as start:
            stopped = start(["worker"], env)
            wait_for("a first POST", lambda: _ours(engine, committing.suite, receiver.bodies))
            assert stopped.stop() == 0
            sent = _ours(engine, committing.suite, receiver.bodies)
            delivered = [d for d in _suite_deliveries(engine, committing.suite) if d.delivered_at]
            assert sorted(sent) == sorted(d.regression_id for d in delivered)
            assert len(sent) < 4  # stopped mid-round
            receiver.delay_s = 0.0
            after = start(["worker"], env)
            wait_for(
                "every delivery",
                lambda: all(d.delivered_at for d in _suite_deliveries(engine, committing.suite)),
            )
            assert after.stop() == 0
    finally:
        receiver.close()
    announced = Counter(_ours(engine, committing.suite, receiver.bodies))
    assert len(announced) == 4
    assert set(announced.values()) == {1}
