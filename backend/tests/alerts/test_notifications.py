"""Notifications through HTTP and the outbox: a real SMTP server (aiosmtpd) and a local
HTTP receiver get one message per alert group, never two, with secrets never shown."""

from collections.abc import Iterator
from datetime import timedelta
from email import message_from_bytes
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope
from aiosmtpd.smtp import Session as SmtpSession
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from benchboard.models import ApiToken, NotificationDelivery, NotificationTarget
from benchboard.pipeline.notifications import send_due_notifications
from tests.alerts.commit_history import STEP_AT, commit, upload_commits
from tests.history_builder import check_queued
from tests.pipeline.test_webhooks import Receiver
from tests.processes import free_port

SUITE = "sync-vs-async-io"


class Inbox:
    """What the SMTP server received."""

    def __init__(self) -> None:
        self.messages: list[bytes] = []

    async def handle_DATA(  # noqa: N802 (aiosmtpd's hook name)
        self, server: SMTP, session: SmtpSession, envelope: Envelope
    ) -> str:
        assert isinstance(envelope.content, bytes)
        self.messages.append(envelope.content)
        return "250 OK"


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    found = Inbox()
    port = free_port()
    controller = Controller(found, hostname="127.0.0.1", port=port)
    controller.start()
    yield found, port
    controller.stop()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    yield found
    found.close()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def mailto(port: int) -> str:
    return f"mailto://127.0.0.1:{port}?from=bench@example.org&to=perf@example.org"


def json_url(receiver: Receiver, secret: str = "") -> str:
    credentials = f"bot:{secret}@" if secret else ""
    return f"json://{credentials}127.0.0.1:{receiver.server.server_port}/hook"


def set_targets(client: TestClient, token: str, targets: list[dict[str, Any]]) -> Any:
    return client.put(
        f"/api/v1/suites/{SUITE}/notifications", json={"targets": targets}, headers=bearer(token)
    )


def send_due(client: TestClient, *, settle: timedelta = timedelta(0)) -> None:
    factory = client.app.state.session_factory  # type: ignore[attr-defined]
    send_due_notifications(
        factory, public_url="http://bench.test", retry_first=timedelta(minutes=5), settle=settle
    )


def test_a_commit_slowing_50_series_sends_one_message_to_each_target(
    client: TestClient,
    auth: dict[str, str],
    maintain_token: str,
    inbox: tuple[Inbox, int],
    receiver: Receiver,
) -> None:
    mails, port = inbox
    upload_commits(client, auth, machine="machine-a", check=False)
    response = set_targets(
        client,
        maintain_token,
        [
            {"url": mailto(port), "events": ["regression"], "min_change": 0.05},
            {"url": json_url(receiver), "events": ["regression", "improvement"]},
            # Hears only of improvements: this commit has none for it.
            {"url": json_url(receiver) + "/improvements", "events": ["improvement"]},
        ],
    )
    assert response.status_code == 200, response.text
    check_queued(client)
    send_due(client)
    send_due(client)  # nothing due twice
    (mail,) = mails.messages
    (posted,) = receiver.bodies
    group_id = client.get("/api/v1/alert-groups").json()["items"][0]["id"]
    text = message_from_bytes(mail).get_payload(decode=False)
    for said in (
        posted["title"] + posted["message"],
        str(message_from_bytes(mail)["Subject"]) + str(text),
    ):
        assert SUITE in said
        assert "50 regressions" in said
        assert commit(STEP_AT)[:12] in said
    assert f"http://bench.test/regressions/groups/{group_id}" in posted["message"]
    assert "bench-" in posted["message"]
    assert "machine-a" in posted["message"]


def test_changes_that_join_a_group_after_its_message_get_one_follow_up_naming_them(
    client: TestClient, auth: dict[str, str], maintain_token: str, receiver: Receiver
) -> None:
    upload_commits(client, auth, machine="machine-a", check=False)
    assert set_targets(client, maintain_token, [{"url": json_url(receiver)}]).status_code == 200
    check_queued(client)
    send_due(client)
    # The same commit from another machine joins the group, after its message.
    upload_commits(client, auth, machine="machine-b")
    send_due(client)
    send_due(client)  # nothing is told twice
    first, follow_up = receiver.bodies
    (group,) = client.get("/api/v1/alert-groups").json()["items"]
    assert "50 regressions" in first["title"]
    assert "machine-b" not in first["message"]
    assert "50 more regressions" in follow_up["title"]
    assert "machine-b" in follow_up["message"]
    assert "machine-a" not in follow_up["message"]
    assert f"http://bench.test/regressions/groups/{group['id']}" in follow_up["message"]
    # A third machine's upload of other benchmarks is the group's next follow-up.
    upload_commits(client, auth, machine="machine-c", benchmark_prefix="x-")
    send_due(client)
    assert len(receiver.bodies) == 3
    assert "machine-c" in receiver.bodies[2]["message"]


def test_machines_within_the_settle_window_make_one_message(
    client: TestClient,
    auth: dict[str, str],
    maintain_token: str,
    receiver: Receiver,
    session: Session,
) -> None:
    upload_commits(client, auth, machine="machine-a", check=False)
    assert set_targets(client, maintain_token, [{"url": json_url(receiver)}]).status_code == 200
    check_queued(client)
    settle = timedelta(minutes=10)
    send_due(client, settle=settle)
    assert receiver.bodies == []  # still settling
    upload_commits(client, auth, machine="machine-b")
    send_due(client, settle=settle)
    assert receiver.bodies == []
    (delivery,) = session.query(NotificationDelivery).all()  # one pending, not two
    session.execute(
        update(NotificationDelivery).values(created_at=func.now() - timedelta(minutes=11))
    )
    send_due(client, settle=settle)
    (posted,) = receiver.bodies
    assert "100 regressions" in posted["title"]
    assert "machine-a, machine-b" in posted["message"]
    session.refresh(delivery)
    assert delivery.announced is not None
    assert len(delivery.announced) == 100


def test_a_failed_message_is_retried_after_its_backoff(
    client: TestClient,
    auth: dict[str, str],
    maintain_token: str,
    session: Session,
) -> None:
    failing = Receiver(statuses=(503,))
    try:
        upload_commits(client, auth, machine="machine-a", check=False)
        assert set_targets(client, maintain_token, [{"url": json_url(failing)}]).status_code == 200
        check_queued(client)
        send_due(client)
        assert failing.bodies == []
        (delivery,) = session.query(NotificationDelivery).all()
        session.refresh(delivery)
        assert (delivery.attempts, delivery.delivered_at) == (1, None)
        assert delivery.last_error
        send_due(client)  # not due yet
        assert failing.bodies == []
        session.execute(
            update(NotificationDelivery).values(next_attempt_at=NotificationDelivery.created_at)
        )
        send_due(client)
        assert len(failing.bodies) == 1
        session.refresh(delivery)
        assert (delivery.attempts, delivery.delivered_at is not None) == (2, True)
    finally:
        failing.close()


def test_secrets_in_target_urls_are_never_shown(
    client: TestClient,
    auth: dict[str, str],
    maintain_token: str,
    receiver: Receiver,
    session: Session,
) -> None:
    upload_commits(client, auth, machine="machine-a", check=False)
    secret = "hunter2hunter2"
    targets = [
        {"url": json_url(receiver, secret), "events": ["regression"]},
        {"url": f"slack://T1JJ3T3L2/A1BRTD4JD/{secret}xyzTCkd/#perf"},
    ]
    put = set_targets(client, maintain_token, targets)
    assert put.status_code == 200, put.text
    got = client.get(f"/api/v1/suites/{SUITE}/notifications", headers=bearer(maintain_token))
    assert got.status_code == 200, got.text
    assert secret not in got.text
    assert secret not in put.text
    assert [t["url"].split("://")[0] for t in got.json()["targets"]] == ["json", "slack"]
    # Who set them: the token's id (the URLs' secrets are the only other record).
    maintainer = session.scalar(select(ApiToken.id).where(ApiToken.name == "test-maintain"))
    setters = session.scalars(select(NotificationTarget.token_id)).all()
    assert setters == [maintainer, maintainer]


def test_bad_targets_are_422_naming_the_field_and_need_a_maintain_token(
    client: TestClient, auth: dict[str, str], maintain_token: str, upload_token: str
) -> None:
    upload_commits(client, auth, machine="machine-a", check=False)
    good = {"url": "json://127.0.0.1:9/hook"}
    bad = set_targets(client, maintain_token, [good, {"url": "nosuchscheme://x"}])
    assert (bad.status_code, bad.json()["fields"][0]["path"]) == (422, "targets[1].url")
    wrong_event = set_targets(client, maintain_token, [{**good, "events": ["slower"]}])
    assert wrong_event.status_code == 422
    assert wrong_event.json()["fields"][0]["path"].startswith("targets[0].events")
    assert set_targets(client, upload_token, [good]).status_code == 403
    assert (
        client.put(f"/api/v1/suites/{SUITE}/notifications", json={"targets": []}).status_code == 401
    )
    got = client.get(f"/api/v1/suites/{SUITE}/notifications", headers=bearer(maintain_token))
    assert got.json() == {"targets": []}
    missing = client.put(
        "/api/v1/suites/no-such-suite/notifications",
        json={"targets": []},
        headers=bearer(maintain_token),
    )
    assert missing.status_code == 404


def test_a_target_kept_by_its_id_keeps_its_secret_url(
    client: TestClient, auth: dict[str, str], maintain_token: str, receiver: Receiver
) -> None:
    upload_commits(client, auth, machine="machine-a", check=False)
    secret = "hunter2hunter2"
    first = set_targets(client, maintain_token, [{"url": json_url(receiver, secret)}]).json()
    (kept,) = first["targets"]
    # A reader sees the URL masked: it sends the id back to keep it, changing the rest.
    again = set_targets(
        client,
        maintain_token,
        [
            {"id": kept["id"], "events": ["improvement", "regression"], "min_change": 0.1},
            {"url": "json://127.0.0.1:9/other"},
        ],
    )
    assert again.status_code == 200, again.text
    same, added = again.json()["targets"]
    assert (same["id"], same["url"], same["min_change"]) == (kept["id"], kept["url"], 0.1)
    assert added["url"].startswith("json://")
    check_queued(client)
    send_due(client)
    (posted,) = receiver.bodies  # sent with the secret URL the id kept
    assert "50 regressions" in posted["title"]
    unknown = set_targets(client, maintain_token, [{"id": kept["id"] + 1000}])
    assert (unknown.status_code, unknown.json()["fields"][0]["path"]) == (422, "targets[0].id")
    both = set_targets(client, maintain_token, [{"id": kept["id"], "url": json_url(receiver)}])
    assert both.status_code == 422
    assert (
        len(
            client.get(
                f"/api/v1/suites/{SUITE}/notifications", headers=bearer(maintain_token)
            ).json()["targets"]
        )
        == 2
    )
