"""Health and /metrics show the detection queue: its depth, its lag, and the work done."""

import re

from fastapi.testclient import TestClient

from tests.builders import result, run
from tests.history_builder import check_queued


def _upload(client: TestClient, auth: dict[str, str], results: int) -> None:
    body = run(results=[result(benchmark=f"health-{i}") for i in range(results)])
    assert client.post("/api/v1/runs", json=body, headers=auth).status_code == 201


def _metric(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    assert found, f"{name} not in /metrics"
    return float(found.group(1))


def test_health_reports_the_queue_until_the_worker_checks_it(
    client: TestClient, auth: dict[str, str]
) -> None:
    _upload(client, auth, 3)
    detection = client.get("/api/v1/health").json()["detection"]
    assert detection["queued_series"] == 3
    assert detection["oldest_age_s"] >= 0
    assert detection["failing_series"] == 0
    check_queued(client)
    health = client.get("/api/v1/health").json()
    assert health == {
        "status": "ok",
        "detection": {
            "queued_series": 0,
            "oldest_queued_at": None,
            "oldest_age_s": None,
            "retrying_series": 0,
            "failing_series": 0,
        },
    }


def test_metrics_show_uploads_queue_and_detection(client: TestClient, auth: dict[str, str]) -> None:
    before = client.get("/metrics").text
    uploads = (
        'benchboard_http_request_seconds_count{method="POST",route="/api/v1/runs",status="201"}'
    )
    uploaded_before = _metric(before, uploads) if uploads in before else 0.0
    checked_before = _metric(before, "benchboard_detection_series_total")
    _upload(client, auth, 4)
    queued = client.get("/metrics")
    assert queued.headers["content-type"].startswith("text/plain")
    assert _metric(queued.text, "benchboard_detection_queue_series") == 4
    assert _metric(queued.text, uploads) == uploaded_before + 1
    check_queued(client)
    checked = client.get("/metrics").text
    assert _metric(checked, "benchboard_detection_queue_series") == 0
    assert _metric(checked, "benchboard_detection_series_total") == checked_before + 4
    assert 'benchboard_detection_seconds_total{phase="detect"}' in checked
    assert "benchboard_detection_lag_seconds_bucket" in checked
    assert 'benchboard_webhook_deliveries{state="pending"} 0.0' in checked
