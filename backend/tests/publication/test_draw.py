"""Histories are drawn on one kept figure per theme: what was drawn before changes nothing."""

from datetime import UTC, datetime, timedelta

import pytest

from benchboard.publication import draw
from benchboard.publication.draw import IMAGE_FORMATS, Frame, HistoryFigure, ImageFormat, Marker

START = datetime(2025, 1, 1, tzinfo=UTC)
# The drawing itself, not the kept bytes of a figure drawn before.
draw_history = draw.draw_history.__wrapped__


def history(runs: int, *, markers: tuple[Marker, ...] = ()) -> HistoryFigure:
    return HistoryFigure(
        title=f"{runs} runs",
        caption="file-write-tiny · machine test",
        value_label="time_per_op (us)",
        times=tuple(START + timedelta(days=i) for i in range(runs)),
        values=tuple(100.0 + i % 3 * (runs - i) for i in range(runs)),
        markers=markers,
    )


STEP = (Marker(START + timedelta(days=5), "regression", "+30.0%"),)
OTHERS = [
    (history(0), Frame(300, 200, "light", "svg")),  # no runs: no value ticks
    (history(1), Frame(1000, 500, "light", "svg")),  # one run: the dates widen around it
    (history(0, markers=STEP), Frame(800, 400, "light", "png")),
    (history(500), Frame(640, 360, "light", "png")),
]


@pytest.mark.parametrize(
    "figure", [history(12, markers=STEP), history(1), history(0)], ids=["runs", "one", "none"]
)
@pytest.mark.parametrize("image_format", IMAGE_FORMATS)
def test_a_history_draws_the_same_after_any_other(
    figure: HistoryFigure, image_format: ImageFormat
) -> None:
    frame = Frame(800, 400, "light", image_format)
    draw._kept_history_canvas.cache_clear()  # a new figure and axes
    first = draw_history(figure, frame)
    for other, other_frame in OTHERS:
        draw_history(other, other_frame)
        assert draw_history(figure, frame) == first
