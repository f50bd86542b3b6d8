"""A study's sharing card (og:image): its title, a sentence, and a chart under them."""

from dataclasses import dataclass
from functools import lru_cache

from benchboard.publication.bar_chart import SEPARATOR, BarsFigure, draw_bars_axes, lay_out
from benchboard.publication.canvas import KEPT_FIGURES, Frame, fit, new_figure, render_figure
from benchboard.publication.history_chart import HistoryFigure, draw_history_axes

_TITLE_POINTS = (30, 22)  # the title's size, and the smallest it shrinks to before clipping


@dataclass(frozen=True)
class CardFigure:
    """A sharing card: a title, a sentence, and a chart under them."""

    title: str
    sentence: str
    chart: BarsFigure | HistoryFigure


@lru_cache(maxsize=KEPT_FIGURES)
def draw_card(card: CardFigure, frame: Frame) -> bytes:
    """1200 × 630 by default: the title large, the sentence, the chart below them. Each
    line is fitted to the card's width as measured in its font; a long title is drawn
    smaller before it is clipped."""
    room = int(frame.width * 0.92)
    points = next(
        (
            size
            for size in range(*_TITLE_POINTS, -2)
            if fit(card.title, room, size, bold=True) == card.title
        ),
        _TITLE_POINTS[1],
    )
    with new_figure(frame) as (fig, palette):
        fig.text(
            0.04,
            0.93,
            fit(card.title, room, points, bold=True),
            fontsize=points,
            weight="bold",
            color=palette.text,
            va="top",
            gid="card-title",
        )
        fig.text(
            0.04,
            0.83,
            fit(card.sentence, room, 18),
            fontsize=18,
            color=palette.text,
            va="top",
            gid="card-sentence",
        )
        chart = card.chart
        caption = chart.caption
        top = 1 - 150 / frame.height
        height = top - 0.12
        if isinstance(chart, HistoryFigure):
            ax = fig.add_axes((0.08, 0.12, 0.88, height))
            draw_history_axes(ax, chart, palette, axis_pixels=int(height * frame.height))
        else:
            layout = lay_out(chart, frame, pixels=int(height * frame.height), room_share=0.45)
            left = layout.room / frame.width
            ax = fig.add_axes((left, 0.12, 0.96 - left, height))
            draw_bars_axes(ax, chart, layout, palette)
            caption = SEPARATOR.join((*layout.shared, caption))  # the card has no subtitle
        fig.text(
            0.04,
            0.03,
            fit(caption, room, 11),
            fontsize=11,
            color=palette.neutral,
            gid="caption",
        )
        return render_figure(fig, frame)
