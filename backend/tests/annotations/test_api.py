"""Annotations: maintainers pin notes; every reader sees the ones that apply."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from benchboard.models import AnnotationDeletion, ApiToken
from benchboard.tokens.service import create_token
from tests.history_builder import NOISY_LEVEL, upload_history


@pytest.fixture
def series_id(client: TestClient, auth: dict[str, str]) -> int:
    upload_history(client, auth, NOISY_LEVEL[:3])
    return int(client.get("/api/v1/series").json()["items"][0]["id"])


def _post(client: TestClient, body: Any, token: str | None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post("/api/v1/annotations", json=body, headers=headers)


def test_annotation_needs_a_maintain_token(
    client: TestClient, series_id: int, upload_token: str
) -> None:
    body = {"text": "kernel 6.1 → 6.6", "series_id": series_id, "at": "2025-01-02T00:00:00Z"}
    assert _post(client, body, None).status_code == 401
    assert _post(client, body, upload_token).status_code == 403


def test_series_sees_its_own_its_suites_and_its_machines_notes(
    client: TestClient, series_id: int, maintain_token: str
) -> None:
    for body in (
        {"text": "own", "series_id": series_id, "at": "2025-01-02T00:00:00Z"},
        {"text": "suite", "suite": "sync-vs-async-io", "at": "2025-01-03T00:00:00Z"},
        {"text": "machine", "hardware": "test-machine", "at": "2025-01-01T00:00:00Z"},
        {"text": "other", "suite": "elsewhere", "at": "2025-01-01T00:00:00Z"},
    ):
        response = _post(client, body, maintain_token)
        assert response.status_code == 201, response.text
        assert response.json()["created_by"] == "test-maintain"
    listed = client.get("/api/v1/annotations", params={"series_id": series_id}).json()["items"]
    assert [a["text"] for a in listed] == ["machine", "own", "suite"]


def test_annotation_at_a_run_takes_its_time(
    client: TestClient, series_id: int, maintain_token: str
) -> None:
    run_id = client.get("/api/v1/runs").json()["items"][0]["id"]
    response = _post(
        client, {"text": "Dart 3.4", "series_id": series_id, "run_id": run_id}, maintain_token
    )
    assert response.status_code == 201
    assert response.json()["at"] == "2025-01-03T00:00:00Z"


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"text": "x", "at": "2025-01-01T00:00:00Z"}, "(body)"),
        ({"text": "x", "suite": "s", "hardware": "h", "at": "2025-01-01T00:00:00Z"}, "(body)"),
        ({"text": "x", "suite": "s"}, "(body)"),
        ({"text": "", "suite": "s", "at": "2025-01-01T00:00:00Z"}, "text"),
        ({"text": "x", "hardware": "nope", "at": "2025-01-01T00:00:00Z"}, "hardware"),
        ({"text": "x", "series_id": 999999, "at": "2025-01-01T00:00:00Z"}, "series_id"),
    ],
)
def test_bad_annotation_is_422(
    client: TestClient, maintain_token: str, body: Any, path: str
) -> None:
    response = _post(client, body, maintain_token)
    assert response.status_code == 422
    assert response.json()["fields"][0]["path"] == path


def test_edit_and_delete(client: TestClient, series_id: int, maintain_token: str) -> None:
    headers = {"Authorization": f"Bearer {maintain_token}"}
    created = _post(
        client,
        {"text": "draft", "series_id": series_id, "at": "2025-01-02T00:00:00Z"},
        maintain_token,
    ).json()
    edited = client.patch(
        f"/api/v1/annotations/{created['id']}", json={"text": "final"}, headers=headers
    )
    assert edited.json()["text"] == "final"
    assert client.delete(f"/api/v1/annotations/{created['id']}", headers=headers).status_code == 204
    assert client.get("/api/v1/annotations", params={"series_id": series_id}).json()["items"] == []
    assert client.delete(f"/api/v1/annotations/{created['id']}", headers=headers).status_code == 404


def test_edit_and_delete_name_the_token_that_made_them(
    client: TestClient, series_id: int, maintain_token: str, session: Session
) -> None:
    """The writer stays the creator; the editor is named beside it; the deletion leaves a
    record of the note and of who deleted it."""
    lead = {"Authorization": f"Bearer {create_token(session, name='lead', scope='maintain')}"}
    session.commit()
    lead_id = session.scalar(select(ApiToken.id).where(ApiToken.name == "lead"))
    note = {"text": "draft", "series_id": series_id, "at": "2025-01-02T00:00:00Z"}
    created = _post(client, note, maintain_token).json()
    assert (created["updated_by"], created["updated_by_token"]) == (None, None)
    url = f"/api/v1/annotations/{created['id']}"
    edited = client.patch(url, json={"text": "final"}, headers=lead).json()
    who = ("created_by", "created_by_token", "updated_by", "updated_by_token")
    expected = ("test-maintain", created["created_by_token"], "lead", lead_id)
    assert tuple(edited[key] for key in who) == expected
    (listed,) = client.get("/api/v1/annotations", params={"series_id": series_id}).json()["items"]
    assert tuple(listed[key] for key in who) == expected

    assert client.delete(url, headers=lead).status_code == 204
    record = session.scalars(select(AnnotationDeletion)).one()
    assert (record.annotation_id, record.deleted_by, record.token_id) == (
        created["id"],
        "lead",
        lead_id,
    )
    assert record.annotation == listed
