"""render.py writes what matplotlib's own savefig writes, with glyphs kept across figures."""

import io

import matplotlib as mpl
from matplotlib.figure import Figure

from benchboard.publication import render

METADATA = {"Date": None, "Creator": "Benchboard"}


def a_figure(title: str) -> Figure:
    fig = Figure(figsize=(6.4, 3.2), dpi=100)
    ax = fig.add_axes((0.1, 0.15, 0.85, 0.7))
    ax.plot([1, 2, 3], [3.0, 1.0, 2.0], marker="o")
    ax.set_ylabel("time_per_op (µs)")
    fig.text(0.01, 0.95, title, weight="bold")
    return fig


def saved(fig: Figure) -> bytes:
    out = io.BytesIO()
    fig.savefig(out, format="svg", metadata=METADATA)
    return out.getvalue().replace(
        b'width="460.8pt" height="230.4pt"', b'width="640px" height="320px"'
    )


def test_svg_is_byte_for_byte_what_savefig_writes_after_other_figures() -> None:
    # Other texts first, so the second figure's glyphs and extents come from the cache.
    with mpl.rc_context({"svg.hashsalt": "test"}):  # ids from a salt, not a random one
        drawn = both_ways()
    assert b'width="640px" height="320px"' in drawn


def both_ways() -> bytes:
    for title in ("first of all", "tick labels 0.5 1.0 1.5"):
        fig = a_figure(title)
        drawn = render.svg(fig, width=640, height=320, metadata=METADATA)
        assert drawn == saved(a_figure(title))
        assert fig.dpi == 100  # the figure is left as it was
    return drawn
