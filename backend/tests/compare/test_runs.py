"""GET /api/v1/compare/runs: results paired by identity, changes, verdicts, p-values."""

import itertools
import math
import random
import statistics
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient
from scipy import stats

from tests.builders import result, run
from tests.history_builder import STEPPED, upload_history


def upload(client: TestClient, auth: dict[str, str], **overrides: Any) -> str:
    body = run(**overrides)
    response = client.post("/api/v1/runs", json=body, headers=auth)
    assert response.status_code == 201, response.text
    return str(body["id"])


def compare(client: TestClient, baseline: str, contender: str) -> dict[str, Any]:
    response = client.get(
        "/api/v1/compare/runs", params={"baseline": baseline, "contender": contender}
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def by_benchmark(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {row["benchmark"]: row for row in rows}


def test_results_pair_by_identity_across_machines(client: TestClient, auth: dict[str, str]) -> None:
    baseline = upload(
        client,
        auth,
        hardware={"name": "laptop"},
        results=[result(benchmark="shared", value=100.0), result(benchmark="old", value=1.0)],
    )
    contender = upload(
        client,
        auth,
        hardware={"name": "server"},
        results=[result(benchmark="shared", value=150.0), result(benchmark="new", value=2.0)],
    )
    comparison = compare(client, baseline, contender)
    (matched,) = comparison["matched"]
    assert matched["benchmark"] == "shared"
    assert (matched["baseline"]["hardware"], matched["contender"]["hardware"]) == (
        "laptop",
        "server",
    )
    assert matched["relative_change"] == pytest.approx(0.5)
    assert [r["benchmark"] for r in comparison["only_in_baseline"]] == ["old"]
    assert [r["benchmark"] for r in comparison["only_in_contender"]] == ["new"]


def test_without_replicates_the_noise_band_decides(
    client: TestClient, auth: dict[str, str]
) -> None:
    lower = {"unit": "us"}  # time: lower is better
    baseline = upload(
        client,
        auth,
        results=[
            result(benchmark="small", value=100.0, **lower),
            result(benchmark="slower", value=100.0, **lower),
            result(benchmark="faster", value=100.0, **lower),
            result(benchmark="rate", value=100.0, unit="ops/s", metric="throughput"),
        ],
    )
    contender = upload(
        client,
        auth,
        results=[
            result(benchmark="small", value=104.9, **lower),
            result(benchmark="slower", value=106.0, **lower),
            result(benchmark="faster", value=90.0, **lower),
            result(benchmark="rate", value=120.0, unit="ops/s", metric="throughput"),
        ],
    )
    rows = by_benchmark(compare(client, baseline, contender)["matched"])
    assert {name: row["verdict"] for name, row in rows.items()} == {
        "small": "noise",  # under the 5 % band
        "slower": "worse",
        "faster": "better",
        "rate": "better",  # higher is better for a rate
    }
    assert all(row["p_value"] is None for row in rows.values())


def test_with_replicates_and_no_history_the_samples_decide_and_say_so(
    client: TestClient, auth: dict[str, str]
) -> None:
    before = [100.0, 101.0, 99.0, 100.5, 99.5]
    steady = [100.2, 100.9, 99.1, 100.4, 99.6]
    slower = [102.0, 103.1, 101.9, 102.6, 102.4]
    baseline = upload(
        client,
        auth,
        results=[
            result(benchmark="steady", value=100.0, samples=before),
            result(benchmark="slower", value=100.0, samples=before),
        ],
    )
    contender = upload(
        client,
        auth,
        results=[
            result(benchmark="steady", value=100.04, samples=steady),
            result(benchmark="slower", value=102.4, samples=slower),
        ],
    )
    rows = by_benchmark(compare(client, baseline, contender)["matched"])
    assert rows["steady"]["verdict"] == "noise"
    # 2.4 % slower: under the 5 % band, but the samples leave no doubt.
    assert rows["slower"]["verdict"] == "worse"
    assert rows["slower"]["p_value"] < 0.01
    basis = rows["slower"]["basis"]
    assert (basis["method"], basis["baseline_samples"], basis["contender_samples"]) == (
        "replicates",
        5,
        5,
    )
    assert "run-to-run noise not estimated" in basis["text"]


def _median_level(samples: list[float]) -> tuple[float, float]:
    """A run's level by hand (stats.noise's docstring): the median, and its variance
    (π/2) σ̂² / n with σ̂ = 1.4826 MAD."""
    centre = statistics.median(samples)
    mad = statistics.median([abs(x - centre) for x in samples])
    return centre, math.pi / 2 * (1.4826 * mad) ** 2 / len(samples)


def _on_test_scale(level: float, variance: float = 0.0) -> tuple[float, float]:
    """stats.noise's scale: logarithms by the delta method for a positive level (ln y,
    v / y²); a negative one (a delta) stays as it is."""
    return (math.log(level), variance / level**2) if level > 0 else (level, variance)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_replicates_p_value_is_welchs_t_on_the_two_medians(
    client: TestClient, auth: dict[str, str], sign: float
) -> None:
    """No history to estimate run-to-run noise from: the difference of the medians over
    the root of their summed variances, Welch–Satterthwaite degrees of freedom; on the
    log scale for timings, on the values' own for negative ones."""
    before = [sign * x for x in (100.0, 101.0, 99.0, 100.5, 99.5)]
    after = [sign * x for x in (102.0, 103.1, 101.9, 102.6, 102.4)]
    baseline = upload(client, auth, results=[result(value=sign * 100.0, samples=before)])
    contender = upload(client, auth, results=[result(value=sign * 102.4, samples=after)])
    (row,) = compare(client, baseline, contender)["matched"]
    level_b, var_b = _on_test_scale(*_median_level(before))
    level_c, var_c = _on_test_scale(*_median_level(after))
    df = (var_b + var_c) ** 2 / (var_b**2 / (len(before) - 1) + var_c**2 / (len(after) - 1))
    t = (level_c - level_b) / math.sqrt(var_b + var_c)
    assert row["p_value"] == pytest.approx(2 * stats.t.sf(abs(t), df), rel=1e-9)
    assert row["basis"]["method"] == "replicates"


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_single_values_p_value_is_the_historys_t_test(
    client: TestClient, auth: dict[str, str], sign: float
) -> None:
    """No replicates: the history's runs give the noise, σ² their variance; the two
    values differ by t = Δ / √(2σ²) with n - 1 degrees of freedom; on the log scale for
    timings, on the values' own for negative ones."""
    history = [sign * x for x in (100.0, 102.0, 99.0, 101.0, 100.0)]
    runs = [
        upload(
            client, auth, started_at=f"2025-03-{day:02d}T00:00:00Z", results=[result(value=value)]
        )
        for day, value in enumerate(history, start=1)
    ]
    contender = upload(
        client, auth, started_at="2025-03-09T00:00:00Z", results=[result(value=sign * 104.0)]
    )
    (row,) = compare(client, runs[-1], contender)["matched"]
    levels = [_on_test_scale(value)[0] for value in history]
    t = (_on_test_scale(sign * 104.0)[0] - levels[-1]) / math.sqrt(2 * statistics.variance(levels))
    assert row["p_value"] == pytest.approx(2 * stats.t.sf(abs(t), len(history) - 1), rel=1e-9)
    assert (row["basis"]["method"], row["basis"]["history_runs"]) == ("history", 5)


def test_runs_that_wander_keep_a_change_within_it_noise_as_detection_would(
    client: TestClient, auth: dict[str, str]
) -> None:
    """Tight samples, runs that wander by ~5 %: +6 % is within what runs do. A t-test on
    the two runs' samples alone would call it (p < 0.001); the history's run-to-run noise
    (the model change detection uses) does not."""
    rng = random.Random(7)

    def samples(level: float) -> list[float]:
        return [level * (1 + 0.002 * rng.gauss(0, 1)) for _ in range(20)]

    runs = []
    for n, offset in enumerate([1.0, 1.06, 0.95, 1.04, 0.97, 1.0]):
        runs.append(
            upload(
                client,
                auth,
                started_at=f"2025-03-{n + 1:02d}T00:00:00Z",
                results=[
                    result(benchmark="read", value=100 * offset, samples=samples(100 * offset))
                ],
            )
        )
    contender = upload(
        client,
        auth,
        started_at="2025-03-09T00:00:00Z",
        results=[result(benchmark="read", value=106.0, samples=samples(106.0))],
    )
    (row,) = compare(client, runs[-1], contender)["matched"]
    assert row["verdict"] == "noise"
    assert row["basis"]["history_runs"] == 6
    assert row["basis"]["run_to_run_cv"] > 0.03
    naive = stats.ttest_ind(samples(100.0), samples(106.0), equal_var=False).pvalue
    assert naive < 0.001


def test_unknown_runs_are_404(client: TestClient, auth: dict[str, str]) -> None:
    known = upload(client, auth)
    response = client.get(
        "/api/v1/compare/runs", params={"baseline": known, "contender": str(uuid.uuid4())}
    )
    assert response.status_code == 404


def test_the_change_and_the_verdict_rest_on_the_same_figures(
    client: TestClient, auth: dict[str, str]
) -> None:
    """The contender's headline is its mean, pulled up 12 % by one outlier; its median
    moved 0.4 %. The change shown is the medians', which the verdict judged, and the
    answer says so; a run without samples is compared by its value."""
    before = [100.0, 101.0, 99.0, 100.5, 99.5]
    after = [100.2, 100.9, 99.1, 100.4, 160.0]
    baseline = upload(
        client,
        auth,
        results=[
            result(benchmark="skewed", value=100.0, samples=before),
            result(benchmark="mixed", value=100.0, samples=before),
        ],
    )
    contender = upload(
        client,
        auth,
        results=[
            result(benchmark="skewed", value=sum(after) / len(after), samples=after),
            result(benchmark="mixed", value=100.4),
        ],
    )
    rows = by_benchmark(compare(client, baseline, contender)["matched"])
    skewed = rows["skewed"]
    assert skewed["contender"]["value"] == pytest.approx(112.12)
    assert skewed["relative_change"] == pytest.approx(0.004)
    assert skewed["verdict"] == "noise"
    assert skewed["basis"]["compared"] == {  # in the base unit, seconds
        "baseline": {
            "value": pytest.approx(100e-6),
            "of": "samples_median",
            "label": "median of 5",
        },
        "contender": {
            "value": pytest.approx(100.4e-6),
            "of": "samples_median",
            "label": "median of 5",
        },
    }
    assert skewed["basis"]["text"].endswith("; compares medians of samples")
    mixed = rows["mixed"]
    assert mixed["relative_change"] == pytest.approx(0.004)
    assert [mixed["basis"]["compared"][side]["of"] for side in ("baseline", "contender")] == [
        "samples_median",
        "value",
    ]
    assert mixed["basis"]["compared"]["contender"]["label"] == "value"
    assert mixed["basis"]["text"].endswith(
        "compares the baseline's median of samples with the contender's value"
    )


def _regression_runs(client: TestClient) -> list[str]:
    response = client.get("/api/v1/regressions")
    assert response.status_code == 200, response.text
    return [r["run_id"] for r in response.json()["items"]]


def test_compare_runs_and_detection_agree_on_one_history(
    client: TestClient, auth: dict[str, str]
) -> None:
    """One history, both views: detection stores the step at run 10 and nothing else;
    compare runs, over the history before each baseline run cut where detection cuts it,
    calls exactly that pair of consecutive runs worse, and every other pair noise."""
    run_ids = upload_history(client, auth, STEPPED)
    assert _regression_runs(client) == [run_ids[10]]
    rows = [compare(client, a, b)["matched"][0] for a, b in itertools.pairwise(run_ids)]
    assert [i + 1 for i, row in enumerate(rows) if row["verdict"] != "noise"] == [10]
    step = rows[9]
    assert (step["verdict"], step["basis"]["method"]) == ("worse", "history")
    assert step["p_value"] < 0.01
    assert step["relative_change"] == pytest.approx(0.3, abs=0.02)


def test_where_they_differ_on_a_short_history_the_basis_says_why(
    client: TestClient, auth: dict[str, str]
) -> None:
    """The issue's example, 100, 101, 130, 130, 130: detection cannot judge the step (two
    runs before it); compare runs of 101 -> 130 cannot estimate the noise from two runs
    either, so its 5 % band calls it, and its basis says so rather than claiming a p-value."""
    run_ids = upload_history(client, auth, [100.0, 101.0, 130.0, 130.0, 130.0])
    assert _regression_runs(client) == []
    (row,) = compare(client, run_ids[1], run_ids[2])["matched"]
    assert (row["verdict"], row["p_value"]) == ("worse", None)
    assert row["basis"]["method"] == "none"
    text = row["basis"]["text"]
    assert "not judged: no replicates and 2 baseline-branch run(s); 3 are needed" in text
    assert "the 5% noise band decides" in text
