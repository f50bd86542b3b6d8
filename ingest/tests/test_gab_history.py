"""github-action-benchmark histories (`data.js`), read from ../shared to the figures its
MANIFEST.md gives, one run per entry with that entry's date and commit."""

from __future__ import annotations

from typing import Any

from conftest import interop_text, needs_interop, pick

from benchboard_ingest.model import ParseContext, SourceRun
from benchboard_ingest.parsers.gab import read_history

pytestmark = needs_interop


def history(name: str, **context: Any) -> list[SourceRun]:
    return read_history(interop_text(f"gab/{name}"), context=ParseContext(**context))


def suite(runs: list[SourceRun], name: str) -> list[SourceRun]:
    return [run for run in runs if run.group == name]


def results(run: SourceRun) -> list[dict[str, Any]]:
    return [dict(result) for result in run.results]


def test_the_actions_own_history_three_tools() -> None:
    runs = history("github-action-benchmark_ghpages_cargo-go-benchmarkjs_data.js")
    rust, go, js = (
        suite(runs, s) for s in ("Rust Benchmark", "Go Benchmark", "Benchmark.js Benchmark")
    )
    assert (len(rust), len(go), len(js)) == (12, 3, 1)
    assert all(len(run.results) == 2 for run in rust)
    first = rust[0]
    assert first.git == {
        "commit": "ce98bc6860729bc6f54da88577acef573816227f",
        "repo": "https://github.com/rhysd/github-action-benchmark",  # repoUrl is the last key
    }
    assert first.tags["commit_timestamp"] == "2019-11-08T16:33:03+09:00"
    assert first.started_at == "2019-11-08T07:34:40.535+00:00"  # date 1573198480535
    fib10 = pick(results(first), "time_per_op", "bench_fib_10")
    assert (fib10["value"], fib10["unit"], fib10["language"]) == (255, "ns", "rust")
    assert "stats" not in fib10  # libtest's range (32) is max-min, no contract stat
    last = rust[11]
    assert last.git["commit"] == "45d78258e495044a551046f50604da3c893052ce"
    assert last.started_at == "2019-11-09T15:09:00.323+00:00"
    assert pick(results(last), "time_per_op", "bench_fib_20")["value"] == 34001
    assert go[0].git["commit"].startswith("fcdc5619")
    assert go[0].started_at == "2019-11-09T14:23:08.050+00:00"  # date 1573309388050
    assert pick(results(go[0]), "time_per_op", "BenchmarkFib10")["value"] == 551
    (bench_js,) = js
    assert bench_js.git["commit"] == "b840614fd88743f234aac0dc747a0a70616f450f"
    assert bench_js.started_at == "2019-11-09T15:10:52.482+00:00"
    fib = pick(results(bench_js), "throughput", "fib(10)")
    assert (fib["value"], fib["unit"], fib["language"]) == (1039768, "ops/s", "javascript")


def test_pytest_history_keeps_throughput_and_mean_time() -> None:
    runs = history("teozosa-cookiecutter_pytest_data.js")
    assert [len(run.results) for run in runs] == [6, 6, 6]  # 3 benches x (ops, mean time)
    first = runs[0]
    assert first.git["commit"] == "d7eeca1d9e67b4f46517bd1680a8ad8a1193af48"
    assert first.tags["commit_timestamp"] == "2021-10-01T21:00:00Z"
    assert first.started_at == "2021-10-01T21:17:37.058+00:00"
    name = "test_main_succeeds"  # fullname tests/test_main.py::test_main_succeeds
    ops = pick(results(first), "throughput", name)
    assert (ops["value"], ops["unit"]) == (288.842968047427, "ops/s")
    mean = pick(results(first), "time_per_op", name)  # extra "mean: 3.462088783950605 msec"
    assert (mean["value"], mean["unit"]) == (0.003462088783950605, "s")
    assert mean["stats"] == {
        "mean": 0.003462088783950605,
        "stddev": 0.0005040435216877879,
        "n": 324,
    }
    last = runs[2]
    assert last.git["commit"] == "8679cb9c951d4061aaf3032e932da1056fc0cea6"
    assert last.started_at == "2021-10-04T13:54:10.867+00:00"
    version = pick(results(last), "throughput", "test_version_callback")
    assert version["value"] == 1714.2575653935578


def test_googlecpp_history_real_and_cpu_time() -> None:
    runs = history("actor-zeta_googlecpp_data.js")
    assert len(runs) == 4
    assert all(len(run.results) == 20 for run in runs)  # 10 benches x (real, cpu)
    name = "fixture_t<int8_t>/ping_pong_single_threaded_1_int8_t/0"
    first = runs[0]
    assert first.group == "Benchmark actors_ping_pong_scheduled gcc-11 22.04 Release c++-14"
    assert first.git["commit"] == "13f5d5708aa4baefe68655e94d167b4efc46662f"
    assert first.tags["commit_timestamp"] == "2023-08-15T17:01:02+03:00"
    assert first.started_at == "2023-08-15T14:44:51.313+00:00"
    real = pick(results(first), "real_time", name)
    assert (real["value"], real["unit"], real["language"]) == (23853.44917135111, "ns", "cpp")
    assert pick(results(first), "cpu_time", name)["value"] == 8427.5373547316
    assert "params" not in real  # threads: 1
    last = runs[3]
    assert last.git["commit"] == "82aeadab4616f514c112e4040236e1f437d656eb"
    assert last.started_at == "2023-10-02T14:57:24.188+00:00"
    assert pick(results(last), "real_time", name)["value"] == 24061.36816257977


def test_go_units_that_embed_bytes_and_allocs_become_their_own_metrics() -> None:
    runs = history("sigo_go_data.js")
    assert [len(run.results) for run in runs] == [6, 6, 6]
    first = runs[0]
    assert first.git["commit"] == "c8a92ce31904c04f62d70c759618616473fb7e94"
    assert first.tags["commit_timestamp"] == "2022-03-24T14:48:11Z"
    assert first.started_at == "2022-03-24T15:07:26.665+00:00"
    simple = "BenchmarkSimpleClustering"
    time = pick(results(first), "time_per_op", simple, gomaxprocs=2)  # extra "2 procs"
    assert (time["value"], time["unit"], time["language"]) == (152233, "ns", "go")
    memory = pick(results(first), "memory_per_op", simple)
    assert (memory["value"], memory["unit"]) == (39461, "B")
    allocs = pick(results(first), "allocs_per_op", simple)
    assert (allocs["value"], allocs["unit"]) == (1041, "count")
    assert pick(results(first), "time_per_op", "BenchmarkLongClustering")["value"] == 78478876220
    last = runs[2]
    assert last.git["commit"] == "a83ea480d94ea8dce067b24bdc30480e15b6c871"
    assert last.started_at == "2022-03-25T12:58:17.794+00:00"
    assert pick(results(last), "time_per_op", simple)["value"] == 150703


def test_custom_smaller_is_better_history() -> None:
    runs = history("mountpoint-s3_customSmallerIsBetter_latency_data.js", language="rust")
    assert [len(run.results) for run in runs] == [4, 4, 4]
    first = runs[0]
    assert first.git["commit"] == "d41a4d942fd9da68d5f6d669653be37b12f12749"
    assert first.tags["commit_timestamp"] == "2023-04-18T22:09:48-05:00"
    assert first.started_at == "2023-04-19T03:17:42.829+00:00"
    assert first.name == "Add benchmark for readdir (#213)"  # first line; the message has \r\n
    readdir = pick(results(first), "time", "readdir_100")
    assert (readdir["value"], readdir["unit"], readdir["direction"]) == (0.077, "s", "lower")
    assert pick(results(first), "time", "readdir_100000")["value"] == 10.758
    last = runs[2]
    assert last.git["commit"] == "0f3b98086ab5f6b7c7454c50cc96bddeabf9f35f"
    assert last.started_at == "2023-04-20T17:42:43.160+00:00"
    assert pick(results(last), "time", "readdir_100")["value"] == 0.067
    assert pick(results(last), "time", "readdir_100000")["value"] == 11.039


def test_a_suite_that_changes_tool_halfway() -> None:
    runs = history("mountpoint-s3_cargo-then-customBiggerIsBetter_data.js", language="rust")
    assert len(runs) == 28
    assert [run.tags["gab_tool"] for run in runs] == ["cargo"] * 27 + ["customBiggerIsBetter"]
    assert len({run.git["commit"] for run in runs}) == 22  # several runs share a commit
    assert len({run.key for run in runs}) == 28  # each is still its own run
    assert runs[25].git["commit"].startswith("97e9d578")
    assert len(runs[25].results) == 1
    assert {len(run.results) for run in runs} <= set(range(1, 8))
    first = runs[0]
    assert first.git == {
        "commit": "2ec3a27bed7883de488373caa0069f65811768a6",
        "repo": "https://github.com/awslabs/s3-file-connector",
    }
    assert first.started_at == "2022-11-01T14:15:37.320+00:00"
    event_loop = pick(results(first), "time_per_op", "event_loop_future")
    assert (event_loop["value"], event_loop["unit"]) == (72554, "ns")
    last = runs[27]
    assert last.git["commit"] == "bcd7056caa3bce9cf631ff592623e0595ccb07ce"
    assert last.started_at == "2022-11-11T11:50:02.016+00:00"
    read = pick(results(last), "throughput", "fs/sequential_read")
    assert (read["value"], read["unit"], read["direction"]) == (848.12, "MiB/s", "higher")
    direct = pick(results(last), "throughput", "fs/sequential_read_direct_io")
    assert (direct["value"], direct["unit"]) == (1.2229, "GiB/s")


def test_custom_bigger_is_better_history_in_decimal_megabytes() -> None:
    runs = history("iroh-http_customBiggerIsBetter_data.js", language="javascript")
    assert [len(run.results) for run in runs] == [8, 8]
    first = runs[0]
    assert first.git["commit"] == "6ad4bf15f457e74774bc6a5636531648b3e98d24"
    assert first.tags["commit_timestamp"] == "2026-04-26T16:54:40Z"
    assert first.started_at == "2026-04-26T16:58:36.271+00:00"
    kb = pick(results(first), "throughput", "node/iroh/throughput-1kb")
    assert (kb["value"], kb["unit"], kb["direction"]) == (1.4594815272997714, "MB/s", "higher")
    assert pick(results(first), "throughput", "node/native/throughput-10mb")["value"] == (
        588.7635951548941
    )
    last = runs[1]
    assert last.git["commit"] == "62b6b236cb60ee4f069b1507ee26e6fdb6eabd11"
    assert last.started_at == "2026-04-29T07:40:34.110+00:00"
    assert pick(results(last), "throughput", "node/iroh/throughput-1kb")["value"] == (
        1.5435551206586888
    )


def test_string_values_and_missing_units() -> None:
    runs = history("gha-bench-test_edge_string-values_missing-unit_data.js", language="python")
    assert [len(run.results) for run in runs] == [4, 3, 4]
    first, second, third = runs
    assert first.git["commit"] == second.git["commit"] == "fb7ad41bcdbbbd39d22529820bd5233a8e15f494"
    assert first.tags["commit_timestamp"] == "2024-03-12T15:59:50-04:00"
    assert (first.started_at, second.started_at) == (
        "2024-03-12T20:00:11.609+00:00",
        "2024-03-12T20:00:12.478+00:00",
    )
    assert first.key != second.key  # same commit, two runs
    percent = pick(results(first), "percent", "pybench2 Dummy 1")
    assert (percent["value"], percent["unit"]) == (31, "percent")  # "31"
    no_unit = pick(results(first), "value", "no-unit")
    assert (no_unit["value"], no_unit["unit"]) == (30, "count")
    dummy3 = pick(results(second), "time", "My Custom Smaller Is Better Benchmark - Dummy 3")
    assert (dummy3["value"], dummy3["unit"]) == (68, "ms")  # "Time(ms)"
    assert third.git["commit"] == "6b3e0d5a68334cc74e1d39af93673746dd7e40c4"
    assert third.started_at == "2024-03-12T22:09:47.332+00:00"
    empty = pick(results(third), "value", "empty-unit")
    assert (empty["value"], empty["unit"]) == (62, "count")


def test_histories_without_a_language_say_so_only_for_custom_tools() -> None:
    runs = history("mountpoint-s3_cargo-then-customBiggerIsBetter_data.js")
    languages = {run.tags["gab_tool"]: {r["language"] for r in run.results} for run in runs}
    assert languages == {"cargo": {"rust"}, "customBiggerIsBetter": {"unknown"}}
