"""Every parser refuses truncated and corrupted input with a ParseError naming the file,
the place and what was expected, and produces nothing."""

from __future__ import annotations

import pytest
from conftest import fixture_text, interop_text, needs_interop

from benchboard_ingest import FORMATS, ParseContext, ParseError, parse_file_content

# One real fixture per format.
SAMPLES = {
    "wrk": "wrk/wrk_async_aiohttp_latency.txt",
    "ab": "ab/ab_async_aiohttp_n2000.txt",
    "ab-csv": "ab/ab_sync_threading_n2000_percentiles.csv",
    "fio": "fio/fio_sync_randread.json",
    "hyperfine": "hyperfine/hyperfine_sync_vs_async.json",
    "pytest-benchmark": "pytest-benchmark/pytest_benchmark_sync_vs_async.json",
    "go": "go/go_test_bench.txt",
    "go-json": "go/go_test_bench.json",
    "google-benchmark": "google-benchmark/gbench_sync_vs_async.json",
    "jmh": "jmh/jmh_sync_vs_async.json",
    "criterion": "criterion/target-criterion/read_lines_std/new/estimates.json",
    "criterion-benchmark": "criterion/target-criterion/read_lines_std/new/benchmark.json",
    "criterion-stdout": "criterion/cargo_bench_stdout.txt",
    "pyperf": "pyperf/pyperf_sync.json",
    "pgbench": "pgbench/pgbench_tpcb_c4_T3.txt",
    "sysbench": "sysbench/sysbench_fileio_rndrw.txt",
    "hey": "hey/hey_ok.txt",
    "autocannon": "autocannon/autocannon_ok.json",
    "tinybench": "tinybench/tinybench_table.txt",
    "tinybench-json": "tinybench/tinybench_small_results.json",
    "benchmarkjs": "benchmarkjs/benchmarkjs_output.txt",
    "dart": "dart/readme_template_output.txt",
    "benchmarkdotnet": "benchmarkdotnet/IntroJsonExport-report-brief.json",
    "asv": "asv/results/vm/33714399-existing-py_tmp_peer-tools_bin_python.json",
    "conbench": "conbench/benchadapt_callable_payloads.json",
    "contract": "contract/004-fio-sync-vs-async.json",
}
# Formats whose only real files are the peers' own, read from ../shared/tool-outputs/interop.
INTEROP_SAMPLES = {
    "bmf": "bmf/bencher_cli_mock_results.json",
    "gab-custom": "gab-custom/gab-testdata_customSmallerIsBetter_output2.json",
    "lnt": "lnt/lnt_nts-run1.json",
}
# What the caller must say for some formats; a broken file must fail for itself, not for
# a missing flag.
CONTEXT = ParseContext(direction="lower")


def _parse(fmt: str, raw: str, relative: str) -> list[dict[str, object]]:
    return parse_file_content(raw, format=fmt, context=CONTEXT, filename=f"fixtures/{relative}")


def test_every_format_has_a_sample() -> None:
    assert set(SAMPLES) | set(INTEROP_SAMPLES) == set(FORMATS)
    assert not set(SAMPLES) & set(INTEROP_SAMPLES)


@needs_interop
@pytest.mark.parametrize("fmt", sorted(INTEROP_SAMPLES))
def test_peer_files_truncated_or_corrupted_are_parse_errors(fmt: str) -> None:
    relative = INTEROP_SAMPLES[fmt]
    raw = interop_text(relative)
    assert _parse(fmt, raw, relative)  # the whole file parses
    for broken in (raw[: len(raw) // 8], "\n".join(line[::-1] for line in raw.splitlines())):
        with pytest.raises(ParseError) as caught:
            _parse(fmt, broken, relative)
        assert type(caught.value) is ParseError
        assert str(caught.value).startswith(f"fixtures/{relative}: ")


@pytest.mark.parametrize("fmt", sorted(SAMPLES))
def test_truncated_input_is_a_parse_error(fmt: str) -> None:
    relative = SAMPLES[fmt]
    raw = fixture_text(relative)
    with pytest.raises(ParseError) as caught:
        _parse(fmt, raw[: len(raw) // 8], relative)
    error = caught.value
    assert error.file == f"fixtures/{relative}"
    assert error.location
    assert error.expected
    assert str(error).startswith(f"fixtures/{relative}: ")


@pytest.mark.parametrize("fmt", sorted(SAMPLES))
def test_corrupted_input_is_a_parse_error(fmt: str) -> None:
    relative = SAMPLES[fmt]
    corrupted = "\n".join(line[::-1] for line in fixture_text(relative).splitlines())
    with pytest.raises(ParseError) as caught:
        _parse(fmt, corrupted, relative)
    assert caught.value.file == f"fixtures/{relative}"


def test_wrong_type_names_the_json_key() -> None:
    raw = fixture_text("fio/fio_sync_randread.json").replace(
        '"iops" : 20907.697434', '"iops" : "fast"'
    )
    with pytest.raises(ParseError) as caught:
        _parse("fio", raw, "fio/fio_sync_randread.json")
    assert caught.value.location == "$.jobs[0].read.iops"
    assert caught.value.expected == "a number"


def test_missing_line_names_what_was_expected() -> None:
    raw = fixture_text("wrk/wrk_sync_threading.txt").replace("Requests/sec", "Reqs")
    with pytest.raises(ParseError) as caught:
        _parse("wrk", raw, "wrk/wrk_sync_threading.txt")
    assert "Requests/sec" in caught.value.expected
    assert caught.value.location.startswith("line ")


def test_bad_number_names_its_line() -> None:
    raw = fixture_text("wrk/wrk_sync_threading.txt").replace("86.09ms", "86.09zz")
    with pytest.raises(ParseError) as caught:
        _parse("wrk", raw, "wrk/wrk_sync_threading.txt")
    assert caught.value.location == "line 4"


def test_json_syntax_error_names_line_and_column() -> None:
    with pytest.raises(ParseError) as caught:
        _parse("jmh", '[\n  {"benchmark": ,}\n]', "x.json")
    assert caught.value.location == "line 2 column 17"
