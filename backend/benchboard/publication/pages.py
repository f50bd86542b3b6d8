"""Sharing cards: /studies/{suite}, /history and /modes served with a <head> that names
what the page shows (Open Graph and Twitter tags), so a pasted link previews with a
title, a sentence and a picture. Chat apps and social sites read the HTML and run no
script, so the tags must come from the server.

The page is the built index.html with its <title> replaced by the card's tags: the same
scripts load and the single-page app starts as before. The tags say what an anonymous
reader may see: the data comes from the services behind the JSON routes (so their read
rules apply), and when a read is refused or fails the page goes out with the plain
head, never an error: the app then says why itself.
"""

import html
import re
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from sqlalchemy.orm import Session

from benchboard.caching import conditional_read
from benchboard.config import Settings
from benchboard.delivery import REVALIDATE
from benchboard.deps import SessionDep, SettingsDep
from benchboard.errors import AppError, NotFound
from benchboard.publication import service
from benchboard.series.filters import DIMENSIONS, SeriesFilter
from benchboard.studies.service import get_study
from benchboard.tokens.visibility import Viewer, viewer_of

pages_router = APIRouter(include_in_schema=False)

_TITLE = re.compile(r"<title>.*?</title>", re.DOTALL)
# The size of the picture the tags promise; the routes draw every og:image at this size.
CARD_SIZE = (1200, 630)


@dataclass(frozen=True)
class Card:
    title: str
    description: str
    image: str  # absolute URL of a CARD_SIZE PNG


def public_base(request: Request) -> str:
    """This server's origin as the client reached it: og:image and citations need
    absolute URLs."""
    return str(request.base_url).rstrip("/")


def head_tags(card: Card, page_url: str) -> str:
    width, height = CARD_SIZE
    properties = {
        "og:type": "website",
        "og:site_name": "Benchboard",
        "og:title": card.title,
        "og:description": card.description,
        "og:url": page_url,
        "og:image": card.image,
        "og:image:width": str(width),
        "og:image:height": str(height),
    }
    names = {
        "twitter:card": "summary_large_image",
        "twitter:title": card.title,
        "twitter:description": card.description,
        "twitter:image": card.image,
        "description": card.description,
    }
    tags = [f"<title>{html.escape(card.title)} · Benchboard</title>"]
    tags += [f'<meta property="{k}" content="{html.escape(v)}" />' for k, v in properties.items()]
    tags += [f'<meta name="{k}" content="{html.escape(v)}" />' for k, v in names.items()]
    return "\n    ".join(tags)


def with_card(index_html: str, card: Card, page_url: str) -> str:
    """index.html with its <title> replaced by the card's title and tags."""
    tags = head_tags(card, page_url)
    if _TITLE.search(index_html):
        return _TITLE.sub(lambda _: tags, index_html, count=1)
    return index_html.replace("</head>", f"    {tags}\n  </head>", 1)


def _page(
    request: Request,
    session: Session,
    settings: Settings,
    card: Callable[[Viewer], Card],
) -> HTMLResponse:
    """The page with `card`'s head. A public read like the JSON it is drawn from: tagged
    and kept by the data's version (caching.py), since building a study's card costs
    as much as its JSON and a shared link brings a crowd to the page first."""
    index = settings.static_dir / "index.html"
    if not index.is_file():
        raise NotFound("the dashboard is not built: run `make run` (it builds frontend/)")
    page = index.read_text(encoding="utf-8")
    if settings.public_read:  # else every read needs a token, which a link preview lacks
        private = conditional_read(request, session, public=True, cache_control=REVALIDATE)
        anonymous = viewer_of(session, None, private)
        with suppress(AppError):  # refused or not found: the app says why itself
            page = with_card(page, card(anonymous), f"{public_base(request)}{request.url.path}")
    return HTMLResponse(page, headers={"Cache-Control": REVALIDATE})


@pages_router.get("/studies/{suite}")
def get_study_page(
    suite: str, request: Request, session: SessionDep, settings: SettingsDep
) -> HTMLResponse:
    def card(anonymous: Viewer) -> Card:
        anonymous.require(suite, f"study {suite}")
        study = get_study(session, suite)
        first = study.findings[0].text if study.findings else None
        return Card(
            title=study.title or suite,
            description=first or study.description or f"Benchmark study {suite}",
            image=f"{public_base(request)}/api/v1/suites/{quote(suite)}/card.png",
        )

    return _page(request, session, settings, card)


@pages_router.get("/history")
def get_history_page(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    series: Annotated[list[str] | None, Query()] = None,
) -> HTMLResponse:
    def card(anonymous: Viewer) -> Card:
        ids = [int(given) for given in series or () if given.isdigit() and len(given) < 19]
        if not ids:
            raise NotFound("no series named")
        window = _window(request)
        figure = service.history_figure(session, anonymous, ids[0], **window)
        kept = urlencode(_window_query(window))
        return Card(
            title=figure.title,
            description=f"{figure.caption} · {len(figure.values)} points",
            image=f"{public_base(request)}/api/v1/series/{ids[0]}/chart.png?{_sized(kept)}",
        )

    return _page(request, session, settings, card)


@pages_router.get("/modes")
def get_modes_page(request: Request, session: SessionDep, settings: SettingsDep) -> HTMLResponse:
    def card(anonymous: Viewer) -> Card:
        window = _window(request)
        hidden = anonymous.hidden
        figure = service.modes_figure(session, _page_filter(request, window, hidden))
        query = urlencode(
            [(k, v) for k, v in request.query_params.multi_items() if k in _FILTER_KEYS]
            + _window_query(window)
        )
        return Card(
            title=figure.title,
            description=figure.caption,
            image=f"{public_base(request)}/api/v1/compare/modes/chart.png?{_sized(query)}",
        )

    return _page(request, session, settings, card)


_FILTER_KEYS = {*DIMENSIONS, "branch"}


def _page_filter(
    request: Request, window: dict[str, datetime | None], hidden: frozenset[str]
) -> SeriesFilter:
    """The page's filters as the app reads them from its URL; a page never answers 422."""
    given = request.query_params
    values = {
        dimension: tuple(v for v in given.getlist(dimension) if v) for dimension in DIMENSIONS
    }
    return SeriesFilter(
        **values,  # type: ignore[arg-type]
        branch=given.get("branch") or None,
        hidden=hidden,
        **window,  # type: ignore[arg-type]
    )


def _sized(query: str) -> str:
    width, height = CARD_SIZE
    return "&".join(part for part in (query, f"width={width}&height={height}") if part)


def _date(value: str | None, *, end: bool = False) -> datetime | None:
    """The dashboard's since/until: a day (`until` means its end, as the app reads it) or a
    time; what does not parse is ignored, as the app ignores it."""
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    if end and len(value) == len("2025-01-31"):
        parsed += timedelta(days=1, microseconds=-1)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _window(request: Request) -> dict[str, datetime | None]:
    given = request.query_params
    return {
        "since": _date(given.get("since")),
        "until": _date(given.get("until"), end=True),
    }


def _window_query(window: dict[str, datetime | None]) -> list[tuple[str, str]]:
    return [(key, at.isoformat()) for key, at in window.items() if at is not None]
