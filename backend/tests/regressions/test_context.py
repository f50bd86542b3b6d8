"""A detected change's context: the runs around it, each side's spread, commits, the run before."""

import statistics
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.builders import result, run
from tests.history_builder import STEPPED, check_queued

SAMPLES = [129.0, 131.5, 130.2]


def upload_with_commits(client: TestClient, auth: dict[str, str]) -> list[str]:
    """STEPPED, one run a day with commit c0000, c0001, …; the run of the step has replicates."""
    run_ids = []
    for day, value in enumerate(STEPPED):
        samples = {"samples": SAMPLES} if day == 10 else {}
        body = run(
            started_at=f"2025-01-{1 + day:02d}T00:00:00Z",
            git={"commit": f"c{day:04d}"},
            results=[result(value=value, **samples)],
        )
        response = client.post("/api/v1/runs", json=body, headers=auth)
        assert response.status_code == 201, response.text
        check_queued(client)
        run_ids.append(body["id"])
    return run_ids


def context(client: TestClient, **params: Any) -> dict[str, Any]:
    (found,) = client.get("/api/v1/regressions").json()["items"]
    response = client.get(f"/api/v1/regressions/{found['id']}/context", params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_context_holds_the_runs_on_each_side_with_commits_and_the_run_before(
    client: TestClient, auth: dict[str, str]
) -> None:
    run_ids = upload_with_commits(client, auth)
    found = context(client)
    assert [p["run_id"] for p in found["before"]] == run_ids[:10]
    assert [p["run_id"] for p in found["after"]] == run_ids[10:]
    assert found["after"][0]["value_base"] == pytest.approx(STEPPED[10] * 1e-6)
    assert found["previous_run_id"] == run_ids[9]
    assert (found["commit_before"], found["commit_after"]) == ("c0009", "c0010")
    # Replicates come in the base unit (seconds), like the levels.
    assert found["after"][0]["samples_base"] == pytest.approx([s * 1e-6 for s in SAMPLES])
    assert found["before"][0]["samples_base"] is None


def test_each_sides_spread_is_its_five_number_summary(
    client: TestClient, auth: dict[str, str]
) -> None:
    upload_with_commits(client, auth)
    found = context(client)
    for side, levels in (("before_spread", STEPPED[:10]), ("after_spread", STEPPED[10:])):
        base = [v * 1e-6 for v in levels]
        q1, median, q3 = statistics.quantiles(base, n=4, method="inclusive")
        assert found[side] == pytest.approx(
            {"count": 10, "min": min(base), "q1": q1, "median": median, "q3": q3, "max": max(base)}
        )
        assert median == pytest.approx(statistics.median(base))


def test_runs_marked_outliers_are_drawn_but_left_out_of_the_spreads(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    run_ids = upload_with_commits(client, auth)
    (series,) = client.get("/api/v1/series").json()["items"]
    # Each side's lowest and highest run: the box's whiskers move when they leave.
    low = min(range(10), key=lambda i: STEPPED[i])
    high = max(range(10, 20), key=lambda i: STEPPED[i])
    for index in (low, high):
        response = client.put(
            f"/api/v1/series/{series['id']}/outliers/{run_ids[index]}",
            json={},
            headers={"Authorization": f"Bearer {maintain_token}"},
        )
        assert response.status_code == 200, response.text
    check_queued(client)
    found = context(client)
    assert [p["run_id"] for p in found["before"]] == run_ids[:10]
    assert [p["run_id"] for p in found["after"]] == run_ids[10:]
    for side, indices in (("before_spread", range(10)), ("after_spread", range(10, 20))):
        base = [STEPPED[i] * 1e-6 for i in indices if i not in (low, high)]
        q1, median, q3 = statistics.quantiles(base, n=4, method="inclusive")
        assert found[side] == pytest.approx(
            {"count": 9, "min": min(base), "q1": q1, "median": median, "q3": q3, "max": max(base)}
        )


def test_window_keeps_the_nearest_runs_on_each_side(
    client: TestClient, auth: dict[str, str]
) -> None:
    run_ids = upload_with_commits(client, auth)
    found = context(client, window=3)
    assert [p["run_id"] for p in found["before"]] == run_ids[7:10]
    assert [p["run_id"] for p in found["after"]] == run_ids[10:13]


def test_unknown_regression_is_404(client: TestClient) -> None:
    response = client.get("/api/v1/regressions/999999/context")
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


def test_window_out_of_range_is_a_validation_error(client: TestClient) -> None:
    response = client.get("/api/v1/regressions/1/context", params={"window": 0})
    assert response.status_code == 422
    assert response.json()["fields"][0]["path"] == "window"
