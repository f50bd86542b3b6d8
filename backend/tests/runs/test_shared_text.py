"""Shared text belongs to maintainers: an upload describes its own run, never the suite
or the machine that other uploads share."""

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from benchboard.models import ApiToken, Hardware
from benchboard.tokens.service import create_token
from tests.builders import run


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _upload(client: TestClient, auth: dict[str, str], **fields: object) -> str:
    answer = client.post("/api/v1/runs", json=run(**fields), headers=auth)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def _machine(client: TestClient, suite: str = "sync-vs-async-io") -> dict[str, object]:
    (machine,) = client.get(f"/api/v1/suites/{suite}/study").json()["hardware"]
    info: dict[str, object] = machine["info"]
    return info


def test_each_run_keeps_its_hardware_and_uploads_never_change_the_machines(
    client: TestClient, auth: dict[str, str]
) -> None:
    first = _upload(client, auth, hardware={"name": "box", "cpu": "EPYC 7763", "cores": 8})
    later = _upload(
        client,
        auth,
        started_at="2025-03-21T12:00:00Z",
        hardware={"name": "box", "cpu": "i9 (sic)", "gpu": "none"},
    )
    assert client.get(f"/api/v1/runs/{first}").json()["hardware"]["info"] == {
        "cpu": "EPYC 7763",
        "cores": 8,
    }
    assert client.get(f"/api/v1/runs/{later}").json()["hardware"]["info"] == {
        "cpu": "i9 (sic)",
        "gpu": "none",
    }
    assert _machine(client) == {"cpu": "EPYC 7763", "cores": 8}


def test_only_a_maintainer_for_every_suite_sets_a_machines_description(
    client: TestClient, session: Session, auth: dict[str, str], maintain_token: str
) -> None:
    first = _upload(client, auth, hardware={"name": "box", "cpu": "EPYC 7763"})
    limited = create_token(session, name="team-lead", scope="maintain", suites=["team-*"])
    session.commit()
    described = {"cpu": "AMD EPYC 7763 64-core", "cores": 64}
    path = "/api/v1/hardware/box"
    assert client.put(path, json=described, headers=auth).status_code == 403
    assert client.put(path, json=described, headers=bearer(limited)).status_code == 403
    assert _machine(client) == {"cpu": "EPYC 7763"}
    answer = client.put(path, json=described, headers=bearer(maintain_token))
    assert answer.status_code == 200, answer.text
    assert _machine(client) == described
    session.expire_all()
    machine = session.scalars(select(Hardware).where(Hardware.name == "box")).one()
    maintainer = session.scalars(select(ApiToken).where(ApiToken.name == "test-maintain")).one()
    assert (machine.updated_by, machine.updated_token_id) == ("test-maintain", maintainer.id)
    assert client.get(f"/api/v1/runs/{first}").json()["hardware"]["info"] == {"cpu": "EPYC 7763"}
    bad = client.put(path, json={"cores": "many", "x": [1]}, headers=bearer(maintain_token))
    assert bad.status_code == 422
    missing = client.put("/api/v1/hardware/nope", json={}, headers=bearer(maintain_token))
    assert missing.status_code == 404


def test_upload_tags_never_title_nor_describe_the_suite(
    client: TestClient, auth: dict[str, str]
) -> None:
    tags = {"description": "Hijacked by an uploader", "title": "Not the title"}
    _upload(client, auth, name="Dart tiny file writes", tags=tags)
    items = client.get("/api/v1/suites").json()["items"]
    (suite,) = [s for s in items if s["suite"] == "sync-vs-async-io"]
    assert suite["description"] is None
    assert suite["title"] == "Dart tiny file writes"
    study = client.get("/api/v1/suites/sync-vs-async-io/study").json()
    assert "Hijacked" not in str({k: v for k, v in study.items() if k != "runs"})
