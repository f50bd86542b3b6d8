"""POST /api/v1/ingest/{format}: raw tool output parsed by the ingest package's parsers."""

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchboard.config import REPO_ROOT
from benchboard.models import Run

FIXTURES = REPO_ROOT / "ingest" / "tests" / "fixtures"


def ingest(
    client: TestClient, tool: str, fixture: Path, auth: dict[str, str], **params: Any
) -> Any:
    query = {"suite": "tools", "hardware": "ci-runner", **params}
    return client.post(
        f"/api/v1/ingest/{tool}",
        params=query,
        content=fixture.read_bytes(),
        headers={"Content-Type": "text/plain", **auth},
    )


def test_fio_json_becomes_a_run(client: TestClient, auth: dict[str, str]) -> None:
    response = ingest(client, "fio", FIXTURES / "fio" / "fio_sync_randread.json", auth)
    assert response.status_code == 201, response.text
    stored = client.get(response.json()["url"]).json()
    iops = [r for r in stored["results"] if r["metric"] == "iops"]
    assert iops[0]["value"] == pytest.approx(20907.697434)
    assert iops[0]["mode"] == "sync"
    assert stored["hardware"]["name"] == "ci-runner"


def test_format_is_detected_with_auto(client: TestClient, auth: dict[str, str]) -> None:
    response = ingest(
        client,
        "auto",
        FIXTURES / "wrk" / "wrk_async_aiohttp_latency.txt",
        auth,
        language="python",
        implementation="aiohttp",
        mode="async",
    )
    assert response.status_code == 201, response.text
    results = client.get(response.json()["url"]).json()["results"]
    throughput = [r for r in results if r["metric"] == "throughput"]
    assert throughput[0]["value"] == pytest.approx(12869.70)
    assert {r["language"] for r in results} == {"python"}


def test_params_and_tags_from_the_query(client: TestClient, auth: dict[str, str]) -> None:
    response = ingest(
        client,
        "wrk",
        FIXTURES / "wrk" / "wrk_sync_threading.txt",
        auth,
        language="python",
        param=["threads=2", "connections=32"],
        tag=["ci=github"],
    )
    run = client.get(response.json()["url"]).json()
    assert run["tags"] == {"ci": "github"}
    assert run["results"][0]["params"]["connections"] == "32"


def test_repeat_with_same_run_id_is_200(client: TestClient, auth: dict[str, str]) -> None:
    fixed = {"run_id": "6f1c2e0b-4a59-4e0e-9a53-3c1f1d2a7b10", "started_at": "2025-03-20T12:00:00Z"}
    fixture = FIXTURES / "fio" / "fio_posixaio_randread.json"
    assert ingest(client, "fio", fixture, auth, **fixed).status_code == 201
    assert ingest(client, "fio", fixture, auth, **fixed).status_code == 200


def test_language_is_required_when_the_tool_does_not_say(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    response = ingest(client, "wrk", FIXTURES / "wrk" / "wrk_sync_threading.txt", auth)
    assert response.status_code == 422
    assert response.json()["fields"][0]["path"] == "language"
    assert session.scalar(select(func.count()).select_from(Run)) == 0


@pytest.mark.parametrize("cut", [0.3, 0.6])
def test_truncated_output_is_422_and_stores_nothing(
    client: TestClient, auth: dict[str, str], session: Session, cut: float, tmp_path: Path
) -> None:
    full = (FIXTURES / "fio" / "fio_sync_randread.json").read_bytes()
    truncated = tmp_path / "fio.json"
    truncated.write_bytes(full[: int(len(full) * cut)])
    response = ingest(client, "fio", truncated, auth)
    assert response.status_code == 422
    assert response.json()["fields"][0]["path"] == "(body)"
    assert session.scalar(select(func.count()).select_from(Run)) == 0


def test_unknown_format_is_422(client: TestClient, auth: dict[str, str]) -> None:
    response = ingest(client, "nosuchtool", FIXTURES / "fio" / "fio_sync_randread.json", auth)
    assert response.status_code == 422
    assert response.json()["fields"][0]["path"] == "tool_format"


def test_ingest_needs_an_upload_token(client: TestClient) -> None:
    response = ingest(client, "fio", FIXTURES / "fio" / "fio_sync_randread.json", {})
    assert response.status_code == 401


def test_binary_body_is_400(client: TestClient, auth: dict[str, str], tmp_path: Path) -> None:
    binary = tmp_path / "x.bin"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert ingest(client, "fio", binary, auth).status_code == 400
