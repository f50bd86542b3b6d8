from __future__ import annotations

import json
import subprocess
import uuid
from pathlib import Path

import pytest
from conftest import FIXTURES, INTEROP, needs_interop
from retry_server import RecordingServer

from benchboard_ingest.cli import main
from benchboard_ingest.gitinfo import has_user_info, without_user_info
from benchboard_ingest.parsers import asv

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


def test_a_run_document_keeps_its_metadata_and_flags_win_field_by_field(
    capsys: pytest.CaptureFixture[str],
) -> None:
    document = FIXTURES / "contract/004-fio-sync-vs-async.json"
    own = json.loads(document.read_text())
    _, out, _ = run_cli(capsys, "upload", str(document), "--suite", "s", "--dry-run")
    kept = json.loads(out)
    for key in ("id", "started_at", "hardware", "name", "tags", "environment"):
        assert kept[key] == own[key], key
    flags = ["--name", "mine", "--tag", "seed_file=mine", "--cpu", "epyc", "--commit", "abc"]
    _, out, _ = run_cli(capsys, "upload", str(document), "--suite", "s", "--dry-run", *flags)
    flagged = json.loads(out)
    assert (flagged["id"], flagged["started_at"]) == (own["id"], own["started_at"])
    assert flagged["name"] == "mine"
    assert flagged["tags"] == {**own["tags"], "seed_file": "mine"}
    assert flagged["hardware"] == {**own["hardware"], "cpu": "epyc"}
    assert flagged["git"]["commit"] == "abc"


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


def _repository_with_origin(path: Path, origin: str) -> None:
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.org"]
    commands = (
        ["init", "-q", "-b", "trunk"],
        ["commit", "-q", "--allow-empty", "-m", "x"],
        ["remote", "add", "origin", origin],
    )
    for command in commands:
        subprocess.run(["git", *identity, *command], cwd=path, check=True)


def test_gitlab_ci_job_token_in_the_origin_is_never_sent(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """GitLab CI clones with `https://gitlab-ci-token:<job token>@host/…`: the CI's own
    project URL is sent instead."""
    monkeypatch.chdir(tmp_path)
    _repository_with_origin(
        tmp_path, "https://gitlab-ci-token:glcbt-s3cret@gitlab.example/g/app.git"
    )
    monkeypatch.setenv("CI_PROJECT_URL", "https://gitlab.example/g/app")
    _, out, _ = run_cli(capsys, "upload", FIO, "--suite", "s", "--dry-run")
    assert json.loads(out)["git"]["repo"] == "https://gitlab.example/g/app"
    assert "s3cret" not in out
    monkeypatch.delenv("CI_PROJECT_URL")  # outside CI: the origin, without its user info
    _, out, _ = run_cli(capsys, "upload", FIO, "--suite", "s", "--dry-run")
    assert json.loads(out)["git"]["repo"] == "https://gitlab.example/g/app.git"


def test_github_token_in_the_origin_is_never_sent(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    _repository_with_origin(tmp_path, "https://x-access-token:ghs_s3cret@github.com/acme/app")
    monkeypatch.setenv("GITHUB_SERVER_URL", "https://github.com")
    monkeypatch.setenv("GITHUB_REPOSITORY", "acme/app")
    _, out, _ = run_cli(capsys, "upload", FIO, "--suite", "s", "--dry-run")
    assert json.loads(out)["git"]["repo"] == "https://github.com/acme/app"
    flag = ["--git-repo", "https://user:pw@github.com/acme/app"]
    _, out, _ = run_cli(capsys, "upload", FIO, "--suite", "s", "--dry-run", *flag)
    assert json.loads(out)["git"]["repo"] == "https://github.com/acme/app"
    assert "ghs_s3cret" not in out


def test_user_info_is_stripped_but_scp_remotes_are_kept() -> None:
    assert without_user_info("https://oauth2:tok@gitlab.example:8443/g/a") == (
        "https://gitlab.example:8443/g/a"
    )
    assert without_user_info("ssh://git@github.com/acme/app.git") == "ssh://github.com/acme/app.git"
    assert without_user_info("git@github.com:acme/app.git") == "git@github.com:acme/app.git"
    assert not has_user_info("https://github.com/acme/app")


def test_bad_fail_on_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "upload", FIO, "--suite", "s", "--fail-on", "slower")
    assert code == 2
    assert "--fail-on" in err


def upload_record(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, path: Path, *flags: str
) -> dict[str, object]:
    """The run `upload --dry-run` builds from a record of one run, with CI variables set
    that must not leak into it."""
    monkeypatch.setenv("CI_COMMIT_REF_NAME", "from-ci")
    monkeypatch.setenv("CI_COMMIT_SHA", "c1c1")
    code, out, _ = run_cli(capsys, "upload", str(path), "--suite", "s", "--dry-run", *flags)
    assert code == 0
    run: dict[str, object] = json.loads(out)
    return run


def test_asv_upload_takes_the_records_commit_date_and_machine(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = FIXTURES / "asv/results/vm/33714399-existing-py_tmp_peer-tools_bin_python.json"
    run = upload_record(capsys, monkeypatch, path)
    assert run["git"] == {"commit": "3371439975f992b19d9801ebf4def9ffc298190d"}
    assert run["started_at"] == "2026-11-23T07:45:29.000+00:00"  # the file's `date`
    # The machine the file's params name (machine.json, beside it, names the same one),
    # not this machine, nor this machine mixed in.
    machine_json = path.parent / "machine.json"
    assert run["hardware"] == asv.read_machine(machine_json.read_text(), source="machine.json")
    assert run["environment"] == {
        "asv_env": "existing-py_tmp_peer-tools_bin_python",
        "python": "/tmp/peer-tools/bin/python",
    }
    flags = ("--hardware-name", "ci-box", "--commit", "f00d", "--branch", "main")
    flags += ("--started-at", "2025-03-20T12:00:00Z", "--env", "python=3.11")
    run = upload_record(capsys, monkeypatch, path, *flags)
    assert run["git"] == {"commit": "f00d", "branch": "main"}
    assert run["started_at"] == "2025-03-20T12:00:00Z"
    hardware = run["hardware"]
    assert isinstance(hardware, dict)
    assert (hardware["name"], hardware["cpu"]) == ("ci-box", "AMD EPYC")
    assert run["environment"] == {
        "asv_env": "existing-py_tmp_peer-tools_bin_python",
        "python": "3.11",
    }


def test_conbench_upload_takes_the_payloads_github_machine_and_context(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run = upload_record(
        capsys, monkeypatch, FIXTURES / "conbench/benchadapt_callable_payloads.json"
    )
    assert run["git"] == {
        "repo": "https://github.com/example/tinyproj",
        "commit": "0f3c2b1a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a",
    }
    assert run["started_at"] == "2026-11-23T07:45:48.886955+00:00"  # the earliest timestamp
    hardware = run["hardware"]
    assert isinstance(hardware, dict)
    assert (hardware["name"], hardware["cpu"], hardware["memory_bytes"]) == (
        "vm",
        "AMD EPYC",
        24696061952,
    )
    assert "kernel" not in hardware  # this machine's capture, which the record replaces
    assert run["environment"] == {"benchmark_language": "Python"}


@needs_interop
def test_lnt_upload_takes_the_reports_machine_revision_and_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    report = INTEROP / "lnt" / "lnt_nts-run1.json"
    run = upload_record(capsys, monkeypatch, report, "--language", "c")
    assert run["git"] == {"commit": "154331"}  # run.llvm_project_revision
    assert run["started_at"] == "2012-04-11T16:28:23+00:00"
    hardware = run["hardware"]
    assert isinstance(hardware, dict)
    assert (hardware["name"], hardware["os"]) == ("localhost__clang_DEV__x86_64", "Darwin 11.3.0")
    environment = run["environment"]
    assert isinstance(environment, dict)
    assert (environment["cc_name"], environment["no_errors"]) == ("clang", "true")
