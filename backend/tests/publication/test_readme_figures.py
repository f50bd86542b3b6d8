"""The README's committed images are what `make readme-figures` draws from the seed studies
now: a change to the drawing or to the seed data that moves them fails here until they are
drawn again."""

import io
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

from benchboard.config import REPO_ROOT
from benchboard.publication.readme import README_FIGURES, readme_figures
from tests.processes import service_env
from tests.seeded import seeded  # noqa: F401  (a fixture)


def shown(name: str, body: bytes) -> bytes:
    """What a reader sees: an SVG's text, a PNG's pixels (zlib versions compress the same
    pixels to different bytes)."""
    if not name.endswith(".png"):
        return body
    image = Image.open(io.BytesIO(body))
    return f"{image.mode} {image.size}".encode() + image.tobytes()


@pytest.mark.usefixtures("seeded")
def test_the_committed_readme_figures_are_what_the_command_draws(session: Session) -> None:
    drawn = readme_figures(session)
    stale = [
        name
        for name, body in drawn.items()
        if not (README_FIGURES / name).is_file()
        or shown(name, (README_FIGURES / name).read_bytes()) != shown(name, body)
    ]
    assert not stale, f"{stale} differ: run `make readme-figures` and commit them"
    assert sorted(path.name for path in README_FIGURES.iterdir()) == sorted(drawn)


def test_the_readme_embeds_each_figure_by_a_relative_path() -> None:
    readme = (REPO_ROOT / "README.md").read_text()
    for name in sorted(path.name for path in README_FIGURES.iterdir()):
        assert f"](backend/docs/figures/{name})" in readme, name


def test_the_command_writes_them_and_leaves_the_database_as_it_was(
    engine: Engine, tmp_path: Path
) -> None:
    runs_before = stored_runs(engine)
    done = subprocess.run(
        [sys.executable, "-m", "benchboard.cli", "readme-figures", "--out", str(tmp_path)],
        env=service_env(engine),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    written = sorted(path.name for path in tmp_path.iterdir())
    assert written == sorted(path.name for path in README_FIGURES.iterdir())
    for name in written:
        committed = (README_FIGURES / name).read_bytes()
        assert shown(name, (tmp_path / name).read_bytes()) == shown(name, committed), name
    assert stored_runs(engine) == runs_before  # the seed studies were rolled back


def stored_runs(engine: Engine) -> int:
    with engine.connect() as db:
        return int(db.scalar(text("SELECT count(*) FROM run")) or 0)
