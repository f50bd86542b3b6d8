"""A shields-style badge of a series' latest value, coloured by its verdict."""

from dataclasses import dataclass
from functools import lru_cache

from matplotlib.patches import Rectangle

from benchboard.publication.canvas import (
    DPI,
    KEPT_FIGURES,
    PALETTES,
    Frame,
    clip,
    new_figure,
    render_figure,
    text_pixels,
)
from benchboard.vocabulary import BaselineVerdict


@dataclass(frozen=True)
class Badge:
    """A shields-style badge: the label on grey, the value coloured by its verdict."""

    label: str
    value: str
    verdict: BaselineVerdict | None  # None: not judged (no baseline, too few runs)


# shields.io's meanings (red, green, blue; grey when nothing was judged) in the light
# palette's shades: white text on shields' own bright green or grey was under 3:1.
_LIGHT = PALETTES["light"]
BADGE_COLOURS: dict[BaselineVerdict | None, str] = {
    "regression": _LIGHT.regression,
    "improvement": _LIGHT.improvement,
    "unchanged": _LIGHT.line,
    None: _LIGHT.neutral,
}
BADGE_LABEL_COLOUR = "#555555"
_BADGE_HEIGHT = 20
_BADGE_POINTS = 11 * 72 / DPI  # 11 pixels, as shields draws its text


@lru_cache(maxsize=KEPT_FIGURES)
def draw_badge(badge: Badge) -> bytes:
    """An SVG of two boxes, each as wide as its text (DejaVu Sans' own metrics) plus 12 px."""
    label, value = clip(badge.label, 40), clip(badge.value, 60)
    widths = [text_pixels(label, _BADGE_POINTS) + 12, text_pixels(value, _BADGE_POINTS) + 12]
    frame = Frame(sum(widths), _BADGE_HEIGHT, "light", "svg")
    with new_figure(frame) as (fig, _):
        left = 0
        for index, (text, width, colour) in enumerate(
            zip(
                (label, value),
                widths,
                (BADGE_LABEL_COLOUR, BADGE_COLOURS[badge.verdict]),
                strict=True,
            )
        ):
            box = (left / frame.width, 0, width / frame.width, 1)
            fig.add_artist(
                Rectangle(
                    box[:2],
                    box[2],
                    box[3],
                    transform=fig.transFigure,
                    facecolor=colour,
                    edgecolor="none",
                    gid=f"badge-{index}",
                )
            )
            fig.text(
                (left + width / 2) / frame.width,
                0.5,
                text,
                ha="center",
                va="center",
                fontsize=_BADGE_POINTS,
                color="#ffffff",
                gid=f"badge-text-{index}",
            )
            left += width
        return render_figure(fig, frame)
