"""Read models of comparisons: sync against async, one run against another."""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from benchboard.runs.schemas import RunSummary
from benchboard.series.schemas import ResultIdentity, SeriesValue
from benchboard_ingest.vocabulary import Direction


class ModeSide(SeriesValue):
    series_id: int
    implementation: str | None
    variant: str | None
    params: dict[str, Any]


class ModePair(BaseModel):
    """A sync and an async series of one group; identity fields are the sync side's."""

    suite: str
    benchmark: str
    params: dict[str, Any]
    language: str
    implementation: str | None
    hardware: str
    metric: str
    base_unit: str
    direction: Direction
    sync: ModeSide
    async_: ModeSide = Field(alias="async")
    async_over_sync: float | None

    model_config = ConfigDict(populate_by_name=True)


class ModeComparison(BaseModel):
    items: list[ModePair]


class RunSide(BaseModel):
    result_id: int
    hardware: str
    value: float
    unit: str
    value_base: float
    stats: dict[str, float] | None
    sample_count: int


Verdict = Literal["better", "worse", "noise"]


class MatchedResult(ResultIdentity):
    baseline: RunSide
    contender: RunSide
    relative_change: float | None
    verdict: Verdict
    p_value: float | None


class UnmatchedResult(ResultIdentity):
    side: RunSide


class RunComparison(BaseModel):
    baseline: RunSummary
    contender: RunSummary
    matched: list[MatchedResult]
    only_in_baseline: list[UnmatchedResult]
    only_in_contender: list[UnmatchedResult]
    noise_threshold: float
