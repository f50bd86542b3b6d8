"""Facets, series, history and runs lists over the seed studies."""

import itertools
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, event

from benchboard.pagination import PAGE_DEFAULT
from benchboard.series.schemas import SeriesHistory
from tests.builders import result, run
from tests.seeded import (  # noqa: F401  (seeded is a fixture)
    demo_result_count,
    demo_run_count,
    demo_series_count,
    demo_suites,
    seeded,
)


def get(client: TestClient, path: str, **params: Any) -> Any:
    response = client.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.usefixtures("seeded")
def test_facets_count_under_the_other_filters(client: TestClient) -> None:
    facets = get(client, "/api/v1/facets", language="dart", mode="async")["dimensions"]
    assert set(facets) == {
        "suite",
        "benchmark",
        "language",
        "implementation",
        "mode",
        "variant",
        "hardware",
        "metric",
        "branch",
    }
    assert facets["branch"] == [
        {"value": "main", "count": sum(s["count"] for s in facets["suite"])}
    ]
    # The language facet ignores the language filter, so other languages stay choosable.
    assert {v["value"] for v in facets["language"]} >= {"dart", "c", "csharp"}
    assert {v["value"] for v in facets["mode"]} == {"sync", "async"}
    suites = {v["value"]: v["count"] for v in facets["suite"]}
    assert set(suites) == {"dart-async-file-writes", "dart-isolate-messaging"}
    series = get(
        client, "/api/v1/series", language="dart", mode="async", suite="dart-async-file-writes"
    )["items"]
    assert suites["dart-async-file-writes"] == len(series)


@pytest.mark.usefixtures("seeded")
def test_series_filters_combine_and_repeat(client: TestClient) -> None:
    items = get(client, "/api/v1/series", language=["go", "dart"], mode="sync")["items"]
    assert items
    assert {i["language"] for i in items} <= {"go", "dart"}
    assert {i["mode"] for i in items} == {"sync"}


@pytest.mark.usefixtures("seeded")
def test_series_carry_their_latest_value(client: TestClient) -> None:
    (item,) = [
        i
        for i in get(
            client,
            "/api/v1/series",
            suite="dart-async-file-writes",
            mode="async",
            variant="sequential",
        )["items"]
        if i["params"].get("writes") == 10000
    ]
    assert item["latest"]["value"] == 119.898
    assert item["unit"] == "us"
    assert item["direction"] == "lower"
    assert item["run_count"] == 1


@pytest.mark.usefixtures("seeded")
def test_series_pages_with_a_cursor(client: TestClient) -> None:
    ids = [item["id"] for item in all_pages(client, "/api/v1/series", limit=50)]
    assert len(ids) == len(set(ids)) == demo_series_count()
    assert ids == sorted(ids)


@pytest.mark.usefixtures("seeded")
def test_series_list_without_a_limit_is_one_default_page(client: TestClient) -> None:
    assert demo_series_count() > PAGE_DEFAULT
    page = get(client, "/api/v1/series")
    assert len(page["items"]) == PAGE_DEFAULT
    assert page["next_cursor"] is not None


def all_pages(client: TestClient, path: str, **params: Any) -> list[dict[str, Any]]:
    """Every item of a paged list, following next_cursor; each page within the limit."""
    items: list[dict[str, Any]] = []
    page = get(client, path, **params)
    while True:
        assert len(page["items"]) <= params["limit"]
        items += page["items"]
        if page["next_cursor"] is None:
            return items
        page = get(client, path, **params, cursor=page["next_cursor"])


def test_a_few_series_far_apart_page_in_order_whatever_the_walk_finds(
    client: TestClient, auth: dict[str, str]
) -> None:
    """A filter matching a few series: a page walks a short window of ids from the first
    match, and reads every matching id when that window does not fill it (series/service.py)."""

    def sweep(benchmark: str, sizes: range) -> None:
        results = [result(benchmark=benchmark, params={"n": n}) for n in sizes]
        stored = client.post("/api/v1/runs", json=run(results=results), headers=auth)
        assert stored.status_code == 201, stored.text

    sweep("sparse", range(3))
    sweep("filler", range(45))  # past the window of a 2-series page: (2 + 1) x 10 ids
    sweep("sparse", range(10, 14))
    everything = all_pages(client, "/api/v1/series", benchmark="sparse", limit=100)
    ids = [item["id"] for item in everything]
    assert len(ids) == 7
    assert ids == sorted(ids)
    assert ids[3] - ids[2] > 30  # the second sweep is beyond the first page's window
    for limit in (1, 2, 3, 5, 7):
        paged = all_pages(client, "/api/v1/series", benchmark="sparse", limit=limit)
        assert [item["id"] for item in paged] == ids, limit
    assert sorted(item["params"]["n"] for item in everything) == [0, 1, 2, 10, 11, 12, 13]


def test_bad_cursor_is_422(client: TestClient) -> None:
    response = client.get("/api/v1/series", params={"cursor": "not-a-cursor"})
    assert response.status_code == 422
    assert response.json()["fields"][0]["path"] == "cursor"


def test_bad_query_parameters_are_422_naming_each(client: TestClient) -> None:
    response = client.get("/api/v1/series", params={"limit": 0, "since": "yesterday"})
    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "validation_error"
    assert {field["path"] for field in body["fields"]} == {"limit", "since"}
    assert body["message"].startswith("invalid request: ")


@pytest.mark.usefixtures("seeded")
def test_suites_summarize_each_study(client: TestClient) -> None:
    suites = {s["suite"]: s for s in get(client, "/api/v1/suites")["items"]}
    assert set(suites) == demo_suites()
    for name, suite in suites.items():
        assert (suite["run_count"], suite["result_count"]) == (
            demo_run_count(name),
            demo_result_count(name),
        )
    assert set(suites["go-vs-dart-rest"]["languages"]) == {"go", "dart"}
    assert sum(s["result_count"] for s in suites.values()) == demo_result_count()


@pytest.mark.usefixtures("seeded")
def test_runs_list_filters_and_pages(client: TestClient) -> None:
    runs = all_pages(client, "/api/v1/runs", suite="go-vs-dart-rest", limit=2)
    assert len(runs) == len({r["id"] for r in runs}) == demo_run_count("go-vs-dart-rest") > 2
    keys = [(r["started_at"], r["id"]) for r in runs]
    assert keys == sorted(keys, reverse=True)  # newest first
    assert (
        get(client, "/api/v1/runs", hardware="do-8vcpu-dedicated")["items"][0]["suite"]
        == "go-vs-dart-rest"
    )
    assert get(client, "/api/v1/runs", since="2030-01-01T00:00:00Z")["items"] == []


def test_unknown_run_is_404(client: TestClient) -> None:
    response = client.get("/api/v1/runs/00000000-0000-0000-0000-000000000000")
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


def test_history_is_in_time_order_and_downsamples(client: TestClient, auth: dict[str, str]) -> None:
    run_ids: list[str] = []  # by day
    for day in range(1, 31):
        body = run(started_at=f"2025-01-{day:02d}T00:00:00Z", results=[result(value=float(day))])
        response = client.post("/api/v1/runs", json=body, headers=auth)
        assert response.status_code == 201, response.text
        run_ids.append(response.json()["id"])
    (series,) = get(client, "/api/v1/series")["items"]
    full = get(client, f"/api/v1/series/{series['id']}/history")
    SeriesHistory.model_validate(full)  # PostgreSQL writes the points: same schema
    assert [p["value"] for p in full["points"]] == [float(d) for d in range(1, 31)]
    assert full["downsampled"] is False
    # A point of one run leaves out the bucket's extremes (optional in the schema).
    assert all(
        p["count"] == 1 and p.keys().isdisjoint({"min_base", "max_base"}) for p in full["points"]
    )
    small = get(client, f"/api/v1/series/{series['id']}/history", max_points=10)
    SeriesHistory.model_validate(small)
    assert small["downsampled"] is True
    assert small["total_points"] == 30
    assert len(small["points"]) == 10
    assert sum(p["count"] for p in small["points"]) == 30
    assert small["points"][0]["min_base"] == pytest.approx(1e-6)
    # Each bucket links to its newest run: the last of the days it counts.
    last_days = list(itertools.accumulate(p["count"] for p in small["points"]))
    assert [p["run_id"] for p in small["points"]] == [run_ids[day - 1] for day in last_days]
    window = get(
        client,
        f"/api/v1/series/{series['id']}/history",
        since="2025-01-10T00:00:00Z",
        until="2025-01-12T00:00:00Z",
    )
    assert [p["value"] for p in window["points"]] == [10.0, 11.0, 12.0]


def test_reads_can_require_a_token(
    client: TestClient, upload_token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client.app.state.settings, "public_read", False)  # type: ignore[attr-defined]
    assert client.get("/api/v1/series").status_code == 401
    assert client.get("/api/v1/series", headers={"Authorization": "Bearer bb_x"}).status_code == 401
    headers = {"Authorization": f"Bearer {upload_token}"}
    assert client.get("/api/v1/series", headers=headers).status_code == 200


@pytest.mark.usefixtures("seeded")
def test_runs_filter_by_tags(client: TestClient) -> None:
    estimated = get(client, "/api/v1/runs", tag="date_estimated=true")["items"]
    assert estimated
    assert all(r["tags"]["date_estimated"] == "true" for r in estimated)
    assert len(estimated) < len(get(client, "/api/v1/runs")["items"])
    response = client.get("/api/v1/runs", params={"tag": "no-equals-sign"})
    assert response.status_code == 422
    assert response.json()["fields"][0]["path"] == "tag"


def test_a_downsampled_window_counts_its_points_and_speaks_the_series_unit(
    client: TestClient, auth: dict[str, str]
) -> None:
    # The series' unit is the first upload's (us); later runs report ms of the same time.
    for day in range(1, 31):
        unit, value = ("us", 1000.0 * day) if day == 1 else ("ms", float(day))
        body = run(
            started_at=f"2025-01-{day:02d}T00:00:00Z",
            results=[result(unit=unit, value=value)],
        )
        response = client.post("/api/v1/runs", json=body, headers=auth)
        assert response.status_code == 201, response.text
    (series,) = get(client, "/api/v1/series")["items"]
    assert series["unit"] == "us"
    window = get(
        client,
        f"/api/v1/series/{series['id']}/history",
        since="2025-01-11T00:00:00Z",
        until="2025-01-30T00:00:00Z",
        max_points=10,
    )
    SeriesHistory.model_validate(window)
    assert window["downsampled"] is True
    assert window["total_points"] == 20
    assert sum(p["count"] for p in window["points"]) == 20
    # Days 11-30 in 10 equal buckets of two days: means in us, extremes in seconds.
    assert [p["value"] for p in window["points"]] == pytest.approx(
        [1000.0 * (day + 0.5) for day in range(11, 31, 2)]
    )
    assert window["points"][0]["min_base"] == pytest.approx(0.011)
    assert {p["unit"] for p in window["points"]} == {"us"}


def test_history_points_carry_numbers_and_stats_as_uploaded(
    client: TestClient, auth: dict[str, str]
) -> None:
    """PostgreSQL joins each point's JSON from its columns' text (history.py): numbers of
    any magnitude and a run's stats come back as uploaded, in a valid document."""
    stats = {"n": 7, "mean": 1.5e-300, "p99": 2.5e149, "stddev": 0.125}
    for day, value, stats_of in ((1, 1.234e-7, stats), (2, 6.02e23, None)):
        body = run(
            started_at=f"2025-01-0{day}T00:00:00Z",
            results=[result(value=value, stats=stats_of)],
        )
        response = client.post("/api/v1/runs", json=body, headers=auth)
        assert response.status_code == 201, response.text
    (series,) = get(client, "/api/v1/series")["items"]
    history = get(client, f"/api/v1/series/{series['id']}/history")
    SeriesHistory.model_validate(history)
    # jsonb keeps numeric: it writes 2.5e149 out as 150 digits, the same number.
    values = [
        (p["value"], p["stats"] and {k: float(v) for k, v in p["stats"].items()})
        for p in history["points"]
    ]
    assert values == [(1.234e-7, stats), (6.02e23, None)]
    assert [p["started_at"] for p in history["points"]] == [
        "2025-01-01T00:00:00+00:00",
        "2025-01-02T00:00:00+00:00",
    ]


def test_history_of_an_unknown_series_is_404(client: TestClient) -> None:
    response = client.get("/api/v1/series/999999/history")
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


def test_a_history_is_two_statements_planned_generically(
    client: TestClient, auth: dict[str, str], connection: Connection
) -> None:
    """The series' lookup sets plan_cache_mode for the transaction (set_config): no SET
    statement of its own."""
    response = client.post("/api/v1/runs", json=run(), headers=auth)
    assert response.status_code == 201, response.text
    (series,) = get(client, "/api/v1/series")["items"]
    statements: list[str] = []

    def record(*args: Any) -> None:
        statements.append(args[2])

    event.listen(connection, "before_cursor_execute", record)
    try:
        get(client, f"/api/v1/series/{series['id']}/history")
    finally:
        event.remove(connection, "before_cursor_execute", record)
    version, *reads = [sql for sql in statements if "SAVEPOINT" not in sql]
    assert "pg_current_snapshot" in version  # the ETag's (caching.py), before every read
    assert len(reads) == 2, reads
    assert "set_config" in reads[0]
    assert "string_agg" in reads[1]  # the points
    # is_local: it lasts until the (test's) transaction ends, like SET LOCAL.
    assert connection.exec_driver_sql("SHOW plan_cache_mode").scalar() == "force_generic_plan"
