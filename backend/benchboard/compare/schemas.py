"""Read models of comparisons: sync against async, one run against another."""

import uuid
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from benchboard.runs.schemas import RunSummary
from benchboard.series.schemas import RatioIntervalOut, ResultIdentity, SeriesValue
from benchboard.vocabulary import (
    BaselineVerdict,
    LevelSource,
    VerdictBasisMethod,
)
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
    interval: RatioIntervalOut | None

    model_config = ConfigDict(populate_by_name=True)


# The most sync series a page of `GET /compare/modes` pairs: each pair reads two latest
# values and computes an interval, ~0.1 ms of CPU.
MODE_PAGE_MAX = 1000


class ModeComparison(BaseModel):
    items: list[ModePair]
    next_cursor: str | None


class RunSide(BaseModel):
    result_id: int
    hardware: str
    value: float
    unit: str
    value_base: float
    stats: dict[str, float] | None
    sample_count: int


Verdict = Literal["better", "worse", "noise"]

RELATIVE_CHANGE = (
    "change of the figures the verdict compares (basis.compared): a run's median of samples"
    " where it has three or more, else the median or mean of its stats, else its value"
)


class MatchedResult(ResultIdentity):
    baseline: RunSide
    contender: RunSide
    relative_change: float | None = Field(description=RELATIVE_CHANGE)
    verdict: Verdict
    p_value: float | None
    basis: "VerdictBasis" = Field(
        description="What the verdict rests on: the two-level noise model over the baseline"
        " series' history, as baseline comparisons and change detection judge"
    )


class UnmatchedResult(ResultIdentity):
    side: RunSide


class RunComparison(BaseModel):
    baseline: RunSummary
    contender: RunSummary
    matched: list[MatchedResult]
    only_in_baseline: list[UnmatchedResult]
    only_in_contender: list[UnmatchedResult]
    noise_threshold: float


class BaselineSide(BaseModel):
    run_id: uuid.UUID
    series_id: int
    value: float
    unit: str
    value_base: float
    sample_count: int


class ComparedLevel(BaseModel):
    """The figure that stands for one run's result in a comparison."""

    value: float = Field(description="in the series' base unit")
    of: LevelSource = Field(
        description="samples_median: the median of the run's samples; stats_median or"
        " stats_mean: the median or mean its stats report; value: its headline value"
    )
    label: str | None = Field(
        default=None,
        description="the figure in words, for a reader: 'median of 5', 'reported mean of"
        " 100', 'value'",
    )


class ComparedLevels(BaseModel):
    """The two figures relative_change and the verdict both rest on."""

    baseline: ComparedLevel
    contender: ComparedLevel


class VerdictBasis(BaseModel):
    """What a verdict rests on: replicates and the baseline branch's run-to-run noise,
    the history's noise alone, or nothing (not judged); and the two figures compared."""

    method: VerdictBasisMethod
    compared: ComparedLevels
    history_runs: int = Field(description="baseline-branch runs the noise estimate rests on")
    baseline_samples: int
    contender_samples: int
    run_to_run_cv: float | None
    p_value: float | None
    text: str


class BaselineItem(ResultIdentity):
    """One series both runs measured, judged against the baseline."""

    baseline: BaselineSide
    contender: BaselineSide
    relative_change: float | None = Field(description=RELATIVE_CHANGE)
    change: str = Field(description="the change worded by direction: '+25.0% slower'")
    interval: tuple[float, float] | None = Field(
        description="interval of the relative change at the verdict's confidence level"
    )
    verdict: BaselineVerdict
    basis: VerdictBasis
    history_path: str = Field(description="the dashboard's history of both series")


class UnjudgedSeries(ResultIdentity):
    """A series only one of the two runs measured."""

    side: BaselineSide
    history_path: str


class VerdictCounts(BaseModel):
    regression: int
    improvement: int
    unchanged: int
    new: int
    missing: int


class BaselineRule(BaseModel):
    """When a change is called a regression or an improvement."""

    significance: float
    min_relative_change: float
    confidence: float = Field(description="level of each item's interval")


BaselineChoice = Literal["nearest_earlier", "named", "none"]


class BaselineComparison(BaseModel):
    """A run against its baseline on a branch: regressions first, then improvements,
    then unchanged (each by size); `new` series are not judged, `missing` are the
    baseline's series this run lacks."""

    contender: RunSummary
    baseline: RunSummary | None
    branch: str
    baseline_choice: BaselineChoice
    counts: VerdictCounts
    items: list[BaselineItem]
    new: list[UnjudgedSeries]
    missing: list[UnjudgedSeries]
    rule: BaselineRule
    compare_path: str | None = Field(description="the dashboard's side-by-side view")
