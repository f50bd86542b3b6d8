"""A series' history over time: one mark per run, its detected changes and pinned notes."""

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Literal

from matplotlib.axes import Axes
from matplotlib.dates import AutoDateLocator, ConciseDateFormatter, date2num
from matplotlib.ticker import MaxNLocator, NullFormatter, NullLocator

from benchboard.publication.canvas import (
    KEPT_FIGURES,
    LOCK,
    PALETTES,
    Frame,
    Palette,
    PlainTicks,
    canvas,
    clip,
    fit,
    plot_area,
    render_figure,
    style_axes,
    titles,
)

MarkerKind = Literal["regression", "improvement", "annotation"]
_MARKER_POINTS = 8


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


@lru_cache(maxsize=KEPT_FIGURES)
def draw_history(figure: HistoryFigure, frame: Frame) -> bytes:
    palette = PALETTES[frame.theme]
    with LOCK:
        fig, ax = canvas("history", frame, left=72)
        # The axis' words along the plot's height, as measured: a long metric overran it.
        axis_pixels = int(plot_area(frame, left=72)[3] * frame.height)
        draw_history_axes(ax, figure, palette, axis_pixels=axis_pixels)
        titles(fig, frame, figure.title, figure.caption, palette)
        return render_figure(fig, frame)


def draw_history_axes(
    ax: Axes, figure: HistoryFigure, palette: Palette, *, axis_pixels: int
) -> None:
    style_axes(ax, palette)
    # The locators first: a change's line reads the time axis' limits, which a single run's
    # date widens by the locator's rule.
    # Six dates at most: each tick is five artists to lay out and draw, most of a figure's time.
    locator = AutoDateLocator(minticks=3, maxticks=6)  # type: ignore[no-untyped-call]
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(ConciseDateFormatter(locator))  # type: ignore[no-untyped-call]
    # Four levels read well at any size; each tick is a few artists to lay out and draw.
    ax.yaxis.set_major_locator(MaxNLocator(nbins=4))
    ax.yaxis.set_major_formatter(PlainTicks())
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
    # Changes and notes are at runs: with none in the window, none are placed.
    if figure.values:
        _draw_markers(ax, figure.markers, palette)
    ax.yaxis.label.set_gid("value-axis")
    ax.set_ylabel(fit(figure.value_label, axis_pixels, 10))
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


def _draw_markers(ax: Axes, markers: tuple[Marker, ...], palette: Palette) -> None:
    """A line at each change or note, its words beside it: to the left of a line in the
    right half (words to its right would leave the figure), and a line lower than the
    words of a marker just before it, which they would overlap."""
    colours = {
        "regression": palette.regression,
        "improvement": palette.improvement,
        "annotation": palette.annotation,
    }
    counts = {"change": 0, "annotation": 0}
    start, end = ax.get_xlim()
    span = (end - start) or 1.0
    placed: list[tuple[float, int]] = []  # each label's line and row
    for marker in sorted(markers, key=lambda m: m.at):
        kind = "annotation" if marker.kind == "annotation" else "change"
        gid = f"{kind}-{counts[kind]}"
        counts[kind] += 1
        at = float(date2num(marker.at))  # type: ignore[no-untyped-call]
        # Rows taken by labels within a fifth of the axis: the next free one.
        near = {row for x, row in placed if abs(at - x) < span / 5}
        row = min(set(range(len(near) + 1)) - near)
        placed.append((at, row))
        left = (at - start) / span > 0.5
        ax.axvline(
            at,
            color=colours[marker.kind],
            linewidth=1.2,
            gid=gid,
            linestyle="--" if kind == "annotation" else "-",
        )
        ax.annotate(
            clip(marker.label, 28),
            (at, 1),
            xycoords=("data", "axes fraction"),
            xytext=(-3 if left else 3, -3 - row * (_MARKER_POINTS + 3)),
            textcoords="offset points",
            ha="right" if left else "left",
            va="top",
            fontsize=_MARKER_POINTS,
            color=colours[marker.kind],
            # On the background's colour: another marker's line or the values drawn
            # behind the words cut through them.
            bbox={"facecolor": palette.background, "edgecolor": "none", "pad": 1, "alpha": 0.8},
            gid=f"{gid}-label",
        )
