"""Horizontal bars with their intervals: a finding's two sides, a leaderboard, sync/async
pairs. A bar's label is its parts; the parts every bar shares are said once, under the
title, so each label keeps only what tells its bar apart."""

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from matplotlib.axes import Axes
from matplotlib.ticker import LogFormatter, NullLocator

from benchboard.publication.canvas import (
    KEPT_FIGURES,
    LOCK,
    PALETTES,
    TICK_POINTS,
    Frame,
    Palette,
    PlainTicks,
    canvas,
    plot_area,
    render_figure,
    style_axes,
    text_pixels,
    titles,
)

SEPARATOR = " · "
_MIN_LABEL_POINTS = 7  # smaller than this is unreadable: fewer bars are drawn instead
_LINE = 1.3 * 100 / 72  # a label line's height in pixels, per point of its size


@dataclass(frozen=True)
class Bar:
    label: tuple[str, ...]  # its parts: ("file-write-tiny", "writes=1000", "dart:io")
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
class BarsLayout:
    """How a figure's bars fit a plot `pixels` high: the bars drawn, their labels' size
    and words, and the parts they share."""

    bars: tuple[Bar, ...]
    shared: tuple[str, ...]
    labels: tuple[str, ...]
    points: float
    room: int  # pixels left of the bars for the labels


def shared_parts(labels: Sequence[tuple[str, ...]]) -> tuple[str, ...]:
    """The parts every label has, in the first label's order; none when that would leave a
    label with nothing of its own (or there is one bar, which nothing needs telling apart)."""
    if len(labels) < 2:
        return ()
    shared = tuple(part for part in labels[0] if all(part in label for label in labels[1:]))
    if any(set(label) <= set(shared) for label in labels):
        return ()
    return shared


def label_text(
    parts: Sequence[str], pixels: int, points: float, *, lines: int, common: Counter[str]
) -> str:
    """The parts on up to `lines` lines, broken between parts; when they do not fit,
    without the parts most bars have (a "…" at the end says some are left out): a label
    keeps its first part (the name) and its rarest, which tell it from the others."""
    kept = list(parts)
    # The most common first; of equally common, the later; never the rarest.
    order = sorted(range(1, len(parts)), key=lambda i: (-common[parts[i]], -i))[:-1]
    for dropped in (None, *order):
        if dropped is not None:
            kept.remove(parts[dropped])
        wrapped = _wrap(
            [*kept[:-1], kept[-1] + (" …" if dropped is not None else "")], pixels, points
        )
        if len(wrapped) <= lines and all(text_pixels(line, points) <= pixels for line in wrapped):
            return "\n".join(wrapped)
    # Even the name and the rarest part are too wide: as much of their end as fits.
    text = " ".join(wrapped)
    while text and text_pixels("…" + text, points) > pixels:
        text = text[1:]
    return "…" + text


def _wrap(parts: Sequence[str], pixels: int, points: float) -> list[str]:
    """The parts joined into lines as wide as fit, each line at least one part."""
    lines: list[str] = []
    for part in parts:
        joined = f"{lines[-1]}{SEPARATOR}{part}" if lines else part
        if lines and text_pixels(joined, points) <= pixels:
            lines[-1] = joined
        else:
            lines.append(part)
    return lines


def _distinct_labels(
    own: Sequence[tuple[str, ...]], pixels: int, points: float, *, lines: int
) -> tuple[str, ...]:
    """Each bar's label, shortened by dropping the parts most bars have; bars whose
    shortened labels came out the same drop what those bars share instead."""

    def shorten(indices: list[int]) -> dict[int, str]:
        # How common a part is among the bars of the same name, then among all: what they
        # all have says least about which of them a bar is.
        everywhere = Counter(part for i in indices for part in set(own[i]))
        named: dict[str, Counter[str]] = {}
        for i in indices:
            named.setdefault(own[i][0], Counter()).update(set(own[i]))
        common = {
            name: Counter({p: n * (len(own) + 1) + everywhere[p] for p, n in counts.items()})
            for name, counts in named.items()
        }
        return {
            i: label_text(own[i], pixels, points, lines=lines, common=common[own[i][0]])
            for i in indices
        }

    labels = shorten(list(range(len(own))))
    alike: dict[str, list[int]] = {}
    for index, label in labels.items():
        alike.setdefault(label, []).append(index)
    for indices in alike.values():
        if len(indices) > 1:
            labels.update(shorten(indices))
    return tuple(labels[i] for i in range(len(own)))


def lay_out(figure: BarsFigure, frame: Frame, *, pixels: int, room_share: float) -> BarsLayout:
    """As many bars as fit with a readable label (a line and a gap: 1.3 lines a bar),
    labels in up to `room_share` of the width."""
    per_bar = pixels / max(1, len(figure.bars))
    points = min(TICK_POINTS, per_bar / _LINE)
    bars = figure.bars
    if points < _MIN_LABEL_POINTS:
        points = _MIN_LABEL_POINTS
        bars = bars[: max(1, int(pixels / (points * _LINE)))]
    lines = max(1, min(3, int(pixels / max(1, len(bars)) / (points * _LINE * 1.15))))
    shared = shared_parts([bar.label for bar in bars])
    own = [tuple(part for part in bar.label if part not in shared) for bar in bars]
    widest = max((text_pixels(SEPARATOR.join(parts), points) for parts in own), default=30)
    room = min(int(frame.width * room_share), widest + 16)  # 16: the tick and its pad
    labels = _distinct_labels(own, room - 16, points, lines=lines)
    return BarsLayout(bars, shared, labels, points, room)


@lru_cache(maxsize=KEPT_FIGURES)
def draw_bars(figure: BarsFigure, frame: Frame) -> bytes:
    palette = PALETTES[frame.theme]
    with LOCK:
        # The bars that fit under a line of subtitle, then under as many as their shared
        # parts take (at most two).
        layout = lay_out(figure, frame, pixels=_plot_pixels(frame, 1), room_share=0.45)
        subtitle = (
            label_text(layout.shared, frame.width - 20, 9, lines=2, common=Counter())
            if layout.shared
            else ""
        )
        lines = subtitle.count("\n") + 1 if subtitle else 0
        if lines > 1:
            layout = lay_out(figure, frame, pixels=_plot_pixels(frame, lines), room_share=0.45)
        fig, ax = canvas("bars", frame, left=layout.room, top=_top(lines))
        draw_bars_axes(ax, figure, layout, palette)
        titles(
            fig, frame, figure.title, _caption(figure, layout, frame), palette, subtitle=subtitle
        )
        return render_figure(fig, frame)


def _top(subtitle_lines: int) -> int:
    """The plot's top margin in pixels: the title's, and 16 a line of subtitle."""
    return 34 + 16 * subtitle_lines


def _plot_pixels(frame: Frame, subtitle_lines: int) -> int:
    return int(plot_area(frame, left=0, top=_top(subtitle_lines))[3] * frame.height)


def _caption(figure: BarsFigure, layout: BarsLayout, frame: Frame) -> str:
    missing = len(figure.bars) - len(layout.bars)
    if not missing:
        return figure.caption
    taller = frame.height + math.ceil(missing * _MIN_LABEL_POINTS * _LINE)
    return (
        f"{len(layout.bars)} of {len(figure.bars)} bars fit {frame.height} px"
        f" (height={taller} draws all) · {figure.caption}"
    )


def draw_bars_axes(ax: Axes, figure: BarsFigure, layout: BarsLayout, palette: Palette) -> None:
    # Before any mark: a kept axes may have either scale, and a change of scale scales the
    # axis to the marks there are.
    ax.set_xscale("log" if figure.log_scale else "linear")
    style_axes(ax, palette, tick_points=layout.points)
    ax.grid(axis="y", visible=False)
    positions = list(range(len(layout.bars)))[::-1]  # the first bar on top
    for index, (bar, y) in enumerate(zip(layout.bars, positions, strict=True)):
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
    ax.set_yticks(positions, layout.labels)
    if figure.log_scale:
        # Plain numbers: the log scale labels in TeX by default ("$10^{0}$"), which
        # text.parse_math off would draw as written.
        ax.xaxis.set_major_formatter(LogFormatter())
        ax.xaxis.set_minor_formatter(LogFormatter())
    else:
        ax.xaxis.set_major_formatter(PlainTicks())
    if figure.reference is not None and layout.bars:
        ax.axvline(figure.reference, color=palette.neutral, linewidth=1, gid="reference")
    ax.xaxis.label.set_gid("value-axis")
    ax.set_xlabel(figure.value_label)
    if not layout.bars:
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
