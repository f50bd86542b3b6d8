"""Totals kept at write time (runs/totals.py) and the documents PostgreSQL writes."""

from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from benchboard.compare.schemas import ModeComparison
from benchboard.runs.totals import recount_totals
from benchboard.series.schemas import SeriesOut, SeriesPage
from tests.builders import result, run
from tests.seeded import seeded  # noqa: F401  (a fixture)

SERIES_TOTALS = "SELECT id, result_count, first_started_at, last_started_at FROM series ORDER BY id"
SUITE_TOTALS = "SELECT * FROM suite_branch ORDER BY suite, branch"


def _snapshot(session: Session) -> tuple[list[Any], list[Any]]:
    series = [tuple(row) for row in session.execute(text(SERIES_TOTALS))]
    suites = [tuple(row) for row in session.execute(text(SUITE_TOTALS))]
    return series, suites


def _upload(client: TestClient, auth: dict[str, str], **fields: Any) -> None:
    response = client.post("/api/v1/runs", json=run(**fields), headers=auth)
    assert response.status_code == 201, response.text


@pytest.mark.usefixtures("seeded")
def test_totals_kept_by_uploads_equal_a_recount_from_the_rows(
    client: TestClient, session: Session, auth: dict[str, str]
) -> None:
    recount_totals(session)  # from what other tests' committed clean-ups left
    # Out of time order, another branch, a new language, a name sharing less, no name.
    _upload(client, auth, started_at="2025-03-21T12:00:00Z", name="Dart tiny file reads")
    _upload(client, auth, started_at="2025-03-19T12:00:00Z", name=None)
    _upload(
        client,
        auth,
        git={"branch": "feature", "commit": "abc"},
        results=[result(), result(language="go", implementation="os")],
    )
    kept = _snapshot(session)
    recount_totals(session)
    assert _snapshot(session) == kept
    counts = {row[1] for row in kept[0]}
    assert max(counts) == 2  # the two uploads to main share their one series
    branches = {
        row.branch: row
        for row in session.execute(
            text("SELECT * FROM suite_branch WHERE suite = 'sync-vs-async-io'")
        )
    }
    feature = branches["feature"]
    assert (feature.run_count, feature.series_count, feature.languages) == (1, 2, ["dart", "go"])
    assert (branches["main"].name_prefix, branches["main"].names_differ) == (
        "Dart tiny file reads",
        False,
    )
    suites = client.get("/api/v1/suites").json()["items"]
    (suite,) = [s for s in suites if s["suite"] == "sync-vs-async-io"]
    assert suite["title"] == "Dart tiny file"  # what both branches' names share
    assert (suite["run_count"], suite["branches"]) == (3, ["feature", "main"])


@pytest.mark.usefixtures("seeded")
def test_series_list_and_mode_pairs_are_their_models(client: TestClient) -> None:
    """PostgreSQL writes the series list and the service dumps the pairs directly: both
    must be exactly the documented schemas."""
    page = client.get("/api/v1/series", params={"limit": 500}).json()
    SeriesPage.model_validate(page)
    assert page["items"]
    for item in page["items"]:
        assert set(item) == set(SeriesOut.model_fields)
    assert any(item["latest"] is not None for item in page["items"])
    pairs = client.get("/api/v1/compare/modes").json()
    assert ModeComparison.model_validate(pairs).items
    assert all("async" in pair for pair in pairs["items"])


@pytest.mark.usefixtures("seeded")
def test_deleting_a_run_takes_it_out_of_the_totals(
    client: TestClient, session: Session, auth: dict[str, str], admin_token: str
) -> None:
    recount_totals(session)
    first = run(started_at="2025-03-21T12:00:00Z")
    last = run(started_at="2025-03-22T12:00:00Z", name="Dart tiny file reads")
    for body in (first, last):
        assert client.post("/api/v1/runs", json=body, headers=auth).status_code == 201
    deleted = client.delete(
        f"/api/v1/runs/{last['id']}", headers={"Authorization": f"Bearer {admin_token}"}
    )
    assert deleted.status_code == 200, deleted.text
    kept = _snapshot(session)
    recount_totals(session)
    assert _snapshot(session) == kept
    first_at = datetime(2025, 3, 21, 12, tzinfo=UTC)
    (series,) = [row for row in kept[0] if row[3] == first_at]
    assert series[1:] == (1, first_at, first_at)  # its newest run is the first one again


def test_a_batch_of_runs_out_of_time_order_counts_each_series_first_and_last_run(
    client: TestClient, session: Session, auth: dict[str, str]
) -> None:
    """One request, three runs at three times (newest first) over two new series, one in
    all three runs and one in two: counts, first and last runs as a recount gives them."""
    recount_totals(session)
    every, some = result(benchmark="batch-totals-a"), result(benchmark="batch-totals-b")
    runs = [
        run(started_at="2025-04-03T12:00:00Z", results=[every, some]),
        run(started_at="2025-04-01T12:00:00Z", results=[every]),
        run(started_at="2025-04-02T12:00:00Z", results=[every, some]),
    ]
    response = client.post("/api/v1/runs/batch", json={"runs": runs}, headers=auth)
    assert response.status_code == 201, response.text
    kept = _snapshot(session)
    recount_totals(session)
    assert _snapshot(session) == kept
    totals = session.execute(
        text(
            "SELECT benchmark, result_count, first_started_at, last_started_at FROM series"
            " WHERE benchmark LIKE 'batch-totals-%' ORDER BY benchmark"
        )
    ).all()
    day = [datetime(2025, 4, d, 12, tzinfo=UTC) for d in (1, 2, 3)]
    assert [tuple(row) for row in totals] == [
        ("batch-totals-a", 3, day[0], day[2]),
        ("batch-totals-b", 2, day[1], day[2]),
    ]
