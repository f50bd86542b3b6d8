"""POST /api/v1/runs: every status code of contract v1, through HTTP on PostgreSQL."""

import json
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchboard.models import Result, Run, Series
from tests.builders import result, run, seed_study


def post(client: TestClient, body: Any, auth: dict[str, str], **headers: str) -> Any:
    return client.post(
        "/api/v1/runs",
        content=json.dumps(body),
        headers={"Content-Type": "application/json", **auth, **headers},
    )


def test_new_run_is_201_with_its_url(client: TestClient, auth: dict[str, str]) -> None:
    body = run()
    response = post(client, body, auth)
    assert response.status_code == 201, response.text
    assert response.json() == {
        "id": body["id"],
        "url": f"/api/v1/runs/{body['id']}",
        "result_count": 1,
    }


def test_run_without_id_gets_one_assigned(client: TestClient, auth: dict[str, str]) -> None:
    body = run()
    del body["id"]
    response = post(client, body, auth)
    assert response.status_code == 201
    assert uuid.UUID(response.json()["id"])


def test_every_value_is_kept(client: TestClient, auth: dict[str, str]) -> None:
    body = run(
        source_url="https://example.org/a",
        git={"repo": "r", "commit": "4f2a9c1", "branch": "m"},
        environment={"dart": "3.3.0"},
        tags={"published_by": "example"},
        hardware={
            "name": "m1",
            "cpu": "X",
            "cores": 8,
            "memory_gb": 16,
            "storage": "nvme",
            "os": "linux",
            "numa_nodes": 2,
            "board": "b",
        },
        results=[
            result(
                stats={"n": 3, "min": 80.1, "median": 117.0, "p999": 400.0},
                samples=[118.2, 121.7, 119.0],
                direction="lower",
            )
        ],
    )
    assert post(client, body, auth).status_code == 201
    stored = client.get(f"/api/v1/runs/{body['id']}").json()
    assert stored["git"] == body["git"]
    assert stored["environment"] == {"dart": "3.3.0"}
    assert stored["tags"] == {"published_by": "example"}
    assert stored["hardware"]["info"]["numa_nodes"] == 2
    assert stored["source_url"] == "https://example.org/a"
    (stored_result,) = stored["results"]
    assert stored_result["stats"] == {"n": 3, "min": 80.1, "median": 117.0, "p999": 400.0}
    assert stored_result["sample_count"] == 3
    assert stored_result["value_base"] == 119.898e-6
    raw = client.get(f"/api/v1/runs/{body['id']}/upload")
    assert raw.json() == body


def test_identical_repeat_is_200_and_stores_nothing_more(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    body = run()
    assert post(client, body, auth).status_code == 201
    # Same JSON, other key order and spacing: still the same body.
    repeat = client.post(
        "/api/v1/runs",
        content=json.dumps(body, indent=2, sort_keys=True),
        headers={"Content-Type": "application/json", **auth},
    )
    assert repeat.status_code == 200
    assert repeat.json()["id"] == body["id"]
    assert session.scalar(select(func.count()).select_from(Result)) == 1


def test_same_id_different_body_is_409(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    body = run()
    assert post(client, body, auth).status_code == 201
    changed = {**body, "results": [result(value=1.0)]}
    response = post(client, changed, auth)
    assert response.status_code == 409
    assert response.json()["error"] == "conflict"
    assert session.scalar(select(Result.value)) == 119.898


def test_no_token_is_401(client: TestClient) -> None:
    response = post(client, run(), {})
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"


def test_unknown_token_is_401(client: TestClient) -> None:
    assert post(client, run(), {"Authorization": "Bearer bb_nope"}).status_code == 401


def test_revoked_token_is_401(client: TestClient, auth: dict[str, str], session: Session) -> None:
    from benchboard.tokens.service import revoke_token

    revoke_token(session, name="test-upload")
    session.commit()
    assert post(client, run(), auth).status_code == 401


def test_token_without_upload_scope_is_403(
    client: TestClient, maintain_token: str, session: Session
) -> None:
    response = post(client, run(), {"Authorization": f"Bearer {maintain_token}"})
    assert response.status_code == 403
    assert "upload" in response.json()["message"]
    assert session.scalar(select(func.count()).select_from(Run)) == 0


def test_admin_token_may_upload(client: TestClient, admin_token: str) -> None:
    assert post(client, run(), {"Authorization": f"Bearer {admin_token}"}).status_code == 201


def test_body_over_limit_is_413_and_stores_nothing(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    body = run(results=[result(benchmark=f"b{i}", samples=[1.0] * 3000) for i in range(100)])
    response = post(client, body, auth)
    assert response.status_code == 413
    assert response.json()["error"] == "body_too_large"
    assert session.scalar(select(func.count()).select_from(Run)) == 0


def test_seed_study_upload_round_trips(client: TestClient, auth: dict[str, str]) -> None:
    body = seed_study("000-dart-file-writes.json")
    assert post(client, body, auth).status_code == 201
    stored = client.get(f"/api/v1/runs/{body['id']}").json()
    assert stored["result_count"] == len(body["results"]) == 9
    assert {r["value"] for r in stored["results"]} == {r["value"] for r in body["results"]}


def test_units_of_one_series_compare_in_base_unit(client: TestClient, auth: dict[str, str]) -> None:
    first = run(results=[result(unit="us", value=120.0)])
    second = run(started_at="2025-03-21T12:00:00Z", results=[result(unit="ns", value=60000.0)])
    assert post(client, first, auth).status_code == 201
    assert post(client, second, auth).status_code == 201
    (series,) = client.get("/api/v1/series").json()["items"]
    history = client.get(f"/api/v1/series/{series['id']}/history").json()
    assert [p["value_base"] for p in history["points"]] == pytest.approx([120e-6, 60e-6])


def test_micro_sign_is_accepted_as_us(client: TestClient, auth: dict[str, str]) -> None:
    body = run(results=[result(unit="µs")])
    assert post(client, body, auth).status_code == 201
    assert client.get(f"/api/v1/runs/{body['id']}").json()["results"][0]["unit"] == "us"


def test_unit_of_another_dimension_for_a_series_is_422(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    assert post(client, run(), auth).status_code == 201
    response = post(client, run(results=[result(unit="B")]), auth)
    assert response.status_code == 422
    assert response.json()["fields"][0]["path"] == "results[0].unit"
    assert session.scalar(select(func.count()).select_from(Run)) == 1


def test_series_identity_is_computed_once_and_shared(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    # 10000 and 10000.0 are one parameter value.
    assert post(client, run(), auth).status_code == 201
    later = run(
        started_at="2025-04-01T00:00:00+02:00",
        results=[result(params={"writes": 10000.0, "payload_bytes": 13})],
    )
    assert post(client, later, auth).status_code == 201
    assert session.scalar(select(func.count()).select_from(Series)) == 1


@pytest.mark.parametrize("lookup_limit", [0, 10_000], ids=["suite scan", "key lookup"])
def test_a_run_extends_the_series_it_shares_with_earlier_ones(
    client: TestClient,
    auth: dict[str, str],
    session: Session,
    monkeypatch: pytest.MonkeyPatch,
    lookup_limit: int,
) -> None:
    """Small uploads look their series up by key, large ones scan the suite: same result."""
    monkeypatch.setattr("benchboard.runs.resolve.KEY_LOOKUP_LIMIT", lookup_limit)
    first = run(results=[result(benchmark=f"b{i}") for i in range(20)])
    other_suite = run(suite="elsewhere", results=[result(benchmark="b0")])
    later = run(
        started_at="2025-04-01T00:00:00Z",
        results=[result(benchmark=f"b{i}") for i in range(10, 30)],
    )
    for body in (first, other_suite, later):
        assert post(client, body, auth).status_code == 201
    assert session.scalar(select(func.count()).select_from(Series)) == 31
    shared = select(func.count(func.distinct(Result.series_id))).where(
        Result.run_id.in_([uuid.UUID(first["id"]), uuid.UUID(later["id"])])
    )
    assert session.scalar(shared) == 30


def test_sql_and_html_in_names_are_stored_verbatim(
    client: TestClient, auth: dict[str, str]
) -> None:
    name = "x'); DROP TABLE run; -- <script>alert(1)</script>"
    body = run(name=name, results=[result(benchmark=name, variant="<b>bold</b>")])
    assert post(client, body, auth).status_code == 201
    stored = client.get(f"/api/v1/runs/{body['id']}").json()
    assert stored["name"] == name
    assert stored["results"][0]["benchmark"] == name
    assert stored["results"][0]["variant"] == "<b>bold</b>"


def test_a_backslash_before_u0000_is_text_not_a_nul(
    client: TestClient, auth: dict[str, str]
) -> None:
    name = "escape \\u0000 as written"  # JSON "\\u0000": the body holds the NUL escape's bytes
    body = run(results=[result(benchmark=name)])
    assert post(client, body, auth).status_code == 201
    assert client.get(f"/api/v1/runs/{body['id']}").json()["results"][0]["benchmark"] == name


def test_unicode_names_up_to_the_limit_are_accepted(
    client: TestClient, auth: dict[str, str]
) -> None:
    name = "写入-ファイル-😀!" * 20  # 200 characters, some outside the BMP
    assert len(name) == 200
    body = run(results=[result(benchmark=name, implementation="dart:io ✓")])
    assert post(client, body, auth).status_code == 201
    assert client.get(f"/api/v1/runs/{body['id']}").json()["results"][0]["benchmark"] == name
