"""Detection after uploads, triage with permissions and an audit trail."""

import math
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, event, select
from sqlalchemy.orm import Session

from benchboard.models import Series, WebhookDelivery
from benchboard.pipeline.runner import check_series
from tests.history_builder import NOISY_LEVEL, STEPPED, upload_history


def regressions(client: TestClient, **params: Any) -> list[dict[str, Any]]:
    response = client.get("/api/v1/regressions", params=params)
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


def test_a_slowdown_is_stored_once_on_the_first_run_after_it(
    client: TestClient, auth: dict[str, str]
) -> None:
    run_ids = upload_history(client, auth, STEPPED)
    (found,) = regressions(client)
    assert found["run_id"] == run_ids[10]
    assert found["direction"] == "regression"
    assert found["relative_change"] == pytest.approx(0.3, abs=0.02)
    assert found["confidence"] > 0.99
    assert found["status"] == "untriaged"
    assert found["series"]["benchmark"] == "file-write-tiny"
    # Later runs at the new level do not raise it again.
    upload_history(client, auth, [130.0, 129.0, 131.0], first_day=20)
    assert len(regressions(client)) == 1


def test_no_change_raises_nothing(client: TestClient, auth: dict[str, str]) -> None:
    upload_history(client, auth, NOISY_LEVEL * 2)
    assert regressions(client) == []


def test_rising_throughput_is_an_improvement(client: TestClient, auth: dict[str, str]) -> None:
    upload_history(client, auth, STEPPED, metric="throughput", unit="req/s")
    (found,) = regressions(client)
    assert found["direction"] == "improvement"
    assert regressions(client, direction="regression") == []


def test_filters_select_regressions(client: TestClient, auth: dict[str, str]) -> None:
    upload_history(client, auth, STEPPED)
    assert len(regressions(client, suite="sync-vs-async-io", language="dart")) == 1
    assert regressions(client, language="go") == []
    assert regressions(client, status="fixed") == []
    assert regressions(client, since="2030-01-01T00:00:00Z") == []


def test_regressions_page_with_a_cursor(client: TestClient, auth: dict[str, str]) -> None:
    for benchmark in ("a", "b", "c"):
        upload_history(client, auth, STEPPED, benchmark=benchmark)
    seen: list[int] = []
    params: dict[str, Any] = {"limit": 2}
    while True:
        page = client.get("/api/v1/regressions", params=params).json()
        assert len(page["items"]) <= 2
        seen += [item["id"] for item in page["items"]]
        if page["next_cursor"] is None:
            break
        params["cursor"] = page["next_cursor"]
    assert sorted(seen) == sorted(r["id"] for r in regressions(client))
    assert len(set(seen)) == 3


def _patch(client: TestClient, regression_id: int, body: Any, token: str | None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.patch(f"/api/v1/regressions/{regression_id}", json=body, headers=headers)


@pytest.fixture
def regression_id(client: TestClient, auth: dict[str, str]) -> int:
    upload_history(client, auth, STEPPED)
    (found,) = regressions(client)
    return int(found["id"])


def test_triage_needs_a_maintain_token(
    client: TestClient, regression_id: int, upload_token: str
) -> None:
    assert _patch(client, regression_id, {"status": "fixed"}, None).status_code == 401
    assert _patch(client, regression_id, {"status": "fixed"}, upload_token).status_code == 403


@pytest.mark.parametrize(
    "status",
    ["acknowledged", "investigating", "fixed", "wontfix", "expected", "invalid", "untriaged"],
)
def test_every_status_can_be_set(
    client: TestClient, regression_id: int, maintain_token: str, status: str
) -> None:
    if status == "untriaged":
        _patch(client, regression_id, {"status": "acknowledged"}, maintain_token)
    response = _patch(client, regression_id, {"status": status}, maintain_token)
    assert response.status_code == 200, response.text
    assert response.json()["status"] == status
    assert regressions(client, status=status)[0]["id"] == regression_id


def test_unknown_status_is_422(client: TestClient, regression_id: int, maintain_token: str) -> None:
    response = _patch(client, regression_id, {"status": "closed"}, maintain_token)
    assert response.status_code == 422
    assert response.json()["fields"][0]["path"] == "status"


def test_bad_link_is_422(client: TestClient, regression_id: int, maintain_token: str) -> None:
    response = _patch(client, regression_id, {"links": ["not a url"]}, maintain_token)
    assert response.status_code == 422
    assert response.json()["fields"][0]["path"].startswith("links")


def test_unknown_regression_is_404(client: TestClient, maintain_token: str) -> None:
    assert _patch(client, 999_999, {"status": "fixed"}, maintain_token).status_code == 404


def test_every_change_is_in_the_audit_trail(
    client: TestClient, regression_id: int, maintain_token: str
) -> None:
    _patch(client, regression_id, {"status": "investigating", "note": "bisecting"}, maintain_token)
    _patch(client, regression_id, {"links": ["https://example.org/issues/1"]}, maintain_token)
    events = client.get(f"/api/v1/regressions/{regression_id}/history").json()["items"]
    assert [e["actor"] for e in events] == ["detector", "test-maintain", "test-maintain"]
    # Each event carries only what it changed (EventChanges): the detector its finding.
    assert list(events[0]["changes"]) == ["detected"]
    assert set(events[0]["changes"]["detected"]) == {"relative_change", "confidence", "provisional"}
    assert events[1]["changes"] == {
        "status": ["untriaged", "investigating"],
        "note": [None, "bisecting"],
    }
    assert events[2]["changes"] == {"links": [[], ["https://example.org/issues/1"]]}
    found = client.get(f"/api/v1/regressions/{regression_id}").json()
    assert (found["note"], found["links"]) == ("bisecting", ["https://example.org/issues/1"])


def test_expected_resets_the_baseline(
    client: TestClient, auth: dict[str, str], regression_id: int, maintain_token: str
) -> None:
    _patch(client, regression_id, {"status": "expected"}, maintain_token)
    upload_history(client, auth, [v * 1.3 for v in NOISY_LEVEL], first_day=20)
    assert [r["id"] for r in regressions(client)] == [regression_id]


def test_a_short_history_step_is_stored_with_its_evidence(
    client: TestClient, auth: dict[str, str]
) -> None:
    run_ids = upload_history(client, auth, [100.0, 101.0, 100.0, 130.0, 131.0])
    (found,) = regressions(client)
    assert found["run_id"] == run_ids[3]
    assert found["provisional"] is False
    evidence = found["evidence"]
    assert (evidence["runs_before"], evidence["runs_after"]) == (3, 2)
    assert (evidence["test"], evidence["replicates_used"]) == ("student_t", False)
    assert evidence["p_value"] < 0.01
    assert evidence["interval_low"] < found["relative_change"] < evidence["interval_high"]


def _samples(level: float, seed: int) -> list[float]:
    return [level * (1 + 0.01 * ((seed * 7 + i * 13) % 11 - 5) / 5) for i in range(20)]


def test_a_provisional_change_is_announced_once_a_second_run_confirms_it(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    levels = [100.0, 100.0, 130.0]
    for day, level in enumerate(levels):
        upload_history(
            client, auth, [level], first_day=day, check=False, samples=_samples(level, day)
        )
    series_id = session.scalars(select(Series.id)).one()
    check_series(session, [series_id], notify_webhook=True)
    (found,) = regressions(client)
    assert found["provisional"] is True
    assert found["evidence"]["test"] == "two_level_t"
    assert found["evidence"]["replicates_used"] is True
    assert session.scalars(select(WebhookDelivery)).all() == []
    upload_history(client, auth, [130.0], first_day=3, check=False, samples=_samples(130.0, 3))
    check_series(session, [series_id], notify_webhook=True)
    (confirmed,) = regressions(client)
    assert (confirmed["id"], confirmed["provisional"]) == (found["id"], False)
    (delivery,) = session.scalars(select(WebhookDelivery)).all()
    assert delivery.regression_id == found["id"]


def _detection(client: TestClient, series_id: int) -> dict[str, Any]:
    response = client.get(f"/api/v1/series/{series_id}/detection")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_the_detection_state_says_how_many_more_runs_it_needs(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    upload_history(client, auth, [100.0, 101.0])
    series_id = session.scalars(select(Series.id)).one()
    state = _detection(client, series_id)
    assert state["readiness"] == "not_enough_history"
    assert (state["runs_analysed"], state["runs_needed"]) == (2, 1)
    assert "1 more run" in state["text"]
    upload_history(client, auth, [100.0], first_day=2)
    ready = _detection(client, series_id)
    assert ready["readiness"] == "ready"
    assert ready["run_to_run_cv"] > 0
    assert 0.02 <= ready["smallest_detectable_change"] < 0.3
    assert client.get("/api/v1/series/999999/detection").status_code == 404


def test_a_baseline_reset_restarts_the_analysed_history(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    run_ids = upload_history(client, auth, STEPPED)
    (found,) = regressions(client)
    response = client.patch(
        f"/api/v1/regressions/{found['id']}",
        json={"status": "expected"},
        headers={"Authorization": f"Bearer {maintain_token}"},
    )
    assert response.status_code == 200, response.text
    state = _detection(client, found["series"]["id"])
    assert state["baseline_reset"] is True
    assert state["runs_analysed"] == len(run_ids) - 10


def test_an_empty_list_says_when_series_are_too_short_to_judge(
    client: TestClient, auth: dict[str, str]
) -> None:
    upload_history(client, auth, NOISY_LEVEL, benchmark="long-enough")
    upload_history(client, auth, [100.0, 101.0, 100.0, 101.0])
    page = client.get("/api/v1/regressions", params={"benchmark": "file-write-tiny"}).json()
    assert page["items"] == []
    support = page["history_support"]
    assert (support["series"], support["short_series"]) == (1, 1)
    assert support["text"].startswith("1 of the 1 series matching these filters has too little")
    upload_history(client, auth, [100.0], first_day=4)
    support = client.get("/api/v1/regressions").json()["history_support"]
    assert (support["series"], support["short_series"]) == (2, 0)
    assert support["text"].startswith("All 2 series matching these filters have enough runs")


def test_the_issues_example_is_a_step_detection_cannot_judge_not_noise(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    # 100, 101, 130, 130, 130: two runs before the step, detection needs three.
    run_ids = upload_history(client, auth, [100.0, 101.0, 130.0, 130.0, 130.0])
    page = client.get("/api/v1/regressions").json()
    assert page["items"] == []
    support = page["history_support"]
    # Five runs: enough by count, but the step has too few runs before it.
    assert (support["series"], support["short_series"]) == (1, 1)
    assert "a possible step with too few runs before or after it" in support["text"]
    state = _detection(client, session.scalars(select(Series.id)).one())
    assert state["readiness"] == "not_enough_history"
    assert state["possible_step"] == {
        "run_id": run_ids[2],
        "run_number": 3,
        # Levels compared on the log scale: the geometric mean of 100 and 101 before.
        "relative_change": pytest.approx(130 / math.sqrt(100 * 101) - 1),
        "runs_before": 2,
        "runs_after": 3,
        "more_runs_before": 1,
        "more_runs_after": 0,
    }
    assert state["run_to_run_cv"] < 0.01  # the runs before the step, not the step itself
    assert state["smallest_detectable_change"] is None
    assert "possible step at run 3 of 5 (+29.4%)" in state["text"]
    assert "will not be reported" in state["text"]


def test_an_empty_list_counts_runs_from_the_last_baseline_reset(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    upload_history(client, auth, [100.0, 101.0, 100.0, 130.0, 131.0])
    (found,) = regressions(client)
    _patch(client, found["id"], {"status": "expected"}, maintain_token)
    page = client.get("/api/v1/regressions", params={"status": "untriaged"}).json()
    assert page["items"] == []
    support = page["history_support"]
    # Five runs stored, two since the reset: too few for a change to show.
    assert (support["series"], support["short_series"]) == (1, 1)
    upload_history(client, auth, [130.0, 129.0, 131.0], first_day=5)
    support = client.get("/api/v1/regressions", params={"status": "untriaged"}).json()[
        "history_support"
    ]
    assert (support["series"], support["short_series"]) == (1, 0)


def test_null_status_is_422_naming_it(
    client: TestClient, regression_id: int, maintain_token: str
) -> None:
    response = _patch(client, regression_id, {"status": None}, maintain_token)
    assert response.status_code == 422, response.text
    assert [field["path"] for field in response.json()["fields"]] == ["status"]


def test_null_links_and_note_clear_them(
    client: TestClient, regression_id: int, maintain_token: str
) -> None:
    given = {"note": "seen", "links": ["https://example.org/issue/1"]}
    assert _patch(client, regression_id, given, maintain_token).status_code == 200
    response = _patch(client, regression_id, {"note": None, "links": None}, maintain_token)
    assert response.status_code == 200, response.text
    assert (response.json()["note"], response.json()["links"]) == (None, [])


def test_the_list_reads_the_queue_before_the_changes(
    client: TestClient, connection: Connection
) -> None:
    """Each statement has its own snapshot: "nothing pending" must be read before the
    list, else a check committed between the two leaves an empty list saying so."""
    statements: list[str] = []

    def record(*args: Any) -> None:
        statements.append(args[2])

    event.listen(connection, "before_cursor_execute", record)
    try:
        assert client.get("/api/v1/regressions").status_code == 200
    finally:
        event.remove(connection, "before_cursor_execute", record)
    queue = next(i for i, sql in enumerate(statements) if "detection_queue" in sql)
    changes = next(i for i, sql in enumerate(statements) if "FROM regression" in sql)
    assert queue < changes
