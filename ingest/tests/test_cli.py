from __future__ import annotations

import json
import subprocess
import uuid
from pathlib import Path

import pytest
from conftest import FIXTURES
from retry_server import RecordingServer

from benchboard_ingest.cli import main

WRK = str(FIXTURES / "wrk/wrk_async_aiohttp_latency.txt")
FIO = str(FIXTURES / "fio/fio_sync_randread.json")


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_parse_prints_a_json_array(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "parse", WRK)
    results = json.loads(out)
    assert code == 0
    assert {r["metric"] for r in results} >= {"throughput", "latency_avg", "latency_p99"}


def test_parse_unknown_file_exits_3_naming_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("nothing to see\n")
    code, out, err = run_cli(capsys, "parse", str(notes))
    assert (code, out) == (3, "")
    assert str(notes) in err
    assert "line 1" in err


def test_missing_file_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "parse", "/nonexistent/wrk.txt")
    assert code == 2
    assert "/nonexistent/wrk.txt" in err


def test_dry_run_prints_one_run_with_overrides(capsys: pytest.CaptureFixture[str]) -> None:
    run_id = str(uuid.uuid4())
    code, out, err = run_cli(
        capsys,
        "upload",
        WRK,
        FIO,
        "--suite",
        "sync-vs-async-io",
        "--language",
        "python",
        "--mode",
        "async",
        "--variant",
        "v1",
        "--param",
        "payload=13",
        "--tag",
        "ci=yes",
        "--hardware-name",
        "ci-box",
        "--run-id",
        run_id,
        "--no-git",
        "--started-at",
        "2025-03-20T12:00:00Z",
        "--dry-run",
    )
    run = json.loads(out)
    assert code == 0
    assert (run["id"], run["suite"], run["hardware"]["name"]) == (
        run_id,
        "sync-vs-async-io",
        "ci-box",
    )
    assert run["started_at"] == "2025-03-20T12:00:00Z"
    assert run["tags"] == {"ci": "yes"}
    assert all(
        r["mode"] == "async" and r["language"] == "python" and r["variant"] == "v1"
        for r in run["results"]
    )  # fio said sync; the flag wins
    assert all(r["params"]["payload"] == 13 for r in run["results"])
    assert "[2/2]" in err


def test_hardware_is_captured_when_not_given(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run_cli(capsys, "upload", FIO, "--suite", "s", "--dry-run", "--no-git")
    run = json.loads(out)
    assert run["hardware"]["cores"] >= 1
    assert run["hardware"]["os"] == "linux"
    assert run["started_at"].endswith("+00:00")
    assert run["results"][0]["language"] == "c"


def test_upload_without_language_for_load_tools_is_usage(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run_cli(capsys, "upload", WRK, "--suite", "s", "--dry-run")
    assert code == 2
    assert "--language" in err


def test_bad_suite_and_run_id_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(capsys, "upload", FIO, "--suite", "Bad Suite", "--dry-run")[0] == 2
    assert run_cli(capsys, "upload", FIO, "--suite", "s", "--run-id", "x", "--dry-run")[0] == 2


def test_benchmark_flag_prefixes_when_a_file_has_many(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run_cli(
        capsys, "parse", str(FIXTURES / "go/go_test_bench.txt"), "--benchmark", "fs"
    )
    names = {r["benchmark"] for r in json.loads(out)}
    assert "fs/BenchmarkWriteFiles/sync" in names


def test_upload_retries_then_succeeds(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("benchboard_ingest.client.time.sleep", lambda _: None)
    with RecordingServer([503, 201]) as server:
        code, out, err = run_cli(
            capsys, "upload", FIO, "--suite", "s", "--url", server.url, "--token", "tok", "--no-git"
        )
    assert code == 0
    assert json.loads(out)["status"] == 201
    assert server.bodies[0]["id"] == server.bodies[1]["id"]
    assert "retry 1: HTTP 503" in err


def test_token_and_url_from_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with RecordingServer([201]) as server:
        monkeypatch.setenv("BENCHBOARD_URL", server.url)
        monkeypatch.setenv("BENCHBOARD_TOKEN", "env-token")
        code, _, _ = run_cli(capsys, "upload", FIO, "--suite", "s", "--no-git")
    assert code == 0
    assert server.headers[0]["Authorization"] == "Bearer env-token"


@pytest.mark.parametrize(("statuses", "expected"), [([422], 4), ([503] * 5, 5)])
def test_exit_codes_for_server_answers(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    statuses: list[int],
    expected: int,
) -> None:
    monkeypatch.setattr("benchboard_ingest.client.time.sleep", lambda _: None)
    with RecordingServer(statuses) as server:
        code, _, _ = run_cli(
            capsys, "upload", FIO, "--suite", "s", "--url", server.url, "--no-git", "--retries", "4"
        )
    assert code == expected


def test_branch_and_commit_precedence_flags_then_git_then_ci(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # not a git repository
    monkeypatch.setenv("CI_COMMIT_REF_NAME", "from-ci")
    monkeypatch.setenv("CI_COMMIT_SHA", "c1c1")
    dry = ["upload", FIO, "--suite", "s", "--dry-run"]
    _, out, _ = run_cli(capsys, *dry)
    assert json.loads(out)["git"] == {"branch": "from-ci", "commit": "c1c1"}
    _, out, _ = run_cli(capsys, *dry, "--branch", "mine", "--commit", "f00d")
    assert json.loads(out)["git"] == {"branch": "mine", "commit": "f00d"}
    _, out, _ = run_cli(capsys, *dry, "--no-git")
    assert "git" not in json.loads(out)
    # Inside a repository on a branch, git wins over the CI's variables.
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.org"]
    for command in (["init", "-q", "-b", "trunk"], ["commit", "-q", "--allow-empty", "-m", "x"]):
        subprocess.run(["git", *identity, *command], cwd=tmp_path, check=True)
    _, out, _ = run_cli(capsys, *dry)
    assert json.loads(out)["git"]["branch"] == "trunk"
    assert json.loads(out)["git"]["commit"] != "c1c1"


def test_bad_fail_on_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "upload", FIO, "--suite", "s", "--fail-on", "slower")
    assert code == 2
    assert "--fail-on" in err
