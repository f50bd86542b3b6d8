"""Monthly partitions of `result` (partitions.py) and retention (retention.py)."""

from collections.abc import Iterator
from datetime import UTC, date, datetime
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, Engine, text
from sqlalchemy.orm import Session

from benchboard.config import Settings
from benchboard.database_server import recreate_database
from benchboard.db import make_engine
from benchboard.migrate import upgrade_database
from benchboard.partitions import MONTHS_AHEAD, maintain_partitions, monthly_partitions
from benchboard.retention import apply_retention, cutoff_for
from benchboard.runs.body import parse_upload
from benchboard.runs.service import store_run
from tests.builders import result, run

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def _partition_of_results(connection: Connection, run_id: str) -> set[str]:
    rows = connection.execute(
        text("SELECT DISTINCT tableoid::regclass::text FROM result WHERE run_id = :id"),
        {"id": run_id},
    )
    return set(rows.scalars())


def test_maintenance_makes_the_coming_months_and_moves_rows_out_of_the_default(
    client: TestClient, connection: Connection, auth: dict[str, str]
) -> None:
    old = run(started_at="2019-05-04T10:00:00Z")
    assert client.post("/api/v1/runs", json=old, headers=auth).status_code == 201
    assert _partition_of_results(connection, old["id"]) == {"result_default"}
    created = maintain_partitions(connection, today=date(2031, 2, 10))
    assert created[0] == "result_p201905"
    assert {"result_p203102", "result_p203105"} <= set(created)
    assert _partition_of_results(connection, old["id"]) == {"result_p201905"}
    months = monthly_partitions(connection)
    assert {date(2031, 2 + ahead, 1) for ahead in range(MONTHS_AHEAD + 1)} <= months.keys()
    assert maintain_partitions(connection, today=date(2031, 2, 10)) == []  # idempotent
    series_id = connection.scalar(
        text("SELECT series_id FROM result WHERE run_id = :id"), {"id": old["id"]}
    )
    history = client.get(f"/api/v1/series/{series_id}/history").json()
    assert [p["run_id"] for p in history["points"]] == [old["id"]]


def test_the_cutoff_counts_calendar_months() -> None:
    assert cutoff_for("2y", NOW) == datetime(2024, 11, 23, 12, 0, tzinfo=UTC)
    assert cutoff_for("9m", datetime(2026, 11, 30, tzinfo=UTC)) == datetime(2026, 2, 28, tzinfo=UTC)
    assert cutoff_for("90d", NOW) == datetime(2026, 8, 25, 12, 0, tzinfo=UTC)
    with pytest.raises(ValueError, match="2y, 18m"):
        cutoff_for("two years", NOW)


@pytest.fixture
def retention_engine(settings: Settings) -> Iterator[Engine]:
    """A database of its own: retention commits batch by batch."""
    scratch = settings.model_copy(update={"database_name": "benchboard_retention_test"})
    engine = make_engine(recreate_database(scratch))
    upgrade_database(scratch, engine)
    yield engine
    engine.dispose()


def _store(engine: Engine, started_at: str, *, branch: str | None = None) -> str:
    body = run(
        started_at=started_at,
        git={"branch": branch, "commit": "abc"} if branch else None,
        results=[result(), result(benchmark="file-write-small")],
    )
    raw = orjson.dumps({key: value for key, value in body.items() if value is not None})
    with Session(engine) as session, session.begin():
        store_run(session, parse_upload(raw), raw_body=raw, uploader=None)
    return str(body["id"])


def _history(engine: Engine) -> dict[str, Any]:
    """Runs left, where their results are, and the totals."""
    with engine.connect() as db:
        return {
            "runs": set(db.execute(text("SELECT id::text FROM run")).scalars()),
            "results": db.scalar(text("SELECT count(*) FROM result")),
            "partitions": set(monthly_partitions(db).values()),
            "run_count": db.scalar(text("SELECT sum(run_count) FROM suite_branch")),
            "series_results": db.scalar(text("SELECT sum(result_count) FROM series")),
        }


def _pin(engine: Engine, finding_run: str, triaged_run: str, noted_run: str) -> None:
    with engine.begin() as db:
        series = db.scalar(text("SELECT min(id) FROM series"))
        db.execute(
            text(
                "INSERT INTO finding (suite, position, numerator_series_id, numerator_run_id,"
                " numerator_label, denominator_series_id, denominator_run_id,"
                " denominator_label, created_by) VALUES ('sync-vs-async-io', 1, :s, :r, 'a',"
                " :s, :r, 'b', 'test')"
            ),
            {"s": series, "r": finding_run},
        )
        for run_id, status in ((triaged_run, "acknowledged"), (noted_run, "untriaged")):
            db.execute(
                text(
                    "INSERT INTO regression (series_id, run_id, started_at, direction,"
                    " relative_change, before_base, after_base, confidence, status)"
                    " SELECT :s, id, started_at, 'regression', 0.3, 1, 1.3, 0.99, :status"
                    " FROM run WHERE id = :r"
                ),
                {"s": series, "r": run_id, "status": status},
            )
        db.execute(
            text(
                "INSERT INTO annotation (text, series_id, run_id, at, created_by)"
                " SELECT 'a note', :s, id, started_at, 'test' FROM run WHERE id = :r"
            ),
            {"s": series, "r": noted_run},
        )


def test_retention_drops_whole_months_and_keeps_pinned_triaged_and_noted_runs(
    retention_engine: Engine,
) -> None:
    engine = retention_engine
    gone_month = [_store(engine, f"2023-03-0{day}T00:00:00Z") for day in (1, 2)]
    finding, triaged, noted, old_too = (
        _store(engine, f"2023-06-0{day}T00:00:00Z") for day in (1, 2, 3, 4)
    )
    straddling_old = _store(engine, "2024-11-02T00:00:00Z")
    recent = [_store(engine, "2024-11-25T00:00:00Z"), _store(engine, "2026-01-01T00:00:00Z")]
    with engine.begin() as db:
        maintain_partitions(db, today=NOW.date())  # the old months get their partitions
    _pin(engine, finding, triaged, noted)

    dry = apply_retention(engine, older_than="2y", other_branches_only=False, dry_run=True, now=NOW)
    assert (dry.runs_removed, dry.results_removed, dry.runs_kept) == (4, 8, 3)
    assert len(_history(engine)["runs"]) == 9

    report = apply_retention(engine, older_than="2y", other_branches_only=False, now=NOW)
    assert report.partitions_dropped == [("result_p202303", 4)]
    assert (report.runs_removed, report.results_removed, report.runs_kept) == (4, 8, 3)
    after = _history(engine)
    assert after["runs"] == {finding, triaged, noted, *recent}
    assert "result_p202303" not in after["partitions"]
    assert {"result_p202306", "result_p202411"} <= after["partitions"]  # mixed: kept
    assert after["results"] == after["series_results"] == 2 * 5  # totals recounted
    assert after["run_count"] == 5
    assert not {old_too, straddling_old, *gone_month} & after["runs"]


def test_retention_of_other_branches_leaves_the_default_branch(
    retention_engine: Engine,
) -> None:
    engine = retention_engine
    main_run = _store(engine, "2023-03-01T00:00:00Z")
    feature_run = _store(engine, "2023-03-02T00:00:00Z", branch="feature")
    with engine.begin() as db:
        maintain_partitions(db, today=NOW.date())
    report = apply_retention(engine, older_than="2y", other_branches_only=True, now=NOW)
    assert (report.partitions_dropped, report.runs_removed, report.results_removed) == ([], 1, 2)
    after = _history(engine)
    assert after["runs"] == {main_run}
    assert after["results"] == 2
    assert feature_run not in after["runs"]
