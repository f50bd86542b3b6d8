"""A change's or note's words stay inside the figure and off each other: to the left of a
line in the right half, a row lower than the words of a marker just before."""

import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta

from benchboard.publication.canvas import Frame
from benchboard.publication.history_chart import HistoryFigure, Marker, draw_history
from tests.publication.test_figures_api import by_id

START = datetime(2025, 1, 1, tzinfo=UTC)
WIDTH = 800


def xs_and_ys(element: ET.Element) -> tuple[list[float], list[float]]:
    """The coordinates of the first path under an element (a line, or a label's box)."""
    path = next(element.iter("{http://www.w3.org/2000/svg}path"))
    pairs = re.findall(r"([-0-9.]+) ([-0-9.]+)", path.get("d", ""))
    return [float(x) for x, _ in pairs], [float(y) for _, y in pairs]


def test_marker_words_stay_in_the_figure_and_off_each_other() -> None:
    markers = (
        Marker(START + timedelta(days=3), "annotation", "first run"),
        Marker(START + timedelta(days=21), "regression", "+30.0%"),
        Marker(START + timedelta(days=23), "annotation", "new kernel 6.8 on the runner"),
        Marker(START + timedelta(days=38), "improvement", "-12.0%"),
    )
    figure = HistoryFigure(
        title="history",
        caption="file-write-tiny",
        value_label="time_per_op (us)",
        times=tuple(START + timedelta(days=i) for i in range(40)),
        values=tuple(100.0 + i % 3 for i in range(40)),
        markers=markers,
    )
    body = draw_history(figure, Frame(WIDTH, 400, "light", "svg"))
    root = ET.fromstring(body)  # noqa: S314  (our own output)
    points = WIDTH * 72 / 100  # the SVG's user units are points
    boxes = {}
    for gid in ("annotation-0", "change-0", "annotation-1", "change-1"):
        (line_x, _), _ = xs_and_ys(by_id(root, gid))
        box_xs, box_ys = xs_and_ys(by_id(root, f"{gid}-label"))
        assert min(box_xs) >= 0
        assert max(box_xs) <= points
        in_right_half = line_x > points / 2
        assert (max(box_xs) <= line_x) if in_right_half else (min(box_xs) >= line_x)
        boxes[gid] = (min(box_xs), max(box_xs), min(box_ys), max(box_ys))
    # The change at day 21 and the note at day 23: their words do not overlap.
    a, b = boxes["change-0"], boxes["annotation-1"]
    assert a[1] <= b[0] or b[1] <= a[0] or a[3] <= b[2] or b[3] <= a[2]
