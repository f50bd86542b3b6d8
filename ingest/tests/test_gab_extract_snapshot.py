"""What github-action-benchmark writes into `data.js` for every tool it knows, read back.

The action's own Jest snapshot (`gab-extract/extract.spec.ts.snap`) holds the entry its
extractor makes from each of its test inputs: the very objects a `data.js` stores. Each
is read here as a one-entry history, to the figures of MANIFEST.md; and where we have a
parser of that tool, the same input parsed by ours gives the same series and figures, so
an imported history continues with `benchboard-ingest upload` of the tool's output.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from conftest import INTEROP, interop_text, needs_interop, pick

from benchboard_ingest import ParseContext, parse_file_content
from benchboard_ingest.model import SourceRun
from benchboard_ingest.parsers.gab import read_history

pytestmark = needs_interop

_BLOCK = re.compile(
    r"^exports\[`extractResult\(\) extracts benchmark output from (\S+) - (\S+) 1`\] = "
    r"`\n(.*?)\n`;$",
    re.M | re.S,
)
_PROPERTY = re.compile(r'^(\s*)"([^"]+)": (.*)$')


def snapshot_entries() -> dict[str, dict[str, Any]]:
    """Each block of the snapshot, by input file name, as the JSON entry it prints.

    pretty-format prints strings raw (no escaping, real newlines) and leaves trailing
    commas: each `"key": "…",` property is re-encoded, the commas dropped."""
    entries = {}
    for match in _BLOCK.finditer(interop_text("gab-extract/extract.spec.ts.snap")):
        entries[match.group(2)] = json.loads(_as_json(match.group(3)))
    return entries


def _as_json(text: str) -> str:
    out: list[str] = []
    lines = iter(text.split("\n"))
    for line in lines:
        prop = _PROPERTY.match(line)
        if prop and prop.group(3).startswith('"'):
            value = prop.group(3)
            while not value.endswith('",'):
                value += "\n" + next(lines)
            line = f"{prop.group(1)}{json.dumps(prop.group(2))}: {json.dumps(value[1:-2])},"
        out.append(line)
    return re.sub(r",(\s*[}\]])", r"\1", "\n".join(out))


ENTRIES = snapshot_entries() if INTEROP.is_dir() else {}


def entry_run(file: str, **context: Any) -> SourceRun:
    history = json.dumps({"entries": {"snapshot": [ENTRIES[file]]}})
    (run,) = read_history(history, context=ParseContext(**context))
    return run


def results(file: str, **context: Any) -> list[dict[str, Any]]:
    return [dict(result) for result in entry_run(file, **context).results]


def test_the_snapshot_holds_every_extractor_input() -> None:
    assert len(ENTRIES) == 24
    assert len(ENTRIES["go_output.txt"]["benches"]) == 12


@pytest.mark.parametrize("file", sorted(ENTRIES))
def test_every_bench_the_action_writes_becomes_a_result(file: str) -> None:
    run = entry_run(file, language="cpp")
    benches = ENTRIES[file]["benches"]
    copies = [s for s in run.skipped if s.reason.startswith("the action's per-metric copy")]
    assert run.skipped == copies
    assert len(run.results) >= len(benches) - len(copies)
    assert run.started_at == "2024-04-03T08:05:03.296+00:00"  # the snapshot's date


def test_time_per_op_tools() -> None:
    fib10 = pick(results("benchmarkdotnet.json"), "time_per_op", "Sample.Benchmarks.Fib10")
    assert (fib10["value"], fib10["unit"], fib10["language"]) == (24.4202085009643, "ns", "csharp")
    assert (
        pick(results("benchmarkdotnet.json"), "time_per_op", "Sample.Benchmarks.Fib20")["value"]
        == 51.52008151549559
    )
    luau = results("benchmarkluau_output.txt")
    assert (pick(luau, "time_per_op", "base64")["value"], luau[0]["unit"]) == (15.041, "ms")
    assert pick(luau, "time_per_op", "life")["value"] == 85.089
    assert pick(results("cargo_output.txt"), "time_per_op", "bench_fib_10")["value"] == 135
    assert pick(results("cargo_output.txt"), "time_per_op", "bench_fib_20")["value"] == 18149
    cargo2 = results("cargo_output2.txt")
    assert pick(cargo2, "time_per_op", "bench_engine_new")["value"] == 211834
    assert pick(cargo2, "time_per_op", "bench_engine_register_fn")["value"] == 493
    cargo3 = results("cargo_output3.txt")
    assert pick(cargo3, "time_per_op", "bench_fib_10")["value"] == 148.7
    assert pick(cargo3, "time_per_op", "bench_fib_20")["value"] == 18794.12
    criterion = results("criterion_output.txt")
    assert pick(criterion, "time_per_op", "Create Realm")["value"] == 329
    assert pick(criterion, "time_per_op", "Fibonacci (Execution)")["value"] == 1672496
    julia = pick(results("julia_output.json"), "time_per_op", "fib/10")
    assert (julia["value"], julia["unit"], julia["language"]) == (246.03846153846155, "ns", "julia")


def test_cargo_units_outside_the_contract_are_counts() -> None:
    units = results("cargo_output_units.txt")
    assert pick(units, "cycles_per_iter", "cmov")["value"] == 2835
    assert pick(units, "ms_per_s", "download")["value"] == 9001  # "MS/s": mega-samples
    assert {r["unit"] for r in units} == {"count"}


def test_catch2_keeps_its_unit_per_bench() -> None:
    v2 = results("catch2_output_v2.txt")
    fib10 = pick(v2, "time_per_op", "Fibonacci 10")
    assert (fib10["value"], fib10["unit"], fib10["stats"]) == (344, "ns", {"n": 100})
    assert (
        pick(v2, "time_per_op", "Fibonacci 20")["value"],
        pick(v2, "time_per_op", "Fibonacci 20")["unit"],
    ) == (41.731, "us")
    v3 = results("catch2_output_v3.txt")
    assert pick(v3, "time_per_op", "Fibonacci 10")["value"] == 344
    assert pick(v3, "time_per_op", "Fibonacci-15_bench")["value"] == 3.789
    issue16 = results("issue16_output.txt")
    assert pick(issue16, "time_per_op", "Fibonacci 10")["value"] == 0
    assert pick(issue16, "time_per_op", "Fibonacci 20")["value"] == 1


def test_benchmarkjs_samples_count() -> None:
    js = results("benchmarkjs_output.txt")
    fib = pick(js, "throughput", "fib(10)")
    assert (fib["value"], fib["unit"], fib["stats"]) == (1431759, "ops/s", {"n": 93})
    assert pick(js, "throughput", "createObjectBuffer with 200 comments")["value"] == 81.61


def test_custom_tools_take_the_direction_from_the_tool_name() -> None:
    bigger = results("customBiggerIsBetter_output.json", language="rust")
    assert {r["direction"] for r in bigger} == {"higher"}
    smaller = results("customSmallerIsBetter_output2.json", language="rust")
    assert {r["direction"] for r in smaller} == {"lower"}
    probe = pick(smaller, "time", "Deactivated probe")
    assert (probe["value"], probe["stats"]) == (445.661, {"stddev": 8.21371})


def test_go_figures_and_the_actions_per_metric_copies() -> None:
    run = entry_run("go_output.txt")
    go = [dict(r) for r in run.results]
    assert pick(go, "time_per_op", "BenchmarkFib10", gomaxprocs=8)["value"] == 325
    fib20 = pick(go, "time_per_op", "BenchmarkFib20")
    assert (fib20["value"], "params" in fib20) == (40537.123, False)  # no procs suffix
    aux = pick(go, "auxmetricunits", "BenchmarkFib22", gomaxprocs=16)
    assert (aux["value"], aux["unit"]) == (4, "count")
    assert sorted(s.item for s in run.skipped) == [
        "snapshot @ 123456789abc: BenchmarkFib11 - auxMetricUnits",
        "snapshot @ 123456789abc: BenchmarkFib11 - ns/op",
        "snapshot @ 123456789abc: BenchmarkFib22 - auxMetricUnits",
        "snapshot @ 123456789abc: BenchmarkFib22 - ns/op",
    ]
    fiber = [dict(r) for r in entry_run("go_fiber_output.txt").results]
    xml = 'Benchmark_Ctx_Accepts/run-[]string{".xml"}'
    assert pick(fiber, "time_per_op", xml, gomaxprocs=4)["value"] == 247.6
    assert pick(fiber, "memory_per_op", xml)["value"] == 0
    assert pick(fiber, "allocs_per_op", xml)["value"] == 0
    assert len(fiber) == 18  # 6 lines x 3 figures; the 18 copies are not counted twice
    cache = "BenchmarkAppendMsgitem (github.com/gofiber/fiber/v3/middleware/cache)"
    duplicates = results("go_fiber_duplicate_names_output.txt")
    assert pick(duplicates, "time_per_op", cache)["value"] == 55.76
    assert pick(duplicates, "throughput", cache)["unit"] == "MB/s"
    single = results("go_single_package_output.txt")
    assert pick(single, "time_per_op", "BenchmarkFib20", gomaxprocs=8)["value"] == 40537


def test_googlecpp_jmh_pytest_as_our_parsers_name_them() -> None:
    cpp = results("googlecpp_output.json")
    assert pick(cpp, "real_time", "fib_10")["value"] == 214.98980114547953
    assert pick(cpp, "cpu_time", "fib_10")["value"] == 213.65507206163295
    assert pick(cpp, "real_time", "fib_20")["value"] == 27455.600415007055
    name = "org.openjdk.jmh.samples.JMHSample_01_HelloWorld.wellHelloThere"
    jmh = pick(results("jmh_output.json"), "throughput", name)
    assert (jmh["value"], jmh["unit"]) == (3376238873.1228185, "ops/s")
    with_params = pick(results("jmh_output_2.json"), "throughput", name)
    assert with_params["params"] == {"paramA": 17, "paramB": 33}
    pytest_run = results("pytest_output.json")
    ops = pick(pytest_run, "throughput", "test_fib_10")  # fullname bench.py::test_fib_10
    assert ops["value"] == 41513.272817492856
    mean = pick(pytest_run, "time_per_op", "test_fib_10")  # "mean: 24.08868133322941 usec"
    assert mean["value"] == pytest.approx(24.08868133322941e-6, rel=1e-15)
    assert mean["stats"]["stddev"] == 0.000006175090189861328
    assert mean["stats"]["n"] == 38523
    several = results("pytest_several_units.json")
    assert pick(several, "throughput", "test_fib_1")["value"] == 6668618.238403659
    assert pick(several, "time_per_op", "test_fib_1")["value"] == pytest.approx(
        149.95610248628836e-9, rel=1e-15
    )
    assert pick(several, "throughput", "test_sleep_2")["value"] == 0.49904108083570886
    assert pick(several, "time_per_op", "test_sleep_2")["value"] == 2.0038430469999997


# The action's inputs our own parsers read. Left out: pytest_output.json (trimmed by hand
# in the action's repository), go_fiber_output.txt (lines only, no closing `ok`: ours
# takes that as truncated output) and go_fiber_duplicate_names_output.txt (the action
# names each package's benchmark apart, ours folds same names into samples).
CONTINUED = {
    "go_output.txt": "go",
    "go_single_package_output.txt": "go",
    "googlecpp_output.json": "google-benchmark",
    "jmh_output.json": "jmh",
    "jmh_output_2.json": "jmh",
    "benchmarkdotnet.json": "benchmarkdotnet",
    "benchmarkjs_output.txt": "benchmarkjs",
}


def _series(found: list[dict[str, Any]]) -> dict[str, float]:
    keys = ("benchmark", "params", "language", "metric", "unit")
    return {json.dumps([r.get(k) for k in keys], sort_keys=True): r["value"] for r in found}


@pytest.mark.parametrize(("file", "fmt"), sorted(CONTINUED.items()))
def test_an_imported_series_continues_with_our_parser(file: str, fmt: str) -> None:
    ours = parse_file_content(
        interop_text(f"gab-extract/{file}"), format=fmt, context=ParseContext(), filename=file
    )
    imported = _series(results(file))
    assert imported == {key: value for key, value in _series(ours).items() if key in imported}
    assert len(imported) >= len(ENTRIES[file]["benches"]) // 4
