"""A token limited to suites writes only there: elsewhere 403, and nothing is stored.

Every write path is tried with a token for `team-*` against a suite outside it, then
the database is read: the write left no trace. The same call inside its suites works, so
a 403 here is the suite rule, not a missing scope."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchboard.config import REPO_ROOT
from benchboard.models import Annotation, Finding, Regression, Run, Suite
from benchboard.tokens.service import create_token
from tests.builders import result, run
from tests.history_builder import upload_history

OUTSIDE = "sync-vs-async-io"  # the builders' suite: outside team-*
STEPPED = [100.0, 101.0, 99.0, 100.5, 99.5, 100.0, 101.0, 99.0, 100.0, 100.5]
STEPPED += [130.0, 131.0, 129.0, 130.5, 129.5, 130.0, 131.0, 129.0, 130.0, 130.5]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def limited(session: Session, scope: str, *suites: str) -> dict[str, str]:
    secret = create_token(session, name=f"{scope}-{'+'.join(suites)}", scope=scope, suites=suites)  # type: ignore[arg-type]
    session.commit()
    return bearer(secret)


def count(session: Session, model: Any) -> int:
    return session.scalar(select(func.count()).select_from(model)) or 0


def test_upload_outside_its_suites_is_403_and_nothing_is_stored(
    client: TestClient, session: Session
) -> None:
    team = limited(session, "upload", "team-*")
    refused = client.post("/api/v1/runs", json=run(suite="elsewhere"), headers=team)
    assert refused.status_code == 403, refused.text
    assert "elsewhere" in refused.json()["message"]
    assert count(session, Run) == 0
    assert session.get(Suite, "elsewhere") is None
    assert client.post("/api/v1/runs", json=run(suite="team-a"), headers=team).status_code == 201


def test_exact_names_cover_only_themselves(client: TestClient, session: Session) -> None:
    exact = limited(session, "upload", "team")
    assert client.post("/api/v1/runs", json=run(suite="team-a"), headers=exact).status_code == 403
    assert client.post("/api/v1/runs", json=run(suite="team"), headers=exact).status_code == 201


def test_a_batch_with_one_run_outside_is_refused_whole(
    client: TestClient, session: Session
) -> None:
    team = limited(session, "upload", "team-*")
    body = {"runs": [run(suite="team-a"), run(suite="team-b"), run(suite="elsewhere")]}
    refused = client.post("/api/v1/runs/batch", json=body, headers=team)
    assert refused.status_code == 403, refused.text
    assert count(session, Run) == 0
    body["runs"].pop()
    assert client.post("/api/v1/runs/batch", json=body, headers=team).status_code == 201


def test_ingest_outside_its_suites_is_403_and_nothing_is_stored(
    client: TestClient, session: Session
) -> None:
    team = limited(session, "upload", "team-*")
    fio = (REPO_ROOT / "ingest/tests/fixtures/fio/fio_sync_randread.json").read_bytes()

    def ingest(suite: str) -> int:
        params = {"suite": suite, "hardware": "ci-runner"}
        headers = {"Content-Type": "text/plain", **team}
        return client.post(
            "/api/v1/ingest/fio", params=params, content=fio, headers=headers
        ).status_code

    assert ingest("elsewhere") == 403
    assert count(session, Run) == 0
    assert ingest("team-a") == 201


def test_a_read_token_writes_nothing(client: TestClient, session: Session) -> None:
    reader = limited(session, "read", "team-*")
    assert client.post("/api/v1/runs", json=run(suite="team-a"), headers=reader).status_code == 403
    assert count(session, Run) == 0


def test_suite_settings_and_findings_outside_its_suites_are_403(
    client: TestClient, session: Session, auth: dict[str, str]
) -> None:
    assert client.post("/api/v1/runs", json=run(), headers=auth).status_code == 201
    team = limited(session, "maintain", "team-*")
    title = {"title": "Taken over"}
    assert client.put(f"/api/v1/suites/{OUTSIDE}", json=title, headers=team).status_code == 403
    session.expire_all()
    assert session.get_one(Suite, OUTSIDE).title is None
    findings = client.put(f"/api/v1/suites/{OUTSIDE}/findings", json={"findings": []}, headers=team)
    assert findings.status_code == 403
    assert count(session, Finding) == 0
    mine = limited(session, "maintain", OUTSIDE)
    assert client.put(f"/api/v1/suites/{OUTSIDE}", json=title, headers=mine).status_code == 200


def test_annotations_outside_its_suites_are_403_and_unchanged(
    client: TestClient, session: Session, auth: dict[str, str], maintain_token: str
) -> None:
    assert client.post("/api/v1/runs", json=run(), headers=auth).status_code == 201
    series_id = client.get("/api/v1/series").json()["items"][0]["id"]
    team = limited(session, "maintain", "team-*")
    at = "2025-01-02T00:00:00Z"
    for body in (
        {"text": "x", "suite": OUTSIDE, "at": at},
        {"text": "x", "series_id": series_id, "at": at},
        {"text": "x", "hardware": "test-machine", "at": at},  # a machine spans suites
    ):
        refused = client.post("/api/v1/annotations", json=body, headers=team)
        assert refused.status_code == 403, body
    assert count(session, Annotation) == 0
    theirs = client.post(
        "/api/v1/annotations",
        json={"text": "kept", "suite": OUTSIDE, "at": at},
        headers=bearer(maintain_token),
    ).json()["id"]
    path = f"/api/v1/annotations/{theirs}"
    assert client.patch(path, json={"text": "changed"}, headers=team).status_code == 403
    assert client.delete(path, headers=team).status_code == 403
    session.expire_all()
    assert session.get_one(Annotation, theirs).text == "kept"
    created = client.post(
        "/api/v1/annotations", json={"text": "ok", "suite": "team-a", "at": at}, headers=team
    )
    assert created.status_code == 201


def test_triage_and_detection_retry_outside_its_suites_are_403(
    client: TestClient, session: Session, auth: dict[str, str]
) -> None:
    upload_history(client, auth, STEPPED)
    (found,) = client.get("/api/v1/regressions").json()["items"]
    team = limited(session, "maintain", "team-*")
    path = f"/api/v1/regressions/{found['id']}"
    assert client.patch(path, json={"status": "fixed"}, headers=team).status_code == 403
    session.expire_all()
    assert session.get_one(Regression, found["id"]).status == "untriaged"
    history = client.get(f"{path}/history").json()["items"]
    assert [event["actor"] for event in history] == ["detector"]
    retry = f"/api/v1/series/{found['series']['id']}/detection/retry"
    assert client.post(retry, headers=team).status_code == 403
    mine = limited(session, "maintain", "sync-*")
    assert client.patch(path, json={"status": "fixed"}, headers=mine).status_code == 200


def test_alert_groups_notifications_and_curation_outside_its_suites_are_403(
    client: TestClient, session: Session, auth: dict[str, str]
) -> None:
    run_ids = upload_history(client, auth, STEPPED)
    (found,) = client.get("/api/v1/regressions").json()["items"]
    (group,) = client.get("/api/v1/alert-groups").json()["items"]
    series = found["series"]["id"]
    team = limited(session, "maintain", "team-*")
    writes = [
        ("PATCH", f"/api/v1/alert-groups/{group['id']}", {"status": "fixed"}),
        ("PUT", f"/api/v1/regressions/{found['id']}/group", {"group_id": None}),
        ("PUT", f"/api/v1/suites/{OUTSIDE}/notifications", {"targets": []}),
        ("PUT", f"/api/v1/series/{series}/outliers/{run_ids[3]}", {}),
        ("PUT", f"/api/v1/series/{series}/baseline-reset", {"run_id": run_ids[12]}),
    ]
    for method, path, body in writes:
        refused = client.request(method, path, json=body, headers=team)
        assert refused.status_code == 403, (method, path, refused.text)
    assert client.get(f"/api/v1/suites/{OUTSIDE}/notifications", headers=team).status_code == 403
    session.expire_all()
    regression = session.get_one(Regression, found["id"])
    assert (regression.status, regression.group_id) == ("untriaged", group["id"])
    curation = client.get(f"/api/v1/series/{series}/curation").json()
    assert (curation["outliers"], curation["baseline_reset"], curation["record"]) == ([], None, [])
    mine = limited(session, "maintain", "sync-*")
    for method, path, body in writes:
        allowed = client.request(method, path, json=body, headers=mine)
        assert allowed.status_code == 200, (method, path, allowed.text)


def test_outbox_and_run_deletion_need_a_token_for_the_suite(
    client: TestClient, session: Session, auth: dict[str, str]
) -> None:
    body = run(results=[result()])
    assert client.post("/api/v1/runs", json=body, headers=auth).status_code == 201
    maintainer = limited(session, "maintain", "team-*")
    assert client.get("/api/v1/webhooks/deliveries", headers=maintainer).status_code == 403
    admin = limited(session, "admin", "team-*")
    assert client.delete(f"/api/v1/runs/{body['id']}", headers=admin).status_code == 403
    assert count(session, Run) == 1


@pytest.mark.parametrize("scope", ["upload", "maintain", "admin"])
def test_tokens_without_suites_act_on_every_suite_as_before(
    client: TestClient, session: Session, scope: str
) -> None:
    secret = create_token(session, name=f"all-{scope}", scope=scope)  # type: ignore[arg-type]
    session.commit()
    title = client.put("/api/v1/suites/anything", json={"title": "T"}, headers=bearer(secret))
    assert title.status_code == (403 if scope == "upload" else 200)
