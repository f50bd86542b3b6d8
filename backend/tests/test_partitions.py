"""Monthly partitions of `result` (partitions.py), and reads that stay on their months."""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

import orjson
import psycopg
from fastapi.testclient import TestClient
from sqlalchemy import Connection, text
from sqlalchemy.orm import Session

from benchboard.partitions import (
    MONTHS_AHEAD,
    create_months,
    maintain_partitions,
    monthly_partitions,
    months_between,
    partition_name,
)
from benchboard.regressions.histories import read_histories
from tests.builders import result, run


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


# Reads stay index-driven on the partitioned table: the plans PostgreSQL ran for the
# service's own statements (auto_explain, as each statement ends, sent to this client as
# a notice), not copies of their SQL, so generic plans and run-time pruning are as served.
_EXPLAIN_AS_NOTICES = {
    "log_min_duration": "0",
    "log_analyze": "on",
    "log_timing": "off",
    "log_format": "json",
    "log_level": "notice",
}


@dataclass(frozen=True)
class _Scan:
    partition: str
    node: str
    index: str | None


@contextmanager
def _scans_of_result(connection: Connection) -> Iterator[list[_Scan]]:
    """The scans of `result`'s partitions that ran (run-time pruned ones did not) in the
    statements of this block; the list is filled when the block ends."""
    driver = connection.connection.driver_connection
    assert isinstance(driver, psycopg.Connection)
    plans: list[str] = []

    def collect(notice: psycopg.errors.Diagnostic) -> None:
        plans.append(notice.message_primary or "")

    connection.execute(text("LOAD 'auto_explain'"))
    for name, value in _EXPLAIN_AS_NOTICES.items():
        connection.execute(text(f"SET LOCAL auto_explain.{name} = '{value}'"))
    scans: list[_Scan] = []
    driver.add_notice_handler(collect)
    try:
        yield scans
        # A streamed statement's plan comes with the next round trip.
        connection.execute(text("SELECT 1"))
    finally:
        driver.remove_notice_handler(collect)
        connection.execute(text("SET LOCAL auto_explain.log_min_duration = -1"))
    for plan in plans:
        scans += _executed_scans(orjson.loads(plan.split("plan:\n", 1)[1])["Plan"])


def _executed_scans(node: dict[str, Any]) -> list[_Scan]:
    found = []
    if node.get("Relation Name", "").startswith("result_") and node["Actual Loops"] > 0:
        found.append(_Scan(node["Relation Name"], node["Node Type"], node.get("Index Name")))
    for child in node.get("Plans", []):
        found += _executed_scans(child)
    return found


def _partition_indexes(connection: Connection, parent: str) -> set[str]:
    return set(
        connection.scalars(
            text(
                "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid"
                " WHERE i.inhparent = CAST(:parent AS regclass)"
            ),
            {"parent": parent},
        )
    )


# The series' months; before, between and after them, months of other series only.
SERIES_MONTHS = (2, 3, 5)
# Other series' runs, FILLER_SERIES results each, every FILLER_EVERY through January
# to July: ~9,000 results a month, enough for the planner to cost a partition as a big
# one (with a few hundred rows it rightly takes any index for the latest value, a skip
# scan of the primary key too). Copies of one uploaded run, written by SQL in a second.
FILLER_SERIES = 100
FILLER_EVERY = "8 hours"
_COPIES_OF_RUN = text(
    "WITH copies AS ("
    " INSERT INTO run (id, suite, name, started_at, branch, hardware_id, result_count,"
    " upload_body, upload_sha256)"
    " SELECT gen_random_uuid(), suite, name, at, branch, hardware_id, result_count,"
    " upload_body, upload_sha256"
    " FROM run, generate_series(started_at + CAST(:every AS interval),"
    " CAST('2021-07-31' AS timestamptz), CAST(:every AS interval)) AS at"
    " WHERE id = :run RETURNING id, started_at)"
    " INSERT INTO result (run_id, series_id, started_at, value, unit, value_base)"
    " SELECT copies.id, series_id, copies.started_at, value, unit, value_base"
    " FROM copies CROSS JOIN result WHERE result.run_id = :run"
)


def _store_series_over_months(
    client: TestClient, connection: Connection, auth: dict[str, str]
) -> None:
    """A series with runs on the 4th and the 18th of each of SERIES_MONTHS of 2021 (the
    March runs with replicates), among other series' runs in every month from January
    to July."""
    filler = run(
        started_at="2021-01-01T00:00:00Z",
        results=[result(benchmark=f"other-{index}") for index in range(FILLER_SERIES)],
    )
    bodies = [filler]
    for month in SERIES_MONTHS:
        replicates = [1.0, 2.0, 3.0] if month == 3 else None
        bodies += [
            run(
                started_at=f"2021-{month:02d}-{day:02d}T10:00:00Z",
                results=[result(samples=replicates)],
            )
            for day in (4, 18)
        ]
    for body in bodies:
        assert client.post("/api/v1/runs", json=body, headers=auth).status_code == 201
    connection.execute(_COPIES_OF_RUN, {"run": filler["id"], "every": FILLER_EVERY})


def _months(scans: list[_Scan]) -> set[str]:
    return {scan.partition for scan in scans}


def test_history_latest_value_and_detection_read_the_series_months_by_index(
    client: TestClient, connection: Connection, session: Session, auth: dict[str, str]
) -> None:
    create_months(connection, [date(2021, month, 1) for month in range(1, 8)])
    _store_series_over_months(client, connection, auth)
    connection.execute(text("ANALYZE result"))  # as autovacuum would have
    series_id = connection.scalar(
        text("SELECT id FROM series WHERE benchmark = :benchmark"),
        {"benchmark": result()["benchmark"]},
    )
    history_index = _partition_indexes(connection, "ix_result_series_started_at")
    samples_index = _partition_indexes(connection, "ix_result_series_started_at_with_samples")
    # From the series' first month to its last, the gap between included.
    first, last = (datetime(2021, SERIES_MONTHS[end], 1, tzinfo=UTC) for end in (0, -1))
    series_months = {partition_name(month) for month in months_between(first, last)}

    with _scans_of_result(connection) as scans:
        response = client.get(f"/api/v1/series/{series_id}/history")
    assert len(response.json()["points"]) == 2 * len(SERIES_MONTHS)
    assert _months(scans) == series_months
    assert {(scan.node, scan.index in history_index) for scan in scans} == {
        ("Index Only Scan", True)
    }

    with _scans_of_result(connection) as scans:
        response = client.get("/api/v1/series", params={"benchmark": result()["benchmark"]})
    [item] = response.json()["items"]
    assert item["latest"]["started_at"].startswith(f"2021-{SERIES_MONTHS[-1]:02d}-18")
    [scan] = scans  # one lookup, in the newest month only
    assert scan.partition == partition_name(last.date())
    assert scan.node in {"Index Scan", "Index Only Scan"}
    assert scan.index in history_index

    with _scans_of_result(connection) as scans:
        [history] = read_histories(session, [series_id])
    assert len(history.keys) == 2 * len(SERIES_MONTHS)
    assert list(history.samples.values()) == [[1.0, 2.0, 3.0]] * 2
    window = [scan for scan in scans if scan.index in history_index]
    # From the series' first month on: the months before are pruned, those after its
    # last run are not (runner.py says why).
    before = {
        name for month, name in monthly_partitions(connection).items() if month < first.date()
    }
    assert series_months <= _months(window)
    assert before
    assert not before & _months(window)
    assert {scan.node for scan in window} == {"Index Only Scan"}
    replicates = [scan for scan in scans if scan not in window]
    assert _months(replicates) == series_months
    assert {scan.index in samples_index for scan in replicates} == {True}
