"""A suite of 60 series over 20 commits where commit 10 slows 50 of them by 30 %."""

from typing import Any

from fastapi.testclient import TestClient

from tests.builders import result, run
from tests.history_builder import NOISY_LEVEL, check_queued

SERIES = [f"bench-{n:02d}" for n in range(60)]
SLOWED = SERIES[:50]
STEP_AT = 10


def commit(day: int) -> str:
    return f"{day:040x}"


def upload_commits(
    client: TestClient,
    auth: dict[str, str],
    *,
    machine: str,
    suite: str = "sync-vs-async-io",
    check: bool = True,
    benchmark_prefix: str = "",
) -> None:
    """One run per commit on `machine`; with `check`, then what a worker would check."""
    for day in range(2 * STEP_AT):
        level = NOISY_LEVEL[day % STEP_AT]
        body: dict[str, Any] = run(
            suite=suite,
            started_at=f"2025-01-{1 + day:02d}T00:00:00Z",
            hardware={"name": machine},
            git={"commit": commit(day)},
            results=[
                result(
                    benchmark=benchmark_prefix + name,
                    value=level * (1.3 if name in SLOWED and day >= STEP_AT else 1.0),
                )
                for name in SERIES
            ],
        )
        response = client.post("/api/v1/runs", json=body, headers=auth)
        assert response.status_code == 201, response.text
    if check:
        check_queued(client)
