"""A maintainer's baseline reset starts the history baseline verdicts and compare runs
judge over, as it starts detection's: one rule (series.recent.baseline_start)."""

from fastapi.testclient import TestClient

from tests.compare.test_baseline import comparison
from tests.compare.test_outliers import bearer, compared, contender, history

# Noisy runs, then an intended change that made the benchmark steady: the reset's run
# is the first steady one (index 5).
NOISY_THEN_STEADY = [100.0, 118.0, 86.0, 114.0, 88.0, 100.0, 100.4, 99.6, 100.2]


def test_a_baseline_reset_leaves_the_noise_before_it_out_of_verdicts(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    runs = history(client, auth, NOISY_THEN_STEADY)
    slower = contender(client, auth, 108.0)
    (item,) = comparison(client, slower)["items"]
    assert (item["verdict"], item["basis"]["history_runs"]) == ("unchanged", 9)
    assert compared(client, runs[-1], slower)["verdict"] == "noise"

    reset = f"/api/v1/series/{item['baseline']['series_id']}/baseline-reset"
    response = client.put(reset, json={"run_id": runs[5]}, headers=bearer(maintain_token))
    assert response.status_code == 200, response.text
    (item,) = comparison(client, slower)["items"]
    assert (item["verdict"], item["basis"]["history_runs"]) == ("regression", 4)
    assert f"history from the baseline reset at run {runs[5]}" in item["basis"]["text"]
    pair = compared(client, runs[-1], slower)
    assert (pair["verdict"], pair["basis"]["history_runs"]) == ("worse", 4)
    # A baseline older than the reset is judged over the history it had.
    (older,) = comparison(client, slower, baseline=runs[3])["items"]
    assert older["basis"]["history_runs"] == 4
    assert "baseline reset" not in older["basis"]["text"]

    assert client.delete(reset, headers=bearer(maintain_token)).status_code == 200
    (item,) = comparison(client, slower)["items"]
    assert (item["verdict"], item["basis"]["history_runs"]) == ("unchanged", 9)
