"""Every public read route, each with a URL that answers it over seeded data.

The caching test (every read has an ETag) and the private-suite test (no read shows a
private suite) walk the OpenAPI's GET routes and fail on one missing here: a new read
route gets its line in `seeded_read_urls`, naming the seeded ids its path needs.
"""

from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

# GETs that are not public reads: operational, a maintainer's, the static upload contract.
NOT_PUBLIC_READS = {
    "/api/v1/health",
    "/api/v1/webhooks/deliveries",
    "/api/v1/schema/upload",
    "/api/v1/tokens",
    "/api/v1/suites/{suite}/notifications",
}


def public_reads(app: FastAPI) -> set[str]:
    """Every GET the API documents that any reader may call."""
    paths: dict[str, dict[str, object]] = app.openapi()["paths"]
    return {path for path, operations in paths.items() if "get" in operations} - NOT_PUBLIC_READS


def pin_a_finding(client: TestClient, run_ids: list[str], maintainer: dict[str, str]) -> None:
    """A finding on the suite of `run_ids`: its series' last run against its first."""
    suite = client.get(f"/api/v1/runs/{run_ids[0]}", headers=maintainer).json()["suite"]
    series = client.get("/api/v1/series", params={"suite": suite}, headers=maintainer).json()
    series_id = series["items"][0]["id"]
    sides = {
        "numerator": {"run_id": run_ids[-1], "series_id": series_id, "label": "last"},
        "denominator": {"run_id": run_ids[0], "series_id": series_id, "label": "first"},
    }
    body = {"findings": [sides]}
    pinned = client.put(f"/api/v1/suites/{suite}/findings", json=body, headers=maintainer)
    assert pinned.status_code == 200, pinned.text


def seeded_read_urls(
    client: TestClient, run_ids: list[str], headers: dict[str, str] | None = None
) -> dict[str, str]:
    """A URL for each public read route over the suite of `run_ids` (a history with a
    regression, as tests.history_builder.STEPPED uploads, and a finding pinned by
    `pin_a_finding`), found with `headers`."""

    def first(path: str, **params: str) -> Any:
        return client.get(path, params=params, headers=headers).json()["items"][0]["id"]

    suite = client.get(f"/api/v1/runs/{run_ids[0]}", headers=headers).json()["suite"]
    regression = first("/api/v1/regressions", suite=suite)
    series = first("/api/v1/series", suite=suite)
    group = first("/api/v1/alert-groups", suite=suite)
    finding = client.get(f"/api/v1/suites/{suite}/findings", headers=headers).json()["items"][0]
    metric = client.get(f"/api/v1/series/{series}/history", headers=headers).json()["series"][
        "metric"
    ]
    return {
        "/api/v1/suites": "/api/v1/suites",
        "/api/v1/suites/{suite}": f"/api/v1/suites/{suite}",
        "/api/v1/suites/{suite}/study": f"/api/v1/suites/{suite}/study",
        "/api/v1/suites/{suite}/findings": f"/api/v1/suites/{suite}/findings",
        "/api/v1/runs": "/api/v1/runs",
        "/api/v1/runs/{run_id}": f"/api/v1/runs/{run_ids[0]}",
        "/api/v1/runs/{run_id}/upload": f"/api/v1/runs/{run_ids[0]}/upload",
        "/api/v1/runs/{run_id}/baseline-comparison": (
            f"/api/v1/runs/{run_ids[-1]}/baseline-comparison"
        ),
        "/api/v1/facets": "/api/v1/facets",
        "/api/v1/series": "/api/v1/series",
        "/api/v1/series/{series_id}/history": f"/api/v1/series/{series}/history",
        "/api/v1/series/{series_id}/detection": f"/api/v1/series/{series}/detection",
        "/api/v1/compare/modes": "/api/v1/compare/modes",
        "/api/v1/compare/runs": (
            f"/api/v1/compare/runs?baseline={run_ids[0]}&contender={run_ids[-1]}"
        ),
        "/api/v1/regressions": "/api/v1/regressions",
        "/api/v1/regressions/{regression_id}": f"/api/v1/regressions/{regression}",
        "/api/v1/regressions/{regression_id}/history": (
            f"/api/v1/regressions/{regression}/history"
        ),
        "/api/v1/regressions/{regression_id}/context": (
            f"/api/v1/regressions/{regression}/context"
        ),
        "/api/v1/annotations": "/api/v1/annotations",
        "/api/v1/series/{series_id}/chart.{image_format}": f"/api/v1/series/{series}/chart.svg",
        "/api/v1/series/{series_id}/badge.svg": f"/api/v1/series/{series}/badge.svg",
        "/api/v1/findings/{finding_id}/chart.{image_format}": (
            f"/api/v1/findings/{finding['id']}/chart.svg"
        ),
        "/api/v1/leaderboard/chart.{image_format}": (
            f"/api/v1/leaderboard/chart.svg?metric={metric}"
        ),
        "/api/v1/compare/modes/chart.{image_format}": "/api/v1/compare/modes/chart.svg",
        "/api/v1/suites/{suite}/card.png": f"/api/v1/suites/{suite}/card.png",
        "/api/v1/suites/{suite}/citation": f"/api/v1/suites/{suite}/citation?format=cff",
        "/api/v1/alert-groups": "/api/v1/alert-groups",
        "/api/v1/alert-groups/health": "/api/v1/alert-groups/health",
        "/api/v1/alert-groups/{group_id}": f"/api/v1/alert-groups/{group}",
        "/api/v1/suites/{suite}/alerts.atom": f"/api/v1/suites/{suite}/alerts.atom",
        "/api/v1/series/{series_id}/curation": f"/api/v1/series/{series}/curation",
    }
