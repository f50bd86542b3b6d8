"""`benchboard-ingest import` of every github-action-benchmark history and both asv result
directories in ../shared/tool-outputs/interop, against the real service over HTTP: each
source run is a run with its own date and commit, the counts are the files', and running
the same imports again adds nothing."""

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from benchboard.config import REPO_ROOT
from benchboard_ingest.cli import main as ingest_cli
from tests.live import LiveService

INTEROP = REPO_ROOT.parent / "shared" / "tool-outputs" / "interop"
MACHINE = "import-gh-runner"
pytestmark = pytest.mark.skipif(
    not INTEROP.is_dir(), reason=f"{INTEROP} is absent: the peers' real histories are read there"
)


@dataclass(frozen=True)
class History:
    path: str
    suite: str
    flags: tuple[str, ...]
    runs: dict[str, int]  # per Benchboard suite
    results: int
    dated: dict[str, str]  # commit -> started_at of one of its runs, from MANIFEST.md


GAB = ("--hardware-name", MACHINE)
HISTORIES = [
    History(
        "gab/github-action-benchmark_ghpages_cargo-go-benchmarkjs_data.js",
        "import-gab-action",
        GAB,
        {
            "import-gab-action.rust-benchmark": 12,
            "import-gab-action.go-benchmark": 3,
            "import-gab-action.benchmark.js-benchmark": 1,
        },
        32,
        {
            "ce98bc6860729bc6f54da88577acef573816227f": "2019-11-08T07:34:40.535000Z",
            "45d78258e495044a551046f50604da3c893052ce": "2019-11-09T15:09:00.323000Z",
            "b840614fd88743f234aac0dc747a0a70616f450f": "2019-11-09T15:10:52.482000Z",
        },
    ),
    History(
        "gab/teozosa-cookiecutter_pytest_data.js",
        "import-pytest",
        GAB,
        {"import-pytest": 3},
        18,
        {
            "d7eeca1d9e67b4f46517bd1680a8ad8a1193af48": "2021-10-01T21:17:37.058000Z",
            "8679cb9c951d4061aaf3032e932da1056fc0cea6": "2021-10-04T13:54:10.867000Z",
        },
    ),
    History(
        "gab/actor-zeta_googlecpp_data.js",
        "import-googlecpp",
        GAB,
        {"import-googlecpp": 4},
        80,
        {
            "13f5d5708aa4baefe68655e94d167b4efc46662f": "2023-08-15T14:44:51.313000Z",
            "82aeadab4616f514c112e4040236e1f437d656eb": "2023-10-02T14:57:24.188000Z",
        },
    ),
    History(
        "gab/sigo_go_data.js",
        "import-go",
        GAB,
        {"import-go": 3},
        18,
        {
            "c8a92ce31904c04f62d70c759618616473fb7e94": "2022-03-24T15:07:26.665000Z",
            "a83ea480d94ea8dce067b24bdc30480e15b6c871": "2022-03-25T12:58:17.794000Z",
        },
    ),
    History(
        "gab/mountpoint-s3_customSmallerIsBetter_latency_data.js",
        "import-custom-smaller",
        (*GAB, "--language", "rust"),
        {"import-custom-smaller": 3},
        12,
        {
            "d41a4d942fd9da68d5f6d669653be37b12f12749": "2023-04-19T03:17:42.829000Z",
            "0f3b98086ab5f6b7c7454c50cc96bddeabf9f35f": "2023-04-20T17:42:43.160000Z",
        },
    ),
    History(
        "gab/mountpoint-s3_cargo-then-customBiggerIsBetter_data.js",
        "import-tool-switch",
        (*GAB, "--language", "rust"),
        {"import-tool-switch": 28},
        95,
        {
            "2ec3a27bed7883de488373caa0069f65811768a6": "2022-11-01T14:15:37.320000Z",
            "bcd7056caa3bce9cf631ff592623e0595ccb07ce": "2022-11-11T11:50:02.016000Z",
        },
    ),
    History(
        "gab/iroh-http_customBiggerIsBetter_data.js",
        "import-custom-bigger",
        (*GAB, "--language", "javascript"),
        {"import-custom-bigger": 2},
        16,
        {
            "6ad4bf15f457e74774bc6a5636531648b3e98d24": "2026-04-26T16:58:36.271000Z",
            "62b6b236cb60ee4f069b1507ee26e6fdb6eabd11": "2026-04-29T07:40:34.110000Z",
        },
    ),
    History(
        "gab/gha-bench-test_edge_string-values_missing-unit_data.js",
        "import-string-values",
        (*GAB, "--language", "python"),
        {"import-string-values": 3},
        11,
        {
            "fb7ad41bcdbbbd39d22529820bd5233a8e15f494": "2024-03-12T20:00:11.609000Z",
            "6b3e0d5a68334cc74e1d39af93673746dd7e40c4": "2024-03-12T22:09:47.332000Z",
        },
    ),
    History(
        "asv/pvlib-benchmarks/results",
        "import-asv-pvlib",
        (),
        {"import-asv-pvlib": 1},
        37,
        {"b026c57cea851763793a1a5e0972d1195d7ec3b8": "2018-04-05T20:11:14Z"},
    ),
    History(
        "asv/metpy-fork/results",
        "import-asv-metpy",
        (),
        {"import-asv-metpy": 1},
        37,
        {"059cc1a45be63a2d86ba0801baa624e251bba487": "2024-01-04T21:23:43Z"},
    ),
]
ASV_MACHINES = {"pvlib-asv.forecasting.energy.arizona.edu", "Jaye_Dell"}


def run_import(
    history: History, live: LiveService, capsys: pytest.CaptureFixture[str]
) -> dict[str, Any]:
    argv = ["import", "gab" if history.path.startswith("gab/") else "asv"]
    argv += [str(INTEROP / history.path), "--suite", history.suite, *history.flags]
    assert ingest_cli([*argv, "--url", live.url, "--token", live.token, "--quiet"]) == 0
    summary: dict[str, Any] = json.loads(capsys.readouterr().out)
    return summary


def runs_of(client: httpx.Client, suite: str) -> list[dict[str, Any]]:
    page = client.get("/api/v1/runs", params={"suite": suite, "limit": 500}).json()
    return [client.get(f"/api/v1/runs/{item['id']}").json() for item in page["items"]]


def test_every_history_imports_with_its_dates_and_commits_and_again_adds_nothing(
    live_service: LiveService, capsys: pytest.CaptureFixture[str]
) -> None:
    live_service.machines |= {MACHINE, *ASV_MACHINES}
    for history in HISTORIES:
        live_service.suites |= set(history.runs)
    with httpx.Client(base_url=live_service.url) as client:
        for history in HISTORIES:
            summary = run_import(history, live_service, capsys)
            total = sum(history.runs.values())
            assert (summary["runs"], summary["results"]) == (total, history.results), history
            assert (summary["created"], summary["existing"], summary["batches"]) == (total, 0, 1)
            stored = {suite: runs_of(client, suite) for suite in history.runs}
            assert {suite: len(runs) for suite, runs in stored.items()} == history.runs
            every = [run for runs in stored.values() for run in runs]
            assert sum(run["result_count"] for run in every) == history.results
            dated = {(run["git"]["commit"], run["started_at"]) for run in every}
            assert set(history.dated.items()) <= dated  # a commit may have several runs
        for history in HISTORIES:
            again = run_import(history, live_service, capsys)
            assert (again["created"], again["existing"]) == (0, again["runs"])
        after = sum(len(runs_of(client, suite)) for h in HISTORIES for suite in h.runs)
        assert after == sum(sum(h.runs.values()) for h in HISTORIES)


def test_an_imported_series_reads_as_a_history(
    live_service: LiveService, capsys: pytest.CaptureFixture[str]
) -> None:
    (go,) = [h for h in HISTORIES if h.suite == "import-go"]
    live_service.suites |= set(go.runs)
    live_service.machines.add(MACHINE)
    run_import(go, live_service, capsys)
    with httpx.Client(base_url=live_service.url) as client:
        query = {"suite": "import-go", "benchmark": "BenchmarkSimpleClustering"}
        found = client.get("/api/v1/series", params={**query, "metric": "time_per_op"}).json()
        (series,) = found["items"]
        assert series["language"] == "go"
        assert series["params"] == {"gomaxprocs": 2}
        points = client.get(f"/api/v1/series/{series['id']}/history").json()["points"]
    assert [datetime.fromisoformat(point["started_at"]) for point in points] == [
        datetime(2022, 3, 24, 15, 7, 26, 665000, tzinfo=UTC),  # date 1648134446665
        datetime(2022, 3, 25, 12, 50, 9, 400000, tzinfo=UTC),
        datetime(2022, 3, 25, 12, 58, 17, 794000, tzinfo=UTC),  # date 1648213097794
    ]
    assert [point["value"] for point in points][::2] == [152233, 150703]
