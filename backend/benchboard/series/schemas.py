"""Read models of series: facets, identities with their latest value, history."""

import uuid
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from benchboard.vocabulary import RatioIntervalMethod
from benchboard_ingest.vocabulary import Direction


class FacetValue(BaseModel):
    value: str
    count: int


class Facets(BaseModel):
    """Per dimension, its values with the number of series under the other filters;
    `branch` counts the series of every branch."""

    dimensions: dict[str, list[FacetValue]]


class RatioIntervalOut(BaseModel):
    """An interval of async/sync (stats.intervals): a 95% confidence interval by the delta
    method on the log scale, or (``range``, ``level`` null) the extreme ratios of reported
    min/max ranges."""

    estimate: float
    low: float
    high: float
    level: float | None
    method: RatioIntervalMethod
    df: float | None


class SeriesValue(BaseModel):
    run_id: uuid.UUID
    started_at: datetime
    value: float
    unit: str
    value_base: float
    stats: dict[str, float] | None


class ResultIdentity(BaseModel):
    """What makes results of different runs one series, the machine apart."""

    model_config = ConfigDict(from_attributes=True)

    suite: str
    benchmark: str
    params: dict[str, Any]
    language: str
    implementation: str | None
    mode: str | None
    variant: str | None
    metric: str
    base_unit: str
    direction: Direction


class SeriesIdentity(ResultIdentity):
    id: int
    hardware: str
    branch: str
    unit: str


class SeriesOut(SeriesIdentity):
    run_count: int
    latest: SeriesValue | None


# The longest page of `GET /series`: the dashboard asks for this much at once, so a
# 3,000-series suite is one request, not a chain of round trips.
SERIES_PAGE_MAX = 5000


class SeriesPage(BaseModel):
    items: list[SeriesOut]
    next_cursor: str | None


class HistoryPoint(SeriesValue):
    """One run's value; a downsampled point stands for `count` runs (min/max over them)."""

    count: int = 1
    min_base: float | None = None
    max_base: float | None = None


class SeriesHistory(BaseModel):
    series: SeriesIdentity
    points: list[HistoryPoint]
    downsampled: bool
    total_points: int
