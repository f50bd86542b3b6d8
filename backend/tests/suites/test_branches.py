"""Branch-aware histories: where a run counts, what default views show, suite settings."""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.builders import result, run
from tests.history_builder import NOISY_LEVEL, STEPPED, upload_history

SUITE = "sync-vs-async-io"


def get(client: TestClient, path: str, **params: Any) -> Any:
    response = client.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def upload(client: TestClient, auth: dict[str, str], **fields: Any) -> dict[str, Any]:
    body = run(**fields)
    response = client.post("/api/v1/runs", json=body, headers=auth)
    assert response.status_code == 201, response.text
    return body


def maintainer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_run_without_git_branch_counts_on_the_default_branch(
    client: TestClient, auth: dict[str, str]
) -> None:
    body = upload(client, auth)
    stored = get(client, f"/api/v1/runs/{body['id']}")
    assert stored["branch"] == "main"
    assert stored["git"] is None
    (series,) = get(client, "/api/v1/series", suite=SUITE)["items"]
    assert series["branch"] == "main"


def test_a_feature_run_stays_out_of_the_default_views(
    client: TestClient, auth: dict[str, str]
) -> None:
    main = upload(client, auth, git={"branch": "main", "commit": "a1"})
    feature = upload(
        client,
        auth,
        started_at="2025-03-21T12:00:00Z",
        git={"branch": "feature-x", "commit": "b2"},
        results=[result(value=150.0)],
    )
    (on_main,) = get(client, "/api/v1/series", suite=SUITE)["items"]
    assert on_main["latest"]["run_id"] == main["id"]
    assert on_main["run_count"] == 1
    (on_feature,) = get(client, "/api/v1/series", suite=SUITE, branch="feature-x")["items"]
    assert on_feature["latest"]["run_id"] == feature["id"]
    assert on_feature["id"] != on_main["id"]
    history = get(client, f"/api/v1/series/{on_main['id']}/history")
    assert [p["run_id"] for p in history["points"]] == [main["id"]]
    facets = get(client, "/api/v1/facets", suite=SUITE)["dimensions"]
    assert facets["suite"] == [{"value": SUITE, "count": 1}]
    assert {f["value"]: f["count"] for f in facets["branch"]} == {"main": 1, "feature-x": 1}
    assert get(client, "/api/v1/facets", suite=SUITE, branch="feature-x")["dimensions"][
        "suite"
    ] == [{"value": SUITE, "count": 1}]
    assert get(client, "/api/v1/facets", branch="nope")["dimensions"]["suite"] == []


def test_mode_comparison_pairs_series_of_one_branch(
    client: TestClient, auth: dict[str, str]
) -> None:
    pair = [result(mode="sync", value=100.0), result(mode="async", value=120.0)]
    upload(client, auth, results=pair)
    feature_pair = [result(mode="sync", value=100.0), result(mode="async", value=300.0)]
    upload(client, auth, git={"branch": "feature-x"}, results=feature_pair)
    (on_main,) = get(client, "/api/v1/compare/modes", suite=SUITE)["items"]
    assert on_main["async_over_sync"] == pytest.approx(1.2)
    (on_feature,) = get(client, "/api/v1/compare/modes", suite=SUITE, branch="feature-x")["items"]
    assert on_feature["async_over_sync"] == pytest.approx(3.0)


def test_runs_of_every_branch_are_listed_and_filtered_by_branch(
    client: TestClient, auth: dict[str, str]
) -> None:
    main = upload(client, auth)
    feature = upload(client, auth, git={"branch": "feature-x", "commit": "b2"})
    listed = get(client, "/api/v1/runs", suite=SUITE)["items"]
    assert {r["id"]: (r["branch"], r["commit"]) for r in listed} == {
        main["id"]: ("main", None),
        feature["id"]: ("feature-x", "b2"),
    }
    only = get(client, "/api/v1/runs", suite=SUITE, branch="feature-x")["items"]
    assert [r["id"] for r in only] == [feature["id"]]


def test_a_feature_branch_step_raises_no_regression_on_main(
    client: TestClient, auth: dict[str, str]
) -> None:
    upload_history(client, auth, NOISY_LEVEL, branch="main")
    upload_history(client, auth, [v * 1.3 for v in NOISY_LEVEL], first_day=10, branch="feature")
    assert get(client, "/api/v1/regressions")["items"] == []
    assert get(client, "/api/v1/regressions", branch="feature")["items"] == []
    # The same step on main is found: the rule above is about the branch, not the data.
    upload_history(client, auth, [v * 1.3 for v in NOISY_LEVEL], first_day=10, branch="main")
    (found,) = get(client, "/api/v1/regressions")["items"]
    assert found["series"]["branch"] == "main"


def test_suite_settings_name_the_default_branch_and_list_branches(
    client: TestClient, auth: dict[str, str]
) -> None:
    upload(client, auth)
    upload(client, auth, started_at="2025-03-22T12:00:00Z", git={"branch": "feature-x"})
    suite = get(client, f"/api/v1/suites/{SUITE}")
    assert suite["default_branch"] == "main"
    assert [(b["name"], b["run_count"]) for b in suite["branches"]] == [
        ("feature-x", 1),
        ("main", 1),
    ]
    (listed,) = get(client, "/api/v1/suites")["items"]
    assert (listed["default_branch"], listed["branches"]) == ("main", ["feature-x", "main"])
    assert listed["series_count"] == 1  # the default branch's
    assert client.get("/api/v1/suites/no-such-suite").status_code == 404


def test_changing_the_default_branch_moves_default_views_not_stored_runs(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    before = upload(client, auth)
    trunk = upload(client, auth, started_at="2025-03-21T12:00:00Z", git={"branch": "trunk"})
    response = client.put(
        f"/api/v1/suites/{SUITE}",
        json={"default_branch": "trunk"},
        headers=maintainer(maintain_token),
    )
    assert response.status_code == 200, response.text
    assert response.json()["default_branch"] == "trunk"
    after = upload(client, auth, started_at="2025-03-22T12:00:00Z")
    assert get(client, f"/api/v1/runs/{before['id']}")["branch"] == "main"
    assert get(client, f"/api/v1/runs/{after['id']}")["branch"] == "trunk"
    (series,) = get(client, "/api/v1/series", suite=SUITE)["items"]
    assert series["branch"] == "trunk"
    assert series["run_count"] == 2
    assert series["latest"]["run_id"] == after["id"]
    assert trunk["id"] != after["id"]
    (old,) = get(client, "/api/v1/series", suite=SUITE, branch="main")["items"]
    assert old["latest"]["run_id"] == before["id"]


def test_detection_follows_the_new_default_branch(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    upload(client, auth, started_at="2024-12-01T00:00:00Z")  # creates the suite
    client.put(
        f"/api/v1/suites/{SUITE}",
        json={"default_branch": "trunk"},
        headers=maintainer(maintain_token),
    )
    upload_history(client, auth, STEPPED, branch="trunk")
    (found,) = get(client, "/api/v1/regressions")["items"]
    assert found["series"]["branch"] == "trunk"


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({}, "(body)"),
        ({"default_branch": None}, "default_branch"),
        ({"default_branch": ""}, "default_branch"),
        ({"default_branch": "trunk", "colour": "red"}, "colour"),
    ],
)
def test_bad_suite_settings_are_422_naming_the_field(
    client: TestClient, maintain_token: str, body: dict[str, Any], path: str
) -> None:
    response = client.put(f"/api/v1/suites/{SUITE}", json=body, headers=maintainer(maintain_token))
    assert response.status_code == 422, response.text
    assert path in [field["path"] for field in response.json()["fields"]]


def test_suite_settings_need_a_maintain_token(
    client: TestClient, upload_token: str, maintain_token: str
) -> None:
    path, body = f"/api/v1/suites/{SUITE}", {"default_branch": "trunk"}
    assert client.put(path, json=body).status_code == 401
    assert client.put(path, json=body, headers=maintainer(upload_token)).status_code == 403
    # Settings may come before the first run: the suite is created.
    created = client.put(path, json=body, headers=maintainer(maintain_token))
    assert created.status_code == 200, created.text
    assert created.json() == {
        "suite": SUITE,
        "default_branch": "trunk",
        "branches": [],
        "title": None,
        "description": None,
        "authors": [],
        "links": [],
        "visibility": "public",
        "updated_at": created.json()["updated_at"],
    }
    assert (
        client.put(
            "/api/v1/suites/Not A Slug", json=body, headers=maintainer(maintain_token)
        ).status_code
        == 422
    )
