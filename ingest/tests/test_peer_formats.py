"""The peers' formats parsed from their real files (../shared/tool-outputs/interop), to the
figures its MANIFEST.md gives, exactly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from conftest import INTEROP, interop_text, needs_interop, parse_interop, pick

from benchboard_ingest import MissingOption, ParseContext, ParseError, parse_file
from benchboard_ingest.parsers import asv, conbench, lnt

pytestmark = needs_interop


def plain(results: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [dict(result) for result in results]


def test_bmf_latency_keeps_value_and_bounds_in_ns() -> None:
    results = parse_interop("bmf/bencher_report_latency.json", language="rust")
    a = pick(results, "latency", "tests::benchmark_a")
    assert (a["value"], a["unit"], a["direction"]) == (3247.0, "ns", "lower")
    assert a["stats"] == {"min": 1044.0, "max": 1044.0}
    b = pick(results, "latency", "tests::benchmark_b")
    assert (b["value"], b["stats"]["min"]) == (3443.0, 2275.0)
    c = pick(results, "latency", "tests::benchmark_c")
    assert (c["value"], c["stats"]["max"]) == (3361.0, 1093.0)


def test_bmf_names_of_any_shape_are_benchmarks() -> None:
    results = parse_interop("bmf/bencher_report_bmf_mixed.json", language="rust")
    uuid_named = pick(results, "latency", "31aba8a9-977a-47d1-9fb6-e6b94b428471")
    assert (uuid_named["value"], uuid_named["stats"]) == (3247.0, {"min": 1044.0, "max": 1044.0})
    assert pick(results, "latency", "benchmark-b")["stats"]["min"] == 2275.0
    assert pick(results, "latency", "tests::benchmark_c")["value"] == 3361.0


def test_bmf_mock_output_in_file_order() -> None:
    results = parse_interop("bmf/bencher_cli_mock_results.json", language="rust")
    assert [r["benchmark"] for r in results] == [f"bencher::mock_{i}" for i in (4, 2, 1, 0, 3)]
    mock4 = pick(results, "latency", "bencher::mock_4")
    assert mock4["value"] == 44.139614190145785
    assert mock4["stats"] == {"min": 39.72565277113121, "max": 48.55357560916036}
    assert pick(results, "latency", "bencher::mock_0")["value"] == 0.80612801527848
    assert pick(results, "latency", "bencher::mock_3")["value"] == 36.27299263203977


def test_bmf_custom_measures_are_counts_unless_the_caller_names_the_unit() -> None:
    results = parse_interop("bmf/bencher_report_dhat.json", language="rust")
    figures = {r["metric"]: (r["value"], r["unit"]) for r in results}
    assert figures["total_bytes"] == (662, "count")
    assert figures["max_bytes"] == (9, "count")
    assert figures["total_blocks"] == (100, "count")
    assert figures["final_blocks"] == (0, "count")
    assert {r["benchmark"] for r in results} == {"bench_play_game"}
    in_bytes = parse_interop(
        "bmf/bencher_report_dhat.json", language="rust", unit="B", direction="lower"
    )
    assert {(r["unit"], r["direction"]) for r in in_bytes} == {("B", "lower")}


def test_gab_custom_bigger_is_better_with_a_numeric_range() -> None:
    results = parse_interop(
        "gab-custom/gab-testdata_customBiggerIsBetter_output.json", direction="higher"
    )
    throughput = pick(results, "throughput", "My Custom Bigger Is Better Benchmark - Throughput")
    assert (throughput["value"], throughput["unit"], throughput["direction"]) == (
        70,
        "req/s",
        "higher",
    )
    assert "stats" not in throughput
    memory = pick(results, "size", "My Custom Bigger Is Better Benchmark - Free Memory")
    # 150 Megabytes ± "3": megabytes are 10^6 bytes, the contract's size unit is bytes.
    assert (memory["value"], memory["unit"]) == (150_000_000, "B")
    assert memory["stats"] == {"stddev": 3_000_000}


def test_gab_custom_relative_range_is_not_a_stddev() -> None:
    results = parse_interop(
        "gab-custom/gab-testdata_customSmallerIsBetter_output.json", direction="lower"
    )
    cpu = pick(results, "percent", "My Custom Smaller Is Better Benchmark - CPU Load")
    assert (cpu["value"], cpu["unit"], cpu["direction"]) == (50, "percent", "lower")
    assert "stats" not in cpu  # range "5%"
    memory = pick(results, "size", "My Custom Smaller Is Better Benchmark - Memory Used")
    assert (memory["value"], memory["unit"]) == (100_000_000, "B")


def test_gab_custom_numeric_range_becomes_the_stddev() -> None:
    results = parse_interop(
        "gab-custom/gab-testdata_customSmallerIsBetter_output2.json", direction="lower"
    )
    assert len(results) == 4
    for name, value, spread in (
        ("No instrumentation", 90.9439, 0.519165),
        ("Deactivated probe", 445.661, 8.21371),
        ("Binary file", 3886.75, 87.1657),
    ):
        result = pick(results, "time", name)
        assert (result["value"], result["unit"], result["stats"]) == (
            value,
            "ns",
            {"stddev": spread},
        )


def test_gab_custom_committed_by_a_user() -> None:
    results = parse_interop("gab-custom/test-benchmark-action_metrics.json", direction="lower")
    assert pick(results, "percent", "My Custom Smaller Is Better Benchmark - CPU Load")[
        "value"
    ] == (50)
    memory = pick(results, "size", "My Custom Smaller Is Better Benchmark - Memory Used")
    assert (memory["value"], memory["stats"]) == (100_000_000, {"stddev": 3_000_000})


def test_gab_custom_needs_the_direction_from_the_caller() -> None:
    with pytest.raises(MissingOption) as caught:
        parse_interop("gab-custom/gab-testdata_customBiggerIsBetter_output.json")
    assert caught.value.option == "direction"
    assert "--direction" in caught.value.expected


def test_asv_v1_alone_uses_asvs_own_naming() -> None:
    relative = (
        "asv/pvlib-benchmarks/results/pvlib-asv.forecasting.energy.arizona.edu/"
        "b026c57c-conda-py3.8-ephem-numba-numpy-pandas-pytables-scipy.json"
    )
    parsed = parse_file(interop_text(relative), format=None, context=ParseContext())
    aoi = pick(plain(parsed.results), "time_per_op", "irradiance.Irradiance.time_aoi")
    assert (aoi["value"], aoi["unit"], aoi["language"]) == (0.002372638788074255, "s", "python")
    assert aoi["implementation"] == "conda-py3.8-ephem-numba-numpy-pandas-pytables-scipy"
    spa = [r for r in parsed.results if r["benchmark"].endswith("SolarPosition.time_spa_python")]
    # Without benchmarks.json a param has asv's default name.
    assert [(r["params"], r["value"]) for r in spa] == [
        ({"param1": 1}, 0.017811458092182875),
        ({"param1": 10}, 0.1213249396532774),
        ({"param1": 100}, 1.2675724891014397),
    ]
    reasons = {s.item: s.reason for s in parsed.skipped}
    assert (
        reasons["temperature.Fuentes.time_fuentes"] == "asv stored NaN: the benchmark was skipped"
    )
    assert reasons["irradiance.Irradiance.time_get_extra_radiation"] == (
        "asv stored no result: the benchmark failed"
    )
    assert len(parsed.skipped) == 8  # 3 null, 3 NaN, 2 parametrized with result null


def test_asv_v1_with_its_benchmarks_and_machine() -> None:
    root = "asv/pvlib-benchmarks/results"
    machine = "pvlib-asv.forecasting.energy.arizona.edu"
    run = asv.read_results(
        interop_text(
            f"{root}/{machine}/b026c57c-conda-py3.8-ephem-numba-numpy-pandas-pytables-scipy.json"
        ),
        context=ParseContext(),
        benchmarks=asv.read_benchmarks(interop_text(f"{root}/benchmarks.json"), source="b"),
        hardware=asv.read_machine(interop_text(f"{root}/{machine}/machine.json"), source="m"),
    )
    assert run.git == {"commit": "b026c57cea851763793a1a5e0972d1195d7ec3b8"}
    assert run.started_at == "2018-04-05T20:11:14.000+00:00"  # date 1522959074000
    assert run.hardware == {
        "name": machine,
        "cpu": "Intel Xeon Processor (Skylake, IBRS)",
        "os": "Linux 5.7.8-200.fc32.x86_64",
        "arch": "x86_64",
        "ram": "8145244",
        "cores": 4,
        "memory_gb": 7.8,  # 8145244 kB, as asv before 0.5 wrote MemTotal
    }
    assert run.environment["asv_env"] == "conda-py3.8-ephem-numba-numpy-pandas-pytables-scipy"
    spa = [r for r in run.results if r["benchmark"].endswith("SolarPosition.time_spa_python")]
    assert [r["params"] for r in spa] == [{"ndays": 1}, {"ndays": 10}, {"ndays": 100}]
    assert len(run.results) == 37
    tracker = pick(plain(run.results), "time_per_op", "tracking.SingleAxis.time_tracker_singleaxis")
    assert tracker["value"] == 0.032128614373505116  # not in benchmarks.json: a time_ by name


def test_asv_v2_short_rows_and_benchmarks_missing_from_benchmarks_json() -> None:
    root = "asv/metpy-fork/results"
    run = asv.read_results(
        interop_text(
            f"{root}/Jaye_Dell/059cc1a4-conda-py3.12-matplotlib-numpy-pandas-pint-pooch-"
            "pyproj-scipy-traitlets-xarray.json"
        ),
        context=ParseContext(),
        benchmarks=asv.read_benchmarks(interop_text(f"{root}/benchmarks.json"), source="b"),
        hardware=asv.read_machine(interop_text(f"{root}/Jaye_Dell/machine.json"), source="m"),
    )
    assert run.git == {"commit": "059cc1a45be63a2d86ba0801baa624e251bba487"}
    assert run.started_at == "2024-01-04T21:23:43.000+00:00"
    assert run.hardware is not None
    assert (run.hardware["name"], run.hardware["cores"], run.hardware["memory_gb"]) == (
        "Jaye_Dell",
        16,
        32.0,
    )
    cape = pick(plain(run.results), "time_per_op", "benchmarks.TimeSuite.time_cape_cin")
    assert (cape["value"], cape["unit"]) == (0.005201166670303792, "s")
    assert cape["stats"] == {"p75": 0.0054398, "n": 10}  # stats_q_75, stats_repeat
    lcl = pick(plain(run.results), "time_per_op", "benchmarks.TimeSuite.time_lcl")
    assert lcl["value"] == 0.0002923488098617998
    names = {r["benchmark"] for r in run.results}
    assert "jaye_benchmarks.TimeSuite.time_virtual_temperature" in names
    assert [s.item for s in run.skipped] == [
        "moist_thermo_benchmarks.TimeSuite.time_water_latent_heat_melting"
    ]
    assert len(run.results) == 37


def test_conbench_result_page_stats_data_become_samples() -> None:
    relative = "conbench/conbench_GET_benchmark-results_page1.json"
    (run,) = conbench.read_runs(interop_text(relative), context=ParseContext())
    assert run.started_at == "2020-11-25T21:02:42.706806+00:00"  # written with no zone: UTC
    (result,) = parse_interop(relative)
    assert result["benchmark"] == "file-read"
    assert result["params"] == {
        "compression": "snappy",
        "cpu_count": 2,
        "dataset": "nyctaxi_sample",
        "file_type": "parquet",
        "input_type": "arrow",
    }
    assert (result["value"], result["unit"]) == (0.036369, "s")  # stats.mean
    assert len(result["samples"]) == 10
    assert result["samples"][0] == 0.099094
    assert result["stats"]["median"] == 0.008988
    assert result["stats"]["min"] == 0.004733
    assert result["stats"]["n"] == 10


def test_conbench_errored_result_is_a_failure_not_a_figure() -> None:
    relative = "conbench/conbench_GET_benchmark-results_page2_error.json"
    (run,) = conbench.read_runs(interop_text(relative), context=ParseContext())
    assert run.results == []
    (skipped,) = run.skipped
    assert skipped.item.startswith("file-write(")
    assert skipped.reason == "failed in Conbench: Something went wrong"
    with pytest.raises(ParseError) as caught:
        parse_interop(relative)
    assert "Something went wrong" in caught.value.expected


def test_conbench_run_object_gives_commit_and_hardware() -> None:
    relative = "conbench/conbench_GET_run_contender_wo_base.json"
    (run,) = conbench.read_runs(interop_text(relative), context=ParseContext())
    assert run.key == ("some_contender",)
    assert run.started_at == "2021-02-04T17:22:05.225583+00:00"
    assert run.git == {"commit": "no_baseline", "repo": "https://github.com/apache/arrow"}
    assert run.tags["run_reason"] == "some run reason"
    assert run.hardware is not None
    assert run.hardware["name"] == "some-machine-name"
    assert run.hardware["cpu"] == "Intel(R) Core(TM) i7-7567U CPU @ 3.50GHz"
    assert run.hardware["memory_bytes"] == 17179869184
    assert run.hardware["memory_gb"] == 16.0
    with pytest.raises(ParseError, match="holds none"):
        parse_interop(relative)


def test_lnt_docs_example_samples_and_scalars() -> None:
    report = lnt.read_report(
        interop_text("lnt/lnt_docs_report-example.json"), context=ParseContext()
    )
    assert report.hardware == {
        "name": "LNT-AArch64-A53-O3__clang_DEV__aarch64",
        "hardware": "HAL 9000",
    }
    assert report.git == {"commit": "265649"}
    # start_time is later than end_time in this file; the start is what a run has.
    assert report.started_at == "2017-07-18T11:28:33+00:00"
    assert report.environment["end_time"] == "2017-07-18T11:28:23.991076"
    one = pick(plain(report.results), "execution_time", "benchmark1")
    assert (one["samples"], one["value"], one["unit"]) == ([0.1056, 0.1055], 0.1055, "s")
    assert pick(plain(report.results), "compile_time", "benchmark2")["value"] == 13.12
    assert pick(plain(report.results), "execution_time", "benchmark2")["value"] == 0.2135
    assert {r["metric"] for r in report.results} == {"execution_time", "compile_time"}


def test_lnt_nts_run() -> None:
    report = lnt.read_report(interop_text("lnt/lnt_nts-run1.json"), context=ParseContext())
    assert report.hardware is not None
    assert (report.hardware["name"], report.hardware["os"]) == (
        "localhost__clang_DEV__x86_64",
        "Darwin 11.3.0",
    )
    assert report.started_at == "2012-04-11T16:28:23+00:00"
    assert report.git == {"commit": "154331"}
    varg = "SingleSource/UnitTests/2006-12-01-float_varg"
    assert pick(plain(report.results), "compile_time", varg)["value"] == 0.007
    assert pick(plain(report.results), "execution_time", varg)["value"] == 0.0003
    alloc = "SingleSource/UnitTests/2006-12-04-DynAllocAndRestore"
    assert pick(plain(report.results), "compile_time", alloc)["value"] == 0.0072


def test_lnt_statuses_and_hashes_are_not_figures() -> None:
    report = lnt.read_report(
        interop_text("lnt/lnt_nts-sparkline-run1.json"), context=ParseContext()
    )
    assert report.hardware == {"name": "machine2", "hardware": "AArch64", "os": "linux"}
    assert report.git == {"commit": "152294"}
    assert report.environment["producer"] == "http://my.build.server/buildResult"
    assert pick(plain(report.results), "execution_time", "test6")["value"] == 1.0
    assert pick(plain(report.results), "compile_time", "test6")["value"] == 0.001
    multi = pick(plain(report.results), "execution_time", "test_mhash_on_run")
    assert multi["samples"] == [1.0, 1.0]
    assert {r["metric"] for r in report.results} == {"execution_time", "compile_time"}
    assert len(report.results) == 8


def test_lnt_compile_schema() -> None:
    report = lnt.read_report(interop_text("lnt/lnt_compile-run1.json"), context=ParseContext())
    assert report.tags["lnt_schema"] == "compile"
    assert report.hardware is not None
    assert (report.hardware["name"], report.hardware["hardware"]) == ("localhost", "MacBookPro8,2")
    assert report.started_at == "2012-04-11T16:30:33+00:00"
    name = "compile/OmniGroupFrameworks/NSBezierPath-OAExtensions.m/assembly/(-O0 -g)"
    user = pick(plain(report.results), "user_time", name)
    assert (user["samples"], user["value"]) == ([0.336512, 0.338633], 0.336512)
    assert pick(plain(report.results), "wall_time", name)["samples"] == [0.365776, 0.367148]
    memory = pick(plain(report.results), "mem_bytes", name)
    assert (memory["samples"], memory["unit"]) == ([33353728.0, 33353728.0], "B")


def test_every_interop_file_the_manifest_lists_is_here() -> None:
    listed = [line for line in interop_text("MANIFEST.md").splitlines() if line.startswith("| `")]
    paths = [line.split("`")[1] for line in listed]
    assert len(paths) == 51
    assert all((INTEROP / path).is_file() for path in paths)
