"""Upload a series' history run by run, as a runner would, with detection after each."""

from typing import Any

from fastapi.testclient import TestClient

from benchboard.pipeline.runner import CheckReport
from benchboard.pipeline.worker import Worker
from tests.builders import result, run

TEST_WORKER_ID = 1


def check_queued(client: TestClient) -> CheckReport:
    """What a worker would do now: check every queued series, in the test's transaction."""
    state = client.app.state  # type: ignore[attr-defined]
    return Worker(state.settings, state.session_factory, worker_id=TEST_WORKER_ID).drain()


def upload_history(
    client: TestClient,
    auth: dict[str, str],
    values: list[float],
    first_day: int = 0,
    branch: str | None = None,
    *,
    check: bool = True,
    **result_fields: Any,
) -> list[str]:
    """One run a day from 2025-01-01 + first_day, so later calls continue the history;
    on `branch` (git.branch) when given; with `check`, the queue is checked after each
    upload, as a worker would."""
    run_ids = []
    for day, value in enumerate(values, start=first_day):
        body = run(
            started_at=f"2025-{1 + day // 28:02d}-{1 + day % 28:02d}T00:00:00Z",
            results=[result(value=value, **result_fields)],
        )
        if branch is not None:
            body["git"] = {"branch": branch, "commit": f"c{day:04d}"}
        response = client.post("/api/v1/runs", json=body, headers=auth)
        assert response.status_code == 201, response.text
        if check:
            check_queued(client)
        run_ids.append(body["id"])
    return run_ids


# Ten runs around 100 us, then ten around 130 us: a 30 % slowdown at run 10.
NOISY_LEVEL = [100.0, 101.0, 99.0, 100.5, 99.5, 100.2, 99.8, 100.7, 99.3, 100.1]
STEPPED = NOISY_LEVEL + [v * 1.3 for v in NOISY_LEVEL]
