"""`benchboard-ingest import`: whole histories as contract runs, with deterministic ids,
suites, machines, batches, progress and a report of what was skipped and why."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, INTEROP, needs_interop
from retry_server import RecordingServer

from benchboard_ingest.cli import main
from benchboard_ingest.imports.batches import pack
from benchboard_ingest.imports.progress import ImportProgress
from benchboard_ingest.imports.runs import ImportOptions, contract_runs, run_id
from benchboard_ingest.model import ParseContext, SourceRun

ASV = FIXTURES / "asv" / "results"
CONBENCH = FIXTURES / "conbench"
GAB = INTEROP / "gab"


def dry_run(
    capsys: pytest.CaptureFixture[str], *argv: str
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The runs an import would send, and its summary line."""
    assert main(["import", *argv, "--dry-run"]) == 0
    out = capsys.readouterr().out
    runs_json, _, summary = out.rstrip("\n").rpartition("\n")
    return json.loads(runs_json), json.loads(summary)


def by_benchmark(run: dict[str, Any], metric: str) -> dict[str, Any]:
    return {r["benchmark"]: r for r in run["results"] if r["metric"] == metric}


def test_asv_results_made_by_asv_here(capsys: pytest.CaptureFixture[str]) -> None:
    runs, summary = dry_run(capsys, "asv", str(ASV), "--suite", "tinyproj")
    assert [run["git"]["commit"][:8] for run in runs] == ["72b02877", "33714399", "27b8feed"]
    assert [run["started_at"] for run in runs] == [
        "2026-11-23T07:45:24.000+00:00",
        "2026-11-23T07:45:29.000+00:00",
        "2026-11-23T07:45:34.000+00:00",
    ]
    assert runs[0]["hardware"] == {
        "name": "vm",
        "cpu": "AMD EPYC",
        "os": "Linux 6.18.44-fc-v669",
        "arch": "x86_64",
        "ram": "25276502016",
        "cores": 2,
        "memory_gb": 23.5,  # bytes, as asv 0.6 writes them
    }
    # WORK was 2000, 1000, 3000 at the three commits: asv tracked it, and sized the list.
    assert [by_benchmark(run, "widgets")["benchmarks.track_work"]["value"] for run in runs] == [
        2000,
        1000,
        3000,
    ]
    memory = [by_benchmark(run, "memory")["benchmarks.mem_items"] for run in runs]
    assert [(m["value"], m["unit"]) for m in memory] == [(16056, "B"), (8056, "B"), (24056, "B")]
    checksum = by_benchmark(runs[0], "time_per_op")["benchmarks.time_checksum"]
    assert (checksum["value"], checksum["unit"]) == (1.2343675007286947e-05, "s")
    assert checksum["stats"] == {"p75": 1.2852e-05, "n": 10}
    assert len(checksum["samples"]) == 10  # --record-samples
    builds = [r for r in runs[0]["results"] if r["benchmark"] == "benchmarks.Build.time_build"]
    assert [(r["params"], r["value"]) for r in builds] == [
        ({"n": 10, "kind": "list"}, 8.479749567413819e-07),
        ({"n": 1000, "kind": "list"}, 4.5240450072014936e-05),
        ({"n": 1000, "kind": "tuple"}, 3.940712504117983e-05),
    ]
    assert summary["runs"] == 3
    assert summary["results"] == 21
    assert summary["skipped_reasons"] == {
        "asv stored no result: the benchmark failed": 3,  # time_fails
        "asv stored NaN: the benchmark was skipped": 3,  # Build(n=10, kind=tuple)
    }
    assert summary["batches"] == 1


def test_asv_one_machine_folder_or_one_file(capsys: pytest.CaptureFixture[str]) -> None:
    runs, _ = dry_run(capsys, "asv", str(ASV / "vm"), "--suite", "tinyproj")
    assert len(runs) == 3
    one = ASV / "vm" / "33714399-existing-py_tmp_peer-tools_bin_python.json"
    (run,), _ = dry_run(capsys, "asv", str(one), "--suite", "tinyproj")
    assert run == runs[1]  # same id, same body, however it was found


def test_run_ids_come_from_the_sources_keys(capsys: pytest.CaptureFixture[str]) -> None:
    first, _ = dry_run(capsys, "asv", str(ASV), "--suite", "tinyproj")
    again, _ = dry_run(capsys, "asv", str(ASV), "--suite", "tinyproj")
    assert first == again
    key = (
        "vm",
        "72b028772615f4ec823d8674c5cd6abd587f0c5f",
        "existing-py_tmp_peer-tools_bin_python",
    )
    assert first[0]["id"] == run_id("asv", "tinyproj", key)
    other_suite, _ = dry_run(capsys, "asv", str(ASV), "--suite", "tinyproj-copy")
    assert {r["id"] for r in first}.isdisjoint(r["id"] for r in other_suite)


def test_conbench_payloads_written_by_benchadapt(capsys: pytest.CaptureFixture[str]) -> None:
    (run,), summary = dry_run(
        capsys, "conbench", str(CONBENCH / "benchadapt_callable_payloads.json"), "--suite", "cb"
    )
    assert run["git"] == {
        "repo": "https://github.com/example/tinyproj",
        "commit": "0f3c2b1a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a",
    }
    assert run["started_at"] == "2026-11-23T07:45:48.886955+00:00"  # the earliest result
    assert run["hardware"]["name"] == "vm"
    assert run["hardware"]["memory_gb"] == 23.0  # memory_bytes "24696061952"
    assert run["tags"]["run_reason"] == "commit"
    assert run["environment"] == {"benchmark_language": "Python"}
    small, large = run["results"]
    assert (small["benchmark"], small["params"], small["language"]) == (
        "sum-range",
        {"n": 1000},
        "python",
    )
    assert small["samples"] == [
        1.8320299932383933e-05,
        1.8344399995839923e-05,
        1.783259995136177e-05,
        1.779060003173072e-05,
        1.7584300076123326e-05,
    ]
    assert small["value"] == pytest.approx(sum(small["samples"]) / 5, rel=1e-12)
    assert large["params"] == {"n": 100000}
    assert summary["skipped_reasons"] == {
        "failed in Conbench: ZeroDivisionError: division by zero": 1
    }


def test_conbench_asv_adapter_payloads(capsys: pytest.CaptureFixture[str]) -> None:
    (run,), _ = dry_run(
        capsys, "conbench", str(CONBENCH / "benchadapt_asv_payloads.json"), "--suite", "cb"
    )
    assert run["git"]["commit"] == "72b028772615f4ec823d8674c5cd6abd587f0c5f"
    names = [(r["benchmark"], r.get("params")) for r in run["results"]]
    # benchadapt's asv adapter keeps asv's repr of string params, and stops at the first
    # NaN combination of a benchmark: what it posts is what is imported.
    assert names == [
        ("benchmarks.Build.time_build", {"n": "10", "kind": "'list'"}),
        ("benchmarks.time_checksum", None),
        ("benchmarks.mem_items", None),
        ("benchmarks.peakmem_items", None),
    ]
    memory = run["results"][2]
    assert (memory["value"], memory["unit"]) == (16056, "B")


@needs_interop
def test_a_history_of_several_suites_maps_each_onto_its_own(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(GAB / "github-action-benchmark_ghpages_cargo-go-benchmarkjs_data.js")
    runs, _ = dry_run(capsys, "gab", path, "--suite", "gab", "--hardware-name", "gh-runner")
    assert {run["suite"] for run in runs} == {
        "gab.rust-benchmark",
        "gab.go-benchmark",
        "gab.benchmark.js-benchmark",
    }
    assert [run["started_at"] for run in runs] == sorted(run["started_at"] for run in runs)
    only_go, _ = dry_run(
        capsys,
        "gab",
        path,
        "--suite",
        "go-bench",
        "--source-suite",
        "Go Benchmark",
        "--hardware-name",
        "gh-runner",
        "--git-branch",
        "master",
    )
    assert {run["suite"] for run in only_go} == {"go-bench"}
    assert len(only_go) == 3
    assert {run["git"]["branch"] for run in only_go} == {"master"}
    assert {run["hardware"]["name"] for run in only_go} == {"gh-runner"}


@needs_interop
def test_flags_a_history_needs_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    custom = str(GAB / "iroh-http_customBiggerIsBetter_data.js")
    assert main(["import", "gab", custom, "--suite", "s", "--dry-run"]) == 2
    assert "--hardware-name" in capsys.readouterr().err
    assert main(["import", "gab", custom, "--suite", "s", "--hardware-name", "h", "--dry-run"]) == 2
    assert "--language" in capsys.readouterr().err
    path = str(GAB / "sigo_go_data.js")
    argv = ["import", "gab", path, "--suite", "s", "--hardware-name", "h", "--dry-run"]
    assert main([*argv, "--source-suite", "Nope"]) == 2
    assert "it holds: Benchmark" in capsys.readouterr().err
    assert main(["import", "gab", "/nonexistent/data.js", "--suite", "s"]) == 2
    capsys.readouterr()
    # Checked before a file is read, as `upload` and `suite` check it.
    assert main([*argv[:-1], "--url", "ftp://example.org"]) == 2
    assert "URL must start with http://" in capsys.readouterr().err


@needs_interop
def test_a_broken_history_is_exit_3_and_sends_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = (GAB / "sigo_go_data.js").read_text()
    broken = tmp_path / "data.js"
    broken.write_text(raw[: len(raw) // 2])
    with RecordingServer([]) as server:
        argv = ["import", "gab", str(broken), "--suite", "s", "--hardware-name", "h"]
        assert main([*argv, "--url", server.url]) == 3
        assert server.bodies == []
    assert f"{broken}: line " in capsys.readouterr().err
    good = tmp_path / "good" / "data.js"
    good.parent.mkdir()
    shutil.copy(GAB / "sigo_go_data.js", good)
    runs, summary = dry_run(
        capsys, "gab", str(tmp_path), "--suite", "s", "--hardware-name", "h", "--skip-broken"
    )
    assert len(runs) == 3
    (reason,) = summary["skipped_reasons"]
    assert reason.startswith(f"unreadable: {broken}: line ")


@needs_interop
def test_truncated_peer_files_exit_3_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for relative, extra in (
        ("bmf/bencher_report_latency.json", ["--language", "rust"]),
        ("gab-custom/gab-testdata_customBiggerIsBetter_output.json", ["--direction", "higher"]),
        ("lnt/lnt_nts-run1.json", []),
        ("conbench/conbench_GET_benchmark-results_page1.json", []),
        (
            "asv/metpy-fork/results/Jaye_Dell/059cc1a4-conda-py3.12-matplotlib-numpy-pandas-"
            "pint-pooch-pyproj-scipy-traitlets-xarray.json",
            [],
        ),
        (
            "asv/pvlib-benchmarks/results/pvlib-asv.forecasting.energy.arizona.edu/"
            "b026c57c-conda-py3.8-ephem-numba-numpy-pandas-pytables-scipy.json",
            ["--format", "asv"],
        ),
    ):
        raw = (INTEROP / relative).read_text()
        cut = tmp_path / Path(relative).name
        cut.write_text(raw[: len(raw) * 2 // 3])
        assert main(["parse", str(cut), *extra]) == 3, relative
        assert capsys.readouterr().err.startswith(f"benchboard-ingest: parse error: {cut}: ")


# One file of each peer format, the command that reads it, and a key its parser needs.
PEER_FILES = (
    ("gab/sigo_go_data.js", ["import", "gab"], ["--hardware-name", "h", "--dry-run"], "benches"),
    (
        "gab/mountpoint-s3_cargo-then-customBiggerIsBetter_data.js",
        ["import", "gab"],
        ["--hardware-name", "h", "--language", "rust", "--dry-run"],
        "benches",
    ),
    ("bmf/bencher_report_latency.json", ["parse"], ["--format", "bmf"], "value"),
    (
        "gab-custom/gab-testdata_customBiggerIsBetter_output.json",
        ["parse"],
        ["--format", "gab-custom", "--direction", "higher"],
        "value",
    ),
    ("lnt/lnt_nts-run1.json", ["parse"], ["--format", "lnt"], "tests"),
    (
        "conbench/conbench_GET_benchmark-results_page1.json",
        ["parse"],
        ["--format", "conbench"],
        "tags",
    ),
    (
        "asv/metpy-fork/results/Jaye_Dell/059cc1a4-conda-py3.12-matplotlib-numpy-pandas-"
        "pint-pooch-pyproj-scipy-traitlets-xarray.json",
        ["parse"],
        ["--format", "asv"],
        "commit_hash",
    ),
    (
        "asv/pvlib-benchmarks/results/pvlib-asv.forecasting.energy.arizona.edu/"
        "b026c57c-conda-py3.8-ephem-numba-numpy-pandas-pytables-scipy.json",
        ["parse"],
        ["--format", "asv"],
        "commit_hash",
    ),
)


def corrupted(raw: bytes, damage: str, key: str) -> bytes:
    """The real file damaged as storage and transfers damage files."""
    middle = len(raw) // 2
    if damage == "zeroed block":  # a torn write: 64 NUL bytes in the middle
        return raw[:middle] + b"\0" * 64 + raw[middle + 64 :]
    if damage == "byte not UTF-8":
        return raw[:middle] + b"\xff" + raw[middle + 1 :]
    # A flipped bit in a key the parser needs: still valid JSON, of the wrong shape.
    flipped = key[:-1] + chr(ord(key[-1]) ^ 1)
    return raw.replace(f'"{key}"'.encode(), f'"{flipped}"'.encode())


@needs_interop
@pytest.mark.parametrize("damage", ["zeroed block", "byte not UTF-8", "key renamed"])
def test_corrupted_peer_files_exit_3_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    for relative, command, flags, key in PEER_FILES:
        raw = (INTEROP / relative).read_bytes()
        broken = tmp_path / Path(relative).name
        broken.write_bytes(corrupted(raw, damage, key))
        suite = ["--suite", "s"] if command[0] == "import" else []
        assert main([*command, str(broken), *suite, *flags]) == 3, relative
        err = capsys.readouterr().err
        assert err.startswith(f"benchboard-ingest: parse error: {broken}: "), err
        said = {"zeroed block": "expected valid JSON", "byte not UTF-8": "expected UTF-8 text"}
        assert said.get(damage, key) in err, err  # a renamed key is named


@needs_interop
def test_custom_file_without_direction_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(INTEROP / "gab-custom" / "gab-testdata_customBiggerIsBetter_output.json")
    assert main(["parse", path]) == 2
    assert "--direction lower or higher" in capsys.readouterr().err


def test_upload_goes_in_batches_with_the_services_answers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with RecordingServer([503, 201, 201]) as server:
        argv = ["import", "asv", str(ASV), "--suite", "tinyproj", "--url", server.url]
        assert main([*argv, "--token", "t", "--batch-results", "14"]) == 0
    assert server.paths == ["/api/v1/runs/batch"] * 3  # a 503 retried, then two batches
    assert server.bodies[0] == server.bodies[1]
    assert [len(body["runs"]) for body in server.bodies[1:]] == [2, 1]
    out, err = capsys.readouterr()
    assert json.loads(out)["batches"] == 2
    assert "retry 1: HTTP 503" in err
    assert "imported 3/3 runs" in err


def test_pack_bounds_results_and_bytes() -> None:
    runs = [{"id": str(i), "results": [{"value": i}] * (i + 1)} for i in range(5)]
    by_results = list(pack(runs, max_results=4))
    assert [b.run_ids for b in by_results] == [["0", "1"], ["2"], ["3"], ["4"]]
    for batch in by_results:
        assert [r["id"] for r in json.loads(batch.body)["runs"]] == batch.run_ids
    sizes = [len(json.dumps(run, separators=(",", ":"))) for run in runs]
    limit = sizes[0] + sizes[1] + len('{"runs":[,]}')  # room for the first two only
    by_bytes = list(pack(runs, max_bytes=limit))
    assert [b.run_ids for b in by_bytes] == [["0", "1"], ["2"], ["3"], ["4"]]
    assert all(len(b.body) <= limit for b in by_bytes[:3])
    assert len(by_bytes[3].body) > limit  # a run bigger than the bound goes alone
    assert len(list(pack(runs))) == 1


class _Terminal(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_progress_is_a_line_per_thousand_off_a_terminal() -> None:
    stream = _Terminal(tty=False)
    with ImportProgress(stream=stream) as progress:
        for done in (10, 20):
            progress.files_read(done, 20)  # too few files to be worth a line
        for done in (600, 1_300, 2_500):
            progress.runs_sent(done, 2_500)
    assert stream.getvalue().splitlines() == [
        "imported 1,000/2,500 runs",
        "imported 2,000/2,500 runs",
        "imported 2,500/2,500 runs",
    ]


def test_progress_is_a_bar_on_a_terminal() -> None:
    stream = _Terminal(tty=True)
    with ImportProgress(stream=stream) as progress:
        progress.files_read(3, 3)
        progress.runs_sent(10, 10)
    assert "reading files" in stream.getvalue()
    assert "importing runs" in stream.getvalue()
    assert "10/10" in stream.getvalue()


def _source(started_at: str, unit: str, name: str = "b") -> SourceRun:
    result: Any = {"benchmark": name, "language": "go", "metric": "m", "unit": unit, "value": 1.0}
    return SourceRun(
        key=(started_at,), started_at=started_at, results=[result], hardware={"name": "h"}
    )


def test_a_series_keeps_its_first_unit_and_long_names_fit() -> None:
    options = ImportOptions(format="gab", suite="s", context=ParseContext())
    out = contract_runs(
        [_source("2024-01-02T00:00:00+00:00", "MB/s"), _source("2024-01-01T00:00:00+00:00", "ns")],
        options,
    )
    assert [run["started_at"] for run in out.runs] == ["2024-01-01T00:00:00+00:00"]
    reasons = [s.reason for s in out.skipped]
    assert reasons[0] == "unit MB/s after s figures"
    assert reasons[1].startswith("run left out, no result left")
    long_name = "x" * 300
    (run,) = contract_runs([_source("2024-01-01T00:00:00+00:00", "ns", long_name)], options).runs
    shortened = run["results"][0]["benchmark"]
    assert len(shortened) == 200
    assert shortened.startswith("x" * 188)
    again = contract_runs([_source("2024-01-01T00:00:00+00:00", "ns", long_name)], options)
    assert again.runs[0]["results"][0]["benchmark"] == shortened


def test_suite_and_batch_bounds_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", "asv", str(ASV), "--suite", "Tiny Project", "--dry-run"]) == 2
    assert "--suite must be a slug" in capsys.readouterr().err
    argv = ["import", "asv", str(ASV), "--suite", "tiny", "--batch-results", "100001"]
    assert main(argv) == 2
    assert "--batch-results must be 1 to 100,000" in capsys.readouterr().err
