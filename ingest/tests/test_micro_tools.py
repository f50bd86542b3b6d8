"""Microbenchmark harnesses: go test, Google Benchmark, JMH, criterion, pytest-benchmark,
pyperf, hyperfine."""

from __future__ import annotations

import pytest
from conftest import parse_fixture, pick


def test_go_text_folds_count_repetitions_into_samples() -> None:
    results = parse_fixture("go/go_test_bench.txt")
    sync10 = pick(results, "time_per_op", "BenchmarkWriteFiles/sync", n=10)
    assert sync10["samples"] == [2530640, 1950539, 3991908]
    assert sync10["params"] == {"n": 10, "gomaxprocs": 2}
    assert (sync10["unit"], sync10["language"]) == ("ns", "go")
    expect = {
        ("BenchmarkWriteFiles/goroutines", 10): [2231430, 3134967, 3074374],
        ("BenchmarkWriteFiles/sync", 100): [36546804, 47884243, 53206830],
        ("BenchmarkWriteFiles/goroutines", 100): [21105162, 43072528, 18984764],
    }
    for (name, n), samples in expect.items():
        assert pick(results, "time_per_op", name, n=n)["samples"] == samples
    assert pick(results, "time_per_op", "BenchmarkReadLines/bufio-scanner")["samples"] == [
        96390,
        60672,
        77770,
    ]


def test_go_memory_custom_and_throughput_metrics() -> None:
    results = parse_fixture("go/go_test_bench.txt")
    assert pick(results, "memory_per_op", "BenchmarkWriteFiles/sync", n=10)["samples"] == [
        2482,
        2482,
        2483,
    ]
    assert pick(results, "allocs_per_op", "BenchmarkReadLines/readfile-split")["value"] == 6
    assert pick(results, "throughput", "BenchmarkWriteFiles/sync", n=10)["unit"] == "MB/s"
    assert pick(results, "files_per_op", "BenchmarkWriteFiles/sync", n=10)["value"] == 10
    assert not [
        r
        for r in results
        if r["benchmark"].startswith("BenchmarkReadLines") and r["metric"] == "throughput"
    ]


def test_go_json_split_output_events() -> None:
    results = parse_fixture("go/go_test_bench.json")
    expect = {
        ("BenchmarkWriteFiles/sync", 10): [2055186, 2224564, 2679053],
        ("BenchmarkWriteFiles/goroutines", 10): [2394537, 2595961, 4022281],
        ("BenchmarkWriteFiles/sync", 100): [18852392, 43880272, 34221336],
        ("BenchmarkWriteFiles/goroutines", 100): [17691720, 17321706, 17960629],
    }
    for (name, n), samples in expect.items():
        assert pick(results, "time_per_op", name, n=n)["samples"] == samples
    assert pick(results, "time_per_op", "BenchmarkReadLines/readfile-split")["samples"] == [
        243254,
        193742,
        162113,
    ]


def test_google_benchmark_single_runs() -> None:
    results = parse_fixture("google-benchmark/gbench_sync_vs_async.json")
    real = pick(results, "real_time", "BM_WriteFilesSync/10")
    assert (real["value"], real["unit"]) == (3330.7235470667647, "us")
    assert pick(results, "cpu_time", "BM_WriteFilesSync/10")["value"] == 308.6865716234653
    assert pick(results, "items_per_second", "BM_WriteFilesSync/10")["value"] == (
        32395.319133603138
    )
    assert pick(results, "bytes_per_second", "BM_WriteFilesSync/10")["unit"] == "B/s"
    assert pick(results, "real_time", "BM_WriteFilesAsync/100/real_time")["value"] == (
        23774.59719999706
    )
    read = pick(results, "real_time", "BM_ReadLinesSync")
    assert (read["value"], read["unit"]) == (238857.51732722265, "ns")
    assert pick(results, "cpu_time", "BM_ReadLinesSync")["value"] == 53406.10166570934


def test_google_benchmark_repetitions_use_aggregates() -> None:
    results = parse_fixture("google-benchmark/gbench_repetitions3.json")
    vector = pick(results, "real_time", "BM_VectorSum")
    assert vector["value"] == 129.94619101509062
    assert vector["stats"]["median"] == 129.94926810865454
    assert vector["stats"]["stddev"] == 0.9699128233880967
    assert vector["samples"] == [130.91456163085573, 129.9492681086545, 128.97474330576162]
    assert len([r for r in results if r["benchmark"].endswith("_cv")]) == 0


def test_jmh_nan_score_error_and_units() -> None:
    results = parse_fixture("jmh/jmh_sync_vs_async.json")
    channel = pick(results, "throughput", "bench.ReadLinesBench.readLinesAsyncChannel")
    assert (channel["value"], channel["unit"]) == (3951.641426338717, "ops/s")
    assert pick(results, "throughput", "bench.ReadLinesBench.readLinesSync")["value"] == (
        602.9647137516534
    )
    future = pick(results, "time_per_op", "bench.WriteFilesBench.writeCompletableFuture", n=10)
    assert (future["value"], future["unit"]) == (1759.8561967379248, "us")
    assert pick(results, "time_per_op", "bench.WriteFilesBench.writeSync", n=100)["value"] == (
        57336.454755555555
    )
    assert future["samples"] == [1569.4561158059469, 1950.2562776699028]


def test_criterion_estimates_use_slope_and_name_from_path() -> None:
    results = parse_fixture("criterion/target-criterion/read_lines_std/new/estimates.json")
    (result,) = results
    assert result["benchmark"] == "read_lines_std"
    assert result["value"] == 372167.2925667828
    assert result["stats"]["mean"] == 5763078.370100515
    assert result["stats"]["median"] == 217249.30648148147
    tokio = parse_fixture("criterion/target-criterion/read_lines_tokio/new/estimates.json")
    assert tokio[0]["value"] == 225571.64031027045


def test_criterion_stdout() -> None:
    results = parse_fixture("criterion/cargo_bench_stdout.txt")
    std10 = pick(results, "time_per_op", "write_files/std_fs/10")
    assert (std10["value"], std10["unit"]) == (2.3355, "ms")
    assert pick(results, "throughput", "write_files/std_fs/10")["value"] == 4281.7
    tokio10 = pick(results, "time_per_op", "write_files/tokio_fs/10")
    assert (tokio10["value"], tokio10["unit"]) == (450.35, "us")
    assert pick(results, "time_per_op", "write_files/tokio_fs/100")["value"] == 3.2488
    assert pick(results, "throughput", "write_files/tokio_fs/100")["value"] == 30781
    assert pick(results, "time_per_op", "read_lines_std")["value"] == 372.17
    assert pick(results, "time_per_op", "read_lines_tokio")["value"] == 225.57


def test_criterion_benchmark_json_alone_says_where_the_figures_are() -> None:
    from benchboard_ingest import ParseError

    with pytest.raises(ParseError, match=r"estimates\.json"):
        parse_fixture("criterion/target-criterion/read_lines_std/new/benchmark.json")


def test_pytest_benchmark_seconds_and_params() -> None:
    results = parse_fixture("pytest-benchmark/pytest_benchmark_sync_vs_async.json")
    sync10 = pick(results, "time_per_op", "test_write_files_sync", n=10)
    assert (sync10["value"], sync10["unit"]) == (0.010985932321935165, "s")
    assert sync10["stats"]["n"] == 1550
    assert pick(results, "throughput", "test_write_files_sync", n=10)["value"] == (
        91.02550158654634
    )
    means = {
        ("test_write_files_sync", 50): 0.03905722240170577,
        ("test_write_files_async_to_thread", 10): 0.0087998384285746,
        ("test_write_files_async_to_thread", 50): 0.009682744473683383,
        ("test_write_files_aiofiles", 10): 0.01651510239130106,
        ("test_write_files_aiofiles", 50): 0.023571876099993005,
    }
    for (name, n), mean in means.items():
        assert pick(results, "time_per_op", name, n=n)["value"] == mean
    read = pick(results, "time_per_op", "test_read_lines_sync")
    assert read["value"] == 0.0002834603668052623
    assert read["stats"]["n"] == 2669
    assert "params" not in read
    assert pick(results, "time_per_op", "test_read_lines_aiofiles")["value"] == 0.163007403000006
    assert len(results) == 16


def test_pyperf_means_of_all_run_values() -> None:
    results = parse_fixture("pyperf/pyperf_sync.json")
    write = pick(results, "time_per_op", "write_10_files")
    assert write["value"] == pytest.approx(0.004819425014062873, rel=1e-12)
    assert (write["unit"], len(write["samples"])) == ("s", 20)
    read = pick(results, "time_per_op", "read_2000_lines")
    assert read["value"] == pytest.approx(0.00036041212167958747, rel=1e-12)


def test_hyperfine_json() -> None:
    results = parse_fixture("hyperfine/hyperfine_sync_vs_async.json")
    sync = pick(results, "wall_time", "python3 write_sync.py out_sync 500")
    assert (sync["value"], sync["unit"]) == (0.58712406986, "s")
    assert sync["stats"] == {
        "n": 10,
        "mean": 0.58712406986,
        "median": 0.54366418216,
        "min": 0.38048029466,
        "max": 0.8823963146600001,
        "stddev": 0.16705588164775037,
    }
    assert len(sync["samples"]) == 10
    assert pick(results, "wall_time", "python3 write_async.py out_async 500")["value"] == (
        0.9681353815600001
    )
