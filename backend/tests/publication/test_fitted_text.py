"""Texts fit the room they have. Bar labels keep what tells their bars apart: the parts
every bar shares are said once, under the title; a label too wide wraps between parts or
leaves out its most common ones; a chart with more bars than its height can label
readably draws fewer and says so. Titles are measured, and a card's shrinks first."""

import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from benchboard.publication.badge import BADGE_COLOURS, BADGE_LABEL_COLOUR
from benchboard.publication.bar_chart import (
    SEPARATOR,
    Bar,
    BarsFigure,
    draw_bars,
    label_text,
    shared_parts,
)
from benchboard.publication.canvas import Frame, text_pixels
from benchboard.publication.card import CardFigure, draw_card
from benchboard.publication.history_chart import HistoryFigure, draw_history
from tests.publication.test_figures_api import by_id, ids, words

MACHINE = "unknown-dart-dev-machine-crespo"


def parsed(body: bytes) -> ET.Element:
    parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True))  # noqa: S314
    return ET.fromstring(body, parser=parser)  # noqa: S314  (our own output)


def tick_labels(root: ET.Element) -> list[str]:
    """The bars' labels top to bottom, each line of a label a text of its own."""
    return [words(e) for e in root.iter() if (e.get("id") or "").startswith("ytick_")]


def pair(writes: int, variant: str = "sequential") -> Bar:
    label = ("file-write-tiny", "payload_bytes=13", f"writes={writes}", "time_per_op")
    return Bar((*label, "dart", "dart:io", variant, MACHINE), 2.0)


def test_parts_every_bar_has_are_said_once_under_the_title() -> None:
    bars = (pair(1000), pair(10000), pair(50000, "async future-wait-3 vs sync sequential"))
    figure = BarsFigure("async / sync", "3 pairs", "ratio", bars, reference=1.0, log_scale=True)
    root = parsed(draw_bars(figure, Frame(800, 360, "light", "svg")))
    subtitle = words(by_id(root, "subtitle"))
    shared = ("file-write-tiny", "payload_bytes=13", "time_per_op", "dart", "dart:io", MACHINE)
    assert subtitle == SEPARATOR.join(shared)
    labels = tick_labels(root)
    assert len(set(labels)) == 3
    assert labels[0] == "writes=1000 · sequential"
    assert "writes=10000" in labels[1]
    assert "async future-wait-3 vs sync sequential" in labels[2]
    assert not any(MACHINE in label for label in labels)


def test_nothing_is_shared_that_would_leave_a_bar_without_a_label() -> None:
    assert shared_parts([("a", "b")]) == ()  # one bar: its label is all there is
    assert shared_parts([("a", "b"), ("a",)]) == ()  # the second would be left empty
    assert shared_parts([("a", "b", "c"), ("a", "d", "c")]) == ("a", "c")


def test_a_long_label_wraps_then_leaves_out_its_most_common_parts() -> None:
    parts = ("fio-randread-4k", "bs=4k", "direct=1", "numjobs=1", "iops", "fio/sync")
    common = {"bs=4k": 9, "numjobs=1": 9, "fio/sync": 9, "direct=1": 3, "iops": 2}
    whole = SEPARATOR.join(parts)
    assert label_text(parts, 1000, 9, lines=1, common=Counter(common)) == whole
    narrow = text_pixels(SEPARATOR.join(parts[:3]), 9) + 4
    wrapped = label_text(parts, narrow, 9, lines=3, common=Counter(common))
    assert wrapped.replace("\n", SEPARATOR) == whole
    assert 1 < wrapped.count("\n") + 1 <= 3
    short = label_text(parts, narrow, 9, lines=1, common=Counter(common))
    assert short.startswith("fio-randread-4k")
    assert short.endswith(" …")
    assert "iops" in short
    assert "bs=4k" not in short
    assert text_pixels(short, 9) <= narrow


def test_more_bars_than_the_height_labels_readably_are_cut_and_the_caption_says_so() -> None:
    bars = tuple(Bar((f"benchmark-{i}", f"writes={i}"), 1.0 + i) for i in range(40))
    figure = BarsFigure("crowded", "40 series", "time", bars)
    root = parsed(draw_bars(figure, Frame(800, 400, "light", "svg")))
    drawn = len(ids(root, r"bar-\d+"))
    assert 10 < drawn < 40
    caption = words(by_id(root, "caption"))
    assert caption.startswith(f"{drawn} of 40 bars fit 400 px (height=")
    taller = int(caption.split("height=")[1].split(" ")[0])
    root = parsed(draw_bars(figure, Frame(800, taller, "light", "svg")))
    assert len(ids(root, r"bar-\d+")) == 40
    assert len(set(tick_labels(root))) == 40


def test_a_small_history_fits_its_title_and_axis_words() -> None:
    figure = HistoryFigure(
        title="dart-isolate-messaging: time per op median",
        caption="sqlite-single-row-lookup",
        value_label="time_per_op_median (us)",
        times=(),
        values=(),
    )
    root = parsed(draw_history(figure, Frame(300, 200, "light", "svg")))
    title = words(by_id(root, "title"))
    assert title.endswith("…")
    assert text_pixels(title, 12, bold=True) <= 300 - 20
    assert words(by_id(root, "value-axis")).endswith("…")


def test_a_long_card_title_is_drawn_smaller_before_it_is_clipped() -> None:
    title = "Dart vs Go REST Server Performance Comparison Study"  # 30 pt: wider than 1104 px
    assert text_pixels(title, 30, bold=True) > 1104
    chart = BarsFigure(title, "go-vs-dart-rest", "", ())
    root = parsed(
        draw_card(CardFigure(title, "a sentence", chart), Frame(1200, 630, "light", "svg"))
    )
    assert words(by_id(root, "card-title")) == title
    longer = f"{title} on an 8 dedicated vCPU server, again and again"
    root = parsed(draw_card(CardFigure(longer, "a", chart), Frame(1200, 630, "light", "svg")))
    drawn = words(by_id(root, "card-title"))
    assert drawn.endswith("…")
    assert text_pixels(drawn, 22, bold=True) <= 1104


def _luminance(colour: str) -> float:
    def channel(c: int) -> float:
        c_ = c / 255
        return c_ / 12.92 if c_ <= 0.03928 else ((c_ + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


@pytest.mark.parametrize("background", [BADGE_LABEL_COLOUR, *BADGE_COLOURS.values()])
def test_a_badges_white_text_reads_on_every_colour(background: str) -> None:
    """WCAG AA for normal text: 4.5:1."""
    assert (1.05) / (_luminance(background) + 0.05) >= 4.5
