"""POST /api/v1/ingest/{format}: raw tool output parsed by the ingest package's parsers."""

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchboard.config import REPO_ROOT
from benchboard.models import Run
from benchboard_ingest import run as run_module

FIXTURES = REPO_ROOT / "ingest" / "tests" / "fixtures"


def ingest(
    client: TestClient, tool: str, fixture: Path, auth: dict[str, str], **params: Any
) -> Any:
    """POST the fixture; `hardware=None` leaves ?hardware= out."""
    query = {"suite": "tools", "hardware": "ci-runner", **params}
    query = {key: value for key, value in query.items() if value is not None}
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


def test_branch_and_commit_from_the_query(client: TestClient, auth: dict[str, str]) -> None:
    fixture = FIXTURES / "fio" / "fio_sync_randread.json"
    response = ingest(client, "fio", fixture, auth, branch="feature-x", commit="abc123")
    run = client.get(response.json()["url"]).json()
    assert (run["branch"], run["commit"], run["git"]) == (
        "feature-x",
        "abc123",
        {"branch": "feature-x", "commit": "abc123"},
    )
    plain = client.get(ingest(client, "fio", fixture, auth).json()["url"]).json()
    assert (plain["branch"], plain["git"]) == ("main", None)


def test_repeat_with_same_run_id_is_200(client: TestClient, auth: dict[str, str]) -> None:
    fixed = {"run_id": "6f1c2e0b-4a59-4e0e-9a53-3c1f1d2a7b10", "started_at": "2025-03-20T12:00:00Z"}
    fixture = FIXTURES / "fio" / "fio_posixaio_randread.json"
    assert ingest(client, "fio", fixture, auth, **fixed).status_code == 201
    assert ingest(client, "fio", fixture, auth, **fixed).status_code == 200


def test_a_retry_without_run_id_answers_200_with_the_run_its_first_try_stored(
    client: TestClient, auth: dict[str, str], session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No id and no date: the id is derived from the request, and the date the first try
    stored (its time) stays, though the retry comes a second later."""
    clock = iter(f"2026-11-28T10:00:{second:02d}+00:00" for second in range(60))
    monkeypatch.setattr(run_module, "now_rfc3339", lambda: next(clock))
    fixture = FIXTURES / "fio" / "fio_posixaio_randread.json"
    first = ingest(client, "fio", fixture, auth, tag=["ci=github"])
    assert first.status_code == 201, first.text
    again = ingest(client, "fio", fixture, auth, tag=["ci=github"])
    assert again.status_code == 200, again.text
    assert again.json() == first.json()
    stored = client.get(again.json()["url"]).json()
    assert stored["started_at"] == "2026-11-28T10:00:00Z"
    assert session.scalar(select(func.count()).select_from(Run)) == 1
    # Anything else in the request is another run: the query, the format, the body.
    other_query = ingest(client, "fio", fixture, auth, tag=["ci=gitlab"])
    detected = ingest(client, "auto", fixture, auth, tag=["ci=github"])
    other_body = ingest(client, "fio", FIXTURES / "fio" / "fio_sync_randread.json", auth)
    assert [r.status_code for r in (other_query, detected, other_body)] == [201] * 3
    assert len({r.json()["id"] for r in (first, other_query, detected, other_body)}) == 4


def test_a_run_document_keeps_its_own_id_and_metadata(
    client: TestClient, auth: dict[str, str]
) -> None:
    fixture = FIXTURES / "contract" / "004-fio-sync-vs-async.json"
    document = json.loads(fixture.read_text())
    response = ingest(client, "contract", fixture, auth, hardware=None, tag=["seed_file=ours"])
    assert response.status_code == 201, response.text
    assert response.json()["id"] == document["id"]
    run = client.get(f"{response.json()['url']}/upload").json()  # as stored
    assert (run["name"], run["started_at"]) == (document["name"], document["started_at"])
    assert run["hardware"] == document["hardware"]
    assert run["environment"] == document["environment"]
    assert run["tags"] == {**document["tags"], "seed_file": "ours"}  # the query wins
    assert (
        ingest(client, "contract", fixture, auth, hardware=None, tag=["seed_file=ours"]).status_code
        == 200
    )


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


INTEROP = REPO_ROOT.parent / "shared" / "tool-outputs" / "interop"
needs_interop = pytest.mark.skipif(
    not INTEROP.is_dir(), reason=f"{INTEROP} is absent: the peers' real files are read there"
)


@needs_interop
def test_bmf_custom_measures_take_unit_and_direction_from_the_query(
    client: TestClient, auth: dict[str, str]
) -> None:
    dhat = INTEROP / "bmf" / "bencher_report_dhat.json"
    query = {"language": "rust", "unit": "B", "direction": "lower"}
    response = ingest(client, "bmf", dhat, auth, **query)
    assert response.status_code == 201, response.text
    results = client.get(response.json()["url"]).json()["results"]
    figures = {r["metric"]: (r["value"], r["unit"], r["direction"]) for r in results}
    assert figures["total_bytes"] == (662, "B", "lower")
    assert ingest(client, "bmf", dhat, auth, language="rust", unit="bytes").status_code == 422


@needs_interop
def test_gab_custom_needs_the_direction(client: TestClient, auth: dict[str, str]) -> None:
    custom = INTEROP / "gab-custom" / "gab-testdata_customBiggerIsBetter_output.json"
    missing = ingest(client, "gab-custom", custom, auth, language="rust")
    assert missing.status_code == 422
    assert missing.json()["fields"][0]["path"] == "direction"
    response = ingest(client, "auto", custom, auth, language="rust", direction="higher")
    assert response.status_code == 201, response.text
    results = client.get(response.json()["url"]).json()["results"]
    assert {(r["unit"], r["direction"]) for r in results} == {("req/s", "higher"), ("B", "higher")}


@needs_interop
def test_lnt_report_becomes_a_run(client: TestClient, auth: dict[str, str]) -> None:
    report = INTEROP / "lnt" / "lnt_nts-run1.json"
    response = ingest(client, "lnt", report, auth, language="c", hardware=None)
    assert response.status_code == 201, response.text
    run = client.get(response.json()["url"]).json()
    assert {r["metric"] for r in run["results"]} == {"compile_time", "execution_time"}
    # The report's machine, revision and start are the run's.
    assert run["hardware"]["name"] == "localhost__clang_DEV__x86_64"
    assert (run["commit"], run["started_at"]) == ("154331", "2012-04-11T16:28:23Z")


def test_asv_results_file_becomes_a_run(client: TestClient, auth: dict[str, str]) -> None:
    results_file = FIXTURES / "asv/results/vm/33714399-existing-py_tmp_peer-tools_bin_python.json"
    response = ingest(client, "auto", results_file, auth)
    assert response.status_code == 201, response.text
    # Alone, without benchmarks.json, params have asv's own default names.
    assert [s["item"] for s in response.json()["skipped"]] == [
        "benchmarks.Build.time_build(param1=10, param2=tuple)",
        "benchmarks.time_fails",
    ]
    results = client.get(response.json()["url"]).json()["results"]
    assert {r["language"] for r in results} == {"python"}


def test_conbench_failures_are_listed_as_skipped(client: TestClient, auth: dict[str, str]) -> None:
    payloads = FIXTURES / "conbench" / "benchadapt_callable_payloads.json"
    response = ingest(client, "conbench", payloads, auth)
    assert response.status_code == 201, response.text
    assert response.json()["skipped"] == [
        {"item": "divide(n=0)", "reason": "failed in Conbench: ZeroDivisionError: division by zero"}
    ]
    assert response.json()["result_count"] == 2


ASV_FILE = FIXTURES / "asv/results/vm/33714399-existing-py_tmp_peer-tools_bin_python.json"


def test_asv_record_gives_the_run_its_commit_date_and_machine(
    client: TestClient, auth: dict[str, str]
) -> None:
    response = ingest(client, "asv", ASV_FILE, auth, hardware=None)
    assert response.status_code == 201, response.text
    run = client.get(response.json()["url"]).json()
    assert (run["hardware"]["name"], run["hardware"]["info"]["cpu"]) == ("vm", "AMD EPYC")
    assert run["commit"] == "3371439975f992b19d9801ebf4def9ffc298190d"
    assert run["started_at"] == "2026-11-23T07:45:29Z"  # the file's `date`
    assert run["environment"]["asv_env"] == "existing-py_tmp_peer-tools_bin_python"
    query = {"hardware": "ci-runner", "commit": "f00d", "started_at": "2025-03-20T12:00:00Z"}
    response = ingest(client, "asv", ASV_FILE, auth, **query)
    run = client.get(response.json()["url"]).json()
    assert (run["hardware"]["name"], run["commit"]) == ("ci-runner", "f00d")
    assert run["started_at"] == "2025-03-20T12:00:00Z"


def test_conbench_payloads_give_the_run_its_github_and_machine(
    client: TestClient, auth: dict[str, str]
) -> None:
    payloads = FIXTURES / "conbench" / "benchadapt_asv_payloads.json"
    response = ingest(client, "conbench", payloads, auth, hardware=None)
    assert response.status_code == 201, response.text
    run = client.get(response.json()["url"]).json()
    assert run["hardware"]["name"] == "vm"
    assert run["git"] == {
        "repo": "https://github.com/example/tinyproj",
        "commit": "72b028772615f4ec823d8674c5cd6abd587f0c5f",
    }
    assert run["started_at"] == "2026-11-23T07:45:48.881680Z"
    assert run["environment"]["env_name"] == "existing-py_tmp_peer-tools_bin_python"


def test_input_that_names_no_machine_needs_hardware(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    response = ingest(
        client, "fio", FIXTURES / "fio" / "fio_sync_randread.json", auth, hardware=None
    )
    assert response.status_code == 422
    assert [f["path"] for f in response.json()["fields"]] == ["hardware"]
    assert session.scalar(select(func.count()).select_from(Run)) == 0
