"""What the database cannot store is refused with a 422 naming the parameter or field,
and a database that cannot be reached is a 503 with Retry-After, never a 500."""

import base64
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchboard.config import Settings
from benchboard.main import create_app
from benchboard.models import Annotation, RegressionEvent, Suite
from tests.builders import run
from tests.processes import free_port

BEYOND_64_BITS = str(2**64)


def _fields(response: Any) -> list[str]:
    assert response.status_code == 422, response.text
    assert response.json()["error"] == "validation_error"
    return [field["path"] for field in response.json()["fields"]]


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("/api/v1/series?suite=a%00b", "suite"),
        ("/api/v1/series/facets?metric=x&metric=%00", "metric"),
        ("/api/v1/compare/modes?hardware=%00", "hardware"),
        ("/api/v1/runs?tag=os%3Dlinux%00", "tag"),
        ("/api/v1/regressions?benchmark=%00", "benchmark"),
        ("/api/v1/annotations?suite=%00", "suite"),
        ("/api/v1/runs?cursor=%00", "cursor"),
        ("/not-a-page%00.html", "path"),
    ],
)
def test_nul_in_a_parameter_is_422_naming_it(client: TestClient, url: str, path: str) -> None:
    assert _fields(client.get(url)) == [path]


@pytest.mark.parametrize(
    ("url", "path"),
    [
        (f"/api/v1/regressions/{BEYOND_64_BITS}", "regression_id"),
        (f"/api/v1/regressions/{BEYOND_64_BITS}/history", "regression_id"),
        (f"/api/v1/regressions/{BEYOND_64_BITS}/context", "regression_id"),
        ("/api/v1/regressions/0", "regression_id"),
        (f"/api/v1/series/{BEYOND_64_BITS}/history", "series_id"),
        (f"/api/v1/regressions?series_id={BEYOND_64_BITS}", "series_id"),
        (f"/api/v1/annotations?series_id=-{BEYOND_64_BITS}", "series_id"),
    ],
)
def test_id_beyond_its_column_is_422(client: TestClient, url: str, path: str) -> None:
    assert _fields(client.get(url)) == [path]


def test_largest_stored_id_is_an_honest_404(client: TestClient) -> None:
    assert client.get(f"/api/v1/regressions/{2**63 - 1}").status_code == 404


def test_cursor_with_a_key_beyond_64_bits_is_422(client: TestClient) -> None:
    cursor = base64.urlsafe_b64encode(json.dumps([2**70]).encode()).decode()
    response = client.get("/api/v1/regressions", params={"cursor": cursor})
    assert _fields(response) == ["cursor"]


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"text": "a\x00b", "suite": "s", "at": "2025-01-01T00:00:00Z"}, "text"),
        ({"text": "ok", "suite": "s\x00", "at": "2025-01-01T00:00:00Z"}, "suite"),
        ({"text": "ok", "hardware": "\x00", "at": "2025-01-01T00:00:00Z"}, "hardware"),
        ({"text": "\ud800", "suite": "s", "at": "2025-01-01T00:00:00Z"}, "text"),
        ({"text": "ok", "series_id": 2**64, "at": "2025-01-01T00:00:00Z"}, "series_id"),
    ],
)
def test_unstorable_annotation_is_422_and_not_stored(
    client: TestClient, maintain_token: str, session: Session, body: dict[str, Any], path: str
) -> None:
    # json.dumps escapes the surrogate as JSON allows ("\ud800"); the server must refuse it.
    response = client.post(
        "/api/v1/annotations",
        content=json.dumps(body),
        headers={"Authorization": f"Bearer {maintain_token}", "Content-Type": "application/json"},
    )
    assert _fields(response) == [path]
    assert session.scalar(select(func.count()).select_from(Annotation)) == 0


def test_nul_in_a_triage_note_is_422(
    client: TestClient, maintain_token: str, session: Session
) -> None:
    response = client.patch(
        "/api/v1/regressions/1",
        json={"note": "bisected to \x00"},
        headers={"Authorization": f"Bearer {maintain_token}"},
    )
    assert _fields(response) == ["note"]
    assert session.scalar(select(func.count()).select_from(RegressionEvent)) == 0


def test_nul_in_a_default_branch_is_422(
    client: TestClient, maintain_token: str, session: Session
) -> None:
    response = client.put(
        "/api/v1/suites/some-suite",
        json={"default_branch": "ma\x00in", "title": "Some suite"},
        headers={"Authorization": f"Bearer {maintain_token}"},
    )
    assert _fields(response) == ["default_branch"]
    # Good settings would create the suite (settings may come before runs): nothing did.
    assert session.get(Suite, "some-suite") is None


@pytest.fixture
def unreachable_client(settings: Settings) -> Any:
    """The service with its database away: nothing listens on the port it names."""
    url = f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/benchboard"
    with TestClient(create_app(settings, database_url=url)) as client:
        yield client


def _assert_unavailable(response: Any) -> None:
    assert response.status_code == 503, response.text
    assert response.json()["error"] == "database_unavailable"
    assert int(response.headers["Retry-After"]) > 0


def test_health_is_503_while_the_database_is_away(unreachable_client: TestClient) -> None:
    _assert_unavailable(unreachable_client.get("/api/v1/health"))


def test_upload_is_503_while_the_database_is_away(unreachable_client: TestClient) -> None:
    response = unreachable_client.post(
        "/api/v1/runs", json=run(), headers={"Authorization": "Bearer bb_anything"}
    )
    _assert_unavailable(response)


def test_reads_are_503_while_the_database_is_away(unreachable_client: TestClient) -> None:
    _assert_unavailable(unreachable_client.get("/api/v1/series"))
