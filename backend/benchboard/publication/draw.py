"""Figures for readers outside the dashboard, drawn from prepared data to SVG or PNG bytes.

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
`interval-N` (a bar and its whisker), `caption`, `value-axis` (the unit's label).

matplotlib's global settings and font cache are not thread-safe, histories share a kept
figure per theme, and routes run in worker threads: one figure is drawn at a time
(`_LOCK`); a figure is a few ms to tens of ms of CPU that the GIL would serialize anyway.
"""

import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import cache, lru_cache
from typing import Any, Literal

import matplotlib as mpl
from matplotlib.axes import Axes
from matplotlib.dates import AutoDateLocator, ConciseDateFormatter, date2num
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Rectangle
from matplotlib.textpath import TextToPath
from matplotlib.ticker import LogFormatter, MaxNLocator, NullFormatter, NullLocator
from matplotlib.typing import RcKeyType

from benchboard.publication import render
from benchboard.vocabulary import BaselineVerdict

ImageFormat = Literal["svg", "png"]
Theme = Literal["light", "dark"]
MarkerKind = Literal["regression", "improvement", "annotation"]
IMAGE_FORMATS: tuple[ImageFormat, ...] = ("svg", "png")
MEDIA_TYPES: dict[ImageFormat, str] = {"svg": "image/svg+xml", "png": "image/png"}

_LOCK = threading.Lock()
# Figures are frozen values, so each drawing is kept by what it shows: a write anywhere
# moves every ETag (caching.py), and a figure whose data did not change is not drawn again.
_KEPT_FIGURES = 256  # ~50 KB each
_DPI = 100  # a figure of w/100 × h/100 inches at 100 dpi is w × h pixels
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


@dataclass(frozen=True)
class Marker:
    at: datetime
    kind: MarkerKind
    label: str


@dataclass(frozen=True)
class HistoryFigure:
    """A series' values in time order (one point per run, or per time bucket when the
    history is downsampled), with its detected changes and pinned notes."""

    title: str
    caption: str
    value_label: str  # the axis' words with the unit: "time_per_op (µs)"
    times: tuple[datetime, ...]
    values: tuple[float, ...]
    markers: tuple[Marker, ...] = ()


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    low: float | None = None  # the whisker, when the data gives one
    high: float | None = None


@dataclass(frozen=True)
class BarsFigure:
    """Horizontal bars top to bottom in the given order, each with its interval."""

    title: str
    caption: str
    value_label: str
    bars: tuple[Bar, ...]
    reference: float | None = None  # a ratio's 1: where neither side wins
    log_scale: bool = False
    colours_by_bar: bool = False  # a finding's two sides each in their colour


@dataclass(frozen=True)
class CardFigure:
    """A sharing card: a title, a sentence, and a chart under them."""

    title: str
    sentence: str
    chart: BarsFigure | HistoryFigure


@dataclass(frozen=True)
class Badge:
    """A shields-style badge: the label on grey, the value coloured by its verdict."""

    label: str
    value: str
    verdict: BaselineVerdict | None  # None: not judged (no baseline, too few runs)


# shields.io's colours: red, bright green, blue; grey when nothing was judged.
BADGE_COLOURS: dict[BaselineVerdict | None, str] = {
    "regression": "#e05d44",
    "improvement": "#44cc11",
    "unchanged": "#007ec6",
    None: "#9f9f9f",
}
_BADGE_HEIGHT = 20
_BADGE_FONT = 11  # pixels, as shields draws its text


@lru_cache(maxsize=_KEPT_FIGURES)
def draw_badge(badge: Badge) -> bytes:
    """An SVG of two boxes, each as wide as its text (DejaVu Sans' own metrics) plus 10 px."""
    label, value = _clip(badge.label, 40), _clip(badge.value, 60)
    widths = [_text_pixels(label) + 12, _text_pixels(value) + 12]
    frame = Frame(sum(widths), _BADGE_HEIGHT, "light", "svg")
    with _figure(frame) as (fig, _):
        left = 0
        for index, (text, width, colour) in enumerate(
            zip((label, value), widths, ("#555555", BADGE_COLOURS[badge.verdict]), strict=True)
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
                fontsize=_BADGE_FONT * 72 / _DPI,
                color="#ffffff",
                gid=f"badge-text-{index}",
            )
            left += width
        return _render(fig, frame)


def _text_pixels(text: str) -> int:
    font = FontProperties(family="DejaVu Sans", size=_BADGE_FONT * 72 / _DPI)
    width, _, _ = TextToPath().get_text_width_height_descent(text, font, ismath=False)
    return math.ceil(width * _DPI / 72)


@lru_cache(maxsize=_KEPT_FIGURES)
def draw_history(figure: HistoryFigure, frame: Frame) -> bytes:
    palette = PALETTES[frame.theme]
    with _LOCK:
        fig, ax = _canvas("history", frame, left=72)
        _draw_history_axes(ax, figure, palette)
        _titles(fig, frame, figure.title, figure.caption, palette)
        return _render(fig, frame)


@lru_cache(maxsize=_KEPT_FIGURES)
def draw_bars(figure: BarsFigure, frame: Frame) -> bytes:
    palette = PALETTES[frame.theme]
    with _LOCK:
        fig, ax = _canvas("bars", frame, left=_label_room(figure, frame))
        _draw_bars_axes(ax, figure, palette)
        _titles(fig, frame, figure.title, figure.caption, palette)
        return _render(fig, frame)


@cache
def _kept_canvas(kind: Literal["history", "bars"], theme: Theme) -> tuple[Figure, Axes]:
    _configure()
    fig = Figure(dpi=_DPI, facecolor=PALETTES[theme].background)
    return fig, fig.add_axes((0, 0, 1, 1))


def _canvas(kind: Literal["history", "bars"], frame: Frame, *, left: int) -> tuple[Figure, Axes]:
    """One figure and axes per kind and theme, emptied and drawn again for each chart:
    building an axes and its dozen ticks was ~40 % of a history SVG's CPU. What is drawn
    is what a new figure draws, byte for byte (tests/publication/test_draw.py)."""
    fig, ax = _kept_canvas(kind, frame.theme)
    for artist in (*ax.lines, *ax.texts, *ax.patches, *ax.collections, *fig.texts):
        artist.remove()
    ax.containers.clear()  # a bar's or whisker's group, which holds its artists
    ax.relim()  # the removed marks' extent is forgotten
    fig.set_size_inches(frame.width / _DPI, frame.height / _DPI)
    ax.set_position(_plot_area(frame, left=left))
    return fig, ax


@lru_cache(maxsize=_KEPT_FIGURES)
def draw_card(card: CardFigure, frame: Frame) -> bytes:
    """1200 × 630 by default: the title large, the sentence, the chart below them. Each
    line is clipped to what its size fits across the card (DejaVu at these sizes: ~27 px
    a bold title character, ~13 px a sentence's, ~9 px a caption's)."""
    wide = frame.width / 1200
    with _figure(frame) as (fig, palette):
        fig.text(
            0.04,
            0.93,
            _clip(card.title, int(44 * wide)),
            fontsize=30,
            weight="bold",
            color=palette.text,
            va="top",
            gid="card-title",
        )
        fig.text(
            0.04,
            0.83,
            _clip(card.sentence, int(88 * wide)),
            fontsize=18,
            color=palette.text,
            va="top",
            gid="card-sentence",
        )
        chart = card.chart
        top = 1 - 150 / frame.height
        if isinstance(chart, HistoryFigure):
            ax = fig.add_axes((0.08, 0.12, 0.88, top - 0.12))
            _draw_history_axes(ax, chart, palette)
        else:
            left = _label_room(chart, frame) / frame.width
            ax = fig.add_axes((left, 0.12, 0.96 - left, top - 0.12))
            _draw_bars_axes(ax, chart, palette)
        fig.text(
            0.04,
            0.03,
            _clip(chart.caption, int(125 * wide)),
            fontsize=11,
            color=palette.neutral,
            gid="caption",
        )
        return _render(fig, frame)


def _draw_history_axes(ax: Axes, figure: HistoryFigure, palette: Palette) -> None:
    _style_axes(ax, palette)
    # The locators first: a change's line reads the time axis' limits, which a single run's
    # date widens by the locator's rule.
    # Six dates at most: each tick is five artists to lay out and draw, most of a figure's time.
    locator = AutoDateLocator(minticks=3, maxticks=6)  # type: ignore[no-untyped-call]
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(ConciseDateFormatter(locator))  # type: ignore[no-untyped-call]
    # Four levels read well at any size; each tick is a few artists to lay out and draw.
    ax.yaxis.set_major_locator(MaxNLocator(nbins=4))
    times = date2num(list(figure.times))  # type: ignore[no-untyped-call]
    ax.plot(times, figure.values, color=palette.line, linewidth=1.2, gid="line")
    ax.plot(
        times,
        figure.values,
        linestyle="none",
        marker="o",
        markersize=3.5,
        color=palette.line,
        gid="runs",
    )
    colours = {
        "regression": palette.regression,
        "improvement": palette.improvement,
        "annotation": palette.annotation,
    }
    counts = {"change": 0, "annotation": 0}
    # Changes and notes are at runs: with none in the window, none are placed.
    for marker in figure.markers if figure.values else ():
        kind = "annotation" if marker.kind == "annotation" else "change"
        gid = f"{kind}-{counts[kind]}"
        counts[kind] += 1
        at = float(date2num(marker.at))  # type: ignore[no-untyped-call]
        ax.axvline(
            at,
            color=colours[marker.kind],
            linewidth=1.2,
            gid=gid,
            linestyle="--" if kind == "annotation" else "-",
        )
        ax.annotate(
            _clip(marker.label, 28),
            (at, 1),
            xycoords=("data", "axes fraction"),
            xytext=(3, -3),
            textcoords="offset points",
            va="top",
            fontsize=8,
            color=colours[marker.kind],
            gid=f"{gid}-label",
        )
    ax.yaxis.label.set_gid("value-axis")
    ax.set_ylabel(figure.value_label)
    if not figure.values:
        # Nothing to scale: no levels, no dates.
        ax.yaxis.set_major_locator(NullLocator())
        ax.xaxis.set_major_locator(NullLocator())
        ax.xaxis.set_major_formatter(NullFormatter())
        ax.text(
            0.5,
            0.5,
            "no runs in this window",
            transform=ax.transAxes,
            ha="center",
            color=palette.neutral,
            gid="empty",
        )


def _draw_bars_axes(ax: Axes, figure: BarsFigure, palette: Palette) -> None:
    # Before any mark: a kept axes may have either scale, and a change of scale scales the
    # axis to the marks there are.
    ax.set_xscale("log" if figure.log_scale else "linear")
    _style_axes(ax, palette)
    ax.grid(axis="y", visible=False)
    positions = list(range(len(figure.bars)))[::-1]  # the first bar on top
    for index, (bar, y) in enumerate(zip(figure.bars, positions, strict=True)):
        colour = palette.bars[index % len(palette.bars)] if figure.colours_by_bar else palette.line
        # A ratio's bar grows from its reference (1), so "slower" and "faster" point apart.
        start = figure.reference or 0
        ax.barh(
            y,
            bar.value - start,
            left=start,
            height=0.6,
            color=colour,
            alpha=0.85,
            gid=f"bar-{index}",
        )
        if bar.low is not None and bar.high is not None:
            ax.errorbar(
                bar.value,
                y,
                xerr=[[bar.value - bar.low], [bar.high - bar.value]],
                fmt="none",
                ecolor=palette.text,
                capsize=4,
                linewidth=1.2,
                gid=f"interval-{index}",
            )
    ax.set_yticks(positions, [_clip(bar.label, 48) for bar in figure.bars])
    if figure.log_scale:
        # Plain numbers: the log scale labels in TeX by default ("$10^{0}$"), which
        # text.parse_math off would draw as written.
        ax.xaxis.set_major_formatter(LogFormatter())
        ax.xaxis.set_minor_formatter(LogFormatter())
    if figure.reference is not None and figure.bars:
        ax.axvline(figure.reference, color=palette.neutral, linewidth=1, gid="reference")
    ax.xaxis.label.set_gid("value-axis")
    ax.set_xlabel(figure.value_label)
    if not figure.bars:
        # Nothing to scale the values' axis by (and no reference line, drawn above only
        # beside bars).
        ax.xaxis.set_major_locator(NullLocator())
        ax.xaxis.set_minor_locator(NullLocator())
        ax.text(
            0.5,
            0.5,
            "nothing to draw",
            transform=ax.transAxes,
            ha="center",
            color=palette.neutral,
            gid="empty",
        )


def _style_axes(ax: Axes, palette: Palette) -> None:
    ax.set_facecolor(palette.background)
    ax.grid(True, axis="y", color=palette.grid, linewidth=0.6)  # levels; times need none
    ax.set_axisbelow(True)
    ax.tick_params(which="both", colors=palette.text, labelsize=9)  # minor: a log scale's
    for spine in ax.spines.values():
        spine.set_color(palette.grid)
    ax.xaxis.label.set_color(palette.text)
    ax.yaxis.label.set_color(palette.text)


def _titles(fig: Figure, frame: Frame, title: str, caption: str, palette: Palette) -> None:
    chars = max(20, frame.width // 8)
    fig.text(
        10 / frame.width,
        1 - 8 / frame.height,
        _clip(title, chars),
        va="top",
        fontsize=12,
        weight="bold",
        color=palette.text,
        gid="title",
    )
    fig.text(
        10 / frame.width,
        6 / frame.height,
        _clip(caption, int(chars * 1.3)),
        fontsize=8,
        color=palette.neutral,
        gid="caption",
    )


def _plot_area(frame: Frame, *, left: int) -> tuple[float, float, float, float]:
    """Margins in pixels (title above, caption and time axis below) as figure fractions."""
    top, bottom, right = 34, 62, 16
    return (
        left / frame.width,
        bottom / frame.height,
        max(0.1, 1 - (left + right) / frame.width),
        max(0.1, 1 - (top + bottom) / frame.height),
    )


def _label_room(figure: BarsFigure, frame: Frame) -> int:
    """Pixels left of the bars for their labels: ~8 px a character (9 pt at 100 dpi) and
    the tick's pad, at most 45 %."""
    longest = max((len(_clip(bar.label, 48)) for bar in figure.bars), default=4)
    return min(int(frame.width * 0.45), 24 + 8 * longest)


def _clip(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"


@cache
def _configure() -> None:
    """Our settings as the process's matplotlib defaults, once: nothing else in a service
    process draws, and rc_context() deep-copied every setting for each figure (~10 % of
    an SVG's time)."""
    mpl.rcParams.update(_RC)


@contextmanager
def _figure(frame: Frame) -> Iterator[tuple[Figure, Palette]]:
    palette = PALETTES[frame.theme]
    with _LOCK:
        _configure()
        fig = Figure(
            figsize=(frame.width / _DPI, frame.height / _DPI),
            dpi=_DPI,
            facecolor=palette.background,
        )
        yield fig, palette


def _render(fig: Figure, frame: Frame) -> bytes:
    if frame.image_format == "png":
        return render.png(fig, metadata={"Software": "Benchboard"})
    metadata = {"Date": None, "Creator": "Benchboard"}
    return render.svg(fig, width=frame.width, height=frame.height, metadata=metadata)
