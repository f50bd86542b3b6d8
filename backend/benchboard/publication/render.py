"""A laid-out matplotlib Figure as SVG or PNG bytes (canvas.py and the
charts lay figures out, this writes).

**Why not `Figure.savefig`.** matplotlib keeps the extents of texts per renderer and
savefig builds a new renderer for every file, so every figure measured its tick labels,
title and caption again with FreeType, and for SVG converted each glyph to an outline
again: a fifth of an SVG's time, a tenth of a PNG's. Here the renderers take text extents
(and the SVG one glyph outlines) from caches kept for the process; a glyph's outline is
still written once per SVG as a `<path>` in `<defs>` that its uses refer to, so each file
is byte for byte what savefig writes (tests/publication/test_render.py)."""

import io
import re
from collections import OrderedDict
from functools import lru_cache
from typing import Any, Literal

from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.backends.backend_mixed import MixedModeRenderer
from matplotlib.backends.backend_svg import RendererSVG
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.ft2font import FT2Font
from matplotlib.textpath import TextToPath
from numpy.typing import NDArray
from PIL import Image
from PIL.PngImagePlugin import PngInfo

Placed = tuple[str, float, float, float]  # a glyph's id, x, y and scale
Outline = tuple[NDArray[Any], NDArray[Any]]  # a glyph's vertices and path codes
Rect = tuple[list[tuple[float, float]], list[int]]

_TEXTS = 4096  # distinct (text, font) pairs kept: tick labels repeat, titles do not
_POINTS = 72  # an SVG's user unit is the point: matplotlib draws SVG at 72 dpi


class _KeptGlyphs(TextToPath):
    """TextToPath whose measures and layouts are kept for the process: a text in a given
    font always lays out to the same glyphs at the same places."""

    def get_text_width_height_descent(
        self, s: str, prop: FontProperties, ismath: bool | Literal["TeX"]
    ) -> tuple[float, float, float]:
        return _measure(s, prop.copy(), ismath)  # a copy: FontProperties is mutable

    def get_glyphs_with_font(
        self,
        font: FT2Font,
        s: str,
        glyph_map: dict[str, Outline] | None = None,
        return_new_glyphs_only: bool = False,
        **layout: Any,  # features, language: as given (matplotlib >= 3.10 passes them)
    ) -> tuple[list[Placed], dict[str, Outline], list[Rect]]:
        placed, outlines, rects = _lay_out(font, s, tuple(sorted(layout.items())))
        known = {} if glyph_map is None else glyph_map
        if return_new_glyphs_only:
            new = OrderedDict((g, path) for g, path in outlines.items() if g not in known)
            return list(placed), new, list(rects)
        known.update(outlines)
        return list(placed), known, list(rects)


_OUTLINER = TextToPath()


@lru_cache(maxsize=_TEXTS)
def _measure(
    s: str, prop: FontProperties, ismath: bool | Literal["TeX"]
) -> tuple[float, float, float]:
    return _OUTLINER.get_text_width_height_descent(s, prop, ismath)


@lru_cache(maxsize=_TEXTS)
def _lay_out(
    font: FT2Font, s: str, layout: tuple[tuple[str, Any], ...]
) -> tuple[tuple[Placed, ...], dict[str, Outline], tuple[Rect, ...]]:
    placed, outlines, rects = _OUTLINER.get_glyphs_with_font(font, s, **dict(layout))
    return tuple(placed), dict(outlines), tuple(rects)


_GLYPHS = _KeptGlyphs()


def svg(fig: Figure, *, width: int, height: int, metadata: dict[str, Any]) -> bytes:
    """What `fig.savefig(format="svg")` writes (backend_svg.print_svg), with kept glyphs,
    and sized in pixels."""
    out = io.StringIO()
    dpi = fig.dpi
    inches_wide, inches_high = fig.get_size_inches()
    svg_renderer = RendererSVG(  # type: ignore[no-untyped-call]
        inches_wide * _POINTS, inches_high * _POINTS, out, image_dpi=dpi, metadata=metadata
    )
    svg_renderer._text2path = _GLYPHS  # the outliner its texts are drawn and measured with
    # As print_svg wraps it: an artist drawn rasterized would be drawn through Agg.
    renderer = MixedModeRenderer(  # type: ignore[no-untyped-call]
        fig, inches_wide, inches_high, dpi, svg_renderer
    )
    fig.dpi = _POINTS
    try:
        fig.draw(renderer)  # type: ignore[arg-type]
    finally:
        fig.dpi = dpi
    renderer.finalize()
    return _in_pixels(out.getvalue().encode(), width, height)


# matplotlib sizes an SVG in points (72 to the inch): 800 asked pixels would show as
# 768 CSS pixels. The root's width and height in pixels, its viewBox unchanged, scale it.
_ROOT_SIZE = re.compile(rb'width="[0-9.]+pt" height="[0-9.]+pt"')


def _in_pixels(body: bytes, width: int, height: int) -> bytes:
    return _ROOT_SIZE.sub(f'width="{width}px" height="{height}px"'.encode(), body, count=1)


class _KeptExtentsAgg(RendererAgg):
    """RendererAgg whose texts' extents are kept for the process, as the SVG renderer's
    are (their glyphs are still rasterized for each image)."""

    def get_text_width_height_descent(
        self, s: str, prop: FontProperties, ismath: bool | Literal["TeX"]
    ) -> tuple[float, float, float]:
        key = (s, prop.copy(), ismath, self.dpi)  # hinting: rcParams, set once (canvas.py)
        found = _AGG_EXTENTS.get(key)
        if found is None:
            if len(_AGG_EXTENTS) >= _TEXTS:
                _AGG_EXTENTS.clear()
            width, height, descent = super().get_text_width_height_descent(  # type: ignore[no-untyped-call]
                s, prop, ismath
            )
            found = _AGG_EXTENTS[key] = (width, height, descent)
        return found


_AGG_EXTENTS: dict[
    tuple[str, FontProperties, bool | Literal["TeX"], float], tuple[float, float, float]
] = {}


class _Canvas(FigureCanvasAgg):
    def get_renderer(self) -> RendererAgg:
        width, height = self.get_width_height(physical=True)
        return _KeptExtentsAgg(width, height, self.figure.dpi)  # type: ignore[no-untyped-call]


def png(fig: Figure, *, metadata: dict[str, str]) -> bytes:
    """What `fig.savefig(format="png")` writes (backend_agg.print_png), with kept text
    extents."""
    canvas = _Canvas(fig)
    canvas.draw()  # type: ignore[no-untyped-call]
    pixels = canvas.buffer_rgba()  # type: ignore[no-untyped-call]
    size = canvas.get_width_height(physical=True)
    image = Image.frombuffer("RGBA", size, pixels, "raw", "RGBA", 0, 1)
    info = PngInfo()
    for key, value in metadata.items():
        info.add_text(key, value)
    out = io.BytesIO()
    # zlib level 1: a third of the PNG's time at level 6, for a few % more bytes.
    image.save(out, format="png", pnginfo=info, dpi=(fig.dpi, fig.dpi), compress_level=1)
    return out.getvalue()
