"""DELETE /api/v1/runs/{id}: admins undo an upload, whole, re-queued and on the record."""

import subprocess
import sys
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from benchboard.config import Settings
from benchboard.main import create_app
from benchboard.models import (
    AnnotationDeletion,
    ApiToken,
    DetectionQueue,
    Regression,
    RegressionEvent,
    Result,
    Run,
    RunDeletion,
    Series,
)
from benchboard.tokens.service import create_token
from tests.builders import result, run
from tests.history_builder import STEPPED, check_queued, upload_history
from tests.processes import delete_suite, service_env, unique_suite


def _upload(client: TestClient, auth: dict[str, str], body: dict[str, Any]) -> str:
    response = client.post("/api/v1/runs", json=body, headers=auth)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def _delete(client: TestClient, run_id: str, token: str) -> Any:
    return client.delete(f"/api/v1/runs/{run_id}", headers={"Authorization": f"Bearer {token}"})


def _count(session: Session, table: Any, *where: Any) -> int:
    return session.scalar(select(func.count()).select_from(table).where(*where)) or 0


def test_delete_removes_the_run_and_its_results_and_logs_it(
    client: TestClient, auth: dict[str, str], admin_token: str, session: Session
) -> None:
    kept = _upload(client, auth, run(started_at="2025-03-01T00:00:00Z"))
    body = run(results=[result(), result(benchmark="typo-bench")])
    mistaken = _upload(client, auth, body)
    session.execute(DetectionQueue.__table__.delete())
    typo = session.scalar(select(Series.id).where(Series.benchmark == "typo-bench"))
    note = {"text": "typo", "series_id": typo, "at": "2025-03-01T00:00:00Z"}
    admin = {"Authorization": f"Bearer {admin_token}"}
    assert client.post("/api/v1/annotations", json=note, headers=admin).status_code == 201

    response = _delete(client, mistaken, admin_token)

    assert response.status_code == 200, response.text
    assert response.json() == {
        "id": mistaken,
        "result_count": 2,
        "requeued_series": 1,
        "deleted_series": 1,
    }
    assert client.get(f"/api/v1/runs/{mistaken}").status_code == 404
    assert client.get(f"/api/v1/runs/{kept}").status_code == 200
    assert _count(session, Result, Result.run_id == uuid.UUID(mistaken)) == 0
    # The series only the mistaken run had is gone; the shared one is queued for a check.
    assert session.scalars(select(Series.benchmark)).all() == ["file-write-tiny"]
    shared = session.scalars(select(Series.id)).one()
    assert session.scalars(select(DetectionQueue.series_id)).all() == [shared]
    entry = session.scalars(select(RunDeletion)).one()
    assert (entry.run_id, entry.suite, entry.result_count) == (
        uuid.UUID(mistaken),
        body["suite"],
        2,
    )
    assert entry.deleted_by == "test-admin"
    assert entry.token_id is not None
    assert entry.hardware == "test-machine"
    # The note on the emptied series went with it, and left a record of who deleted it.
    record = session.scalars(select(AnnotationDeletion)).one()
    assert (record.annotation["text"], record.deleted_by) == ("typo", "test-admin")
    assert record.token_id == entry.token_id
    assert b"typo-bench" in entry.upload_body
    # When: the deleting transaction's time (here the test's, which began moments ago).
    assert datetime.now(UTC) - timedelta(minutes=5) < entry.deleted_at <= datetime.now(UTC)


def test_delete_needs_an_admin_token(
    client: TestClient,
    auth: dict[str, str],
    upload_token: str,
    maintain_token: str,
    session: Session,
) -> None:
    run_id = _upload(client, auth, run())
    assert client.delete(f"/api/v1/runs/{run_id}").status_code == 401
    assert _delete(client, run_id, upload_token).status_code == 403
    assert _delete(client, run_id, maintain_token).status_code == 403
    assert _count(session, Run) == 1
    assert _count(session, RunDeletion) == 0


def test_a_run_a_finding_pins_is_409_and_nothing_is_deleted(
    client: TestClient,
    auth: dict[str, str],
    admin_token: str,
    maintain_token: str,
    session: Session,
) -> None:
    body = run(results=[result(mode="sync", value=50.0), result(mode="async", value=100.0)])
    run_id = _upload(client, auth, body)
    series = {s["mode"]: s["id"] for s in client.get("/api/v1/series").json()["items"]}
    sides = [{"run_id": run_id, "series_id": series[mode], "label": mode} for mode in series]
    pinned = {"findings": [{"numerator": sides[0], "denominator": sides[1]}]}
    path = f"/api/v1/suites/{body['suite']}/findings"
    maintain = {"Authorization": f"Bearer {maintain_token}"}
    assert client.put(path, json=pinned, headers=maintain).status_code == 200
    session.execute(DetectionQueue.__table__.delete())

    response = _delete(client, run_id, admin_token)

    assert response.status_code == 409, response.text
    assert response.json()["error"] == "conflict"
    assert body["suite"] in response.json()["message"]
    assert client.get(f"/api/v1/runs/{run_id}").status_code == 200
    assert _count(session, Result, Result.run_id == uuid.UUID(run_id)) == 2
    assert _count(session, Series) == 2
    assert _count(session, DetectionQueue) == 0
    assert _count(session, RunDeletion) == 0
    assert len(client.get(path).json()["items"]) == 1


def test_a_change_resting_on_a_deleted_run_is_retracted_by_the_next_check(
    client: TestClient, auth: dict[str, str], admin_token: str
) -> None:
    """Two runs after the step are what it takes to report it: with one deleted, the
    re-check finds one, which is not enough."""
    run_ids = upload_history(client, auth, STEPPED[:12])
    (change,) = client.get("/api/v1/regressions").json()["items"]
    assert _delete(client, run_ids[-1], admin_token).status_code == 200
    check_queued(client)
    assert client.get("/api/v1/regressions").json()["items"] == []
    assert client.get(f"/api/v1/regressions/{change['id']}").status_code == 404


def test_delete_of_an_unknown_run_is_404(client: TestClient, admin_token: str) -> None:
    response = _delete(client, str(uuid.uuid4()), admin_token)
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


def test_deleting_twice_is_404_the_second_time(
    client: TestClient, auth: dict[str, str], admin_token: str, session: Session
) -> None:
    run_id = _upload(client, auth, run())
    assert _delete(client, run_id, admin_token).status_code == 200
    assert _delete(client, run_id, admin_token).status_code == 404
    assert _count(session, RunDeletion) == 1


def test_a_deleted_run_can_be_uploaded_again(
    client: TestClient, auth: dict[str, str], admin_token: str
) -> None:
    body = run()
    run_id = _upload(client, auth, body)
    assert _delete(client, run_id, admin_token).status_code == 200
    assert _upload(client, auth, body) == run_id


def test_cli_deletes_a_run_and_names_the_user(engine: Engine) -> None:
    suite = unique_suite("cli-delete")
    url = engine.url.render_as_string(hide_password=False)
    app = create_app(Settings(demo=False), database_url=url)
    try:
        with TestClient(app) as client, Session(engine) as session:
            token = create_token(session, name=f"{suite}-uploader", scope="upload")
            session.commit()
            auth = {"Authorization": f"Bearer {token}"}
            run_id = _upload(client, auth, run(suite=suite, hardware={"name": f"{suite}-machine"}))
        deleted = subprocess.run(
            [sys.executable, "-m", "benchboard.cli", "run", "delete", run_id],
            env=service_env(engine),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert deleted.returncode == 0, deleted.stderr
        assert f"deleted run {run_id}: 1 results" in deleted.stdout
        with Session(engine) as session:
            assert session.get(Run, uuid.UUID(run_id)) is None
            entry = session.scalars(
                select(RunDeletion).where(RunDeletion.run_id == uuid.UUID(run_id))
            ).one()
            assert entry.deleted_by.startswith("cli:")
            assert entry.token_id is None
            session.delete(entry)
            session.commit()
    finally:
        delete_suite(engine, suite)


def test_deleting_a_run_keeps_its_triaged_change_its_trail_and_its_notes(
    client: TestClient, auth: dict[str, str], admin_token: str, session: Session
) -> None:
    """The change is retracted, not deleted (status, note and trail stay, and the trail
    says who retracted it); a note pinned to the run stays at the run's time; the
    deletion log names the token."""
    run_ids = upload_history(client, auth, STEPPED)
    (change,) = client.get("/api/v1/regressions").json()["items"]
    maintainer = create_token(session, name="lead", scope="maintain")
    session.commit()
    lead = {"Authorization": f"Bearer {maintainer}"}
    triage = {"status": "investigating", "note": "kernel update?"}
    assert (
        client.patch(f"/api/v1/regressions/{change['id']}", json=triage, headers=lead).status_code
        == 200
    )
    note = {"text": "kernel 6.6", "series_id": change["series"]["id"], "run_id": change["run_id"]}
    pinned = client.post("/api/v1/annotations", json=note, headers=lead).json()

    assert _delete(client, change["run_id"], admin_token).status_code == 200

    session.expire_all()
    stored = session.get_one(Regression, change["id"])
    assert (stored.run_id, stored.status, stored.note) == (None, "investigating", "kernel update?")
    assert stored.retracted_at is not None
    trail = session.scalars(
        select(RegressionEvent)
        .where(RegressionEvent.regression_id == change["id"])
        .order_by(RegressionEvent.id)
    ).all()
    assert [(event.actor, sorted(event.changes)) for event in trail] == [
        ("detector", ["detected"]),
        ("lead", ["note", "status"]),
        ("test-admin", ["retracted"]),
    ]
    lead_id = session.scalar(select(ApiToken.id).where(ApiToken.name == "lead"))
    assert trail[1].token_id == lead_id  # who did it: the token's id beside its name
    assert trail[-1].token_id is not None
    notes = client.get("/api/v1/annotations", params={"series_id": change["series"]["id"]}).json()
    (kept,) = notes["items"]
    assert (kept["id"], kept["run_id"], kept["at"]) == (pinned["id"], None, pinned["at"])
    assert (kept["created_by"], kept["created_by_token"]) == ("lead", lead_id)
    entry = session.scalars(select(RunDeletion)).one()
    assert (str(entry.run_id), entry.deleted_by) == (change["run_id"], "test-admin")
    assert entry.token_id == trail[-1].token_id
    assert run_ids  # the rest of the history stays


def test_deleting_every_run_of_a_series_keeps_its_triaged_change(
    client: TestClient, auth: dict[str, str], admin_token: str, session: Session
) -> None:
    """Emptied by deletions, a series with a change on record stays (empty), so the change
    keeps its triage and trail; a series that never had one goes."""
    run_ids = upload_history(client, auth, STEPPED)
    (change,) = client.get("/api/v1/regressions").json()["items"]
    lead = {"Authorization": f"Bearer {create_token(session, name='lead', scope='maintain')}"}
    session.commit()
    triage = {"status": "acknowledged", "note": "expected: new allocator"}
    answer = client.patch(f"/api/v1/regressions/{change['id']}", json=triage, headers=lead)
    assert answer.status_code == 200
    stray = _upload(client, auth, run(suite="deletion-stray", results=[result(benchmark="typo")]))

    for run_id in [*run_ids, stray]:
        assert _delete(client, run_id, admin_token).status_code == 200

    session.expire_all()
    stored = session.get_one(Regression, change["id"])
    assert (stored.status, stored.note) == ("acknowledged", "expected: new allocator")
    assert stored.retracted_at is not None
    assert session.get(Series, change["series"]["id"]) is not None
    assert _count(session, RegressionEvent, RegressionEvent.regression_id == change["id"]) >= 3
    assert _count(session, Series, Series.suite == "deletion-stray") == 0
    series_id = change["series"]["id"]
    for read in (
        f"/api/v1/series/{series_id}/history",
        f"/api/v1/series?suite={change['series']['suite']}",
        f"/api/v1/facets?suite={change['series']['suite']}",
        f"/api/v1/alert-groups?suite={change['series']['suite']}",
    ):
        assert client.get(read).status_code == 200, read
