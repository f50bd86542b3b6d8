"""Every real tool output the ingest tests parse is also a valid contract v1 upload.

The ingest package has its own idea of the contract (it builds result dicts); this runs
each of its fixtures through the service's path for tool output, which validates with
RunUpload, so the two cannot drift apart unnoticed.
"""

from pathlib import Path

import pytest

from benchboard.config import REPO_ROOT
from benchboard.tool_formats.service import RunFromTool, tool_output_as_run
from benchboard_ingest import ParseContext

FIXTURES = REPO_ROOT / "ingest" / "tests" / "fixtures"
# Not tool output: notes, the benchmark sources and scripts the outputs were made with.
NOT_OUTPUT = {".md", ".js", ".mjs", ".cc", ".py", ".sh"}
# Criterion's benchmark.json names a benchmark but holds no figure; asv's benchmarks.json,
# machine.json and asv.conf.json describe its results, which the results files hold.
WITHOUT_FIGURES = {"benchmark.json", "benchmarks.json", "machine.json", "asv.conf.json"}
OUTPUTS = sorted(
    path
    for path in FIXTURES.rglob("*")
    if path.is_file() and path.suffix not in NOT_OUTPUT and path.name not in WITHOUT_FIGURES
)
# The other trackers' one-run records in ../shared (histories go through POST /runs/batch).
INTEROP = REPO_ROOT.parent / "shared" / "tool-outputs" / "interop"
PEER_RECORDS = sorted(
    path
    for folder in ("bmf", "gab-custom", "asv", "lnt", "conbench")
    for path in (INTEROP / folder).rglob("*.json")
    if path.name not in WITHOUT_FIGURES
    and "page2_error" not in path.name  # its one result failed: no figure
    and "GET_run_" not in path.name  # a Conbench Run object holds no result
)


def _benchmark_named_by_path(path: Path) -> str | None:
    """Criterion's estimates.json lies in <benchmark id>/new/; over HTTP, ?benchmark= says it."""
    return path.parent.parent.name if path.name == "estimates.json" else None


def test_every_tool_directory_has_outputs() -> None:
    tools = {path.relative_to(FIXTURES).parts[0] for path in OUTPUTS}
    assert tools == {p.name for p in FIXTURES.iterdir() if p.is_dir()}


@pytest.mark.parametrize("path", OUTPUTS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_is_a_valid_upload(path: Path) -> None:
    given = RunFromTool(
        suite="fixtures",
        hardware="fixture-machine",
        context=ParseContext(language="python", benchmark=_benchmark_named_by_path(path)),
    )
    upload = tool_output_as_run(path.read_bytes(), None, given).upload
    assert upload.results
    assert all(result.value == result.value for result in upload.results)  # finite, not NaN


@pytest.mark.skipif(not INTEROP.is_dir(), reason=f"{INTEROP} is absent (the peers' files)")
@pytest.mark.parametrize("path", PEER_RECORDS, ids=lambda p: str(p.relative_to(INTEROP)))
def test_peer_record_is_a_valid_upload(path: Path) -> None:
    given = RunFromTool(
        suite="peers",
        hardware="fixture-machine",
        context=ParseContext(language="python", direction="lower"),
    )
    run = tool_output_as_run(path.read_bytes(), None, given)
    assert run.upload.results
