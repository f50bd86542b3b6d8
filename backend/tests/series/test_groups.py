"""Series groups (series/groups.py) stay what a recount from the series says, through
uploads, run deletion, retention and branch settings; facets read from them agree with
counting the series."""

from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

from benchboard.detection.state import runs_for_a_change
from benchboard.detection.thresholds import SHORT_SEGMENT
from benchboard.retention import apply_retention
from benchboard.runs.totals import recount_totals
from benchboard.series.groups import FEW_RUNS, SHORT_RUNS
from tests.builders import result, run
from tests.seeded import seeded  # noqa: F401  (a fixture)
from tests.test_retention import _store, retention_engine  # noqa: F401  (a fixture)

GROUPS = (
    "SELECT suite, branch, benchmark, language, implementation, mode, variant, hardware_id,"
    " metric, series_count, few_runs_count, short_count FROM series_group"
    " ORDER BY suite, branch, benchmark, language, implementation, mode, variant,"
    " hardware_id, metric"
)
# What the groups must say, counted from the series themselves.
COUNTED = (
    "SELECT suite, branch, benchmark, language, implementation, mode, variant, hardware_id,"  # noqa: S608
    f" metric, count(*), count(*) FILTER (WHERE result_count < {FEW_RUNS}),"
    f" count(*) FILTER (WHERE result_count < {SHORT_RUNS}) FROM series"
    " GROUP BY suite, branch, benchmark, language, implementation, mode, variant,"
    " hardware_id, metric"
    " ORDER BY suite, branch, benchmark, language, implementation, mode, variant,"
    " hardware_id, metric"
)
SUITE = "wide-sweep"


def _rows(connection: Any, sql: str) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in connection.execute(text(sql))]


def _assert_groups_right(connection: Any) -> None:
    assert _rows(connection, GROUPS) == _rows(connection, COUNTED)
    before_first = (  # the kept first id is a lower bound of the group's series ids
        "SELECT count(*) FROM series AS s JOIN series_group AS g"
        " ON (s.suite, s.branch, s.benchmark, s.language, s.hardware_id, s.metric)"
        " = (g.suite, g.branch, g.benchmark, g.language, g.hardware_id, g.metric)"
        " AND s.implementation IS NOT DISTINCT FROM g.implementation"
        " AND s.mode IS NOT DISTINCT FROM g.mode AND s.variant IS NOT DISTINCT FROM g.variant"
        " WHERE s.id < g.first_series_id"
    )
    assert connection.execute(text(before_first)).scalar() == 0


def _sweep(day: int, *, sizes: range = range(3), **fields: Any) -> dict[str, Any]:
    """A run of a parameter sweep: sizes x sync/async of one benchmark."""
    results = [
        result(params={"size": size}, mode=mode, variant=None, value=10.0 + size, **fields)
        for size in sizes
        for mode in ("sync", "async")
    ]
    return run(suite=SUITE, started_at=f"2025-04-{day:02d}T12:00:00Z", results=results)


def _upload(client: TestClient, auth: dict[str, str], body: dict[str, Any]) -> str:
    response = client.post("/api/v1/runs", json=body, headers=auth)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def test_the_kept_thresholds_are_detections() -> None:
    assert runs_for_a_change(replicates=True) == FEW_RUNS
    assert SHORT_SEGMENT == SHORT_RUNS


def test_uploads_and_deletions_keep_the_groups_a_recount_gives(
    client: TestClient, session: Session, auth: dict[str, str], admin_token: str
) -> None:
    recount_totals(session)  # from what other tests' committed clean-ups left
    _assert_groups_right(session)
    _upload(client, auth, _sweep(1))
    _upload(client, auth, _sweep(2, language="go", implementation="net/http"))
    _assert_groups_right(session)
    for day in range(3, 3 + SHORT_RUNS):  # past FEW_RUNS, then past SHORT_RUNS
        _upload(client, auth, _sweep(day, sizes=range(1)))
        _assert_groups_right(session)
    (few, short) = session.execute(
        text(
            "SELECT sum(few_runs_count), sum(short_count) FROM series_group"
            " WHERE suite = :suite AND language = 'dart'"
        ),
        {"suite": SUITE},
    ).one()
    assert (few, short) == (4, 4)  # size 0 grew past both; sizes 1, 2 have one run
    only = _upload(client, auth, _sweep(25, sizes=range(5, 7)))  # new series, one run
    newest = _sweep(26, sizes=range(1))
    _upload(client, auth, newest)
    _assert_groups_right(session)
    admin = {"Authorization": f"Bearer {admin_token}"}
    for run_id in (only, str(newest["id"])):  # empties series; size 0 back under SHORT_RUNS
        assert client.delete(f"/api/v1/runs/{run_id}", headers=admin).status_code == 200
        _assert_groups_right(session)
    assert not _rows(session, f"{GROUPS.split(' ORDER')[0]} WHERE series_count <= 0")


def test_retention_keeps_the_groups_a_recount_gives(retention_engine: Engine) -> None:  # noqa: F811
    engine = retention_engine
    for started_at in ("2023-03-01T00:00:00Z", "2023-03-02T00:00:00Z", "2026-01-01T00:00:00Z"):
        _store(engine, started_at)
    now = datetime(2026, 11, 20, tzinfo=UTC)
    report = apply_retention(engine, older_than="2y", other_branches_only=False, now=now)
    assert report.runs_removed == 2
    with engine.connect() as connection:
        _assert_groups_right(connection)
        short = connection.execute(text("SELECT sum(few_runs_count) FROM series_group")).scalar()
        assert short == 2  # each series back to one result


def _facets(client: TestClient, **filters: Any) -> dict[str, Any]:
    response = client.get("/api/v1/facets", params=filters)
    assert response.status_code == 200, response.text
    dimensions: dict[str, Any] = response.json()["dimensions"]
    return dimensions


def _counted_facets(client: TestClient, **filters: Any) -> dict[str, Any]:
    """The same facets counted from the series: `since` selects series by their results."""
    return _facets(client, since="1970-01-01T00:00:00Z", **filters)


@pytest.mark.usefixtures("seeded")
@pytest.mark.parametrize(
    "filters",
    [
        {},
        {"mode": "async"},
        {"suite": "fio-sync-vs-async"},
        {"language": ["dart", "go"], "metric": "time_per_op"},
        {"hardware": "nonexistent"},
        {"branch": "main"},
    ],
)
def test_facets_from_groups_equal_counting_series(
    client: TestClient, filters: dict[str, Any]
) -> None:
    assert _facets(client, **filters) == _counted_facets(client, **filters)


def test_facets_follow_the_default_branch_setting(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    _upload(client, auth, _sweep(1))
    feature = _sweep(2, sizes=range(5), benchmark="feature-only")
    _upload(client, auth, {**feature, "git": {"branch": "feature", "commit": "abc"}})
    suite = {"suite": SUITE}
    assert _facets(client, **suite)["benchmark"] == [{"value": "file-write-tiny", "count": 6}]
    response = client.put(
        f"/api/v1/suites/{SUITE}",
        json={"default_branch": "feature"},
        headers={"Authorization": f"Bearer {maintain_token}"},
    )
    assert response.status_code == 200, response.text
    facets = _facets(client, **suite)
    assert facets["benchmark"] == [{"value": "feature-only", "count": 10}]
    assert facets == _counted_facets(client, **suite)
    branches = {value["value"]: value["count"] for value in facets["branch"]}
    assert branches == {"feature": 10, "main": 6}  # the branch facet counts every branch


def _support(client: TestClient) -> tuple[int, int]:
    response = client.get("/api/v1/regressions", params={"suite": SUITE})
    assert response.status_code == 200, response.text
    page = response.json()
    assert page["items"] == []
    return page["history_support"]["series"], page["history_support"]["short_series"]


def test_the_regressions_support_note_counts_short_series_from_the_groups(
    client: TestClient, auth: dict[str, str]
) -> None:
    _upload(client, auth, _sweep(1))
    for day in range(2, 2 + SHORT_RUNS):
        _upload(client, auth, _sweep(day, sizes=range(1)))
    # Sizes 1 and 2 have one run (short), size 0 seventeen without a change: the groups
    # say so, no series is read.
    assert _support(client) == (6, 4)
    for day in range(20, 25):
        _upload(client, auth, _sweep(day, sizes=range(1, 2)))
    # Size 1 now has six runs: between the thresholds, so its runs are read (long enough).
    assert _support(client) == (6, 2)
