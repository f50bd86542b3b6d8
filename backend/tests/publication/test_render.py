"""render.py writes what matplotlib's own savefig writes, with text kept across figures."""

import io

import matplotlib as mpl
import pytest
from matplotlib.figure import Figure
from PIL import Image

from benchboard.publication import render

SVG_METADATA = {"Date": None, "Creator": "Benchboard"}
PNG_METADATA = {"Software": "Benchboard"}
# Other texts first, so the last figure's extents and glyphs come from the caches.
TITLES = ["first of all", "tick labels 0.5 1.0 1.5", "first of all"]


def a_figure(title: str) -> Figure:
    fig = Figure(figsize=(6.4, 3.2), dpi=100)
    ax = fig.add_axes((0.1, 0.15, 0.85, 0.7))
    ax.plot([1, 2, 3], [3.0, 1.0, 2.0], marker="o")
    ax.set_ylabel("time_per_op (µs)")
    fig.text(0.01, 0.95, title, weight="bold")
    return fig


def saved(fig: Figure, image_format: str) -> bytes:
    out = io.BytesIO()
    if image_format == "svg":
        fig.savefig(out, format="svg", metadata=SVG_METADATA)
        root_size = b'width="460.8pt" height="230.4pt"'
        return out.getvalue().replace(root_size, b'width="640px" height="320px"')
    fig.savefig(out, format="png", metadata=PNG_METADATA)
    return out.getvalue()


def pixels(png: bytes) -> bytes:
    image = Image.open(io.BytesIO(png))
    return f"{image.mode} {image.size}".encode() + image.tobytes()


@pytest.mark.parametrize("title", TITLES)
def test_svg_is_byte_for_byte_what_savefig_writes(title: str) -> None:
    with mpl.rc_context({"svg.hashsalt": "test"}):  # ids from a salt, not a random one
        fig = a_figure(title)
        drawn = render.svg(fig, width=640, height=320, metadata=SVG_METADATA)
        assert drawn == saved(a_figure(title), "svg")
    assert fig.dpi == 100  # the figure is left as it was
    assert b'width="640px" height="320px"' in drawn


@pytest.mark.parametrize("title", TITLES)
def test_png_has_the_pixels_savefig_draws(title: str) -> None:
    drawn = render.png(a_figure(title), metadata=PNG_METADATA)
    assert pixels(drawn) == pixels(saved(a_figure(title), "png"))
    assert b"Benchboard" in drawn
