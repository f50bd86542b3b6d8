"""POST /api/v1/runs/batch: many runs, each validated and stored as POST /runs does it,
in one transaction; idempotent per run; detection once per series of the batch."""

import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchboard.models import DetectionQueue, Run, Series, SuiteBranch
from benchboard.runs import batch as batch_module
from benchboard.runs.totals import recount_totals
from tests.builders import result, run
from tests.history_builder import STEPPED, check_queued


def post_batch(client: TestClient, runs: list[dict[str, Any]], auth: dict[str, str]) -> Any:
    return client.post("/api/v1/runs/batch", json={"runs": runs}, headers=auth)


def history(values: list[float], **result_fields: Any) -> list[dict[str, Any]]:
    """One run a day, as an imported history arrives."""
    return [
        run(
            started_at=f"2025-{1 + day // 28:02d}-{1 + day % 28:02d}T00:00:00Z",
            results=[result(value=value, **result_fields)],
        )
        for day, value in enumerate(values)
    ]


def stored_runs(session: Session) -> int:
    return session.scalar(select(func.count()).select_from(Run)) or 0


def test_a_batch_is_stored_and_each_run_reads_back(
    client: TestClient, auth: dict[str, str]
) -> None:
    runs = history([100.0, 101.0, 99.0])
    response = post_batch(client, runs, auth)
    assert response.status_code == 201, response.text
    answer = response.json()
    assert (answer["created"], answer["existing"]) == (3, 0)
    assert [item["id"] for item in answer["runs"]] == [r["id"] for r in runs]
    assert all(item["created"] and item["result_count"] == 1 for item in answer["runs"])
    for item, sent in zip(answer["runs"], runs, strict=True):
        stored = client.get(item["url"]).json()
        assert stored["results"][0]["value"] == sent["results"][0]["value"]
        assert stored["started_at"].startswith(sent["started_at"][:10])
        upload = client.get(f"{item['url']}/upload").json()
        assert upload == sent


def test_identical_repeat_adds_nothing(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    runs = history([100.0, 101.0])
    assert post_batch(client, runs, auth).status_code == 201
    again = post_batch(client, runs, auth)
    assert again.status_code == 200
    assert (again.json()["created"], again.json()["existing"]) == (0, 2)
    assert [item["created"] for item in again.json()["runs"]] == [False, False]
    assert stored_runs(session) == 2


def test_a_run_posted_alone_counts_as_existing_in_a_batch(
    client: TestClient, auth: dict[str, str]
) -> None:
    first, second = history([100.0, 101.0])
    assert client.post("/api/v1/runs", json=first, headers=auth).status_code == 201
    answer = post_batch(client, [first, second], auth).json()
    assert [item["created"] for item in answer["runs"]] == [False, True]


def test_bad_field_is_named_by_its_run_and_nothing_is_stored(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    runs = history([100.0, 101.0, 102.0, 103.0])
    runs[3]["results"][0]["value"] = "fast"
    response = post_batch(client, runs, auth)
    assert response.status_code == 422
    assert [field["path"] for field in response.json()["fields"]] == ["runs[3].results[0].value"]
    assert stored_runs(session) == 0


def test_a_nul_in_a_result_is_named_by_its_run_and_nothing_is_stored(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    runs = history([100.0, 101.0])
    runs[1]["results"][0]["benchmark"] = "b\x00"
    response = post_batch(client, runs, auth)
    assert response.status_code == 422
    paths = [field["path"] for field in response.json()["fields"]]
    assert paths == ["runs[1].results[0].benchmark"]
    assert stored_runs(session) == 0


def test_an_error_while_storing_names_its_run_and_stores_nothing(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    runs = history([100.0, 101.0])
    runs[1]["results"].append(result(value=1.0))  # the same series twice in one run
    response = post_batch(client, runs, auth)
    assert response.status_code == 422
    assert response.json()["fields"][0]["path"] == "runs[1].results[1]"
    assert response.json()["message"].startswith("runs[1]: ")
    assert stored_runs(session) == 0


def test_same_id_different_body_is_409_for_the_whole_batch(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    runs = history([100.0, 101.0, 102.0])
    assert post_batch(client, runs[:1], auth).status_code == 201
    changed = {**runs[0], "name": "another name"}
    response = post_batch(client, [runs[1], changed, runs[2]], auth)
    assert response.status_code == 409
    assert response.json()["fields"][0]["path"] == "runs[1].id"
    assert stored_runs(session) == 1


def test_units_must_match_across_the_runs_of_a_batch(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    first = history([100.0])[0]
    second = run(results=[result(value=5.0, unit="MB/s")])
    response = post_batch(client, [first, second], auth)
    assert response.status_code == 422
    assert response.json()["fields"][0]["path"] == "runs[1].results[0].unit"
    assert stored_runs(session) == 0


def test_batch_needs_an_upload_token(
    client: TestClient, maintain_token: str, session: Session
) -> None:
    runs = history([100.0])
    assert post_batch(client, runs, {}).status_code == 401
    assert (
        post_batch(client, runs, {"Authorization": f"Bearer {maintain_token}"}).status_code == 403
    )
    assert stored_runs(session) == 0


def test_batch_body_over_the_limit_is_413(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    big = [run(results=[result(benchmark=f"b{i}", samples=[1.0] * 3000)]) for i in range(100)]
    response = post_batch(client, big, auth)
    assert response.status_code == 413
    assert stored_runs(session) == 0


def test_results_of_a_batch_are_bounded(
    client: TestClient, auth: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch_module, "MAX_BATCH_RESULTS", 2)
    response = post_batch(client, history([1.0, 2.0, 3.0]), auth)
    assert response.status_code == 422
    assert response.json()["fields"][0]["path"] == "runs"


def test_empty_batch_and_not_json_are_refused(client: TestClient, auth: dict[str, str]) -> None:
    assert post_batch(client, [], auth).status_code == 422
    response = client.post(
        "/api/v1/runs/batch", content=b"{", headers={**auth, "Content-Type": "application/json"}
    )
    assert response.status_code == 400


def test_a_batch_queues_each_series_once_and_one_check_finds_its_steps(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    runs = history(STEPPED) + history(STEPPED, benchmark="other")
    assert post_batch(client, runs, auth).status_code == 201
    queued = session.execute(select(DetectionQueue.series_id, DetectionQueue.requests)).all()
    assert sorted(requests for _, requests in queued) == [1, 1]  # one statement, one request
    assert check_queued(client).series == 2
    found = client.get("/api/v1/regressions").json()["items"]
    assert sorted(item["series"]["benchmark"] for item in found) == ["file-write-tiny", "other"]
    assert {item["run_id"] for item in found} == {runs[10]["id"], runs[30]["id"]}


def test_a_run_sent_twice_in_one_batch_is_stored_once(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    first, second = history([100.0, 101.0])
    answer = post_batch(client, [first, second, first], auth)
    assert answer.status_code == 201
    assert [item["created"] for item in answer.json()["runs"]] == [True, True, False]
    assert stored_runs(session) == 2


def test_a_run_sent_twice_in_one_batch_with_another_body_is_409(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    first, second = history([100.0, 101.0])
    response = post_batch(client, [first, second, {**first, "name": "renamed"}], auth)
    assert response.status_code == 409
    assert response.json()["fields"][0]["path"] == "runs[2].id"
    assert stored_runs(session) == 0


def totals(session: Session, suites: list[str]) -> tuple[list[Any], list[Any]]:
    series = session.execute(
        select(Series.id, Series.result_count, Series.first_started_at, Series.last_started_at)
        .where(Series.suite.in_(suites))
        .order_by(Series.id)
    ).all()
    branches = session.execute(
        select(SuiteBranch.__table__)
        .where(SuiteBranch.suite.in_(suites))
        .order_by(SuiteBranch.suite, SuiteBranch.branch)
    ).all()
    return series, branches


def test_a_batch_keeps_the_totals_a_recount_finds(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    """Series and suite-branch totals of a batch over suites, branches, machines and
    names (some new, some extending earlier runs) equal those rebuilt from the rows."""
    suites = [f"totals-{uuid.uuid4().hex[:8]}", f"totals-{uuid.uuid4().hex[:8]}"]
    first, second = suites
    earlier = run(suite=first, name="nightly 1", results=[result(), result(benchmark="kept")])
    assert client.post("/api/v1/runs", json=earlier, headers=auth).status_code == 201
    runs = [
        run(suite=first, name="nightly 2", started_at="2024-01-05T00:00:00Z"),
        run(
            suite=first,
            name="",
            started_at="2026-01-05T00:00:00Z",
            hardware={"name": "other-machine"},
            results=[result(), result(benchmark="new", language="go")],
        ),
        run(suite=first, name="feature x", git={"branch": "feature"}),
        run(suite=second, name="first", results=[result(), result(metric="rss")]),
        run(suite=second, name="second", results=[result(benchmark="b2")]),
    ]
    assert post_batch(client, runs, auth).status_code == 201
    kept = totals(session, suites)
    assert (len(kept[0]), len(kept[1])) == (8, 3)
    recount_totals(session)
    assert totals(session, suites) == kept


def test_only_runs_on_the_default_branch_queue_their_series(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    main = run(results=[result(benchmark="on-main")])
    feature = run(git={"branch": "feature"}, results=[result(benchmark="on-feature")])
    assert post_batch(client, [main, feature], auth).status_code == 201
    queued = session.scalars(
        select(Series.benchmark).join(DetectionQueue, DetectionQueue.series_id == Series.id)
    ).all()
    assert queued == ["on-main"]
