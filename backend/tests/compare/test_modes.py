"""GET /api/v1/compare/modes reproduces the seed studies' published sync/async ratios."""

import math
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, event

from benchboard.compare.pairing import Candidate, pair_modes, params_compatible
from tests.builders import result, run
from tests.seeded import seeded  # noqa: F401  (fixture)

pytestmark = pytest.mark.usefixtures("seeded")


def pairs(client: TestClient, **filters: Any) -> list[dict[str, Any]]:
    response = client.get("/api/v1/compare/modes", params=filters)
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


def find(items: list[dict[str, Any]], benchmark: str, metric: str, **params: Any) -> Any:
    return [
        i
        for i in items
        if i["benchmark"] == benchmark
        and i["metric"] == metric
        and all(i["params"].get(k) == v for k, v in params.items())
    ]


def test_dart_tiny_writes_async_is_2_087_times_sync(client: TestClient) -> None:
    items = pairs(client, suite="dart-async-file-writes", variant="sequential")
    (pair,) = find(items, "file-write-tiny", "time_per_op", writes=10000)
    assert (pair["sync"]["value"], pair["async"]["value"]) == (57.444, 119.898)
    assert pair["async_over_sync"] == pytest.approx(2.087, abs=5e-4)


def test_groups_of_three_pair_each_async_variant_with_sync(client: TestClient) -> None:
    items = find(
        pairs(client, suite="dart-async-file-writes"),
        "file-write-tiny-3-per-iteration",
        "time_per_op",
    )
    ratios = {p["async"]["variant"]: round(p["async_over_sync"], 3) for p in items}
    assert ratios == {"future-wait-3": 1.048, "sequential": 1.825}


def test_fio_random_read_latency_is_33_3_times(client: TestClient) -> None:
    (pair,) = find(pairs(client, suite="fio-sync-vs-async"), "fio-randread-4k", "latency", direct=0)
    assert pair["sync"]["implementation"] == "fio/sync"
    assert pair["async"]["implementation"] == "fio/posixaio"
    assert pair["async_over_sync"] == pytest.approx(33.31, abs=5e-3)


def test_fio_direct_io_iops_ratio(client: TestClient) -> None:
    (pair,) = find(pairs(client, suite="fio-sync-vs-async"), "fio-randread-4k", "iops", direct=1)
    assert pair["async_over_sync"] == pytest.approx(3.667, abs=5e-4)


def test_wpf_default_buffer_async_is_2_8_times(client: TestClient) -> None:
    items = pairs(client, suite="wpf-async-log-reading", metric="total_time")
    ratios = sorted(round(p["async_over_sync"], 3) for p in items)
    assert 2.8 in ratios
    assert 1.5 in ratios


def test_filters_narrow_the_pairs(client: TestClient) -> None:
    dart = pairs(client, language="dart")
    assert dart
    assert {p["language"] for p in dart} == {"dart"}
    assert pairs(client, language="cobol") == []


def test_mode_filter_does_not_hide_pairs(client: TestClient) -> None:
    assert len(pairs(client, mode="async")) == len(pairs(client))


def upload_pair(
    client: TestClient, auth: dict[str, str], sync: dict[str, Any], async_: dict[str, Any]
) -> dict[str, Any]:
    body = run(
        suite="interval-check",
        results=[result(mode="sync", **sync), result(mode="async", **async_)],
    )
    assert client.post("/api/v1/runs", json=body, headers=auth).status_code == 201
    (pair,) = pairs(client, suite="interval-check")
    return pair


def test_pairs_carry_a_95_percent_interval_from_replicates(
    client: TestClient, auth: dict[str, str]
) -> None:
    pair = upload_pair(
        client,
        auth,
        sync={"value": 100.0, "samples": [90.0, 100.0, 110.0]},
        async_={"value": 200.0, "samples": [180.0, 200.0, 220.0]},
    )
    # cv 10 % and n = 3 a side: Var(ln r) = 2 * 0.01 / 3, df = 4, t(0.975, 4) = 2.776445.
    half = 2.776445 * math.sqrt(0.02 / 3)
    interval = pair["interval"]
    assert (interval["method"], interval["level"]) == ("delta_log", 0.95)
    assert interval["estimate"] == pytest.approx(pair["async_over_sync"])
    assert interval["low"] == pytest.approx(2 * math.exp(-half), rel=1e-6)
    assert interval["high"] == pytest.approx(2 * math.exp(half), rel=1e-6)


def test_pairs_with_only_ranges_carry_the_range_of_ratios(
    client: TestClient, auth: dict[str, str]
) -> None:
    pair = upload_pair(
        client,
        auth,
        sync={"value": 85.5, "stats": {"min": 84.0, "max": 87.0}},
        async_={"value": 87.5, "stats": {"min": 84.0, "max": 91.0}},
    )
    interval = pair["interval"]
    assert (interval["method"], interval["level"]) == ("range", None)
    assert interval["low"] == pytest.approx(84 / 87)
    assert interval["high"] == pytest.approx(91 / 84)


def test_pairs_without_spread_have_no_interval(client: TestClient) -> None:
    (pair,) = find(
        pairs(client, suite="dart-async-file-writes", variant="sequential"),
        "file-write-tiny",
        "time_per_op",
        writes=10000,
    )
    assert pair["interval"] is None


def _candidate(series_id: int, mode: str, implementation: str, **params: Any) -> Candidate:
    return Candidate(
        series_id=series_id,
        suite="s",
        benchmark="b",
        language="c",
        hardware="h",
        metric="m",
        mode=mode,
        implementation=implementation,
        params=params,
    )


def test_same_implementation_is_preferred_over_crossing() -> None:
    sync = _candidate(1, "sync", "lib", n=1)
    same = _candidate(2, "async", "lib", n=1)
    other = _candidate(3, "async", "other-lib", n=1)
    assert pair_modes([sync, same, other]) == [(sync, same)]


def test_params_must_agree_on_shared_keys() -> None:
    sync = _candidate(1, "sync", "fio/sync", direct=0)
    deeper = _candidate(2, "async", "fio/posixaio", direct=0, iodepth=32)
    direct = _candidate(3, "async", "fio/posixaio", direct=1, iodepth=32)
    assert pair_modes([sync, deeper, direct]) == [(sync, deeper)]


def test_params_compatible_with_the_same_keys_or_on_the_shared_ones() -> None:
    assert params_compatible({"n": 1, "direct": 0}, {"direct": 0, "n": 1})
    assert not params_compatible({"n": 1, "direct": 0}, {"n": 1, "direct": 1})
    assert params_compatible({"direct": 0}, {"direct": 0, "iodepth": 32})
    assert not params_compatible({"direct": 0, "n": 1}, {"direct": 0, "n": 2, "iodepth": 32})


def test_partners_are_found_on_the_pairing_index(
    client: TestClient, connection: Connection
) -> None:
    """The partner lookup's expressions are the index's own (a hash of the pairing key, the
    params' hashes, async series only): the plan can read ix_series_pairing. An expression that
    drifted from the migration's would leave only a scan of `series` (a million rows)."""
    statements: list[tuple[str, Any]] = []

    def capture(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if "pairing_key_hash" in statement:
            statements.append((statement, parameters))

    event.listen(connection, "before_cursor_execute", capture)
    try:
        assert pairs(client)
    finally:
        event.remove(connection, "before_cursor_execute", capture)
    (statement, parameters), *_ = statements
    # On these few rows any index of `series` is as good: the test's transaction drops them.
    for index in ("ix_series_suite_benchmark", "ix_series_language_mode", "ix_series_hardware_id"):
        connection.exec_driver_sql(f"DROP INDEX {index}")
    connection.exec_driver_sql("SET LOCAL enable_seqscan = off")
    custom = connection.exec_driver_sql(f"EXPLAIN {statement}", parameters)
    # A generic plan too, as a statement prepared on its sixth run may take: the index is
    # partial on async series, which the query's own condition must imply, not a value.
    generic = connection.exec_driver_sql(f"EXPLAIN (GENERIC_PLAN) {_numbered(statement)}")
    for explained in (custom, generic):
        plan = "\n".join(row[0] for row in explained)
        assert "ix_series_pairing" in plan, plan


def _numbered(statement: str) -> str:
    """A statement of psycopg's named placeholders with PostgreSQL's $1, $2 instead: one
    that PostgreSQL plans without the values."""
    numbers: dict[str, int] = {}

    def number(placeholder: re.Match[str]) -> str:
        return f"${numbers.setdefault(placeholder[1], len(numbers) + 1)}"

    return re.sub(r"%\((\w+)\)s", number, statement).replace("%%", "%")
