"""HTTP for published figures: charts, badges, sharing cards and citations.

Every route reads through ReadAccess, like the JSON of the same data: an image gets the
same answer to "may this reader see it", and the same ETag, Cache-Control and 304
(caching.py) as the data it draws.
"""

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response

from benchboard.bounds import Id64, SuiteName
from benchboard.deps import ReadAccess, SessionDep, ViewerDep
from benchboard.errors import ErrorOut
from benchboard.publication import citation, service
from benchboard.publication.badge import draw_badge
from benchboard.publication.bar_chart import draw_bars
from benchboard.publication.canvas import MEDIA_TYPES, Frame, ImageFormat, Theme
from benchboard.publication.card import draw_card
from benchboard.publication.history_chart import draw_history
from benchboard.publication.pages import public_base
from benchboard.publication.schemas import CitationFormat
from benchboard.series.filters import SeriesFilterDep

router = APIRouter(prefix="/api/v1", tags=["publication"], dependencies=[ReadAccess])

CARD_WIDTH, CARD_HEIGHT = 1200, 630  # what sharing previews ask for (og:image)


async def image_frame(
    image_format: ImageFormat,
    width: Annotated[int, Query(ge=200, le=2400, description="pixels")] = 800,
    height: Annotated[int, Query(ge=120, le=1600, description="pixels")] = 400,
    theme: Theme = "light",
) -> Frame:
    return Frame(width=width, height=height, theme=theme, image_format=image_format)


FrameDep = Annotated[Frame, Depends(image_frame)]
_IMAGES: dict[int | str, dict[str, Any]] = {
    200: {"content": {media: {} for media in MEDIA_TYPES.values()}, "description": "the image"},
    404: {"model": ErrorOut},
}


def _image(body: bytes, frame: Frame) -> Response:
    return Response(body, media_type=MEDIA_TYPES[frame.image_format])


@router.get("/series/{series_id}/chart.{image_format}", response_class=Response, responses=_IMAGES)
def get_series_chart(
    series_id: Id64,
    frame: FrameDep,
    session: SessionDep,
    viewer: ViewerDep,
    since: datetime | None = None,
    until: datetime | None = None,
) -> Response:
    """The series' history: one mark per run, detected changes and pinned notes, its unit
    on the axis, its identity and machine in the caption."""
    figure = service.history_figure(session, viewer, series_id, since=since, until=until)
    return _image(draw_history(figure, frame), frame)


@router.get("/series/{series_id}/badge.svg", response_class=Response, responses=_IMAGES)
def get_series_badge(series_id: Id64, session: SessionDep) -> Response:
    """A shields-style badge: the latest value, and its change against the latest run's
    baseline coloured by the verdict (red regression, green improvement, blue unchanged,
    grey not judged)."""
    return Response(
        draw_badge(service.series_badge(session, series_id)), media_type="image/svg+xml"
    )


@router.get(
    "/findings/{finding_id}/chart.{image_format}", response_class=Response, responses=_IMAGES
)
def get_finding_chart(
    finding_id: Id64, frame: FrameDep, session: SessionDep, viewer: ViewerDep
) -> Response:
    """A finding's two sides, each with the range its run reported, the ratio's interval
    in the caption."""
    figure = service.finding_figure(service.get_finding(session, viewer, finding_id))
    return _image(draw_bars(figure, frame), frame)


@router.get("/leaderboard/chart.{image_format}", response_class=Response, responses=_IMAGES)
def get_leaderboard_chart(
    frame: FrameDep, session: SessionDep, series_filter: SeriesFilterDep
) -> Response:
    """The matching series' latest values, best first (the dashboard's /leaderboard: give
    suite, benchmark and metric)."""
    return _image(draw_bars(service.leaderboard_figure(session, series_filter), frame), frame)


@router.get("/compare/modes/chart.{image_format}", response_class=Response, responses=_IMAGES)
def get_modes_chart(
    frame: FrameDep, session: SessionDep, series_filter: SeriesFilterDep
) -> Response:
    """async / sync of the first page of pairs (GET /compare/modes), with intervals."""
    return _image(draw_bars(service.modes_figure(session, series_filter), frame), frame)


@router.get("/suites/{suite}/card.png", response_class=Response, responses=_IMAGES)
def get_study_card(
    suite: SuiteName,
    session: SessionDep,
    theme: Theme = "light",
) -> Response:
    """The study's sharing card (og:image), 1200 × 630: title, first finding, its chart."""
    frame = Frame(width=CARD_WIDTH, height=CARD_HEIGHT, theme=theme, image_format="png")
    return _image(draw_card(service.study_card(session, suite), frame), frame)


@router.get(
    "/suites/{suite}/citation",
    response_class=Response,
    responses={
        200: {"content": {"application/x-bibtex": {}, "application/x-yaml": {}}},
        404: {"model": ErrorOut},
    },
)
def get_study_citation(
    suite: SuiteName,
    request: Request,
    session: SessionDep,
    citation_format: Annotated[CitationFormat, Query(alias="format")] = "bibtex",
) -> Response:
    """How to cite the study: BibTeX, or CITATION.cff; from its title, authors, dates,
    runs and commit range."""
    page_url = f"{public_base(request)}/studies/{suite}"
    body = citation.cite(session, suite, citation_format, page_url=page_url)
    return Response(body, media_type=citation.MEDIA_TYPES[citation_format])
