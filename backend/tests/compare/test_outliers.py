"""Results a maintainer marked outliers are left out of baseline verdicts and compare
runs, as they are out of detection: one rule (series.recent.read_curation)."""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.builders import result
from tests.compare.test_baseline import comparison, day, upload


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def mark_outlier(client: TestClient, token: str, series_id: int, run_id: str) -> None:
    response = client.put(
        f"/api/v1/series/{series_id}/outliers/{run_id}", json={}, headers=bearer(token)
    )
    assert response.status_code == 200, response.text


def history(client: TestClient, auth: dict[str, str], values: list[float]) -> list[str]:
    return [
        upload(client, auth, started_at=day(n), results=[result(benchmark="read", value=value)])
        for n, value in enumerate(values)
    ]


def contender(client: TestClient, auth: dict[str, str], value: float) -> str:
    return upload(
        client,
        auth,
        started_at=day(20),
        branch="feature-x",
        results=[result(benchmark="read", value=value)],
    )


def compared(client: TestClient, baseline: str, contender_id: str) -> dict[str, Any]:
    response = client.get(
        "/api/v1/compare/runs", params={"baseline": baseline, "contender": contender_id}
    )
    assert response.status_code == 200, response.text
    (item,) = response.json()["matched"]
    found: dict[str, Any] = item
    return found


def test_an_outlier_in_the_history_no_longer_widens_the_noise(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    runs = history(client, auth, [100.0, 101.0, 99.0, 160.0, 100.5, 99.5, 100.2])
    slower = contender(client, auth, 112.0)
    (item,) = comparison(client, slower)["items"]
    assert (item["verdict"], item["basis"]["history_runs"]) == ("unchanged", 7)
    assert compared(client, runs[-1], slower)["verdict"] == "noise"
    mark_outlier(client, maintain_token, item["baseline"]["series_id"], runs[3])
    (item,) = comparison(client, slower)["items"]
    assert (item["verdict"], item["basis"]["history_runs"]) == ("regression", 6)
    pair = compared(client, runs[-1], slower)
    assert (pair["verdict"], pair["basis"]["history_runs"]) == ("worse", 6)


def test_a_baseline_result_marked_an_outlier_gives_way_to_the_one_before(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    runs = history(client, auth, [100.0, 101.0, 99.0, 100.5, 99.5, 100.2, 130.0])
    same = contender(client, auth, 100.4)
    (item,) = comparison(client, same)["items"]
    assert item["basis"]["compared"]["baseline"]["value"] == pytest.approx(130e-6)
    mark_outlier(client, maintain_token, item["baseline"]["series_id"], runs[-1])
    (item,) = comparison(client, same)["items"]
    assert item["baseline"]["run_id"] == runs[-1]  # the run compared against, as asked
    assert item["basis"]["compared"]["baseline"]["value"] == pytest.approx(100.2e-6)
    assert (item["verdict"], item["basis"]["history_runs"]) == ("unchanged", 6)
    assert "marked an outlier" in item["basis"]["text"]
    pair = compared(client, runs[-1], same)
    assert pair["basis"]["compared"]["baseline"]["value"] == pytest.approx(100.2e-6)
    assert pair["verdict"] == "noise"
    assert pair["relative_change"] == pytest.approx((100.4 - 100.2) / 100.2)
