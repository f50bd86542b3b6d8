"""The CI gate end to end: the ingest CLI uploads to the live service, fetches the
comparison with main and fails the build (exit 6) on a regression."""

import json
import random
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Engine

from benchboard.config import Settings
from benchboard.db import make_session_factory
from benchboard.pipeline.worker import Worker
from benchboard_ingest.cli import main as ingest_cli
from tests.live import LiveService

SUITE = "cli-gate"
MACHINE = "cli-gate-machine"
LEVELS_US = {"parse-config": 120.0, "render-page": 850.0, "write-cache": 40.0}


def results_file(tmp_path: Path, name: str, levels: dict[str, float], rng: random.Random) -> Path:
    """A contract v1 results array: ten replicates per benchmark at 1 % noise."""
    results = []
    for benchmark, level in levels.items():
        samples = [round(level * (1 + rng.gauss(0, 0.01)), 3) for _ in range(10)]
        results.append(
            {
                "benchmark": benchmark,
                "language": "go",
                "metric": "time_per_op",
                "unit": "us",
                "value": sum(samples) / len(samples),
                "samples": samples,
            }
        )
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(results))
    return path


def upload(service: LiveService, file: Path, *flags: str) -> int:
    return ingest_cli(
        [
            "upload",
            str(file),
            "--suite",
            SUITE,
            "--hardware-name",
            MACHINE,
            "--url",
            service.url,
            "--token",
            service.token,
            "--quiet",
            *flags,
        ]
    )


def publish_main(service: LiveService, tmp_path: Path, rng: random.Random) -> None:
    for n in range(5):
        file = results_file(tmp_path, f"main-{n}", LEVELS_US, rng)
        at = f"2026-11-0{n + 1}T10:00:00+00:00"
        assert (
            upload(service, file, "--branch", "main", "--commit", f"m{n}", "--started-at", at) == 0
        )


def mains_history(
    live: LiveService, settings: Settings, engine: Engine
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The suite's series on its default branch and its regressions, once every queued
    change-detection check has run (as a worker would)."""
    Worker(settings, make_session_factory(engine)).drain()
    series = httpx.get(f"{live.url}/api/v1/series", params={"suite": SUITE}).json()["items"]
    regressions = httpx.get(f"{live.url}/api/v1/regressions", params={"suite": SUITE})
    return series, regressions.json()["items"]


def section(summary: str, title: str) -> str:
    """The text of one `#### title` section of the summary."""
    after = summary.split(f"#### {title}", 1)[1]
    return after.split("####", 1)[0].split("<details>", 1)[0]


@pytest.fixture
def rng() -> random.Random:
    return random.Random(2026)


@pytest.fixture
def live(live_service: LiveService) -> LiveService:
    live_service.suites.add(SUITE)
    live_service.machines.add(MACHINE)
    return live_service


def test_a_25_percent_slower_benchmark_fails_the_gate_naming_only_it(
    live: LiveService, settings: Settings, engine: Engine, tmp_path: Path, rng: random.Random
) -> None:
    publish_main(live, tmp_path, rng)
    before = mains_history(live, settings, engine)
    slower = results_file(tmp_path, "feature", {**LEVELS_US, "render-page": 850.0 * 1.25}, rng)
    summary = tmp_path / "summary.md"
    code = upload(
        live,
        slower,
        "--branch",
        "feature-slow",
        "--commit",
        "f1",
        "--started-at",
        "2026-11-07T10:00:00+00:00",
        "--baseline-branch",
        "main",
        "--fail-on",
        "regression>5%",
        "--summary-file",
        str(summary),
    )
    assert code == 6
    text = summary.read_text()
    regressions = section(text, "Regressions")
    assert "render-page" in regressions
    assert "parse-config" not in regressions
    assert "write-cache" not in regressions
    assert "% slower" in regressions
    # The two sides are the figures the verdict compares, named: ten samples' medians.
    assert regressions.count("(median of 10)") == 2
    assert "Gate `--fail-on regression>5%`: **failed**: 1 regression." in text
    assert "**1 regression** · 0 improvements · 2 unchanged · 0 new" in text
    assert f"[compare runs]({live.url}/compare?baseline=" in text
    # A threshold above the change lets the same slowdown pass.
    again = ["--branch", "feature-slow", "--commit", "f1", "--started-at"]
    assert (
        upload(live, slower, *again, "2026-11-07T11:00:00+00:00", "--fail-on", "regression>40%")
        == 0
    )
    # The feature branch's two slower runs are stored on their own branch; main's series,
    # their run counts and latest values, and its regressions (none) are as they were.
    assert mains_history(live, settings, engine) == before
    feature = httpx.get(
        f"{live.url}/api/v1/series", params={"suite": SUITE, "branch": "feature-slow"}
    ).json()["items"]
    assert sorted((s["branch"], s["run_count"]) for s in feature) == [("feature-slow", 2)] * 3


def test_an_unchanged_feature_run_passes_and_mains_history_stays_as_it_was(
    live: LiveService, settings: Settings, engine: Engine, tmp_path: Path, rng: random.Random
) -> None:
    publish_main(live, tmp_path, rng)
    same = results_file(tmp_path, "feature", LEVELS_US, rng)
    summary = tmp_path / "summary.md"
    code = upload(
        live,
        same,
        "--branch",
        "feature-same",
        "--started-at",
        "2026-11-07T10:00:00+00:00",
        "--fail-on",
        "regression",
        "--summary-file",
        str(summary),
    )
    assert code == 0
    text = summary.read_text()
    assert "**0 regressions** · 0 improvements · 3 unchanged · 0 new" in text
    assert "Gate `--fail-on regression`: passed." in text
    series, regressions = mains_history(live, settings, engine)
    assert len(series) == 3
    for item in series:
        assert (item["branch"], item["run_count"]) == ("main", 5)
        assert item["latest"]["started_at"].startswith("2026-11-05")
    assert regressions == []


def test_in_github_actions_branch_and_commit_come_from_its_variables_and_the_summary_is_appended(
    live: LiveService,
    tmp_path: Path,
    rng: random.Random,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    publish_main(live, tmp_path, rng)
    step_summary = tmp_path / "step-summary.md"
    step_summary.write_text("earlier step\n")
    monkeypatch.chdir(tmp_path)  # not a git repository: the CI's variables decide
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step_summary))
    monkeypatch.setenv("GITHUB_HEAD_REF", "pr-branch")
    monkeypatch.setenv("GITHUB_REF_NAME", "42/merge")
    monkeypatch.setenv("GITHUB_SHA", "0123456789abcdef0123456789abcdef01234567")
    new_benchmark = results_file(tmp_path, "pr", {**LEVELS_US, "open-db": 10.0}, rng)
    assert upload(live, new_benchmark, "--started-at", "2026-11-07T10:00:00+00:00") == 0
    text = step_summary.read_text()
    heading = "### Benchmarks: `pr-branch` @ `0123456789ab` against `main`"
    assert text.startswith(f"earlier step\n{heading}")
    assert "open-db" in section(text, "New series (not judged)")
    runs = httpx.get(
        f"{live.url}/api/v1/runs", params={"suite": SUITE, "branch": "pr-branch"}
    ).json()["items"]
    assert [r["commit"] for r in runs] == ["0123456789abcdef0123456789abcdef01234567"]


def test_a_whole_run_document_is_gated_as_the_run_it_describes(
    live: LiveService, tmp_path: Path, rng: random.Random
) -> None:
    """A CI that writes its own run document: its id, date, machine, git, name, tags and
    environment are the run's (flags still win field by field), so the gate compares it
    with main on its own machine."""
    publish_main(live, tmp_path, rng)
    slower = json.loads(
        results_file(tmp_path, "doc", {**LEVELS_US, "write-cache": 50.0}, rng).read_text()
    )
    document = {
        "id": str(uuid.uuid4()),
        "suite": SUITE,
        "name": "nightly 7",
        "started_at": "2026-11-07T10:00:00+00:00",
        "hardware": {"name": MACHINE, "cores": 8},
        "git": {"branch": "feature-doc", "commit": "d0c0ffee"},
        "tags": {"ci": "own", "pipeline": "7"},
        "environment": {"go": "1.22"},
        "results": slower,
    }
    file = tmp_path / "run.json"
    file.write_text(json.dumps(document))
    common = ["--suite", SUITE, "--url", live.url, "--token", live.token, "--quiet"]
    gate = ["--baseline-branch", "main", "--fail-on", "regression>5%"]
    code = ingest_cli(["upload", str(file), *common, *gate, "--tag", "ci=flag", "--cpu", "m7"])
    assert code == 6  # write-cache 25 % slower than main on the same machine
    run = httpx.get(f"{live.url}/api/v1/runs/{document['id']}/upload").json()
    assert (run["name"], run["started_at"]) == ("nightly 7", "2026-11-07T10:00:00+00:00")
    assert run["hardware"] == {"name": MACHINE, "cores": 8, "cpu": "m7"}
    assert run["git"] == document["git"]
    assert run["tags"] == {"ci": "flag", "pipeline": "7"}
    assert run["environment"] == {"go": "1.22"}


def test_the_suite_command_sets_the_default_branch(
    live: LiveService,
    tmp_path: Path,
    rng: random.Random,
    capsys: pytest.CaptureFixture[str],
) -> None:
    publish_main(live, tmp_path, rng)
    base = ["suite", SUITE, "--url", live.url]
    set_trunk = [*base, "--default-branch", "trunk", "--token"]
    assert ingest_cli([*set_trunk, live.token]) == 4  # upload scope only
    assert ingest_cli([*set_trunk, live.maintain_token]) == 0
    capsys.readouterr()
    assert ingest_cli(base) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["default_branch"] == "trunk"
    assert [b["name"] for b in shown["branches"]] == ["main"]
