"""The ingest CLI publishes to the real service over HTTP, and the run reads back."""

import uuid
from pathlib import Path

import httpx
import pytest

from benchboard.config import REPO_ROOT
from benchboard_ingest.cli import main as ingest_cli
from tests.builders import run
from tests.live import LiveService

FIXTURES = REPO_ROOT / "ingest" / "tests" / "fixtures"
SUITE = "cli-end-to-end"
MACHINE = "cli-machine"


@pytest.fixture
def service(live_service: LiveService) -> tuple[str, str]:
    live_service.suites.add(SUITE)
    live_service.machines.add(MACHINE)
    return live_service.url, live_service.token


def test_cli_upload_reads_back(service: tuple[str, str], tmp_path: Path) -> None:
    url, token = service
    run_id = str(uuid.uuid4())
    files = [
        FIXTURES / "fio" / "fio_sync_randread.json",
        FIXTURES / "fio" / "fio_posixaio_randread.json",
    ]
    argv = [
        "upload",
        *map(str, files),
        "--suite",
        SUITE,
        "--hardware-name",
        MACHINE,
        "--run-id",
        run_id,
        "--url",
        url,
        "--token",
        token,
        "--tag",
        "ci=local",
        "--started-at",
        "2025-03-20T12:00:00+00:00",
    ]
    exit_code = ingest_cli(argv)
    assert exit_code == 0
    run = httpx.get(f"{url}/api/v1/runs/{run_id}").json()
    assert run["tags"]["ci"] == "local"
    iops = {r["mode"]: r["value"] for r in run["results"] if r["metric"] == "iops"}
    assert iops == {"sync": pytest.approx(20907.697434), "async": pytest.approx(16713.002993)}
    # The same command again (as a retry would) is an idempotent repeat, not a new run.
    again = ingest_cli(argv)
    assert again == 0
    listed = httpx.get(f"{url}/api/v1/runs", params={"suite": SUITE}).json()["items"]
    assert [r["id"] for r in listed] == [run_id]


def test_a_created_run_is_readable_at_once(service: tuple[str, str]) -> None:
    """201 means committed: the commit happens before the response is sent."""
    url, token = service
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=url, headers=headers) as client:
        for _ in range(10):
            body = run(suite=SUITE, hardware={"name": MACHINE})
            assert client.post("/api/v1/runs", json=body).status_code == 201
            assert client.get(f"/api/v1/runs/{body['id']}").status_code == 200
