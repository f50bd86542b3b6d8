"""tinybench, benchmark.js, Dart benchmark_harness, BenchmarkDotNet, contract JSON."""

from __future__ import annotations

from conftest import parse_fixture, pick


def test_tinybench_table_in_ns() -> None:
    results = parse_fixture("tinybench/tinybench_table.txt")
    write = pick(results, "time_per_op", "writeFileSync x10")
    assert (write["value"], write["unit"]) == (2959316, "ns")
    assert write["stats"] == {"median": 758051, "n": 169}
    assert pick(results, "throughput", "writeFileSync x10")["value"] == 1107
    assert pick(results, "time_per_op", "fs.promises.writeFile x10")["value"] == 4460789
    assert pick(results, "throughput", "readFileSync+split lines")["value"] == 12565
    assert pick(results, "time_per_op", "readline async lines")["stats"]["n"] == 214


def test_tinybench_json_in_ms() -> None:
    results = parse_fixture("tinybench/tinybench_small_results.json")
    write = pick(results, "time_per_op", "writeFileSync")
    assert (write["value"], write["unit"]) == (0.09601135348688516, "ms")
    assert write["stats"]["n"] == 3126
    table = parse_fixture("tinybench/tinybench_small_table.txt")
    assert pick(table, "time_per_op", "writeFileSync")["value"] == 96011


def test_benchmarkjs_lines() -> None:
    results = parse_fixture("benchmarkjs/benchmarkjs_output.txt")
    assert pick(results, "throughput", "writeFileSync x10")["value"] == 81.73
    assert pick(results, "throughput", "fs.promises.writeFile x10")["stats"] == {"n": 10}
    assert pick(results, "throughput", "fs.writeFile callback x10")["value"] == 196
    small = parse_fixture("benchmarkjs/benchmarkjs_small_output.txt")
    assert pick(small, "throughput", "writeFileSync")["value"] == 12004  # "12,004"


def test_dart_runtime_lines() -> None:
    (result,) = parse_fixture("dart/readme_template_output.txt")
    assert (result["benchmark"], result["value"], result["unit"]) == (
        "Template",
        0.1568472448997197,
        "us",
    )
    assert result["language"] == "dart"
    (aot,) = parse_fixture("dart/readme_bench_command_aot.txt")
    assert aot["value"] == 0.005620051244379949


def test_dart_report_detailed() -> None:
    (result,) = parse_fixture("dart/readme_report_detailed.txt")
    assert (result["benchmark"], result["value"], result["unit"]) == ("JsonParse", 4.812, "ms")
    assert result["stats"]["median"] == 4.785
    assert result["stats"]["n"] == 415
    assert result["stats"]["min"] == 4.703


def test_benchmarkdotnet_statistics_in_ns() -> None:
    results = parse_fixture("benchmarkdotnet/IntroJsonExport-report-brief.json")
    sleep10 = pick(results, "time_per_op", "IntroJsonExport.Sleep10")
    assert (sleep10["value"], sleep10["unit"]) == (10362283.085796878, "ns")
    assert sleep10["stats"]["p95"] == 10435620.51609375
    assert sleep10["stats"]["n"] == 20
    assert sleep10["language"] == "csharp"


def test_contract_run_document_round_trips() -> None:
    results = parse_fixture("contract/004-fio-sync-vs-async.json")
    assert len(results) == 52
    first = results[0]
    assert (first["benchmark"], first["metric"], first["value"]) == (
        "fio-randread-4k",
        "latency",
        943,
    )
