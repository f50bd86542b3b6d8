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
# Not tool output: notes, and the benchmark sources the outputs were made with.
NOT_OUTPUT = {".md", ".js", ".mjs", ".cc"}
# Criterion's benchmark.json names a benchmark but holds no figure.
WITHOUT_FIGURES = {"benchmark.json"}
OUTPUTS = sorted(
    path
    for path in FIXTURES.rglob("*")
    if path.is_file() and path.suffix not in NOT_OUTPUT and path.name not in WITHOUT_FIGURES
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
    upload, _ = tool_output_as_run(path.read_bytes(), None, given)
    assert upload.results
    assert all(result.value == result.value for result in upload.results)  # finite, not NaN
