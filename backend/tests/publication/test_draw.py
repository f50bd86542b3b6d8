"""Histories and bars are drawn on one kept figure per kind and theme: what was drawn before
changes nothing."""

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from benchboard.publication import bar_chart, canvas, history_chart
from benchboard.publication.bar_chart import Bar, BarsFigure
from benchboard.publication.canvas import IMAGE_FORMATS, Frame, ImageFormat
from benchboard.publication.history_chart import HistoryFigure, Marker

START = datetime(2025, 1, 1, tzinfo=UTC)
Drawing = Callable[[Frame], bytes]


def history(runs: int, *, markers: tuple[Marker, ...] = ()) -> Drawing:
    figure = HistoryFigure(
        title=f"{runs} runs",
        caption="file-write-tiny · machine test",
        value_label="time_per_op (us)",
        times=tuple(START + timedelta(days=i) for i in range(runs)),
        values=tuple(100.0 + i % 3 * (runs - i) for i in range(runs)),
        markers=markers,
    )
    # The drawing itself, not the kept bytes of a figure drawn before.
    return lambda frame: history_chart.draw_history.__wrapped__(figure, frame)


def bars(*values: float, ratio: bool = False) -> Drawing:
    figure = BarsFigure(
        title="async / sync" if ratio else "async 2× slower than sync",
        caption="dart-async-file-writes",
        value_label="time_per_op (us)",
        bars=tuple(Bar((f"side {i}",), v, v * 0.9, v * 1.1) for i, v in enumerate(values)),
        reference=1.0 if ratio else None,
        log_scale=ratio,
        colours_by_bar=not ratio,
    )
    return lambda frame: bar_chart.draw_bars.__wrapped__(figure, frame)


STEP = (Marker(START + timedelta(days=5), "regression", "+30.0%"),)
FIGURES = {
    "history": history(12, markers=STEP),
    "one run": history(1),  # the dates widen around it
    "no runs": history(0),  # no value ticks
    "a change, no runs": history(0, markers=STEP),  # not drawn: no run to place it at
    "long history": history(500),
    "bars": bars(120.0, 57.5),
    "ratios": bars(2.1, 0.4, 1.05, ratio=True),  # a log axis
    "no bars": bars(),
    "no ratios": bars(ratio=True),
}


@pytest.mark.parametrize("name", FIGURES)
@pytest.mark.parametrize("image_format", IMAGE_FORMATS)
def test_a_figure_draws_the_same_after_any_other(name: str, image_format: ImageFormat) -> None:
    frame = Frame(800, 400, "light", image_format)
    canvas._kept_canvas.cache_clear()  # new figures and axes
    first = FIGURES[name](frame)
    for other_index, other in enumerate(FIGURES.values()):
        other_format = IMAGE_FORMATS[other_index % 2]
        other(Frame(500 + 100 * other_index, 300, "light", other_format))
        assert FIGURES[name](frame) == first


SCIENTIFIC = re.compile(r"\de[+-]?\d")  # "1e7", "+1.4e+07": an offset or a power


def tick_texts(svg: bytes) -> list[str]:
    """The texts of an SVG figure (drawn as paths, each after a comment of its text)."""
    return re.findall(r"<!-- (.*?) -->", svg.decode())


@pytest.mark.parametrize(
    ("drawing", "ticks"),
    [
        (bars(14_300_000.0, 4_300_000.0), ["0", "2M", "4M", "14M", "16M"]),
        (bars(61_000.0, 18_000.0), ["0", "10k", "60k"]),
        (bars(31_000.0, 18_000.0), ["0", "5k", "10k", "35k"]),  # one suffix per axis
        (bars(120.0, 57.5), ["0", "20", "120"]),
    ],
)
def test_value_ticks_are_short_plain_numbers_with_no_offset(
    drawing: Drawing, ticks: list[str]
) -> None:
    # Left to itself matplotlib writes 14.3M as "1.4" at the tick and "1e7" in a corner.
    texts = tick_texts(drawing(Frame(500, 300, "light", "svg")))
    assert set(ticks) <= set(texts)
    assert "5,000" not in texts
    assert not [text for text in texts if SCIENTIFIC.search(text)]


def test_a_history_of_large_values_has_plain_ticks() -> None:
    figure = HistoryFigure(
        title="requests",
        caption="rest-root-route · machine test",
        value_label="total_requests (count)",
        times=tuple(START + timedelta(days=i) for i in range(5)),
        values=(14.1e6, 14.3e6, 14.2e6, 14.6e6, 14.4e6),
        markers=(),
    )
    texts = tick_texts(
        history_chart.draw_history.__wrapped__(figure, Frame(800, 400, "light", "svg"))
    )
    assert [text for text in texts if text.endswith("M")]
    assert not [text for text in texts if SCIENTIFIC.search(text)]
