"""Retention (retention.py): whole months dropped, kept runs kept, the CLI."""

import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
import pytest
from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

from benchboard import retention
from benchboard.config import Settings
from benchboard.database_server import recreate_database
from benchboard.db import make_engine
from benchboard.migrate import upgrade_database
from benchboard.partitions import maintain_partitions, monthly_partitions
from benchboard.retention import apply_retention, cutoff_for
from benchboard.runs.body import parse_upload
from benchboard.runs.store import store_run
from tests.builders import result, run
from tests.processes import service_env, wait_for

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


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


def test_a_month_whose_lock_is_busy_goes_in_batches_and_is_dropped_later(
    retention_engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The DROP never waits long for its lock on `result` (later uploads and reads would
    queue behind it): a long read holds the month, so its runs go in batches."""
    engine = retention_engine
    monkeypatch.setattr(retention, "DROP_LOCK_TIMEOUT", "100ms")
    monkeypatch.setattr(retention, "DROP_PAUSE_S", 0.1)
    gone = {_store(engine, f"2023-03-0{day}T00:00:00Z") for day in (1, 2)}
    recent = _store(engine, "2026-01-01T00:00:00Z")
    with engine.begin() as db:
        maintain_partitions(db, today=NOW.date())
    with ThreadPoolExecutor(1) as pool, engine.connect() as reader, reader.begin():
        reader.execute(text("SELECT count(*) FROM result"))  # holds ACCESS SHARE on result
        removing = pool.submit(
            apply_retention, engine, older_than="2y", other_branches_only=False, now=NOW
        )
        # Without a bounded wait the DROP waits for this reader: the timeout ends the
        # reader's transaction, then the test fails.
        report = removing.result(timeout=60)
    assert (report.partitions_busy, report.partitions_dropped) == (["result_p202303"], [])
    assert (report.runs_removed, report.results_removed) == (2, 4)
    after = _history(engine)
    assert after["runs"] == {recent}
    assert not gone & after["runs"]
    assert "result_p202303" in after["partitions"]  # empty now
    again = apply_retention(engine, older_than="2y", other_branches_only=False, now=NOW)
    assert (again.partitions_busy, again.partitions_dropped) == ([], [("result_p202303", 0)])
    assert "result_p202303" not in _history(engine)["partitions"]


def _cli(engine: Engine, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "benchboard.cli", "retention", *args],
        env=service_env(engine),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_reports_a_dry_run_then_drops_the_old_months(retention_engine: Engine) -> None:
    engine = retention_engine
    gone = {_store(engine, f"2023-03-0{day}T00:00:00Z") for day in (1, 2)}
    month_ago = datetime.now(UTC) - timedelta(days=30)
    recent = _store(engine, month_ago.isoformat(timespec="seconds").replace("+00:00", "Z"))

    dry = _cli(engine, "--older-than", "2y", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "would remove 2 runs and 4 results" in dry.stdout
    assert "dropped partition" not in dry.stdout
    assert _history(engine)["runs"] == {*gone, recent}

    done = _cli(engine, "--older-than", "2y")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("runs started before ")
    assert lines[1:] == [
        "  dropped partition result_p202303 (4 results)",
        "  removed 2 runs and 4 results",
        "  kept 0 runs pinned by findings, triaged regressions or notes",
    ]
    after = _history(engine)
    assert after["runs"] == {recent}
    assert "result_p202303" not in after["partitions"]

    wrong = _cli(engine, "--older-than", "two years")
    assert wrong.returncode != 0
    assert "--older-than: 'two years' is not an age like 2y" in wrong.stderr


def test_a_run_killed_between_a_drop_and_its_recount_is_recounted_by_the_next(
    retention_engine: Engine,
) -> None:
    """The retention process is killed while its recount waits for a lock this test holds
    on `series`: its DROP and deletes are committed, its totals are not. The next run has
    nothing left to remove and recounts first."""
    engine = retention_engine
    gone = {_store(engine, f"2023-03-0{day}T00:00:00Z") for day in (1, 2)}
    kept = _store(engine, "2026-01-01T00:00:00Z")
    with engine.begin() as db:
        maintain_partitions(db, today=NOW.date())
    with engine.connect() as blocker:
        blocker.execute(text("LOCK TABLE series IN EXCLUSIVE MODE"))  # reads go on, no UPDATE
        killed = subprocess.Popen(
            [sys.executable, "-m", "benchboard.cli", "retention", "--older-than", "2y"],
            env=service_env(engine),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            recounting = wait_for("the recount waiting for its lock", lambda: _waiting(engine))
        finally:
            killed.kill()
            killed.wait()
        with engine.connect() as admin:  # the crash took its connection too
            admin.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": recounting})
        blocker.rollback()
    crashed = _history(engine)
    assert crashed["runs"] == {kept}
    assert "result_p202303" not in crashed["partitions"]
    assert (crashed["results"], crashed["series_results"], crashed["run_count"]) == (2, 6, 3)

    rerun = apply_retention(engine, older_than="2y", other_branches_only=False)
    after = _history(engine)
    assert (after["results"], after["series_results"], after["run_count"]) == (2, 2, 1)
    assert (rerun.recovered, rerun.runs_removed, rerun.partitions_dropped) == (True, 0, [])
    assert not gone & after["runs"]
    again = apply_retention(engine, older_than="2y", other_branches_only=False)
    assert not again.recovered  # nothing was left stale


def _waiting(engine: Engine) -> int | None:
    """The backend of a recount waiting for a lock, if one is."""
    with engine.connect() as db:
        pid: int | None = db.scalar(
            text(
                "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND query LIKE '%recount_totals%' AND datname = current_database()"
            )
        )
        return pid
