"""What every published figure is drawn on: its frame, theme, figure and axes, titles, and
text fitted to the room it has (history_chart.py, bar_chart.py, badge.py and card.py draw on
it). Figures are drawn from prepared data to SVG or PNG bytes.

Pure: no database, no web (service.py gathers the data, router.py speaks HTTP).

**Why matplotlib** and not Vega-Lite through vl-convert: matplotlib draws in-process
with Agg and its SVG writer, with nothing to start (vl-convert embeds a JavaScript
runtime that compiles each spec), it is already beside NumPy and SciPy in every Python
install we target, and its output is deterministic given a fixed `svg.hashsalt`. The
bench (bench/figure_speed.py, bench/README.md) measures it against the targets (SVG
p95 ≤ 100 ms, PNG ≤ 250 ms).

**Fonts.** DejaVu Sans, which matplotlib ships inside its package (mpl-data/fonts): no
system font is read and nothing is fetched. SVG text is written as glyph outlines
(`svg.fonttype: path`), so an embedded SVG looks the same in any viewer with no font
installed; each text's words stay in the file as an XML comment before its glyphs.

**Marks carry ids** (matplotlib's `gid` becomes the SVG group's id), which the tests
and anyone scripting over the SVG can find: `runs` (one `<use>` per point),
`change-N` (a detected change), `annotation-N` (a pinned note), `bar-N` and
`interval-N` (a bar and its whisker), `subtitle` (the label parts all bars share),
`caption`, `value-axis` (the unit's label).

matplotlib's global settings and font cache are not thread-safe, histories share a kept
figure per theme, and routes run in worker threads: one figure is drawn at a time
(`LOCK`); a figure is a few ms to tens of ms of CPU that the GIL would serialize anyway.
"""

import math
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, Literal

import matplotlib as mpl
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath
from matplotlib.ticker import Formatter
from matplotlib.typing import RcKeyType

from benchboard.publication import render

ImageFormat = Literal["svg", "png"]
Theme = Literal["light", "dark"]
IMAGE_FORMATS: tuple[ImageFormat, ...] = ("svg", "png")
MEDIA_TYPES: dict[ImageFormat, str] = {"svg": "image/svg+xml", "png": "image/png"}

LOCK = threading.Lock()
# Figures are frozen values, so each drawing is kept by what it shows: a write anywhere
# moves every ETag (caching.py), and a figure whose data did not change is not drawn again.
KEPT_FIGURES = 256  # ~50 KB each
DPI = 100  # a figure of w/100 × h/100 inches at 100 dpi is w × h pixels
TICK_POINTS = 9  # tick labels' size
_RC: dict[RcKeyType, Any] = {
    "svg.fonttype": "path",
    "svg.hashsalt": "benchboard",  # ids from a fixed salt: the same data, the same bytes
    "font.family": "DejaVu Sans",
    "text.parse_math": False,  # a "$" in a name is a dollar, not TeX (bad TeX raised)
    "font.size": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


@dataclass(frozen=True)
class Palette:
    background: str
    text: str
    grid: str
    line: str
    bars: tuple[str, ...]
    regression: str
    improvement: str
    annotation: str
    neutral: str


PALETTES: dict[Theme, Palette] = {
    "light": Palette(
        "#ffffff",
        "#1f2328",
        "#d0d7de",
        "#0969da",
        ("#0969da", "#bc4c00", "#8250df"),
        "#cf222e",
        "#1a7f37",
        "#8250df",
        "#6e7781",
    ),
    "dark": Palette(
        "#0d1117",
        "#e6edf3",
        "#30363d",
        "#58a6ff",
        ("#58a6ff", "#f0883e", "#bc8cff"),
        "#f85149",
        "#3fb950",
        "#bc8cff",
        "#8b949e",
    ),
}


@dataclass(frozen=True)
class Frame:
    """The image asked for: its size in pixels, theme and format."""

    width: int
    height: int
    theme: Theme
    image_format: ImageFormat


@cache
def _kept_canvas(kind: Literal["history", "bars"], theme: Theme) -> tuple[Figure, Axes]:
    _configure()
    fig = Figure(dpi=DPI, facecolor=PALETTES[theme].background)
    return fig, fig.add_axes((0, 0, 1, 1))


def canvas(
    kind: Literal["history", "bars"], frame: Frame, *, left: int, top: int = 34
) -> tuple[Figure, Axes]:
    """One figure and axes per kind and theme, emptied and drawn again for each chart:
    building an axes and its dozen ticks was ~40 % of a history SVG's CPU. What is drawn
    is what a new figure draws, byte for byte (tests/publication/test_draw.py)."""
    fig, ax = _kept_canvas(kind, frame.theme)
    for artist in (*ax.lines, *ax.texts, *ax.patches, *ax.collections, *fig.texts):
        artist.remove()
    ax.containers.clear()  # a bar's or whisker's group, which holds its artists
    ax.relim()  # the removed marks' extent is forgotten
    fig.set_size_inches(frame.width / DPI, frame.height / DPI)
    ax.set_position(plot_area(frame, left=left, top=top))
    return fig, ax


def plain_number(value: float) -> str:
    """A number as a reader writes it: thousands separated ("12,340"), else four significant
    digits ("119.9", "0.25")."""
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{float(f'{value:.4g}'):g}"


# (from, divided by, suffix): thousands get theirs from 10,000, as "5,000" reads well.
_TICK_SUFFIXES = ((1e9, 1e9, "G"), (1e6, 1e6, "M"), (1e4, 1e3, "k"))


def tick_number(value: float, largest: float) -> str:
    """A tick's number, short, in the suffix of the axis' largest tick: "5k" beside "35k",
    "14M"; below 10,000 as plain_number."""
    for at_least, divisor, suffix in _TICK_SUFFIXES:
        if abs(largest) >= at_least:
            return "0" if value == 0 else f"{value / divisor:.4g}{suffix}"
    return plain_number(value)


class PlainTicks(Formatter):
    """Tick labels in short plain numbers: matplotlib's own write large ones as an offset,
    "1e7" in the corner and "1.4" at the tick, which a figure shared alone cannot afford."""

    def format_ticks(self, values: Sequence[float]) -> list[str]:
        largest = max((abs(value) for value in values), default=0.0)
        return [tick_number(value, largest) for value in values]

    def __call__(self, x: float, pos: int | None = None) -> str:
        return tick_number(x, x)


def style_axes(ax: Axes, palette: Palette, *, tick_points: float = TICK_POINTS) -> None:
    ax.set_facecolor(palette.background)
    ax.grid(True, axis="y", color=palette.grid, linewidth=0.6)  # levels; times need none
    ax.set_axisbelow(True)
    ax.tick_params(which="both", colors=palette.text, labelsize=TICK_POINTS)  # minor: log's
    ax.tick_params(axis="y", labelsize=tick_points)  # a crowded bar chart's labels: smaller
    for spine in ax.spines.values():
        spine.set_color(palette.grid)
    ax.xaxis.label.set_color(palette.text)
    ax.yaxis.label.set_color(palette.text)


def titles(
    fig: Figure, frame: Frame, title: str, caption: str, palette: Palette, *, subtitle: str = ""
) -> None:
    """The title at the top left, a subtitle under it when there is one, the caption at
    the bottom: the title and caption clipped to the figure's width as measured."""
    room = frame.width - 20
    fig.text(
        10 / frame.width,
        1 - 8 / frame.height,
        fit(title, room, 12, bold=True),
        va="top",
        fontsize=12,
        weight="bold",
        color=palette.text,
        gid="title",
    )
    if subtitle:
        fig.text(
            10 / frame.width,
            1 - 28 / frame.height,
            subtitle,  # fitted by the chart, which may break it into lines
            va="top",
            fontsize=9,
            color=palette.neutral,
            gid="subtitle",
        )
    fig.text(
        10 / frame.width,
        6 / frame.height,
        fit(caption, room, 8),
        fontsize=8,
        color=palette.neutral,
        gid="caption",
    )


def plot_area(frame: Frame, *, left: int, top: int = 34) -> tuple[float, float, float, float]:
    """Margins in pixels (title above, caption and time axis below) as figure fractions."""
    bottom, right = 62, 16
    return (
        left / frame.width,
        bottom / frame.height,
        max(0.1, 1 - (left + right) / frame.width),
        max(0.1, 1 - (top + bottom) / frame.height),
    )


def clip(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"


@cache
def _raster() -> RendererAgg:
    _configure()  # the hinting a PNG's text is drawn with
    return RendererAgg(1, 1, DPI)  # type: ignore[no-untyped-call]


@lru_cache(maxsize=4096)
def text_pixels(text: str, points: float, *, bold: bool = False) -> int:
    """How wide `text` draws in DejaVu Sans at `points`, in pixels (its own metrics): the
    wider of its outline (an SVG's) and its hinted raster (a PNG's, up to 5 % wider)."""
    font = FontProperties(family="DejaVu Sans", size=points, weight="bold" if bold else None)
    outline, _, _ = TextToPath().get_text_width_height_descent(text, font, ismath=False)
    raster: float = _raster().get_text_width_height_descent(  # type: ignore[no-untyped-call]
        text, font, ismath=False
    )[0]
    return math.ceil(max(outline * DPI / 72, raster))


def fit(text: str, pixels: int, points: float, *, bold: bool = False) -> str:
    """`text`, or its longest start that fits `pixels` with "…" after it."""
    if text_pixels(text, points, bold=bold) <= pixels:
        return text
    low, high = 0, len(text)  # the longest start that fits: found by halving
    while low < high:
        middle = (low + high + 1) // 2
        if text_pixels(text[:middle] + "…", points, bold=bold) <= pixels:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "…"


@cache
def _configure() -> None:
    """Our settings as the process's matplotlib defaults, once: nothing else in a service
    process draws, and rc_context() deep-copied every setting for each figure (~10 % of
    an SVG's time)."""
    mpl.rcParams.update(_RC)


@contextmanager
def new_figure(frame: Frame) -> Iterator[tuple[Figure, Palette]]:
    palette = PALETTES[frame.theme]
    with LOCK:
        _configure()
        fig = Figure(
            figsize=(frame.width / DPI, frame.height / DPI),
            dpi=DPI,
            facecolor=palette.background,
        )
        yield fig, palette


def render_figure(fig: Figure, frame: Frame) -> bytes:
    if frame.image_format == "png":
        return render.png(fig, metadata={"Software": "Benchboard"})
    metadata = {"Date": None, "Creator": "Benchboard"}
    return render.svg(fig, width=frame.width, height=frame.height, metadata=metadata)
