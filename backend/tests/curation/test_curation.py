"""Baseline curation through HTTP: outliers left out of detection, a baseline reset at a
run, both audited and reversible."""

from typing import Any

from fastapi.testclient import TestClient

from tests.history_builder import NOISY_LEVEL, STEPPED, check_queued, upload_history


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def changes(client: TestClient) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = client.get("/api/v1/regressions").json()["items"]
    return items


def series_id(client: TestClient) -> int:
    (series,) = client.get("/api/v1/series").json()["items"]
    found: int = series["id"]
    return found


def test_outliers_are_left_out_of_detection_until_restored(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    runs = upload_history(client, auth, [*NOISY_LEVEL, 130.0, 131.0, 129.5])
    assert [c["run_id"] for c in changes(client)] == [runs[10]]
    series = series_id(client)
    for run in runs[10:]:
        response = client.put(
            f"/api/v1/series/{series}/outliers/{run}",
            json={"note": "noisy neighbour"},
            headers=bearer(maintain_token),
        )
        assert response.status_code == 200, response.text
    assert set(response.json()["outliers"]) == set(runs[10:])
    check_queued(client)
    assert changes(client) == []
    response = client.delete(
        f"/api/v1/series/{series}/outliers/{runs[10]}", headers=bearer(maintain_token)
    )
    assert response.status_code == 200, response.text
    for run in runs[11:]:
        client.delete(f"/api/v1/series/{series}/outliers/{run}", headers=bearer(maintain_token))
    check_queued(client)
    assert [c["run_id"] for c in changes(client)] == [runs[10]]
    record = client.get(f"/api/v1/series/{series}/curation").json()
    assert record["outliers"] == []
    first = next(r for r in record["record"] if r["run_id"] == runs[10])
    assert (first["kind"], first["note"], first["created_by"], first["removed_by"]) == (
        "outlier",
        "noisy neighbour",
        "test-maintain",
        "test-maintain",
    )
    # Who set it and who undid it: the token's id beside its name.
    assert first["token_id"] is not None
    assert first["removed_token_id"] == first["token_id"]


def test_a_baseline_reset_starts_detection_at_its_run_and_can_be_undone(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    runs = upload_history(client, auth, STEPPED)
    assert [c["run_id"] for c in changes(client)] == [runs[10]]
    series = series_id(client)
    url = f"/api/v1/series/{series}/baseline-reset"
    response = client.put(url, json={"run_id": runs[10]}, headers=bearer(maintain_token))
    assert response.status_code == 200, response.text
    assert response.json()["baseline_reset"] == runs[10]
    check_queued(client)
    assert changes(client) == []
    detection = client.get(f"/api/v1/series/{series}/detection").json()
    assert (detection["baseline_reset"], detection["runs_analysed"]) == (True, 10)
    assert client.delete(url, headers=bearer(maintain_token)).status_code == 200
    check_queued(client)
    assert [c["run_id"] for c in changes(client)] == [runs[10]]
    assert client.get(f"/api/v1/series/{series}/curation").json()["baseline_reset"] is None


def test_curation_needs_a_maintain_token_and_a_run_of_the_series(
    client: TestClient, auth: dict[str, str], maintain_token: str, upload_token: str
) -> None:
    runs = upload_history(client, auth, NOISY_LEVEL[:3], check=False)
    series = series_id(client)
    outlier = f"/api/v1/series/{series}/outliers/{runs[0]}"
    assert client.put(outlier, json={}).status_code == 401
    assert client.put(outlier, json={}, headers=bearer(upload_token)).status_code == 403
    stranger = "00000000-0000-4000-8000-000000000000"
    bad = client.put(
        f"/api/v1/series/{series}/baseline-reset",
        json={"run_id": stranger},
        headers=bearer(maintain_token),
    )
    assert (bad.status_code, bad.json()["fields"][0]["path"]) == (422, "run_id")
    assert client.get(f"/api/v1/series/{series}/curation").json()["record"] == []
    undo = client.delete(f"/api/v1/series/{series}/baseline-reset", headers=bearer(maintain_token))
    assert undo.status_code == 404
    assert client.get("/api/v1/series/999999/curation").status_code == 404
