"""Tokens over the API: admins manage all, a maintainer those within its suites; the
secret is shown once; a revoked token's next request is refused."""

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Connection, Engine, select
from sqlalchemy.orm import Session, sessionmaker

from benchboard.config import Settings
from benchboard.main import create_app
from benchboard.models import ApiToken
from benchboard.tokens.service import create_token
from tests.builders import run


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def make(client: TestClient, token: str, **body: Any) -> Any:
    return client.post("/api/v1/tokens", json=body, headers=bearer(token))


def test_an_admin_makes_a_suite_token_shown_once(
    client: TestClient, session: Session, admin_token: str
) -> None:
    made = make(client, admin_token, name="ci-team-a", scope="upload", suites=["team-a"])
    assert made.status_code == 201, made.text
    secret = made.json()["token"]
    assert secret.startswith("bb_")
    assert made.json()["suites"] == ["team-a"]
    stored = session.scalar(select(ApiToken).where(ApiToken.id == made.json()["id"]))
    assert stored is not None
    assert secret.encode() not in stored.token_hash
    listed = client.get("/api/v1/tokens", headers=bearer(admin_token)).json()["items"]
    ci = next(t for t in listed if t["name"] == "ci-team-a")
    assert "token" not in ci
    assert "token_hash" not in ci
    assert secret not in str(listed)
    assert ci["last_used_at"] is None
    upload = client.post("/api/v1/runs", json=run(suite="team-a"), headers=bearer(secret))
    assert upload.status_code == 201
    listed = client.get("/api/v1/tokens", headers=bearer(admin_token)).json()["items"]
    assert next(t for t in listed if t["name"] == "ci-team-a")["last_used_at"] is not None


def test_revoked_token_gets_401_on_its_next_request(client: TestClient, admin_token: str) -> None:
    made = make(client, admin_token, name="reader", scope="read").json()
    headers = bearer(made["token"])
    assert client.get("/api/v1/suites", headers=headers).status_code == 200
    revoked = client.delete(f"/api/v1/tokens/{made['id']}", headers=bearer(admin_token))
    assert revoked.status_code == 204
    assert client.get("/api/v1/suites", headers=headers).status_code == 401
    listed = {
        t["name"]: t
        for t in client.get("/api/v1/tokens", headers=bearer(admin_token)).json()["items"]
    }
    assert listed["reader"]["revoked_by"] == listed["test-admin"]["id"]  # who revoked it
    upload = make(client, admin_token, name="runner", scope="upload").json()
    client.delete(f"/api/v1/tokens/{upload['id']}", headers=bearer(admin_token))
    refused = client.post("/api/v1/runs", json=run(), headers=bearer(upload["token"]))
    assert refused.status_code == 401


@pytest.fixture
def caching_client(
    settings: Settings, engine: Engine, connection: Connection
) -> Iterator[TestClient]:
    """An app that keeps public answers (read_cache_mb > 0), as production does."""
    keeping = settings.model_copy(update={"read_cache_mb": 8})
    app: FastAPI = create_app(
        keeping, database_url=engine.url.render_as_string(hide_password=False)
    )
    app.state.session_factory = sessionmaker(
        bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
    )
    with TestClient(app) as client:
        yield client


def test_no_kept_answer_serves_a_revoked_token(
    caching_client: TestClient, session: Session, admin_token: str
) -> None:
    made = make(caching_client, admin_token, name="reader", scope="read").json()
    headers = bearer(made["token"])
    for _ in range(2):  # the second time, a public copy would be kept
        answer = caching_client.get("/api/v1/suites", headers=headers)
        assert answer.status_code == 200
        assert answer.headers["Cache-Control"] == "private, no-store"
        assert "ETag" not in answer.headers
    caching_client.delete(f"/api/v1/tokens/{made['id']}", headers=bearer(admin_token))
    assert caching_client.get("/api/v1/suites", headers=headers).status_code == 401


def test_a_maintainer_makes_lists_and_revokes_tokens_of_its_suites_only(
    client: TestClient, session: Session, admin_token: str
) -> None:
    maintainer = make(
        client, admin_token, name="team-lead", scope="maintain", suites=["team-*"]
    ).json()["token"]
    outside = make(client, admin_token, name="other-ci", scope="upload", suites=["other"]).json()
    for scope in ("read", "upload", "maintain"):
        made = make(client, maintainer, name=f"team-{scope}", scope=scope, suites=["team-a"])
        assert made.status_code == 201, made.text
    assert make(client, maintainer, name="x", scope="upload", suites=["team-*"]).status_code == 201
    for refused in (
        {"name": "y", "scope": "upload", "suites": ["other"]},
        {"name": "y", "scope": "upload", "suites": ["team*"]},  # wider than team-*
        {"name": "y", "scope": "upload"},  # every suite
        {"name": "y", "scope": "admin", "suites": ["team-a"]},
    ):
        assert make(client, maintainer, **refused).status_code == 403, refused
    listed = client.get("/api/v1/tokens", headers=bearer(maintainer)).json()["items"]
    assert {t["name"] for t in listed} == {
        "team-lead",
        "team-read",
        "team-upload",
        "team-maintain",
        "x",
    }
    gone = client.delete(f"/api/v1/tokens/{outside['id']}", headers=bearer(maintainer))
    assert gone.status_code == 404
    assert client.get("/api/v1/tokens", headers=bearer(outside["token"])).status_code == 403
    everything = client.get("/api/v1/tokens", headers=bearer(admin_token)).json()["items"]
    assert "other-ci" in {t["name"] for t in everything}


def test_upload_and_read_tokens_manage_no_tokens(client: TestClient, upload_token: str) -> None:
    assert make(client, upload_token, name="y", scope="read").status_code == 403
    assert client.get("/api/v1/tokens").status_code == 401


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"name": "a", "scope": "owner"}, "scope"),
        ({"name": "a", "scope": "read", "suites": ["Bad Name"]}, "suites[0]"),
        ({"name": "a", "scope": "read", "suites": []}, "suites"),
        ({"name": "", "scope": "read"}, "name"),
    ],
)
def test_bad_token_requests_are_422_naming_the_field(
    client: TestClient, session: Session, admin_token: str, body: dict[str, Any], path: str
) -> None:
    before = len(list(session.scalars(select(ApiToken.id))))
    answer = make(client, admin_token, **body)
    assert answer.status_code == 422
    assert path in [field["path"] for field in answer.json()["fields"]]
    assert len(list(session.scalars(select(ApiToken.id)))) == before


def test_the_same_name_twice_is_409(client: TestClient, session: Session, admin_token: str) -> None:
    create_token(session, name="taken", scope="read")
    session.commit()
    assert make(client, admin_token, name="taken", scope="read").status_code == 409
