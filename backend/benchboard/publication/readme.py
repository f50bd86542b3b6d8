"""The README's figures, drawn from the seed studies and committed under backend/docs/figures:
images that show on GitHub or any copy of the README, where a URL of a running service
would not. `make readme-figures` draws them again; a test compares the committed files with
what this draws now, so they cannot go stale.
"""

from pathlib import Path

from sqlalchemy.orm import Session

from benchboard.config import REPO_ROOT
from benchboard.publication import service
from benchboard.publication.badge import draw_badge
from benchboard.publication.bar_chart import draw_bars
from benchboard.publication.canvas import Frame
from benchboard.series.filters import SeriesFilter
from benchboard.studies.service import get_study

README_FIGURES = REPO_ROOT / "backend" / "docs" / "figures"
STUDY = "dart-async-file-writes"  # the first seed study: a finding and sync/async pairs


def readme_figures(session: Session) -> dict[str, bytes]:
    """File name to image, as the routes draw them, from a database holding the seed studies
    (`benchboard demo load`) as loaded."""
    finding = get_study(session, STUDY).findings[0]
    return {
        "badge.svg": draw_badge(service.series_badge(session, finding.numerator.series_id)),
        "finding.svg": draw_bars(service.finding_figure(finding), Frame(800, 400, "light", "svg")),
        "modes-dark.png": draw_bars(
            service.modes_figure(session, SeriesFilter(suite=(STUDY,))),
            Frame(800, 360, "dark", "png"),
        ),
    }


def write_readme_figures(session: Session, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, body in readme_figures(session).items():
        path = folder / name
        path.write_bytes(body)
        written.append(path)
    return written
