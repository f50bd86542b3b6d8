"""GET /runs/{id}/baseline-comparison: which run is the baseline, and the verdicts."""

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.builders import result, run

SUITE = "sync-vs-async-io"
BENCHMARKS = ("read", "write", "open")


def day(n: int) -> str:
    return f"2025-04-{1 + n:02d}T12:00:00Z"


def upload(
    client: TestClient,
    auth: dict[str, str],
    *,
    started_at: str,
    branch: str | None = None,
    machine: str = "ci-machine",
    results: list[dict[str, Any]] | None = None,
) -> str:
    body = run(
        started_at=started_at,
        hardware={"name": machine},
        results=results or [result(benchmark=b) for b in BENCHMARKS],
    )
    if branch:
        body["git"] = {"branch": branch, "commit": f"{branch}-{started_at[:10]}"}
    response = client.post("/api/v1/runs", json=body, headers=auth)
    assert response.status_code == 201, response.text
    return str(body["id"])


def comparison(client: TestClient, run_id: str, **params: Any) -> dict[str, Any]:
    response = client.get(f"/api/v1/runs/{run_id}/baseline-comparison", params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def replicates(
    level: float, rng: random.Random, *, noise: float = 0.01, n: int = 10
) -> dict[str, Any]:
    samples = [level * (1 + rng.gauss(0, noise)) for _ in range(n)]
    return {"value": sum(samples) / n, "samples": samples}


def results_at(levels: dict[str, float], rng: random.Random, **kwargs: Any) -> list[dict[str, Any]]:
    return [result(benchmark=b, **replicates(level, rng, **kwargs)) for b, level in levels.items()]


def verdicts(body: dict[str, Any]) -> dict[str, str]:
    return {item["benchmark"]: item["verdict"] for item in body["items"]}


def test_the_baseline_is_the_branchs_newest_earlier_run_on_the_same_machine(
    client: TestClient, auth: dict[str, str]
) -> None:
    upload(client, auth, started_at=day(1))
    expected = upload(client, auth, started_at=day(2), branch="main")
    upload(client, auth, started_at=day(3), machine="other-machine")  # newer, other machine
    upload(client, auth, started_at=day(3), branch="feature-y")  # newer, other branch
    upload(client, auth, started_at=day(5))  # same machine and branch, but later
    contender = upload(client, auth, started_at=day(4), branch="feature-x")
    body = comparison(client, contender)
    assert body["baseline"]["id"] == expected
    assert (body["branch"], body["baseline_choice"]) == ("main", "nearest_earlier")
    assert body["contender"]["branch"] == "feature-x"
    assert body["compare_path"] == f"/compare?baseline={expected}&contender={contender}"
    against_y = comparison(client, contender, branch="feature-y")
    assert against_y["baseline"]["branch"] == "feature-y"


def test_a_named_baseline_must_share_the_machine(client: TestClient, auth: dict[str, str]) -> None:
    first = upload(client, auth, started_at=day(1))
    upload(client, auth, started_at=day(2))
    elsewhere = upload(client, auth, started_at=day(2), machine="other-machine")
    contender = upload(client, auth, started_at=day(3), branch="feature-x")
    body = comparison(client, contender, baseline=first)
    assert (body["baseline"]["id"], body["baseline_choice"]) == (first, "named")
    for baseline, field in ((elsewhere, "baseline"), (contender, "baseline")):
        response = client.get(
            f"/api/v1/runs/{contender}/baseline-comparison", params={"baseline": baseline}
        )
        assert response.status_code == 422
        assert response.json()["fields"][0]["path"] == field
    wrong_branch = client.get(
        f"/api/v1/runs/{contender}/baseline-comparison",
        params={"baseline": first, "branch": "feature-x"},
    )
    assert wrong_branch.json()["fields"][0]["path"] == "branch"
    missing = "00000000-0000-4000-8000-000000000000"
    assert client.get(f"/api/v1/runs/{missing}/baseline-comparison").status_code == 404


def test_without_a_baseline_every_series_is_new(client: TestClient, auth: dict[str, str]) -> None:
    contender = upload(client, auth, started_at=day(1), branch="feature-x")
    body = comparison(client, contender)
    assert body["baseline"] is None
    assert body["baseline_choice"] == "none"
    assert body["items"] == []
    assert sorted(s["benchmark"] for s in body["new"]) == sorted(BENCHMARKS)
    assert body["counts"]["new"] == 3


def test_with_replicates_a_25_percent_slowdown_is_the_one_regression(
    client: TestClient, auth: dict[str, str]
) -> None:
    rng = random.Random(13)
    levels = {"read": 100.0, "write": 200.0, "open": 50.0}
    for n in range(5):
        upload(client, auth, started_at=day(n), branch="main", results=results_at(levels, rng))
    slower = {**levels, "write": 250.0}
    contender = upload(
        client, auth, started_at=day(6), branch="feature-x", results=results_at(slower, rng)
    )
    body = comparison(client, contender)
    assert verdicts(body) == {"write": "regression", "read": "unchanged", "open": "unchanged"}
    write = body["items"][0]
    assert write["benchmark"] == "write"
    assert write["relative_change"] == pytest.approx(0.25, abs=0.02)
    assert write["change"].endswith("% slower")
    low, high = write["interval"]
    assert 0 < low < 0.25 < high
    basis = write["basis"]
    assert (basis["method"], basis["history_runs"]) == ("replicates", 5)
    assert (basis["baseline_samples"], basis["contender_samples"]) == (10, 10)
    assert basis["p_value"] < 0.001
    assert "5 baseline-branch runs" in basis["text"]
    assert body["counts"] == {
        "regression": 1,
        "improvement": 0,
        "unchanged": 2,
        "new": 0,
        "missing": 0,
    }
    assert write["history_path"] == (
        f"/history?series={write['baseline']['series_id']}&series={write['contender']['series_id']}"
    )


def test_run_to_run_noise_keeps_a_change_within_it_unchanged(
    client: TestClient, auth: dict[str, str]
) -> None:
    """Tight samples but runs that wander by ~5 %: +6 % is within what runs do, though a
    t-test on the two runs' samples alone would call it (p < 0.001)."""
    rng = random.Random(7)
    for n, offset in enumerate([1.0, 1.06, 0.95, 1.04, 0.97, 1.0]):
        upload(
            client,
            auth,
            started_at=day(n),
            results=results_at({"read": 100.0 * offset}, rng, noise=0.002),
        )
    contender = upload(
        client,
        auth,
        started_at=day(7),
        branch="feature-x",
        results=results_at({"read": 106.0}, rng, noise=0.002),
    )
    (item,) = comparison(client, contender)["items"]
    assert item["verdict"] == "unchanged"
    assert item["basis"]["run_to_run_cv"] > 0.03
    assert item["change"].endswith("(unchanged)")


def test_without_replicates_the_historys_noise_decides(
    client: TestClient, auth: dict[str, str]
) -> None:
    history = [100.0, 101.0, 99.0, 100.5, 99.5]
    for n, value in enumerate(history):
        upload(client, auth, started_at=day(n), results=[result(benchmark="read", value=value)])
    slower = upload(
        client,
        auth,
        started_at=day(6),
        branch="feature-x",
        results=[result(benchmark="read", value=125.0)],
    )
    (item,) = comparison(client, slower)["items"]
    assert item["verdict"] == "regression"
    assert (item["basis"]["method"], item["basis"]["history_runs"]) == ("history", 5)
    assert item["basis"]["contender_samples"] == 1
    same = upload(
        client,
        auth,
        started_at=day(7),
        branch="feature-y",
        results=[result(benchmark="read", value=100.8)],
    )
    assert verdicts(comparison(client, same)) == {"read": "unchanged"}


def test_a_faster_throughput_is_an_improvement(client: TestClient, auth: dict[str, str]) -> None:
    for n, value in enumerate([1010.0, 990.0, 1005.0, 1000.0]):
        upload(
            client,
            auth,
            started_at=day(n),
            results=[result(benchmark="serve", metric="throughput", unit="req/s", value=value)],
        )
    contender = upload(
        client,
        auth,
        started_at=day(5),
        branch="feature-x",
        results=[result(benchmark="serve", metric="throughput", unit="req/s", value=1300.0)],
    )
    (item,) = comparison(client, contender)["items"]
    assert item["verdict"] == "improvement"
    assert item["change"] == "+30.0% faster"


def test_too_little_history_is_not_judged_and_says_why(
    client: TestClient, auth: dict[str, str]
) -> None:
    for n in range(2):
        upload(client, auth, started_at=day(n), results=[result(benchmark="read", value=100.0)])
    contender = upload(
        client,
        auth,
        started_at=day(3),
        branch="feature-x",
        results=[result(benchmark="read", value=300.0)],
    )
    (item,) = comparison(client, contender)["items"]
    assert item["verdict"] == "unchanged"
    assert item["basis"]["method"] == "none"
    assert item["basis"]["text"].startswith("not judged")


def test_new_and_missing_series_are_listed_not_judged(
    client: TestClient, auth: dict[str, str]
) -> None:
    upload(
        client,
        auth,
        started_at=day(1),
        results=[result(benchmark="read"), result(benchmark="gone")],
    )
    contender = upload(
        client,
        auth,
        started_at=day(2),
        branch="feature-x",
        results=[result(benchmark="read"), result(benchmark="added")],
    )
    body = comparison(client, contender)
    assert [i["benchmark"] for i in body["items"]] == ["read"]
    assert [s["benchmark"] for s in body["new"]] == ["added"]
    assert [s["benchmark"] for s in body["missing"]] == ["gone"]
    assert (
        body["new"][0]["history_path"] == f"/history?series={body['new'][0]['side']['series_id']}"
    )


def test_a_37_fold_slowdown_with_spread_samples_is_a_regression(
    client: TestClient, auth: dict[str, str]
) -> None:
    """A merge request's time_per_op went from ~7 µs (tight, five main runs) to five
    samples spread 168-410 µs. On the linear scale the contender's own spread swamped the
    step (p = 0.025, "unchanged"); timings' noise is multiplicative, so the levels are
    compared on the log scale, where a 37-fold change is beyond doubt."""
    rng = random.Random(37)
    for n in range(5):
        upload(client, auth, started_at=day(n), branch="main", results=results_at({"op": 7.0}, rng))
    spread = [168.0, 410.0, 259.0, 190.0, 334.0]
    contender = upload(
        client,
        auth,
        started_at=day(6),
        branch="feature-x",
        results=[result(benchmark="op", value=sum(spread) / 5, samples=spread)],
    )
    (item,) = comparison(client, contender)["items"]
    assert item["verdict"] == "regression"
    assert item["basis"]["method"] == "replicates"
    assert item["basis"]["p_value"] < 0.001
    assert item["relative_change"] == pytest.approx(259 / 7 - 1, rel=0.02)
    low, high = item["interval"]
    assert 0 < low < item["relative_change"] < high


def test_each_compared_figure_is_named_for_readers(
    client: TestClient, auth: dict[str, str]
) -> None:
    """The figures the verdict compares come with their words: a reported median of n
    runs' iterations, a reported mean without n, a plain value."""
    upload(
        client,
        auth,
        started_at=day(1),
        results=[
            result(benchmark="a", value=101.0, stats={"n": 100, "median": 100.0, "stddev": 1.0}),
            result(benchmark="b", value=100.0),
        ],
    )
    contender = upload(
        client,
        auth,
        started_at=day(2),
        branch="feature-x",
        results=[
            result(benchmark="a", value=102.0, stats={"mean": 102.0}),
            result(benchmark="b", value=100.0, samples=[99.0, 100.0, 101.0]),
        ],
    )
    compared = {
        i["benchmark"]: i["basis"]["compared"] for i in comparison(client, contender)["items"]
    }
    labels = {
        name: (c["baseline"]["label"], c["contender"]["label"]) for name, c in compared.items()
    }
    assert labels == {
        "a": ("reported median of 100", "reported mean"),
        "b": ("value", "median of 3"),
    }
    assert compared["a"]["baseline"]["value"] == pytest.approx(100e-6)  # the median, in s
