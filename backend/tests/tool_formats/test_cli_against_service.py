"""The ingest CLI publishes to the real service over HTTP, and the run reads back."""

import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from sqlalchemy import Engine, delete
from sqlalchemy.orm import Session

from benchboard.config import REPO_ROOT, Settings
from benchboard.main import create_app
from benchboard.models import ApiToken, Hardware, Run, Series
from benchboard.tokens.service import create_token
from benchboard_ingest.cli import main as ingest_cli
from tests.builders import run

FIXTURES = REPO_ROOT / "ingest" / "tests" / "fixtures"
SUITE = "cli-end-to-end"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def live_service(settings: Settings, engine: Engine) -> Iterator[tuple[str, str]]:
    """The app on a real port, committing to the test database; cleaned up afterwards."""
    with Session(engine) as session, session.begin():
        token = create_token(session, name=f"cli-{uuid.uuid4()}", scope="upload")
    app = create_app(settings, database_url=engine.url.render_as_string(hide_password=False))
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", token
    server.should_exit = True
    thread.join()
    with Session(engine) as session, session.begin():
        session.execute(delete(Run).where(Run.suite == SUITE))
        session.execute(delete(Series).where(Series.suite == SUITE))
        session.execute(delete(Hardware).where(Hardware.name == "cli-machine"))
        session.execute(delete(ApiToken).where(ApiToken.name.like("cli-%")))
    app.state.engine.dispose()


def test_cli_upload_reads_back(live_service: tuple[str, str], tmp_path: Path) -> None:
    url, token = live_service
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
        "cli-machine",
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


def test_a_created_run_is_readable_at_once(live_service: tuple[str, str]) -> None:
    """201 means committed: the commit happens before the response is sent."""
    url, token = live_service
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=url, headers=headers) as client:
        for _ in range(10):
            body = run(suite=SUITE, hardware={"name": "cli-machine"})
            assert client.post("/api/v1/runs", json=body).status_code == 201
            assert client.get(f"/api/v1/runs/{body['id']}").status_code == 200
