"""A private suite is invisible without a token that covers it, on every read.

The read routes are taken from the OpenAPI, so a new GET route fails here until
tests/read_routes.py names a URL for it, and then fails if it shows a private suite:
a direct id of the suite answers 404 (as for no such thing), a list leaves it out.
"""

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, Engine
from sqlalchemy.orm import Session, sessionmaker

from benchboard.caching import PRIVATE
from benchboard.config import Settings
from benchboard.main import create_app
from benchboard.tokens.service import create_token
from tests.history_builder import STEPPED, upload_history
from tests.read_routes import pin_a_finding, public_reads, seeded_read_urls

PRIVATE_SUITE = "hush-study"
# Every name of the private suite contains this: no anonymous answer may.
MARK = "hush"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def token(session: Session, name: str, scope: str, *suites: str) -> dict[str, str]:
    secret = create_token(session, name=name, scope=scope, suites=suites or None)  # type: ignore[arg-type]
    session.commit()
    return bearer(secret)


@pytest.fixture
def private_history(
    client: TestClient, session: Session, auth: dict[str, str], maintain_token: str
) -> list[str]:
    """A public history, and a private one (with a regression and a note) whose suite,
    machine, benchmark and run names all carry MARK."""
    upload_history(client, auth, STEPPED)
    fields = {"suite": PRIVATE_SUITE, "name": "hush run", "hardware": {"name": "hush-box"}}
    run_ids = upload_history(client, auth, STEPPED, run_fields=fields, benchmark="hush-bench")
    lead = bearer(maintain_token)
    pin_a_finding(client, run_ids, lead)
    note = {"text": "hush note", "suite": PRIVATE_SUITE, "at": "2025-01-05T00:00:00Z"}
    assert client.post("/api/v1/annotations", json=note, headers=lead).status_code == 201
    made = client.put(
        f"/api/v1/suites/{PRIVATE_SUITE}", json={"visibility": "private"}, headers=lead
    )
    assert made.status_code == 200, made.text
    assert made.json()["visibility"] == "private"
    return run_ids


def test_no_read_route_shows_a_private_suite_without_a_token(
    client: TestClient, session: Session, private_history: list[str]
) -> None:
    reader = token(session, "hush-reader", "read", "hush-*")
    urls = seeded_read_urls(client, private_history, headers=reader)
    unseeded = public_reads(client.app) - set(urls)  # type: ignore[arg-type]
    assert not unseeded, f"read routes with no URL in tests/read_routes.py: {sorted(unseeded)}"
    stranger = token(session, "team-reader", "read", "team-*")
    for route, url in urls.items():
        seen = client.get(url, headers=reader)
        assert seen.status_code == 200, f"{route}: its token reads it ({seen.status_code})"
        assert seen.headers["Cache-Control"] == PRIVATE, f"{route}: a token's answer is kept"
        for who, headers in (("anonymous", {}), ("another suite's token", stranger)):
            answer = client.get(url, headers=headers)
            names_one = "{" in route.replace("{image_format}", "") or "baseline=" in url
            if names_one:
                assert answer.status_code == 404, f"{route} answers {who} {answer.status_code}"
            else:
                assert answer.status_code == 200, f"{route}: {answer.text}"
                assert MARK not in answer.text.lower(), f"{route} shows a private suite to {who}"


def test_the_private_suite_is_listed_for_its_token(
    client: TestClient, session: Session, private_history: list[str]
) -> None:
    reader = token(session, "hush-reader", "read", "hush-*")
    suites = client.get("/api/v1/suites", headers=reader).json()["items"]
    assert PRIVATE_SUITE in [s["suite"] for s in suites]
    anonymous = client.get("/api/v1/suites").json()["items"]
    assert "sync-vs-async-io" in [s["suite"] for s in anonymous]
    assert PRIVATE_SUITE not in [s["suite"] for s in anonymous]
    facets = client.get("/api/v1/facets").json()
    assert MARK not in str(facets)
    # A private suite's URL answers as one of no suite at all.
    for path in ("", "/study", "/findings"):
        unknown = client.get(f"/api/v1/suites/no-such-suite{path}")
        hidden = client.get(f"/api/v1/suites/{PRIVATE_SUITE}{path}")
        assert unknown.status_code == hidden.status_code == 404, path
    admin = token(session, "root", "admin")
    assert client.get(f"/api/v1/runs/{private_history[0]}", headers=admin).status_code == 200


def test_only_its_maintainers_set_a_suites_visibility(
    client: TestClient, session: Session, auth: dict[str, str]
) -> None:
    path = f"/api/v1/suites/{PRIVATE_SUITE}"
    other = token(session, "team-lead", "maintain", "team-*")
    assert client.put(path, json={"visibility": "private"}, headers=other).status_code == 403
    lead = token(session, "hush-lead", "maintain", PRIVATE_SUITE)
    bad = client.put(path, json={"visibility": "secret"}, headers=lead)
    assert bad.status_code == 422
    assert [f["path"] for f in bad.json()["fields"]] == ["visibility"]
    assert client.put(path, json={"visibility": None}, headers=lead).status_code == 422
    assert client.put(path, json={"visibility": "private"}, headers=lead).status_code == 200
    assert client.get(path).status_code == 404
    assert client.put(path, json={"visibility": "public"}, headers=lead).status_code == 200
    assert client.get(path).status_code == 200


@pytest.fixture
def closed_client(
    settings: Settings, engine: Engine, connection: Connection
) -> Iterator[TestClient]:
    """A server whose reads need a token (BENCHBOARD_PUBLIC_READ=false)."""
    closed = settings.model_copy(update={"public_read": False})
    app = create_app(closed, database_url=engine.url.render_as_string(hide_password=False))
    app.state.session_factory = sessionmaker(
        bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
    )
    with TestClient(app) as client:
        yield client


def test_closed_reads_cover_metrics_and_health(closed_client: TestClient, session: Session) -> None:
    assert closed_client.get("/metrics").status_code == 401
    bare: Any = closed_client.get("/api/v1/health")
    assert bare.status_code == 200
    assert bare.json() == {"status": "ok", "detection": None}
    reader = token(session, "reader", "read")
    assert closed_client.get("/metrics", headers=reader).status_code == 200
    full = closed_client.get("/api/v1/health", headers=reader).json()
    assert full["detection"]["queued_series"] >= 0
    assert closed_client.get("/api/v1/suites").status_code == 401
